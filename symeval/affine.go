package symeval

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/augur-verify/augur/presburger"
	"github.com/augur-verify/augur/syntax"
	"github.com/augur-verify/augur/value"
)

// This file translates the quasi-affine index language of both formats
// (index expressions and constraints, package syntax) into an internal
// piecewise form, which lower.go turns into presburger objects.
//
// An index expression becomes a list of pieces (condition, linear form):
// min, max and select split the space into pieces, / and % by a positive
// constant become floor divisions. A constraint becomes a disjunction of
// conjunctions of atoms (e >= 0 or e == 0). Negation is pushed down to the
// comparisons, so no general complement is ever needed.

// maxPieces bounds the pieces of one translated expression or the
// conjunctions of one translated constraint: past it the translation fails
// rather than grow without limit.
const maxPieces = 4096

// work is the meter of the translation's own work: the products of
// pieces and of conjunctions (combine, dnf.and) and the simplification
// of the conjunctions they build, which no operation of the Presburger
// engine counts. It charges that work to the step allowance of the
// context of the evaluation (presburger.Charge), the meter of
// AnalyzeOptions.Steps, whose cancellation also stops it: a translation
// whose expansion grows past the allowance ends with an error wrapping
// presburger.ErrAllowance after the same work on any machine. A nil
// *work charges nothing (translations outside an evaluation, bounded by
// maxPieces alone).
//
// The units are the engine's steps: a pair of conjunctions or of pieces
// combined costs one, and the atoms of the conjunction built one per
// atomsPerStep (see workCost). Units are gathered and charged in
// batches of workBatch, so that the many small products cost no lookup
// of the context each; a batch is charged before the work it counts.
type work struct {
	ctx     context.Context
	pending atomic.Int64
	// limit, when positive, caps the units this meter counts (used):
	// past it charge fails with a budgetError, which a let inside a
	// loop turns into a symbol (capped, opaque.go).
	limit int64
	used  atomic.Int64
}

// workBatch is how many units of work are gathered before they are
// charged to the allowance.
const workBatch = 256

// atomsPerStep is how many atoms of the conjunctions a product builds
// (and simplifies) count as one step.
const atomsPerStep = 16

// newWork returns the meter of the evaluation of ctx.
func newWork(ctx context.Context) *work { return &work{ctx: ctx} }

// context returns the context whose step allowance w charges: that of
// the evaluation, or the background context for a scope built outside
// one (nil w, or w without a context), whose work is not counted.
func (w *work) context() context.Context {
	if w == nil || w.ctx == nil {
		return context.Background()
	}
	return w.ctx
}

// charge counts n units of work, charging them to the allowance once a
// batch is gathered; the error wraps presburger.ErrAllowance when the
// allowance is used up, or the context's error once it is done.
func (w *work) charge(n int64) error {
	if w == nil || n <= 0 {
		return nil
	}
	if w.limit > 0 && w.used.Add(n) > w.limit {
		return budgetError(fmt.Sprintf("its translation takes more than %d steps", w.limit))
	}
	if w.ctx == nil {
		return nil
	}
	if w.pending.Add(n) < workBatch {
		return nil
	}
	take := w.pending.Swap(0)
	if take <= 0 {
		return nil
	}
	if err := presburger.Charge(w.ctx, int(take)); err != nil {
		return fmt.Errorf("translation of index expressions: %w", err)
	}
	return nil
}

// capped returns a meter that charges w's allowance as w does and fails
// once it has counted more than limit units: the translation of one let
// inside a loop, bounded on its own (Scope.Let). Its units not yet
// charged in a batch go to w by flush.
func (w *work) capped(limit int64) *work {
	c := &work{limit: limit}
	if w != nil {
		c.ctx = w.ctx
	}
	return c
}

// flush charges the units w gathered short of a batch to the allowance.
func (w *work) flush() error {
	if w == nil || w.ctx == nil {
		return nil
	}
	if take := w.pending.Swap(0); take > 0 {
		if err := presburger.Charge(w.ctx, int(take)); err != nil {
			return fmt.Errorf("translation of index expressions: %w", err)
		}
	}
	return nil
}

// stops reports whether err ends the evaluation rather than the
// translation alone: the step allowance is used up or the context is
// done. No fallback of a failed translation (a let kept as a symbol, a
// comparison split) may take its place.
func stops(err error) bool {
	return errors.Is(err, presburger.ErrAllowance) || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)
}

// workCost is the cost of the product of the disjunctions d and o (or
// of the conditions of two piecewise expressions): one unit per pair
// and one per atomsPerStep atoms of the conjunctions built.
func workCost(d, o dnf) int64 {
	var atomsD, atomsO int64
	for _, c := range d {
		atomsD += int64(len(c))
	}
	for _, c := range o {
		atomsO += int64(len(c))
	}
	pairs := int64(len(d)) * int64(len(o))
	return pairs + (atomsD*int64(len(o))+atomsO*int64(len(d)))/atomsPerStep
}

// division is floor(num / den), den > 0.
type division struct {
	num linear
	den presburger.Int
}

// key is the canonical text of d: divisions with the same key are the
// same division, and lowering declares them in the order of their keys.
func (d *division) key() string { return "d:(" + d.num.key() + ")/" + d.den.String() }

// term is a term of a linear form: a variable of the space the form is
// lowered into (a parameter by name, or an input or output dimension of
// the tuple being built by position), or a division by its key.
type term struct {
	v   presburger.Var
	div string // the key of a division; "" for a variable
}

// key returns the canonical text of t, which orders the terms of a
// linear form's key.
func (t term) key() string {
	switch {
	case t.div != "":
		return t.div
	case t.v.Kind == presburger.DimParam:
		return "p:" + t.v.Name
	case t.v.Kind == presburger.DimIn:
		return "i:" + strconv.Itoa(t.v.Pos)
	}
	return "o:" + strconv.Itoa(t.v.Pos)
}

// linear is sum(coef * term) + c; the divisions among its terms are
// defined in divs, by key.
type linear struct {
	terms map[term]presburger.Int
	divs  map[string]*division
	c     presburger.Int
	// sig is a hash of the variable part, linear in it: the sum of the
	// terms' hashes (termSig) times their coefficients, modulo 2^64,
	// kept by the operations that build forms (the sig of l + f*o is
	// sig(l) + f*sig(o)). Forms of the same variable part have the same
	// sig and opposite ones opposite sigs, so that conj.simplify
	// compares by their terms (sameTerms) only the atoms whose sigs
	// agree. It is unknown (0, or nosig set after a coefficient past
	// 64 bits) for a form built otherwise.
	sig   uint64
	nosig bool
}

// termSig is the hash of a term that linear.sig sums (FNV-1a of its
// key).
func termSig(t term) uint64 {
	h := uint64(14695981039346656037)
	k := t.key()
	for i := 0; i < len(k); i++ {
		h ^= uint64(k[i])
		h *= 1099511628211
	}
	return h
}

// mayShareTerms reports whether a and b may have the same or opposite
// variable parts, by their sigs: false only when they cannot.
func mayShareTerms(a, b linear) bool {
	if a.nosig || b.nosig || a.sig == 0 || b.sig == 0 {
		return true
	}
	return a.sig == b.sig || a.sig == -b.sig
}

func constLinear(v int64) linear { return linear{c: presburger.NewInt(v)} }

func varLinear(v presburger.Var) linear {
	t := term{v: v}
	return linear{terms: map[term]presburger.Int{t: presburger.NewInt(1)}, sig: termSig(t)}
}

func (l linear) isConst() bool { return len(l.terms) == 0 }

// key is the canonical text of l: its terms in the order of their keys,
// then its constant.
func (l linear) key() string {
	type keyed struct {
		key  string
		coef presburger.Int
	}
	ts := make([]keyed, 0, len(l.terms))
	for t, v := range l.terms {
		ts = append(ts, keyed{t.key(), v})
	}
	sort.Slice(ts, func(i, j int) bool { return ts[i].key < ts[j].key })
	var b strings.Builder
	for _, t := range ts {
		fmt.Fprintf(&b, "%s*%s+", t.coef, t.key)
	}
	b.WriteString(l.c.String())
	return b.String()
}

// scale returns f * l.
func (l linear) scale(f presburger.Int) linear {
	out := linear{c: l.c.Mul(f)}
	if f.IsZero() {
		return out
	}
	out.terms = make(map[term]presburger.Int, len(l.terms))
	for k, v := range l.terms {
		out.terms[k] = v.Mul(f)
	}
	out.divs = l.divs
	fv, ok := f.Int64()
	out.sig, out.nosig = l.sig*uint64(fv), l.nosig || !ok
	return out
}

// add returns l + f * o.
func (l linear) add(o linear, f presburger.Int) linear {
	out := linear{c: l.c.Add(o.c.Mul(f)), terms: map[term]presburger.Int{}, divs: map[string]*division{}}
	fv, ok := f.Int64()
	out.sig, out.nosig = l.sig+o.sig*uint64(fv), l.nosig || o.nosig || !ok
	for k, v := range l.terms {
		out.terms[k] = v
	}
	for k, d := range l.divs {
		out.divs[k] = d
	}
	for k, v := range o.terms {
		s := out.terms[k].Add(v.Mul(f))
		if s.IsZero() {
			delete(out.terms, k)
		} else {
			out.terms[k] = s
		}
	}
	for k, d := range o.divs {
		out.divs[k] = d
	}
	for k := range out.divs {
		if _, used := out.terms[term{div: k}]; !used {
			delete(out.divs, k)
		}
	}
	return out
}

// floorDiv returns floor(l / d) for d > 0, folding constants.
func (l linear) floorDiv(d presburger.Int) linear {
	if d.IsOne() {
		return l
	}
	if l.isConst() {
		return linear{c: l.c.FloorDiv(d)}
	}
	div := &division{num: l, den: d}
	k := div.key()
	t := term{div: k}
	return linear{terms: map[term]presburger.Int{t: presburger.NewInt(1)}, divs: map[string]*division{k: div}, sig: termSig(t)}
}

// atom is e >= 0, or e == 0 when eq is set.
type atom struct {
	e  linear
	eq bool
}

// trivial reports whether a constant atom is true or false.
func (a atom) trivial() (value, known bool) {
	if !a.e.isConst() {
		return false, false
	}
	if a.eq {
		return a.e.c.IsZero(), true
	}
	return a.e.c.Sign() >= 0, true
}

// conj is a conjunction of atoms; nil is true.
type conj []atom

// dnf is a disjunction of conjunctions; nil is false.
type dnf []conj

func dnfTrue() dnf { return dnf{conj{}} }

// and returns the conjunction of two dnfs, dropping trivially false
// conjunctions.
//
// Most of the pairs of a product of case splits are often contradictory
// (the same comparison taken both ways): the product may be up to
// maxProduct pairs, of which at most maxPieces may remain.
//
// The work is charged to w (nil: not charged) before it is done.
func (d dnf) and(w *work, o dnf) (dnf, error) {
	if len(d)*len(o) > maxProduct {
		return nil, budgetError(fmt.Sprintf("constraint has more than %d disjuncts", maxPieces))
	}
	if err := w.charge(workCost(d, o)); err != nil {
		return nil, err
	}
	var out dnf
	for _, a := range d {
		for _, b := range o {
			c := make(conj, 0, len(a)+len(b))
			c = append(c, a...)
			c = append(c, b...)
			if c, ok := c.simplify(); ok {
				out = append(out, c)
			}
		}
	}
	if len(out) > maxPieces {
		return nil, budgetError(fmt.Sprintf("constraint has more than %d disjuncts", maxPieces))
	}
	return out, nil
}

// maxProduct bounds the pairs a product of disjunctions or of piecewise
// expressions examines (see dnf.and).
const maxProduct = 16 * maxPieces

// sameTerms returns 1 if a and b have the same variable part, -1 if
// opposite ones, 0 otherwise.
func sameTerms(a, b linear) int {
	if len(a.terms) != len(b.terms) || len(a.terms) == 0 {
		return 0
	}
	sign := 0
	for k, v := range a.terms {
		w, ok := b.terms[k]
		if !ok {
			return 0
		}
		s := 0
		switch {
		case v.Equal(w):
			s = 1
		case v.Equal(w.Neg()):
			s = -1
		default:
			return 0
		}
		if sign != 0 && s != sign {
			return 0
		}
		sign = s
	}
	return sign
}

// contradicts reports whether atoms a and b cannot hold together, by
// their forms alone: the same variable part (or opposite ones) with
// constants that no value satisfies both with.
func (a atom) contradicts(b atom) bool {
	s := sameTerms(a.e, b.e)
	if s == 0 {
		return false
	}
	// With v the variable part of a: a is v + ca (>= or ==) 0, b is
	// s*v + cb (>= or ==) 0.
	ca, cb := a.e.c, b.e.c
	switch {
	case !a.eq && !b.eq:
		// v >= -ca and s*v >= -cb: contradictory only for s = -1, when
		// -ca > cb.
		return s < 0 && ca.Add(cb).Sign() < 0
	case a.eq && b.eq:
		// v = -ca and s*v = -cb.
		if s > 0 {
			return !ca.Equal(cb)
		}
		return !ca.Equal(cb.Neg())
	case a.eq:
		// v = -ca, so b is -s*ca + cb >= 0.
		if s > 0 {
			return cb.Sub(ca).Sign() < 0
		}
		return cb.Add(ca).Sign() < 0
	default:
		return b.contradicts(a)
	}
}

func (d dnf) or(o dnf) (dnf, error) {
	if len(d)+len(o) > maxPieces {
		return nil, budgetError(fmt.Sprintf("constraint has more than %d disjuncts", maxPieces))
	}
	out := make(dnf, 0, len(d)+len(o))
	return append(append(out, d...), o...), nil
}

// simplify drops trivially true atoms; ok is false when an atom is
// trivially false.
// It also reports false when two atoms contradict each other by their
// forms (atom.contradicts).
func (c conj) simplify() (conj, bool) {
	out := c[:0:0]
	for _, a := range c {
		if v, known := a.trivial(); known {
			if !v {
				return nil, false
			}
			continue
		}
		for _, b := range out {
			if mayShareTerms(a.e, b.e) && a.contradicts(b) {
				return nil, false
			}
		}
		out = append(out, a)
	}
	return out, true
}

// piece is one piece of a piecewise expression: e where cond holds.
type piece struct {
	cond dnf
	e    linear
}

// pwExpr is a piecewise quasi-affine expression; its pieces' conditions
// partition the space (every point satisfies exactly one).
type pwExpr []piece

func pwLinear(l linear) pwExpr { return pwExpr{{cond: dnfTrue(), e: l}} }

// key identifies a piecewise expression syntactically (after
// normalisation of its linear forms).
func (p pwExpr) key() string {
	var b strings.Builder
	for _, pc := range p {
		b.WriteString("[")
		for _, c := range pc.cond {
			b.WriteString("(")
			for _, a := range c {
				if a.eq {
					b.WriteString("=")
				}
				b.WriteString(a.e.key())
				b.WriteString(";")
			}
			b.WriteString(")")
		}
		b.WriteString("]")
		b.WriteString(pc.e.key())
		b.WriteString("|")
	}
	return b.String()
}

// combine applies f to every pair of pieces of a and b, charging the
// pairs and the products of their conditions to w.
func combine(w *work, a, b pwExpr, f func(x, y linear) (pwExpr, error)) (pwExpr, error) {
	if len(a)*len(b) > maxProduct {
		return nil, budgetError(fmt.Sprintf("index expression has more than %d pieces", maxPieces))
	}
	if err := w.charge(int64(len(a)) * int64(len(b))); err != nil {
		return nil, err
	}
	var out pwExpr
	for _, pa := range a {
		for _, pb := range b {
			cond, err := pa.cond.and(w, pb.cond)
			if err != nil {
				return nil, err
			}
			if len(cond) == 0 {
				continue
			}
			sub, err := f(pa.e, pb.e)
			if err != nil {
				return nil, err
			}
			for _, s := range sub {
				c, err := cond.and(w, s.cond)
				if err != nil {
					return nil, err
				}
				if len(c) > 0 {
					out = append(out, piece{cond: c, e: s.e})
				}
			}
			if len(out) > maxPieces {
				return nil, budgetError(fmt.Sprintf("index expression has more than %d pieces", maxPieces))
			}
		}
	}
	return out, nil
}

// binding is what a name denotes in a translation scope: a variable (a
// presburger parameter or a tuple dimension) or the value of a let.
type binding struct {
	v   presburger.Var
	let pwExpr
	// paramLet is set for a let of several pieces that can be kept as
	// a symbol (opaque.go, Scope.keepable): over the kernel's
	// parameters alone where no loop variable is, or inside a loop.
	paramLet bool
	// def is a let's expression (nil for a variable), and inLoop is
	// set for a let bound inside a loop: the lets inside a loop that
	// it reads are kept as symbols with it (Scope.letsRead).
	def    syntax.Expr
	inLoop bool
}

// translator translates index expressions and constraints.
type translator struct {
	lookup func(name string) (binding, bool)
	// opaque, when set, lists the lets kept as symbols: an expression
	// that is the definition of one is its parameter.
	opaque *opaqueTable
	// canon caches the canonical keys of the sub-terms of sums
	// (cancel.go); nil until the first sum.
	canon *canon
	// w is charged the work of the translation (nil: none).
	w *work
}

func errAt(x syntax.Expr, format string, args ...any) error {
	return fmt.Errorf("%s: %s: %s", x.Pos(), syntax.ExprString(x), fmt.Sprintf(format, args...))
}

// index translates a quasi-affine index expression.
func (t *translator) index(x syntax.Expr) (pwExpr, error) {
	switch x := x.(type) {
	case *syntax.Ident:
		b, ok := t.lookup(x.Name)
		if !ok {
			return nil, errAt(x, "unknown index name %s", x.Name)
		}
		if b.let != nil {
			return b.let, nil
		}
		return pwLinear(varLinear(b.v)), nil
	case *syntax.Lit:
		if x.Kind != syntax.IntLiteral {
			return nil, errAt(x, "%s literal in an index expression", x.Kind)
		}
		v, err := value.Literal(syntax.I64, x.Text)
		if err != nil {
			return nil, errAt(x, "integer literal out of range")
		}
		return pwLinear(constLinear(v.Int64())), nil
	case *syntax.Unary:
		if x.Op != syntax.OpNeg {
			break
		}
		a, err := t.index(x.X)
		if err != nil {
			return nil, err
		}
		out := make(pwExpr, len(a))
		for i, p := range a {
			out[i] = piece{cond: p.cond, e: p.e.scale(presburger.NewInt(-1))}
		}
		return out, nil
	case *syntax.Binary:
		switch x.Op {
		case syntax.OpAdd, syntax.OpSub:
			if s := t.sumOf(x, presburger.NewInt(1), nil, presburger.Int{}); s != nil {
				return t.translateSum(s)
			}
			return t.arith(x)
		case syntax.OpMul, syntax.OpDiv, syntax.OpRem:
			return t.arith(x)
		}
		// Another operator: its operands' errors come first.
		if _, _, err := t.operands(x.X, x.Y); err != nil {
			return nil, err
		}
	case *syntax.Call:
		if v, ok := t.opaque.opaqueFor(x, t.lookup); ok {
			return pwLinear(varLinear(v)), nil
		}
		switch {
		case (x.Fun.Name == "min" || x.Fun.Name == "max") && len(x.Args) == 2:
			return t.minMax(x)
		case x.Fun.Name == "select" && len(x.Args) == 3:
			return t.choose(x)
		}
	}
	return nil, errAt(x, "not a quasi-affine index expression")
}

// operands translates the index expressions x, then y.
func (t *translator) operands(x, y syntax.Expr) (pwExpr, pwExpr, error) {
	a, err := t.index(x)
	if err != nil {
		return nil, nil, err
	}
	b, err := t.index(y)
	if err != nil {
		return nil, nil, err
	}
	return a, b, nil
}

// arith translates a sum, a difference, a product with a constant
// factor, or a floor division or remainder by a positive constant.
func (t *translator) arith(x *syntax.Binary) (pwExpr, error) {
	a, b, err := t.operands(x.X, x.Y)
	if err != nil {
		return nil, err
	}
	one := presburger.NewInt(1)
	switch x.Op {
	case syntax.OpAdd, syntax.OpSub:
		f := one
		if x.Op == syntax.OpSub {
			f = one.Neg()
		}
		return combine(t.w, a, b, func(p, q linear) (pwExpr, error) { return pwLinear(p.add(q, f)), nil })
	case syntax.OpMul:
		return combine(t.w, a, b, func(p, q linear) (pwExpr, error) {
			switch {
			case q.isConst():
				return pwLinear(p.scale(q.c)), nil
			case p.isConst():
				return pwLinear(q.scale(p.c)), nil
			}
			return nil, errAt(x, "product of two non-constant terms is not affine")
		})
	}
	return combine(t.w, a, b, func(p, q linear) (pwExpr, error) {
		if !q.isConst() || q.c.Sign() <= 0 {
			return nil, errAt(x, "%s by a non-constant or non-positive divisor", x.Op)
		}
		d := p.floorDiv(q.c)
		if x.Op == syntax.OpDiv {
			return pwLinear(d), nil
		}
		return pwLinear(p.add(d, q.c.Neg())), nil
	})
}

// minMax translates min(a, b) or max(a, b).
func (t *translator) minMax(x *syntax.Call) (pwExpr, error) {
	a, b, err := t.operands(x.Args[0], x.Args[1])
	if err != nil {
		return nil, err
	}
	isMin := x.Fun.Name == "min"
	return combine(t.w, a, b, func(p, q linear) (pwExpr, error) {
		// q - p >= 0: p is the min and q the max.
		d := q.add(p, presburger.NewInt(-1))
		le := dnf{conj{{e: d}}}
		gt := dnf{conj{{e: d.scale(presburger.NewInt(-1)).add(constLinear(-1), presburger.NewInt(1))}}}
		if isMin {
			return pwExpr{{cond: le, e: p}, {cond: gt, e: q}}, nil
		}
		return pwExpr{{cond: le, e: q}, {cond: gt, e: p}}, nil
	})
}

// choose translates select(c, a, b): a where c holds, b elsewhere.
func (t *translator) choose(x *syntax.Call) (pwExpr, error) {
	c, err := t.cond(x.Args[0], false)
	if err != nil {
		return nil, err
	}
	nc, err := t.cond(x.Args[0], true)
	if err != nil {
		return nil, err
	}
	a, b, err := t.operands(x.Args[1], x.Args[2])
	if err != nil {
		return nil, err
	}
	var out pwExpr
	for _, side := range []struct {
		c  dnf
		pw pwExpr
	}{{c, a}, {nc, b}} {
		for _, p := range side.pw {
			cc, err := side.c.and(t.w, p.cond)
			if err != nil {
				return nil, err
			}
			if len(cc) > 0 {
				out = append(out, piece{cond: cc, e: p.e})
			}
		}
	}
	if len(out) > maxPieces {
		return nil, fmt.Errorf("%s: %s: %w", x.Pos(), syntax.ExprString(x), budgetError(fmt.Sprintf("more than %d pieces", maxPieces)))
	}
	return out, nil
}

// cond translates a constraint, or its negation when neg is set.
func (t *translator) cond(x syntax.Expr, neg bool) (dnf, error) {
	switch x := x.(type) {
	case *syntax.Lit:
		if x.Kind == syntax.BoolLiteral {
			if (x.Text == "true") != neg {
				return dnfTrue(), nil
			}
			return nil, nil
		}
	case *syntax.Unary:
		if x.Op == syntax.OpNot {
			return t.cond(x.X, !neg)
		}
	case *syntax.Binary:
		switch {
		case x.Op == syntax.OpAnd || x.Op == syntax.OpOr:
			a, err := t.cond(x.X, neg)
			if err != nil {
				return nil, err
			}
			b, err := t.cond(x.Y, neg)
			if err != nil {
				return nil, err
			}
			if (x.Op == syntax.OpAnd) != neg {
				return a.and(t.w, b)
			}
			return a.or(b)
		case x.Op.IsComparison():
			return t.compare(x.X, x.Op, x.Y, neg)
		}
	case *syntax.Chain:
		var out dnf
		if !neg {
			out = dnfTrue()
		}
		for _, c := range x.Comparisons() {
			d, err := t.compare(c.X, c.Op, c.Y, neg)
			if err != nil {
				return nil, err
			}
			if neg {
				out, err = out.or(d)
			} else {
				out, err = out.and(t.w, d)
			}
			if err != nil {
				return nil, err
			}
		}
		return out, nil
	}
	return nil, errAt(x, "not a quasi-affine constraint")
}

// negateOp returns the comparison that holds exactly when op does not.
func negateOp(op syntax.Op) syntax.Op {
	switch op {
	case syntax.OpEq:
		return syntax.OpNe
	case syntax.OpNe:
		return syntax.OpEq
	case syntax.OpLt:
		return syntax.OpGe
	case syntax.OpLe:
		return syntax.OpGt
	case syntax.OpGt:
		return syntax.OpLe
	case syntax.OpGe:
		return syntax.OpLt
	}
	return syntax.OpNone
}

// compare translates a op b (or its negation). A comparison whose
// translation runs out of pieces is split at the min and max of its
// operands (splitCompare) when the syntax decides some of the parts.
func (t *translator) compare(xa syntax.Expr, op syntax.Op, xb syntax.Expr, neg bool) (dnf, error) {
	if neg {
		op = negateOp(op)
	}
	d, err := t.comparePlain(xa, op, xb)
	if err == nil || !outOfPieces(err) || !isOrdering(op) {
		return d, err
	}
	_, _, _, mx := minMaxArgs(xa)
	_, _, _, my := minMaxArgs(xb)
	if (!mx && !my) || !readsNothing(xa) || !readsNothing(xb) {
		return nil, err
	}
	s, decided, serr := t.splitCompare(xa, op, xb)
	if serr == nil && decided {
		return s, nil
	}
	return nil, err
}

// comparePlain translates a op b from the pieces of a and b, or, when
// the terms of b - a cancel or merge (cancel.go), as 0 op b - a.
func (t *translator) comparePlain(xa syntax.Expr, op syntax.Op, xb syntax.Expr) (dnf, error) {
	one := presburger.NewInt(1)
	var a, b pwExpr
	var err error
	if s := t.sumOf(xb, one, xa, one.Neg()); s != nil {
		a = pwLinear(constLinear(0))
		b, err = t.translateSum(s)
	} else {
		a, b, err = t.operands(xa, xb)
	}
	if err != nil {
		return nil, err
	}
	var out dnf
	for _, pa := range a {
		for _, pb := range b {
			c, err := pa.cond.and(t.w, pb.cond)
			if err != nil {
				return nil, err
			}
			d := pb.e.add(pa.e, one.Neg()) // b - a
			var atoms dnf
			switch op {
			case syntax.OpEq:
				atoms = dnf{conj{{e: d, eq: true}}}
			case syntax.OpNe:
				atoms = dnf{conj{{e: d.add(constLinear(-1), one)}}, conj{{e: d.scale(one.Neg()).add(constLinear(-1), one)}}}
			case syntax.OpLt: // b - a - 1 >= 0
				atoms = dnf{conj{{e: d.add(constLinear(-1), one)}}}
			case syntax.OpLe:
				atoms = dnf{conj{{e: d}}}
			case syntax.OpGt: // a - b - 1 >= 0
				atoms = dnf{conj{{e: d.scale(one.Neg()).add(constLinear(-1), one)}}}
			case syntax.OpGe:
				atoms = dnf{conj{{e: d.scale(one.Neg())}}}
			default:
				return nil, fmt.Errorf("unknown comparison %s", op)
			}
			c, err = c.and(t.w, atoms)
			if err != nil {
				return nil, err
			}
			if out, err = out.or(c); err != nil {
				return nil, err
			}
		}
	}
	return out, nil
}
