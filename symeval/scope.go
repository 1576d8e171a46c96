package symeval

import (
	"context"
	"fmt"
	"strings"
	"sync"

	"github.com/augur-verify/augur/presburger"
	"github.com/augur-verify/augur/sched"
	"github.com/augur-verify/augur/syntax"
)

// Scope is the environment of index expressions at one point of a kernel:
// the kernel's parameters, the loop variables and the let variables in
// scope. Parameters and loop variables are presburger parameters of every
// object built in the scope; a let variable stands for the (piecewise)
// value of its expression, so that objects never mention it.
//
// A Scope is immutable: With and Let return extended copies.
type Scope struct {
	params []string           // presburger parameters, outermost first
	names  map[string]binding // source name -> binding
	facts  *presburger.Map    // parameter domain known to hold (nil: none)
	// assumed is the kernel's assumptions (nil: none), under which Let
	// drops the pieces of a let's value that cannot occur.
	assumed *presburger.Map
	// locs holds the read locations computed in s (readLocation), and
	// kids the scopes derived from s by the statements of the kernel
	// (loopScope, ifScopes, letScope): a scope does not change once
	// built, and the walks of the kernel (one per round of the garbage
	// writes) and the conditions of its assignments (undefined reads,
	// races, value obligations) derive the same scopes and read the same
	// arrays in them.
	locs *locMemo
	kids *scopeKids
	// kernelParams is how many of params are the kernel's; opaque
	// lists the lets kept as symbols (opaque.go), shared by the scopes
	// derived from one root.
	kernelParams int
	opaque       *opaqueTable
	// w is charged the work of the translations in s and the scopes
	// derived from it (nil: none), set at the root by charging.
	w *work
}

// scopeKids maps the statements of a kernel to the scopes they derive
// from one scope.
type scopeKids struct {
	mu sync.Mutex
	m  map[sched.Stmt]derived
}

// derived is a scope derived by a statement: the scope of a loop's body
// and the parameter of its variable, the scopes of the branches of an if,
// the scope after a let.
type derived struct {
	s, els *Scope
	x      string
}

func (k *scopeKids) lookup(st sched.Stmt) (derived, bool) {
	k.mu.Lock()
	defer k.mu.Unlock()
	d, ok := k.m[st]
	return d, ok
}

func (k *scopeKids) store(st sched.Stmt, d derived) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.m == nil {
		k.m = map[sched.Stmt]derived{}
	}
	k.m[st] = d
}

// loopScope returns the scope of the body of loop l in s, where the
// loop's variable (the parameter x) lies within its bounds, as rule
// S-SEQLOOP and S-PARLOOP see it.
func (s *Scope) loopScope(l *sched.Loop) (*Scope, string, error) {
	if d, ok := s.kids.lookup(l); ok {
		return d.s, d.x, nil
	}
	inner, x := s.With(l.Var.Name)
	lo, hi := l.Bounds()
	bound, err := inner.Range(x, lo, hi)
	if err != nil {
		return nil, "", s.rangeLets(err, lo, hi)
	}
	if inner, err = inner.Assume(bound); err != nil {
		return nil, "", err
	}
	s.kids.store(l, derived{s: inner, x: x})
	return inner, x, nil
}

// ifScopes returns the scopes of the branches of st in s: s with st's
// condition, and s with its negation.
func (s *Scope) ifScopes(st *sched.If) (then, els *Scope, err error) {
	if d, ok := s.kids.lookup(st); ok {
		return d.s, d.els, nil
	}
	c, err := s.constraint(st.Cond, false)
	if err != nil {
		return nil, nil, err
	}
	nc, err := s.constraint(st.Cond, true)
	if err != nil {
		return nil, nil, err
	}
	if then, err = s.Assume(c); err != nil {
		return nil, nil, err
	}
	if els, err = s.Assume(nc); err != nil {
		return nil, nil, err
	}
	s.kids.store(st, derived{s: then, els: els})
	return then, els, nil
}

// letScope returns s after the let statement l (Let).
func (s *Scope) letScope(ctx context.Context, l *sched.Let) (*Scope, error) {
	if d, ok := s.kids.lookup(l); ok {
		return d.s, nil
	}
	ns, err := s.Let(ctx, l.Var.Name, l.Value)
	if err != nil {
		return nil, err
	}
	s.kids.store(l, derived{s: ns})
	return ns, nil
}

// locMemo maps the array accesses of a scope to their read locations.
type locMemo struct {
	mu sync.Mutex
	m  map[*syntax.Index]*presburger.Map
}

// lookup returns the read location of x memoised, if any.
func (lm *locMemo) lookup(x *syntax.Index) (*presburger.Map, bool) {
	lm.mu.Lock()
	defer lm.mu.Unlock()
	l, ok := lm.m[x]
	return l, ok
}

// store memoises l as the read location of x.
func (lm *locMemo) store(x *syntax.Index, l *presburger.Map) {
	lm.mu.Lock()
	defer lm.mu.Unlock()
	if lm.m == nil {
		lm.m = map[*syntax.Index]*presburger.Map{}
	}
	lm.m[x] = l
}

// NewScope returns the scope of a kernel with the given parameters.
func NewScope(params []string) *Scope {
	s := &Scope{names: map[string]binding{}, locs: &locMemo{}, kids: &scopeKids{}, kernelParams: len(params), opaque: &opaqueTable{}}
	for _, p := range params {
		s.params = append(s.params, p)
		s.names[p] = binding{v: presburger.ParamVar(p)}
	}
	return s
}

// charging returns s with the work of its translations, and of those of
// every scope derived from it, charged to the step allowance of ctx
// (work) and stopped by its cancellation: the scopes of an evaluation
// are rooted at one of these.
func (s *Scope) charging(ctx context.Context) *Scope {
	n := s.clone()
	n.w = newWork(ctx)
	return n
}

// Facts returns the parameter domain known to hold in s (the ranges of
// the enclosing loops and the conditions of the enclosing ifs, as added by
// Assume), or nil when nothing is known.
func (s *Scope) Facts() *presburger.Map { return s.facts }

// maxScopeFacts bounds the pieces of a scope's facts. Every scope below
// an if or a loop holds its own copy of them, and every set built there
// is split by them: an if whose condition has many pieces (the prologue
// and epilogue of a partitioned loop, over lets of many pieces, at
// Halide's final stage) multiplies them past what memory holds.
const maxScopeFacts = 1024

// Assume returns s extended with the fact that the parameter domain d
// holds. When the facts with d would have more than maxScopeFacts
// pieces, d is first put in fewer (smallerFact), exactly where the
// kernel's assumptions hold; failing that, it is weakened to one
// conjunction that contains it (its simple hull, or the constraints
// common to its pieces should the hull exceed the engine's budget): the
// facts then contain the parameter values where the scope is reached,
// and may contain more (see smallerFact).
func (s *Scope) Assume(d *presburger.Map) (_ *Scope, err error) {
	defer guard(&err, "assume")
	n := s.clone()
	if n.facts == nil {
		n.facts = d
		return n, nil
	}
	if n.facts, err = s.facts.Intersect(d); err != nil {
		return nil, fmt.Errorf("assume: %w", err)
	}
	k := n.facts.NumBasics()
	if k <= maxScopeFacts {
		return n, nil
	}
	tooMany := fmt.Sprintf("the facts of a scope have %d pieces, more than %d", k, maxScopeFacts)
	small, err := s.smallerFact(d)
	if err != nil {
		return nil, fmt.Errorf("assume: %s: %w", tooMany, err)
	}
	if n.facts, err = s.facts.Intersect(small); err != nil {
		return nil, fmt.Errorf("assume: %w", err)
	}
	if n.facts.NumBasics() <= maxScopeFacts {
		return n, nil
	}
	weak, err := presburger.SimpleHull(s.w.context(), small)
	switch {
	case err != nil && undecidable(err) && !stops(err):
		weak = commonFacts(small)
	case err != nil:
		return nil, fmt.Errorf("assume: %s: %w", tooMany, err)
	}
	if n.facts, err = s.facts.Intersect(weak); err != nil {
		return nil, fmt.Errorf("assume: %w", err)
	}
	if n.facts.NumBasics() > maxScopeFacts {
		return nil, fmt.Errorf("assume: %w", budgetError(tooMany))
	}
	return n, nil
}

// smallerFact returns d in fewer pieces, the same set where the facts of
// s and the kernel's assumptions hold: without its pieces that have no
// point there, the others coalesced (presburger.Coalesce), each test
// charged to the step allowance of the scope's evaluation. The range of
// a loop that Halide's partition_loops split, over lets of many pieces
// (its prologue and epilogue), has pieces for their cases, most of
// which merge.
//
// When even that is too many, Assume weakens the fact to its simple
// hull, one conjunction that contains it. Weakening a fact is sound for
// each use of a scope's facts. They are hypotheses (the pieces of a
// let's value that can occur, a condition empty where they hold), which
// a larger domain only makes harder to use; or they restrict the points
// of a condition (undefined reads, writes out of bounds, races, value
// obligations), which a larger domain only enlarges, and a failure
// found there is INVALID only once a concrete run confirms it; or they
// restrict a heap's writes, which the rules of the enclosing loops and
// ifs restrict to their exact ranges and conditions themselves (loopBody
// and the prophetic writes take only the facts' common constraints).
func (s *Scope) smallerFact(d *presburger.Map) (*presburger.Map, error) {
	ctx := s.w.context()
	known, err := newKnownDomain(s.facts, s.assumed)
	if err != nil {
		return nil, err
	}
	var kept []*presburger.BasicMap
	for _, b := range d.Basics() {
		if err := presburger.Charge(ctx, 1); err != nil {
			return nil, err
		}
		empty, err := known.excludes(ctx, presburger.NewMap(d.Space(), b))
		if err != nil {
			return nil, err
		}
		if !empty {
			kept = append(kept, b)
		}
	}
	if len(kept) == 0 {
		// The scope cannot be reached where the assumptions hold.
		return presburger.Empty(d.Space()), nil
	}
	m := presburger.NewMap(d.Space(), kept...)
	c, err := presburger.Coalesce(ctx, m)
	if err != nil && undecidable(err) && !stops(err) {
		// Past the engine's budget for one operation: the pieces as
		// they are, which Assume may weaken.
		return m, nil
	}
	return c, err
}

// WithAssumptions returns s with the kernel's assumptions d, a parameter
// domain: Let then keeps only the pieces of a let's value that can occur
// under them and the facts. Only let values change, to equal ones under
// d; every verdict is stated under the assumptions anyway.
func (s *Scope) WithAssumptions(d *presburger.Map) *Scope {
	n := s.clone()
	n.assumed = d
	return n
}

// Params returns the presburger parameters of objects built in s.
func (s *Scope) Params() []string { return append([]string(nil), s.params...) }

func (s *Scope) clone() *Scope {
	n := &Scope{params: append([]string(nil), s.params...), names: make(map[string]binding, len(s.names)+1), facts: s.facts, assumed: s.assumed, locs: &locMemo{}, kids: &scopeKids{}, kernelParams: s.kernelParams, opaque: s.opaque, w: s.w}
	for k, v := range s.names {
		n.names[k] = v
	}
	return n
}

// isParam reports whether name is already a presburger parameter of s.
func (s *Scope) isParam(name string) bool {
	for _, p := range s.params {
		if p == name {
			return true
		}
	}
	return false
}

// With returns s extended with the loop variable name, and the name of
// the presburger parameter that stands for it: name itself, or name
// followed by primes when a parameter of that name is already in scope.
func (s *Scope) With(name string) (*Scope, string) {
	p := name
	for s.isParam(p) {
		p += "'"
	}
	n := s.clone()
	n.params = append(n.params, p)
	n.names[name] = binding{v: presburger.ParamVar(p)}
	return n, p
}

// Let returns s extended with the let variable name bound to the index
// expression x. A piecewise value (min, max, select, as in the bounds
// Halide computes) keeps only the pieces that can occur under the scope's
// facts and assumptions, and pieces of equal value are merged: the
// expressions built from it multiply its pieces. A value over the
// kernel's parameters of too many pieces is kept as a symbol
// (letOpaque).
func (s *Scope) Let(ctx context.Context, name string, x syntax.Expr) (_ *Scope, err error) {
	defer guard(&err, "let "+name)
	if wantOpaque(ctx, name) {
		if n, oerr := s.letOpaque(ctx, name, x, errKeptLet); oerr == nil {
			return n, nil
		}
	}
	t := s.translator()
	if s.inLoop() {
		// A let inside a loop is translated within its own cap of
		// steps: past it the let is kept as a symbol (opaque.go).
		t.w = s.w.capped(maxLetSteps)
	}
	v, err := t.index(x)
	if t.w != s.w {
		if ferr := t.w.flush(); err == nil {
			err = ferr
		}
	}
	if err != nil {
		if stops(err) {
			return nil, fmt.Errorf("let %s: %w", name, err)
		}
		if n, oerr := s.letOpaque(ctx, name, x, err); oerr == nil {
			return n, nil
		}
		return nil, fmt.Errorf("let %s: %w", name, err)
	}
	if v, err = s.prune(ctx, v); err != nil {
		return nil, fmt.Errorf("let %s: %w", name, err)
	}
	n := s.clone()
	n.names[name] = binding{let: v, paramLet: len(v) > 1 && readsNothing(x) && s.keepable(x), def: x, inLoop: s.inLoop()}
	return n, nil
}

// prune drops the conjunctions of v's piece conditions that are empty
// under the facts and assumptions of s, then the pieces left without
// one, and merges the pieces of equal value.
func (s *Scope) prune(ctx context.Context, v pwExpr) (pwExpr, error) {
	if len(v) < 2 {
		return v, nil
	}
	known, err := newKnownDomain(s.facts, s.assumed)
	if err != nil {
		return nil, err
	}
	sp := presburger.ParamSpace(s.Params())
	var out pwExpr
	at := map[string]int{} // value key -> index in out
	for _, pc := range v {
		var cond dnf
		for _, c := range pc.cond {
			// Lowering the conjunction and intersecting it with the
			// known facts, which count no steps of their own.
			if err := s.w.charge(1 + int64(len(c))/atomsPerStep); err != nil {
				return nil, err
			}
			if known != nil {
				b, err := lowerConj(sp, c)
				if err != nil {
					return nil, err
				}
				empty, err := known.excludes(ctx, presburger.NewMap(sp, b))
				if err != nil {
					return nil, err
				}
				if empty {
					continue
				}
			}
			cond = append(cond, c)
		}
		if len(cond) == 0 {
			continue
		}
		k := pc.e.key()
		if i, ok := at[k]; ok {
			out[i].cond = append(out[i].cond, cond...)
			continue
		}
		at[k] = len(out)
		out = append(out, piece{cond: cond, e: pc.e})
	}
	if len(out) == 0 {
		// No piece can occur: the scope itself cannot (its facts or the
		// assumptions are contradictory). Keep the value as it is.
		return v, nil
	}
	if known != nil && len(out) >= 2 && len(out) <= maxMergedPieces {
		var err error
		if out, err = mergeEqualPieces(ctx, sp, known, out); err != nil {
			return nil, err
		}
	}
	if len(out) == 1 && known != nil {
		// One piece left: its condition holds wherever the scope can be
		// reached.
		out[0].cond = dnfTrue()
	}
	return out, nil
}

// maxMergedPieces bounds the pieces of a value that mergeEqualPieces
// compares pairwise.
const maxMergedPieces = 8

// mergeEqualPieces merges each piece of v whose value equals another
// piece's wherever its own condition and known hold into that other
// piece: under known the value is the same, in fewer pieces. Halide's
// bounds are full of such pieces: min(output_extent_0, 384) is
// output_extent_0 when output_extent_0 <= 384, which the assumption
// output_extent_0 >= 384 makes 384, the value of the other piece; kept
// apart, the two pieces doubled every set built from the let.
func mergeEqualPieces(ctx context.Context, sp presburger.Space, known *knownDomain, v pwExpr) (pwExpr, error) {
	out := append(pwExpr(nil), v...)
	for i := 0; i < len(out); i++ {
		for j := range out {
			if j == i {
				continue
			}
			eq, err := equalOn(ctx, sp, known, out[i].cond, out[i].e, out[j].e)
			if err != nil {
				return nil, err
			}
			if !eq {
				continue
			}
			out[j].cond = append(append(dnf(nil), out[j].cond...), out[i].cond...)
			out = append(out[:i], out[i+1:]...)
			i--
			break
		}
	}
	return out, nil
}

// equalOn reports whether a = b at every point of cond where known
// holds: neither a - b >= 1 nor b - a >= 1 has a point there.
func equalOn(ctx context.Context, sp presburger.Space, known *knownDomain, cond dnf, a, b linear) (bool, error) {
	one := presburger.NewInt(1)
	for _, c := range cond {
		for _, d := range []linear{a.add(b, one.Neg()), b.add(a, one.Neg())} {
			bm, err := lowerConj(sp, c, conj{{e: d.add(constLinear(-1), one)}})
			if err != nil {
				return false, err
			}
			empty, err := known.excludes(ctx, presburger.NewMap(sp, bm))
			if err != nil || !empty {
				return false, err
			}
		}
	}
	return true, nil
}

func (s *Scope) translator() *translator {
	return &translator{lookup: func(name string) (binding, bool) {
		b, ok := s.names[name]
		return b, ok
	}, opaque: s.opaque, w: s.w}
}

// withDims returns a translator that resolves the given names to the
// input dimensions of the tuple being built, and other names through s.
func (s *Scope) withDims(dims []string) *translator {
	return &translator{lookup: func(name string) (binding, bool) {
		for k, d := range dims {
			if d == name {
				return binding{v: presburger.InVar(k)}, true
			}
		}
		b, ok := s.names[name]
		return b, ok
	}, opaque: s.opaque, w: s.w}
}

// IndexMap returns the graph of the quasi-affine index expression x over
// the scope: the set { [v] : v = x } with the scope's parameters, whose
// single point, for every value of the parameters, is the value of x.
func (s *Scope) IndexMap(x syntax.Expr) (_ *presburger.Map, err error) {
	defer guard(&err, "index map")
	v, err := s.translator().index(x)
	if err != nil {
		return nil, err
	}
	sp := presburger.SetSpace(s.Params(), presburger.FlatTuple("", "v"))
	d, err := s.w.equalities([]presburger.Var{presburger.OutVar(0)}, []pwExpr{v})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", syntax.ExprString(x), err)
	}
	return lowerDNF(sp, d, nil)
}

// Constraint returns the quasi-affine constraint c over the scope as a
// parameter domain: the parameter values where c holds.
func (s *Scope) Constraint(c syntax.Expr) (_ *presburger.Map, err error) {
	defer guard(&err, "constraint")
	return s.constraint(c, false)
}

func (s *Scope) constraint(c syntax.Expr, neg bool) (*presburger.Map, error) {
	d, err := s.translator().cond(c, neg)
	if err != nil {
		return nil, err
	}
	return lowerDNF(presburger.ParamSpace(s.Params()), d, nil)
}

// Range returns the parameter domain lo <= x < hi, where x is a
// presburger parameter of s (a loop variable returned by With).
func (s *Scope) Range(x string, lo, hi syntax.Expr) (_ *presburger.Map, err error) {
	defer guard(&err, "range of "+x)
	t := s.translator()
	l, err := t.index(lo)
	if err != nil {
		return nil, err
	}
	h, err := t.index(hi)
	if err != nil {
		return nil, err
	}
	xv := pwLinear(varLinear(presburger.ParamVar(x)))
	one := presburger.NewInt(1)
	// lo <= x: x - lo >= 0; x < hi: hi - x - 1 >= 0.
	lower, err := combine(t.w, xv, l, func(p, q linear) (pwExpr, error) {
		return pwExpr{{cond: dnf{conj{{e: p.add(q, one.Neg())}}}, e: linear{}}}, nil
	})
	if err != nil {
		return nil, err
	}
	upper, err := combine(t.w, xv, h, func(p, q linear) (pwExpr, error) {
		return pwExpr{{cond: dnf{conj{{e: q.add(p, one.Neg()).add(constLinear(-1), one)}}}, e: linear{}}}, nil
	})
	if err != nil {
		return nil, err
	}
	var d dnf
	for _, a := range lower {
		for _, b := range upper {
			c, err := a.cond.and(t.w, b.cond)
			if err != nil {
				return nil, err
			}
			d = append(d, c...)
		}
	}
	return lowerDNF(presburger.ParamSpace(s.Params()), d, nil)
}

// withParam returns s with one more presburger parameter p that no source
// name denotes (a fresh variable of the symbolic evaluation).
func (s *Scope) withParam(p string) *Scope {
	n := s.clone()
	n.params = append(n.params, p)
	return n
}

// rangeBelow returns the parameter domain lo <= z < x, for parameters z
// and x of s and lo an index expression of s.
func (s *Scope) rangeBelow(z, x string, lo syntax.Expr) (*presburger.Map, error) {
	l, err := s.translator().index(lo)
	if err != nil {
		return nil, err
	}
	one := presburger.NewInt(1)
	zv, xv := varLinear(presburger.ParamVar(z)), varLinear(presburger.ParamVar(x))
	upper := conj{{e: xv.add(zv, one.Neg()).add(constLinear(-1), one)}} // x - z - 1 >= 0
	var d dnf
	for _, p := range l {
		c, err := p.cond.and(s.w, dnf{append(conj{{e: zv.add(p.e, one.Neg())}}, upper...)}) // z - lo >= 0
		if err != nil {
			return nil, err
		}
		d = append(d, c...)
	}
	return lowerDNF(presburger.ParamSpace(s.Params()), d, nil)
}

// commonFacts returns a convex parameter domain containing d: d itself
// when it is one conjunction, otherwise the conjunction of the
// constraints (without local variables) that every conjunction of d has,
// an equality counting as its two inequalities. Restricting a heap to the
// facts of a scope only serves to keep it small; facts with several
// conjunctions (the pieces of a min in a loop bound, of a negated
// conjunction) would split every component of the heap once per
// conjunction, where their common constraints keep it whole.
func commonFacts(d *presburger.Map) *presburger.Map {
	bs := d.Basics()
	if len(bs) < 2 {
		return d
	}
	key := func(b *presburger.BasicMap, row []presburger.Int, neg bool) (string, bool) {
		var sb strings.Builder
		for c := b.LocalOffset(); c < b.ConstCol(); c++ {
			if !row[c].IsZero() {
				return "", false
			}
		}
		for c := 0; c < b.LocalOffset(); c++ {
			v := row[c]
			if neg {
				v = v.Neg()
			}
			sb.WriteString(v.String())
			sb.WriteByte(',')
		}
		v := row[b.ConstCol()]
		if neg {
			v = v.Neg()
		}
		sb.WriteString(v.String())
		return sb.String(), true
	}
	// ineqs returns the inequalities of b by key, equalities both ways.
	ineqs := func(b *presburger.BasicMap) (map[string][]presburger.Int, []string) {
		m := map[string][]presburger.Int{}
		var order []string
		add := func(row []presburger.Int, neg bool) {
			k, ok := key(b, row, neg)
			if !ok {
				return
			}
			if _, seen := m[k]; !seen {
				r := make([]presburger.Int, b.LocalOffset()+1)
				for c := 0; c < b.LocalOffset(); c++ {
					r[c] = row[c]
					if neg {
						r[c] = row[c].Neg()
					}
				}
				r[b.LocalOffset()] = row[b.ConstCol()]
				if neg {
					r[b.LocalOffset()] = row[b.ConstCol()].Neg()
				}
				m[k] = r
				order = append(order, k)
			}
		}
		for _, e := range b.Eqs() {
			add(e, false)
			add(e, true)
		}
		for _, r := range b.Ineqs() {
			add(r, false)
		}
		return m, order
	}
	common, order := ineqs(bs[0])
	for _, b := range bs[1:] {
		other, _ := ineqs(b)
		for k := range common {
			if _, ok := other[k]; !ok {
				delete(common, k)
			}
		}
	}
	out := presburger.NewBasicMap(d.Space())
	for _, k := range order {
		r, ok := common[k]
		if !ok {
			continue
		}
		row := out.NewRow()
		copy(row, r[:len(r)-1])
		row[out.ConstCol()] = r[len(r)-1]
		out.AddIneq(row)
	}
	return presburger.NewMap(d.Space(), out)
}
