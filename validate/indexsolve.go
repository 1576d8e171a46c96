package validate

import (
	"context"
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
// the overflowing term exactly (frontend.IntTerm.Eval: big integers,
// without int64's own wrap) at those values.
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
	// The assertions: the facts, and some term outside its type.
	asserts := append([]*frontend.IntTerm(nil), o.Facts...)
	outside := &frontend.IntTerm{Op: frontend.IntOr}
	for _, t := range o.Terms {
		lo, hi := typeBounds(t.Bits)
		outside.Args = append(outside.Args,
			&frontend.IntTerm{Op: frontend.IntLt, Args: []*frontend.IntTerm{t.Term, num(lo)}},
			&frontend.IntTerm{Op: frontend.IntGt, Args: []*frontend.IntTerm{t.Term, num(hi)}})
	}
	asserts = append(asserts, outside)
	// First the real relaxation, which Z3's nlsat decides: no real point
	// overflows, then no integer point does. The strict comparisons are
	// tightened by 1 first (exact on the integers), so that the relaxation
	// keeps the loops' last iterations.
	pins := map[string]string{}
	var rel relaxation
	if relaxedAsserts, err := rel.relaxAll(asserts); err == nil {
		proved, found, used, err := relaxed(ctx, o, rel.fresh, append(relaxedAsserts, rel.facts...), resources)
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
		writeAsserts(&script, asserts)
		done, err := integerWitness(ctx, o, script.String(), pinned, resources, &c)
		if err != nil || done {
			return c, err
		}
	}
	return c, nil
}

// num is the numeral v.
func num(v *big.Int) *frontend.IntTerm { return &frontend.IntTerm{Op: frontend.IntNum, Num: v} }

// writeAsserts writes an SMT-LIB assertion of each term of as.
func writeAsserts(b *strings.Builder, as []*frontend.IntTerm) {
	for _, a := range as {
		fmt.Fprintf(b, "(assert %s)\n", a)
	}
}

// relaxed decides the obligation's real relaxation (its assertions as,
// over o's variables and the fresh ones): proved when it has no point;
// else, found gives the integral values of the point Z3 found, by
// variable.
func relaxed(ctx context.Context, o frontend.IndexObligation, fresh []string, as []*frontend.IntTerm, resources uint64) (proved bool, found map[string]string, used uint64, err error) {
	zc, err := smt.NewContext(smt.WithResourceLimit(resources), smt.WithManualRelease())
	if err != nil {
		return false, nil, 0, err
	}
	defer zc.Close()
	var script strings.Builder
	for _, v := range o.Vars {
		fmt.Fprintf(&script, "(declare-const %s Real)\n", v.SMT)
	}
	for _, q := range fresh {
		fmt.Fprintf(&script, "(declare-const %s Real)\n", q)
	}
	writeAsserts(&script, as)
	zas, err := zc.ParseSMTLIB2(script.String())
	if err != nil {
		return false, nil, 0, err
	}
	s, err := zc.NewSolverFromTactic(smt.NamedTactic("qfnra"))
	if err != nil {
		return false, nil, 0, err
	}
	defer s.Close()
	if err := s.Assert(zas...); err != nil {
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
		found[v.SMT] = num(q.Num()).String()
	}
	return false, found, used, nil
}

// relaxation rewrites an obligation's terms for their reading over the
// reals: a strict comparison a < b as a + 1 <= b (and a > b as a >= b +
// 1), the same on the integers and tighter on the reals; a quotient
// (div a c) by a positive numeral c as a fresh q with c*q <= a <= c*q +
// c - 1, and (mod a c) as a - c*q, exact on the integers and a relaxation
// on the reals. Other quotients make it fail.
type relaxation struct {
	fresh []string            // the fresh quotients
	facts []*frontend.IntTerm // their bounds
}

// relaxAll rewrites every term of ts.
func (r *relaxation) relaxAll(ts []*frontend.IntTerm) ([]*frontend.IntTerm, error) {
	out := make([]*frontend.IntTerm, len(ts))
	for i, t := range ts {
		u, err := r.relax(t)
		if err != nil {
			return nil, err
		}
		out[i] = u
	}
	return out, nil
}

// relax returns t rewritten.
func (r *relaxation) relax(t *frontend.IntTerm) (*frontend.IntTerm, error) {
	args, err := r.relaxAll(t.Args)
	if err != nil {
		return nil, err
	}
	one := num(big.NewInt(1))
	app := func(op frontend.IntOp, as ...*frontend.IntTerm) *frontend.IntTerm {
		return &frontend.IntTerm{Op: op, Args: as}
	}
	switch t.Op {
	case frontend.IntLt:
		return app(frontend.IntLe, app(frontend.IntAdd, args[0], one), args[1]), nil
	case frontend.IntGt:
		return app(frontend.IntGe, args[0], app(frontend.IntAdd, args[1], one)), nil
	case frontend.IntDiv, frontend.IntMod:
		c := args[1]
		if c.Op != frontend.IntNum || c.Num.Sign() <= 0 {
			return nil, fmt.Errorf("a quotient by %s", c)
		}
		q := &frontend.IntTerm{Op: frontend.IntVar, Name: fmt.Sprintf("q@%d", len(r.fresh))}
		r.fresh = append(r.fresh, q.Name)
		cq := app(frontend.IntMul, c, q)
		r.facts = append(r.facts, app(frontend.IntLe, cq, args[0]),
			app(frontend.IntLe, args[0], app(frontend.IntAdd, cq, num(new(big.Int).Sub(c.Num, big.NewInt(1))))))
		if t.Op == frontend.IntMod {
			return app(frontend.IntSub, args[0], cq), nil
		}
		return q, nil
	}
	u := *t
	u.Args = args
	return &u, nil
}

// integerWitness looks for an integer point of the obligation (script,
// declarations included, some variables pinned to values when pinned)
// and, where Z3 finds one, replays it into c: done when c is decided (an
// overflow, or, unpinned, no point at all: proved).
func integerWitness(ctx context.Context, o frontend.IndexObligation, script string, pinned bool, resources uint64, c *IndexCheck) (done bool, err error) {
	c.Witness = nil
	zc, err := smt.NewContext(smt.WithResourceLimit(resources), smt.WithManualRelease())
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
		v, err := f.Eval(env)
		if err != nil || v.Sign() == 0 {
			c.Result = IndexUndecided
			c.Reason = fmt.Sprintf("Z3's witness does not replay: the fact %s is not true at it", f)
			return false, nil
		}
	}
	for _, t := range o.Terms {
		v, err := t.Term.Eval(env)
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
