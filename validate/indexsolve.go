package validate

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/augur-verify/augur/frontend"
	"github.com/augur-verify/augur/smt"
)

// IndexResources is the default bound, in Z3's resource units, of each
// of the (at most three) Z3 checks that decide one index overflow
// obligation: the same answer whatever the machine's load.
const IndexResources = 2_000_000

// CheckIndexes decides the obligations with Z3, each under resources of
// Z3's resource units (IndexResources when 0), and returns one check per
// obligation. A refuted obligation's witness is the model's values of the
// parameters and loop variables, confirmed by evaluating every fact and
// the overflowing term exactly (EvalSMT: the int64 evaluation of the
// expression, without int64's own wrap) at those values.
func CheckIndexes(ctx context.Context, obs []frontend.IndexObligation, resources uint64) ([]IndexCheck, error) {
	if resources == 0 {
		resources = IndexResources
	}
	out := make([]IndexCheck, 0, len(obs))
	for _, o := range obs {
		c, err := checkIndex(ctx, o, resources)
		if err != nil {
			return nil, fmt.Errorf("the index of a %s of %s: %w", o.Access, o.Buffer, err)
		}
		out = append(out, c)
	}
	return out, nil
}

// typeBounds are the least and greatest values of a signed integer of
// bits bits.
func typeBounds(bits int) (lo, hi *big.Int) {
	hi = new(big.Int).Lsh(big.NewInt(1), uint(bits-1))
	lo = new(big.Int).Neg(hi)
	hi.Sub(hi, big.NewInt(1))
	return lo, hi
}

// strideDim finds the dimension of a buffer's stride a term reads
// (b.stride.k), -1 when it reads none or several.
var strideDim = regexp.MustCompile(`\.stride\.([0-9]+)`)

// checkIndex decides one obligation (see CheckIndexes): its real
// relaxation first, then its integers, each Z3 check bounded by
// resources.
func checkIndex(ctx context.Context, o frontend.IndexObligation, resources uint64) (IndexCheck, error) {
	c := IndexCheck{Access: o.Access, Buffer: o.Buffer, Index: o.Index, Dimension: -1}
	if o.Undecided != "" {
		c.Result = IndexUndecided
		c.Reason = o.Undecided
		return c, nil
	}
	var body strings.Builder
	for _, f := range o.Facts {
		fmt.Fprintf(&body, "(assert %s)\n", f)
	}
	var outside []string
	for _, t := range o.Terms {
		lo, hi := typeBounds(t.Bits)
		outside = append(outside, fmt.Sprintf("(< %s %s) (> %s %s)", t.SMT, smtBig(lo), t.SMT, smtBig(hi)))
	}
	fmt.Fprintf(&body, "(assert (or %s))\n", strings.Join(outside, " "))
	// First the real relaxation, which Z3's nlsat decides: no real point
	// overflows, then no integer point does. The strict comparisons are
	// tightened by 1 first (exact on the integers), so that the relaxation
	// keeps the loops' last iterations.
	pins := map[string]string{}
	var rel relaxation
	if relaxedBody, err := rel.rewrite(body.String()); err == nil {
		for _, f := range rel.facts {
			relaxedBody += "(assert " + f + ")\n"
		}
		proved, found, used, err := relaxed(ctx, o, rel.fresh, relaxedBody, resources)
		if err != nil {
			return c, err
		}
		c.Resources += used
		if proved {
			c.Result = IndexProved
			return c, nil
		}
		pins = found
	}
	// Then the integers, with the variables the real point gave integral
	// values pinned to them (which leaves a search Z3 does quickly), and
	// without them if that finds nothing.
	for _, pinned := range []bool{true, false} {
		if pinned && len(pins) == 0 {
			continue
		}
		var script strings.Builder
		for _, v := range o.Vars {
			fmt.Fprintf(&script, "(declare-const %s Int)\n", v.SMT)
			if p, ok := pins[v.SMT]; ok && pinned {
				fmt.Fprintf(&script, "(assert (= %s %s))\n", v.SMT, p)
			}
		}
		script.WriteString(body.String())
		done, err := integerWitness(ctx, o, script.String(), pinned, resources, &c)
		if err != nil || done {
			return c, err
		}
	}
	return c, nil
}

// relaxed decides the obligation's real relaxation (script, without the
// declarations of its variables and of the fresh ones): proved when it
// has no point; else, found gives the integral values of the point Z3
// found, by SMT-LIB name.
func relaxed(ctx context.Context, o frontend.IndexObligation, fresh []string, script string, resources uint64) (proved bool, found map[string]string, used uint64, err error) {
	zc, err := smt.NewContext(smt.WithResourceLimit(resources))
	if err != nil {
		return false, nil, 0, err
	}
	defer zc.Close()
	var decl strings.Builder
	for _, v := range o.Vars {
		fmt.Fprintf(&decl, "(declare-const %s Real)\n", v.SMT)
	}
	for _, q := range fresh {
		fmt.Fprintf(&decl, "(declare-const %s Real)\n", q)
	}
	as, err := zc.ParseSMTLIB2(decl.String() + script)
	if err != nil {
		return false, nil, 0, err
	}
	s, err := zc.NewSolverFromTactic(smt.NamedTactic("qfnra"))
	if err != nil {
		return false, nil, 0, err
	}
	defer s.Close()
	if err := s.Assert(as...); err != nil {
		return false, nil, 0, err
	}
	r, err := s.Check(ctx)
	if err != nil {
		return false, nil, 0, err
	}
	used = s.ResourcesUsed()
	if r == smt.Unsat {
		return true, nil, used, nil
	}
	found = map[string]string{}
	if r != smt.Sat {
		return false, found, used, nil
	}
	m, err := s.Model()
	if err != nil {
		return false, nil, used, err
	}
	defer m.Close()
	for _, v := range o.Vars {
		if v.Kind == "let" {
			continue
		}
		q, err := m.Rat(zc.RealConst(v.SMT))
		if err != nil || !q.IsInt() {
			continue
		}
		found[v.SMT] = smtBig(q.Num())
	}
	return false, found, used, nil
}

// relaxation rewrites an obligation's SMT-LIB text for its reading over
// the reals: a strict comparison a < b as a + 1 <= b (and a > b as a >=
// b + 1), the same on the integers and tighter on the reals; a quotient
// (div a c) by a positive constant c as a fresh q with c*q <= a <= c*q +
// c - 1, and (mod a c) as a - c*q, exact on the integers and a relaxation
// on the reals. Other quotients make it fail.
type relaxation struct {
	fresh []string // the fresh quotients
	facts []string // their bounds
}

// rewrite reads and rewrites every S-expression of s.
func (r *relaxation) rewrite(s string) (string, error) {
	var b strings.Builder
	e := &smtEval{src: s}
	for {
		e.space()
		if e.pos >= len(s) {
			return b.String(), nil
		}
		x, err := e.tree()
		if err != nil {
			return "", err
		}
		y, err := r.relax(x)
		if err != nil {
			return "", err
		}
		b.WriteString(y)
		b.WriteByte('\n')
	}
}

// relax prints the S-expression x (a string or a []any) rewritten.
func (r *relaxation) relax(x any) (string, error) {
	switch x := x.(type) {
	case string:
		return x, nil
	case []any:
		parts := make([]string, len(x))
		for i, y := range x {
			p, err := r.relax(y)
			if err != nil {
				return "", err
			}
			parts[i] = p
		}
		if len(parts) == 3 {
			switch parts[0] {
			case "<":
				return "(<= (+ " + parts[1] + " 1) " + parts[2] + ")", nil
			case ">":
				return "(>= " + parts[1] + " (+ " + parts[2] + " 1))", nil
			case "div", "mod":
				c, err := strconv.ParseInt(parts[2], 10, 64)
				if err != nil || c <= 0 {
					return "", fmt.Errorf("a quotient by %s", parts[2])
				}
				q := fmt.Sprintf("q@%d", len(r.fresh))
				r.fresh = append(r.fresh, q)
				r.facts = append(r.facts, fmt.Sprintf("(<= (* %d %s) %s)", c, q, parts[1]), fmt.Sprintf("(<= %s (+ (* %d %s) %d))", parts[1], c, q, c-1))
				if parts[0] == "mod" {
					return fmt.Sprintf("(- %s (* %d %s))", parts[1], c, q), nil
				}
				return q, nil
			}
		}
		return "(" + strings.Join(parts, " ") + ")", nil
	}
	return "", fmt.Errorf("no S-expression: %v", x)
}

// tree reads one S-expression: an atom, or a list of them.
func (e *smtEval) tree() (any, error) {
	e.space()
	if e.pos >= len(e.src) {
		return nil, errors.New("unexpected end")
	}
	if e.src[e.pos] != '(' {
		return e.atom(), nil
	}
	e.pos++
	var l []any
	for {
		e.space()
		if e.pos >= len(e.src) {
			return nil, errors.New("unclosed (")
		}
		if e.src[e.pos] == ')' {
			e.pos++
			return l, nil
		}
		x, err := e.tree()
		if err != nil {
			return nil, err
		}
		l = append(l, x)
	}
}

// integerWitness looks for an integer point of the obligation (script,
// declarations included, some variables pinned to values when pinned)
// and, where Z3 finds one, replays it into c: done when c is decided (an
// overflow, or, unpinned, no point at all: proved).
func integerWitness(ctx context.Context, o frontend.IndexObligation, script string, pinned bool, resources uint64, c *IndexCheck) (done bool, err error) {
	c.Witness = nil
	zc, err := smt.NewContext(smt.WithResourceLimit(resources))
	if err != nil {
		return false, err
	}
	defer zc.Close()
	as, err := zc.ParseSMTLIB2(script)
	if err != nil {
		return false, err
	}
	s, err := zc.NewSolver()
	if err != nil {
		return false, err
	}
	defer s.Close()
	if err := s.Assert(as...); err != nil {
		return false, err
	}
	r, err := s.Check(ctx)
	if err != nil {
		return false, err
	}
	c.Resources += s.ResourcesUsed()
	switch r {
	case smt.Unsat:
		if pinned {
			// Nothing said of the other points.
			c.Result, c.Reason = IndexUndecided, "no integer point near the real one Z3 found"
			return false, nil
		}
		c.Result, c.Reason = IndexProved, ""
		return true, nil
	case smt.Unknown:
		c.Result = IndexUndecided
		c.Reason = "Z3: " + s.ReasonUnknown()
		return false, nil
	}
	m, err := s.Model()
	if err != nil {
		return false, err
	}
	defer m.Close()
	env := map[string]int64{}
	for _, v := range o.Vars {
		x, err := m.Eval(zc.IntConst(v.SMT), true)
		if err != nil {
			return false, err
		}
		n, err := m.Int64(x)
		if err != nil {
			c.Result, c.Reason = IndexUndecided, fmt.Sprintf("Z3's witness gives %s no int64 value: %v", v.Name, err)
			return false, nil
		}
		env[v.SMT] = n
		if v.Kind != "let" && !strings.HasSuffix(v.Name, ".type") && !strings.HasSuffix(v.Name, ".dimensions") {
			c.Witness = append(c.Witness, IndexValue{Name: v.Name, Value: n})
		}
	}
	sort.Slice(c.Witness, func(i, j int) bool { return c.Witness[i].Name < c.Witness[j].Name })
	// The witness, replayed: every fact holds, and a term is outside its
	// type, in exact arithmetic.
	for _, f := range o.Facts {
		v, err := EvalSMT(f, env)
		if err != nil || v.Sign() == 0 {
			c.Result = IndexUndecided
			c.Reason = fmt.Sprintf("Z3's witness does not replay: the fact %s is not true at it", f)
			return false, nil
		}
	}
	for _, t := range o.Terms {
		v, err := EvalSMT(t.SMT, env)
		if err != nil {
			continue
		}
		lo, hi := typeBounds(t.Bits)
		if v.Cmp(lo) >= 0 && v.Cmp(hi) <= 0 {
			continue
		}
		c.Result = IndexOverflows
		c.Term, c.Value = t.Halide, v.String()
		c.Bits = t.Bits
		if ms := strideDim.FindAllStringSubmatch(t.Halide, -1); len(ms) > 0 {
			d, _ := strconv.Atoi(ms[0][1])
			c.Dimension = d
			for _, m := range ms[1:] {
				if m[1] != ms[0][1] {
					c.Dimension = -1
				}
			}
		}
		if len(o.Dropped) > 0 {
			c.Approximate = true
			c.Reason = "facts left out of the domain: " + strings.Join(o.Dropped, "; ")
		}
		return true, nil
	}
	c.Result = IndexUndecided
	c.Reason = "Z3's witness does not replay: no term of the index overflows at it"
	return false, nil
}

// smtBig writes v in SMT-LIB.
func smtBig(v *big.Int) string {
	if v.Sign() < 0 {
		return "(- " + new(big.Int).Neg(v).String() + ")"
	}
	return v.String()
}

// EvalSMT evaluates the SMT-LIB term t of the integer arithmetic the
// driver writes (numerals, constants, + - * div mod ite, comparisons, and
// or not, true false) at env, exactly (big integers: no wrap of any
// width); a boolean is 1 or 0. div and mod are SMT-LIB's (Euclidean; the
// driver guards a zero divisor).
func EvalSMT(t string, env map[string]int64) (*big.Int, error) {
	e := &smtEval{src: t, env: env}
	v, err := e.expr()
	if err != nil {
		return nil, err
	}
	e.space()
	if e.pos != len(e.src) {
		return nil, fmt.Errorf("EvalSMT: trailing text at %d in %q", e.pos, t)
	}
	return v, nil
}

// smtEval is EvalSMT's reader of one term.
type smtEval struct {
	src string
	pos int
	env map[string]int64
}

func (e *smtEval) space() {
	for e.pos < len(e.src) && strings.IndexByte(" \n\t", e.src[e.pos]) >= 0 {
		e.pos++
	}
}

func (e *smtEval) atom() string {
	start := e.pos
	for e.pos < len(e.src) && strings.IndexByte(" \n\t()", e.src[e.pos]) < 0 {
		e.pos++
	}
	return e.src[start:e.pos]
}

func (e *smtEval) expr() (*big.Int, error) {
	e.space()
	if e.pos >= len(e.src) {
		return nil, errors.New("EvalSMT: unexpected end")
	}
	if e.src[e.pos] != '(' {
		a := e.atom()
		switch a {
		case "true":
			return big.NewInt(1), nil
		case "false":
			return big.NewInt(0), nil
		}
		if v, ok := new(big.Int).SetString(a, 10); ok {
			return v, nil
		}
		if v, ok := e.env[a]; ok {
			return big.NewInt(v), nil
		}
		return nil, fmt.Errorf("EvalSMT: unknown atom %q", a)
	}
	e.pos++
	e.space()
	op := e.atom()
	var args []*big.Int
	for {
		e.space()
		if e.pos >= len(e.src) {
			return nil, errors.New("EvalSMT: unclosed (")
		}
		if e.src[e.pos] == ')' {
			e.pos++
			break
		}
		v, err := e.expr()
		if err != nil {
			return nil, err
		}
		args = append(args, v)
	}
	return apply(op, args)
}

func b2i(b bool) *big.Int {
	if b {
		return big.NewInt(1)
	}
	return big.NewInt(0)
}

// apply applies the SMT-LIB operator op to a.
func apply(op string, a []*big.Int) (*big.Int, error) {
	n := func(k int) error {
		if len(a) != k {
			return fmt.Errorf("EvalSMT: %s takes %d operands, got %d", op, k, len(a))
		}
		return nil
	}
	switch op {
	case "+":
		acc := new(big.Int)
		for _, x := range a {
			acc.Add(acc, x)
		}
		return acc, nil
	case "*":
		acc := big.NewInt(1)
		for _, x := range a {
			acc.Mul(acc, x)
		}
		return acc, nil
	case "-":
		if len(a) == 1 {
			return new(big.Int).Neg(a[0]), nil
		}
		if len(a) == 0 {
			return nil, errors.New("EvalSMT: - takes operands")
		}
		acc := new(big.Int).Set(a[0])
		for _, x := range a[1:] {
			acc.Sub(acc, x)
		}
		return acc, nil
	case "div", "mod":
		if err := n(2); err != nil {
			return nil, err
		}
		if a[1].Sign() == 0 {
			return nil, errors.New("EvalSMT: division by zero")
		}
		q, r := new(big.Int).DivMod(a[0], a[1], new(big.Int))
		if op == "mod" {
			return r, nil
		}
		return q, nil
	case "ite":
		if err := n(3); err != nil {
			return nil, err
		}
		if a[0].Sign() != 0 {
			return a[1], nil
		}
		return a[2], nil
	case "<", "<=", ">", ">=", "=":
		if err := n(2); err != nil {
			return nil, err
		}
		c := a[0].Cmp(a[1])
		switch op {
		case "<":
			return b2i(c < 0), nil
		case "<=":
			return b2i(c <= 0), nil
		case ">":
			return b2i(c > 0), nil
		case ">=":
			return b2i(c >= 0), nil
		}
		return b2i(c == 0), nil
	case "and":
		for _, x := range a {
			if x.Sign() == 0 {
				return b2i(false), nil
			}
		}
		return b2i(true), nil
	case "or":
		for _, x := range a {
			if x.Sign() != 0 {
				return b2i(true), nil
			}
		}
		return b2i(false), nil
	case "not":
		if err := n(1); err != nil {
			return nil, err
		}
		return b2i(a[0].Sign() == 0), nil
	}
	return nil, fmt.Errorf("EvalSMT: unknown operator %q", op)
}
