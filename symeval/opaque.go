package symeval

import (
	"context"
	"fmt"
	"strings"
	"sync"

	"github.com/augur-verify/augur/presburger"
	"github.com/augur-verify/augur/syntax"
	"github.com/augur-verify/augur/value"
)

// This file keeps a let whose value has too many pieces as a symbol.
//
// Halide's realized region of a pyramid's level (lens_blur's
// f3_v1_min_realized) is a nest of min, max and division by 2 through
// every level, over the kernel's parameters only: its pieces, the cases
// of every min and max, pass maxPieces. Such a let is bound to a fresh
// parameter P (an opaque let) instead of its pieces, with facts that its
// definition implies and that translate in few pieces: P <= u for the
// upper bounds u of the definition that monotonicity gives (each operand
// of a min, the bounds of the operands of a sum, a difference, a product
// by a constant and a division by a constant), P >= l for the lower
// ones. A later let that contains the definition of an opaque let, as
// Halide's extent max - min + 1 contains the min's, reads P there.
//
// A condition decided over Presburger sets is proved for every value of
// P allowed by the facts, so for P's own value: Proved is sound. Its
// violations may be at values P does not take; restrictToDefined keeps,
// at a point of the kernel's parameters, those where every opaque let has
// its value (computed concretely), which the interpreter replays; when
// there are none the condition is Undecided, its reason naming the let.

// opaqueLet is a let kept as a symbol: the fresh parameter param stands
// for the value of def in the scope the let was in.
type opaqueLet struct {
	name, param string
	def         syntax.Expr
	// inLoop is set for a let bound where a loop variable is in scope
	// (see "A let inside a loop" below): param stands for its value at
	// one iteration, and no set outside its block may mention it.
	inLoop bool
	// facts is the parameter domain of the bounds of def that the
	// scope after the let assumes (nil: none).
	facts *presburger.Map
	// lookup resolves the names of def.
	lookup func(string) (binding, bool)
}

// opaqueTable lists the opaque lets of a kernel's walk, in the order
// they were bound; the scopes derived from one root share it.
type opaqueTable struct {
	mu      sync.Mutex
	list    []*opaqueLet
	byParam map[string]*opaqueLet
}

// add records o unless a let of its parameter is recorded (a second walk
// of the kernel binds the same lets to the same parameters).
func (t *opaqueTable) add(o *opaqueLet) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.byParam == nil {
		t.byParam = map[string]*opaqueLet{}
	}
	if _, ok := t.byParam[o.param]; ok {
		return
	}
	t.byParam[o.param] = o
	t.list = append(t.list, o)
}

// lets returns the opaque lets recorded, in order.
func (t *opaqueTable) lets() []*opaqueLet {
	t.mu.Lock()
	defer t.mu.Unlock()
	return append([]*opaqueLet(nil), t.list...)
}

// isOpaque reports whether p is the parameter of an opaque let of t.
func (t *opaqueTable) isOpaque(p string) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	_, ok := t.byParam[p]
	return ok
}

// maxBoundFacts bounds the upper (and the lower) bounds of one opaque
// let that become facts.
const maxBoundFacts = 8

// overParamsOnly reports whether every name of x denotes a kernel
// parameter, an opaque let, or a let whose value reads only those, in
// s; and whether s has no loop variable: an opaque let is bound where
// the parameters it is computed from are the kernel's.
func (s *Scope) overParamsOnly(x syntax.Expr) bool {
	allowed := func(p string) bool {
		return s.isKernelParam(p) || s.opaque.isOpaque(p)
	}
	for _, p := range s.params {
		if !allowed(p) {
			return false
		}
	}
	ok := true
	syntax.Inspect(x, func(e syntax.Expr) bool {
		id, isID := e.(*syntax.Ident)
		if !isID || !ok {
			return ok
		}
		b, found := s.names[id.Name]
		switch {
		case !found:
			ok = false
		case b.let == nil:
			ok = allowed(b.v.Name)
		default:
			for _, pc := range b.let {
				if !linearOverParams(pc.e, allowed) {
					ok = false
				}
				for _, c := range pc.cond {
					for _, a := range c {
						if !linearOverParams(a.e, allowed) {
							ok = false
						}
					}
				}
			}
		}
		return ok
	})
	return ok
}

// linearOverParams reports whether every variable of l (and of its
// divisions) is a parameter that allowed accepts.
func linearOverParams(l linear, allowed func(string) bool) bool {
	for t := range l.terms {
		if t.div == "" && (t.v.Kind != presburger.DimParam || !allowed(t.v.Name)) {
			return false
		}
	}
	for _, d := range l.divs {
		if !linearOverParams(d.num, allowed) {
			return false
		}
	}
	return true
}

// isKernelParam reports whether p is one of the kernel's parameters.
func (s *Scope) isKernelParam(p string) bool {
	for _, k := range s.params[:min(s.kernelParams, len(s.params))] {
		if k == p {
			return true
		}
	}
	return false
}

// letOpaque binds name to a fresh parameter standing for x, with the
// facts of its bounds (see above); err is the translation's error, which
// it returns when x cannot be kept as a symbol.
func (s *Scope) letOpaque(ctx context.Context, name string, x syntax.Expr, err error) (*Scope, error) {
	inLoop := s.inLoop()
	if !outOfPieces(err) || !readsNothing(x) {
		return nil, err
	}
	if !s.keepable(x) {
		return nil, err
	}
	p := name
	if inLoop {
		p = loopLetParam(name, x.Pos())
	}
	for s.isParam(p) {
		p += "'"
	}
	n := s.withParam(p)
	n.names[name] = binding{v: presburger.ParamVar(p)}
	self := &syntax.Ident{Name: name}
	var facts *presburger.Map
	subst := func(e syntax.Expr) (syntax.Expr, bool) {
		if v, ok := s.opaque.opaqueFor(e, s.translator().lookup); ok {
			for _, o := range s.opaque.lets() {
				if o.param == v.Name {
					return &syntax.Ident{Name: o.name}, true
				}
			}
		}
		return nil, false
	}
	for _, f := range boundFacts(self, x, subst) {
		if n.piecesBound(f) > maxFactPieces {
			continue
		}
		c, ferr := n.constraint(f, false)
		if ferr != nil {
			if outOfPieces(ferr) {
				continue
			}
			return nil, fmt.Errorf("let %s: a bound of its value: %w", name, ferr)
		}
		if c.NumBasics() != 1 {
			// A fact of several pieces would split every set built in
			// the scope.
			continue
		}
		if n, ferr = n.Assume(c); ferr != nil {
			return nil, fmt.Errorf("let %s: %w", name, ferr)
		}
		if facts == nil {
			facts = c
		} else if facts, ferr = facts.Intersect(c); ferr != nil {
			return nil, fmt.Errorf("let %s: %w", name, ferr)
		}
	}
	s.opaque.add(&opaqueLet{name: name, param: p, def: x, inLoop: inLoop, facts: facts, lookup: s.translator().lookup})
	return n, nil
}

// unknownSymbol returns a parameter of ms that names a let inside a
// loop kept as a symbol (loopLetParam) but not in t: one the prophecy's
// walk kept and the conditions' walk did not, which the two walks'
// equal scopes rule out, guarded all the same. Its value is not known.
func (t *opaqueTable) unknownSymbol(ms ...*presburger.Map) (string, bool) {
	for _, m := range ms {
		for _, p := range m.Space().Params {
			if strings.Contains(p, "@") && !t.isOpaque(p) {
				return p, true
			}
		}
	}
	return "", false
}

// loopLetParam is the parameter of the let name inside a loop whose
// value is at pos: the let's name and its place, one parameter per let
// statement, the same in every walk of the kernel (the prophecy's
// heaps and the conditions' scopes name it alike), never shared by two
// lets of one name.
func loopLetParam(name string, pos syntax.Pos) string {
	return fmt.Sprintf("%s@%d.%d", name, pos.Line, pos.Col)
}

// inLoop reports whether a loop variable is in scope in s: a parameter
// that is neither the kernel's nor a let kept as a symbol.
func (s *Scope) inLoop() bool {
	for _, p := range s.params[min(s.kernelParams, len(s.params)):] {
		if !s.opaque.isOpaque(p) {
			return true
		}
	}
	return false
}

// keepable reports whether a let of x, which reads nothing, can be kept
// as a symbol in s: over the kernel's parameters alone (overParamsOnly),
// or inside a loop with every name of x bound.
func (s *Scope) keepable(x syntax.Expr) bool {
	if s.inLoop() {
		return s.resolves(x)
	}
	return s.overParamsOnly(x)
}

// resolves reports whether every name of x is bound in s.
func (s *Scope) resolves(x syntax.Expr) bool {
	ok := true
	syntax.Inspect(x, func(e syntax.Expr) bool {
		if id, isID := e.(*syntax.Ident); isID {
			if _, found := s.names[id.Name]; !found {
				ok = false
			}
		}
		return ok
	})
	return ok
}

// boundFacts returns the constraints self <= u and self >= l for the
// upper bounds u and lower bounds l of x (bounds).
func boundFacts(self, x syntax.Expr, subst func(syntax.Expr) (syntax.Expr, bool)) []syntax.Expr {
	var out []syntax.Expr
	for _, u := range bounds(x, true, subst) {
		out = append(out, &syntax.Binary{X: self, Op: syntax.OpLe, Y: u})
	}
	for _, l := range bounds(x, false, subst) {
		out = append(out, &syntax.Binary{X: self, Op: syntax.OpGe, Y: l})
	}
	return out
}

// maxBoundNests bounds the min, max and select of a bound that becomes
// a fact: each may double the pieces of its translation, and a deeper
// bound would run out of them as the value did.
const maxBoundNests = 4

// maxFactPieces bounds piecesBound of a fact: a bound over lets of many
// pieces each would cost more to translate than it gives.
const maxFactPieces = 64

// piecesBound bounds the pieces of x's translation in s: the product of
// the pieces of the lets it reads, doubled by each min, max and select.
func (s *Scope) piecesBound(x syntax.Expr) int {
	n := 1 << min(nests(x), 20)
	syntax.Inspect(x, func(e syntax.Expr) bool {
		if id, ok := e.(*syntax.Ident); ok {
			if b, ok := s.names[id.Name]; ok && len(b.let) > 1 {
				n = min(n*len(b.let), 1<<20)
			}
		}
		return true
	})
	return n
}

// nests counts the min, max and select calls of x.
func nests(x syntax.Expr) int {
	n := 0
	syntax.Inspect(x, func(e syntax.Expr) bool {
		if c, ok := e.(*syntax.Call); ok && (c.Fun.Name == "min" || c.Fun.Name == "max" || c.Fun.Name == "select") {
			n++
		}
		return true
	})
	return n
}

// bounds returns expressions u with x <= u at every point (lower bounds,
// u <= x, when upper is false), at most maxBoundFacts, by monotonicity:
// each operand bounds a min from above (a max from below), and a sum, a
// difference, a product by a constant and a floor division by a positive
// constant are monotone in each operand. The first is the shallowest.
//
// A subexpression that is the definition of an opaque let (subst) is
// bounded by the let's name.
func bounds(x syntax.Expr, upper bool, subst func(syntax.Expr) (syntax.Expr, bool)) []syntax.Expr {
	if id, ok := subst(x); ok {
		return []syntax.Expr{id}
	}
	cap := func(xs []syntax.Expr) []syntax.Expr {
		var out []syntax.Expr
		for _, x := range xs {
			if nests(x) <= maxBoundNests && len(out) < maxBoundFacts {
				out = append(out, x)
			}
		}
		return out
	}
	pair := func(a, b []syntax.Expr, f func(a, b syntax.Expr) syntax.Expr) []syntax.Expr {
		var out []syntax.Expr
		for _, u := range a {
			for _, v := range b {
				out = append(out, f(u, v))
			}
		}
		return cap(out)
	}
	switch x := x.(type) {
	case *syntax.Call:
		if len(x.Args) != 2 || (x.Fun.Name != "min" && x.Fun.Name != "max") {
			break
		}
		if (x.Fun.Name == "min") == upper {
			// min(a, b) <= a and <= b; max(a, b) >= a and >= b.
			return cap(append(bounds(x.Args[0], upper, subst), bounds(x.Args[1], upper, subst)...))
		}
		return pair(bounds(x.Args[0], upper, subst), bounds(x.Args[1], upper, subst), func(a, b syntax.Expr) syntax.Expr {
			return &syntax.Call{Fun: x.Fun, Args: []syntax.Expr{a, b}}
		})
	case *syntax.Unary:
		if x.Op == syntax.OpNeg {
			return cap(mapExprs(bounds(x.X, !upper, subst), func(a syntax.Expr) syntax.Expr { return &syntax.Unary{OpPos: x.OpPos, Op: x.Op, X: a} }))
		}
	case *syntax.Binary:
		mk := func(a, b syntax.Expr) syntax.Expr { return &syntax.Binary{X: a, Op: x.Op, Y: b} }
		switch x.Op {
		case syntax.OpAdd:
			return pair(bounds(x.X, upper, subst), bounds(x.Y, upper, subst), mk)
		case syntax.OpSub:
			return pair(bounds(x.X, upper, subst), bounds(x.Y, !upper, subst), mk)
		case syntax.OpMul:
			if c, ok := indexLit(x.X); ok {
				return pair([]syntax.Expr{x.X}, bounds(x.Y, upper == (c >= 0), subst), mk)
			}
			if c, ok := indexLit(x.Y); ok {
				return pair(bounds(x.X, upper == (c >= 0), subst), []syntax.Expr{x.Y}, mk)
			}
		case syntax.OpDiv:
			if c, ok := indexLit(x.Y); ok && c > 0 {
				return pair(bounds(x.X, upper, subst), []syntax.Expr{x.Y}, mk)
			}
		}
	}
	return cap([]syntax.Expr{x})
}

// mapExprs applies f to each of xs.
func mapExprs(xs []syntax.Expr, f func(syntax.Expr) syntax.Expr) []syntax.Expr {
	out := make([]syntax.Expr, len(xs))
	for i, x := range xs {
		out[i] = f(x)
	}
	return out
}

// indexLit returns the value of x when it is an integer literal.
func indexLit(x syntax.Expr) (int64, bool) {
	l, ok := x.(*syntax.Lit)
	if !ok || l.Kind != syntax.IntLiteral {
		return 0, false
	}
	v, err := value.Literal(syntax.I64, l.Text)
	if err != nil {
		return 0, false
	}
	return v.Int64(), true
}

// opaqueFor returns the parameter of the opaque let whose definition x
// is, when its name still denotes it in lookup.
func (t *opaqueTable) opaqueFor(x syntax.Expr, lookup func(string) (binding, bool)) (presburger.Var, bool) {
	if t == nil {
		return presburger.Var{}, false
	}
	if _, _, _, ok := minMaxArgs(x); !ok {
		return presburger.Var{}, false
	}
	for _, o := range t.lets() {
		if !syntax.Equal(o.def, x) {
			continue
		}
		if b, ok := lookup(o.name); ok && b.let == nil && b.v.Kind == presburger.DimParam && b.v.Name == o.param {
			return b.v, true
		}
	}
	return presburger.Var{}, false
}

// opaqueValues returns the value of the opaque lets of t that need
// accepts at the parameters env (the kernel's, and the loop variables
// of a let inside a loop), each computed from its definition; false
// when one cannot be (a name it reads has no value).
func (t *opaqueTable) opaqueValues(env map[string]int64, need func(*opaqueLet) bool) (map[string]int64, bool) {
	out := map[string]int64{}
	all := func(name string) (int64, bool) {
		if v, ok := out[name]; ok {
			return v, true
		}
		v, ok := env[name]
		return v, ok
	}
	for _, o := range t.lets() {
		v, ok := evalIndex(o.def, o.lookup, all)
		switch {
		case ok:
			out[o.param] = v
		case need(o):
			return nil, false
		}
	}
	return out, true
}

// evalIndex evaluates the index expression x, its names resolved by
// lookup and the parameters by param.
func evalIndex(x syntax.Expr, lookup func(string) (binding, bool), param func(string) (int64, bool)) (int64, bool) {
	switch x := x.(type) {
	case *syntax.Ident:
		b, ok := lookup(x.Name)
		if !ok {
			return 0, false
		}
		if b.let != nil {
			return evalPw(b.let, param)
		}
		return param(b.v.Name)
	case *syntax.Lit:
		return indexLit(x)
	case *syntax.Unary:
		if x.Op != syntax.OpNeg {
			return 0, false
		}
		v, ok := evalIndex(x.X, lookup, param)
		return -v, ok
	case *syntax.Binary:
		a, ok := evalIndex(x.X, lookup, param)
		if !ok {
			return 0, false
		}
		b, ok := evalIndex(x.Y, lookup, param)
		if !ok {
			return 0, false
		}
		switch x.Op {
		case syntax.OpAdd:
			return a + b, true
		case syntax.OpSub:
			return a - b, true
		case syntax.OpMul:
			return a * b, true
		case syntax.OpDiv:
			if b <= 0 {
				return 0, false
			}
			return floorDivPos(a, b), true
		case syntax.OpRem:
			if b <= 0 {
				return 0, false
			}
			return a - b*floorDivPos(a, b), true
		}
	case *syntax.Call:
		if len(x.Args) == 2 && (x.Fun.Name == "min" || x.Fun.Name == "max") {
			a, ok := evalIndex(x.Args[0], lookup, param)
			if !ok {
				return 0, false
			}
			b, ok := evalIndex(x.Args[1], lookup, param)
			if !ok {
				return 0, false
			}
			if x.Fun.Name == "min" {
				return min(a, b), true
			}
			return max(a, b), true
		}
	}
	return 0, false
}

// floorDivPos is a / b rounded down, b > 0.
func floorDivPos(a, b int64) int64 {
	q := a / b
	if a%b != 0 && a < 0 {
		q--
	}
	return q
}

// evalPw evaluates the piecewise expression v at the parameters param.
func evalPw(v pwExpr, param func(string) (int64, bool)) (int64, bool) {
	for _, pc := range v {
		for _, c := range pc.cond {
			holds := true
			for _, a := range c {
				x, ok := evalLinear(a.e, param)
				if !ok {
					return 0, false
				}
				if (a.eq && x != 0) || (!a.eq && x < 0) {
					holds = false
					break
				}
			}
			if holds {
				return evalLinear(pc.e, param)
			}
		}
	}
	return 0, false
}

// evalLinear evaluates l at the parameters param.
func evalLinear(l linear, param func(string) (int64, bool)) (int64, bool) {
	c, ok := l.c.Int64()
	if !ok {
		return 0, false
	}
	sum := c
	for t, k := range l.terms {
		f, ok := k.Int64()
		if !ok {
			return 0, false
		}
		var x int64
		if t.div != "" {
			d, ok := l.divs[t.div]
			if !ok {
				return 0, false
			}
			n, ok := evalLinear(d.num, param)
			den, dok := d.den.Int64()
			if !ok || !dok || den <= 0 {
				return 0, false
			}
			x = floorDivPos(n, den)
		} else {
			if t.v.Kind != presburger.DimParam {
				return 0, false
			}
			if x, ok = param(t.v.Name); !ok {
				return 0, false
			}
		}
		sum += f * x
	}
	return sum, true
}

// withFacts restricts u to the facts of every opaque let of t: they
// hold wherever the lets have their values, in every scope. Those of a
// let inside a loop restrict only the components over its parameter:
// elsewhere its loop's variables, by name, may be another loop's.
func (t *opaqueTable) withFacts(u *presburger.UnionMap) (*presburger.UnionMap, error) {
	var out []*presburger.Map
	for _, m := range u.Maps() {
		for _, o := range t.lets() {
			if o.facts == nil || o.inLoop && paramIndex(m.Space(), o.param) < 0 {
				continue
			}
			var err error
			if m, err = m.IntersectParams(o.facts); err != nil {
				return nil, err
			}
		}
		out = append(out, m)
	}
	return presburger.NewUnionMap(out...), nil
}

// concerns reports whether a violation in u may be at a value o does
// not take: o is a let over the kernel's parameters, or a let inside a
// loop whose parameter u's components mention.
func concerns(o *opaqueLet, u *presburger.UnionMap) bool {
	if !o.inLoop {
		return true
	}
	for _, m := range u.Maps() {
		if paramIndex(m.Space(), o.param) >= 0 {
			return true
		}
	}
	return false
}

// restrictToDefined returns the points of u at one point of the kernel's
// parameters where every opaque let of t takes its value, which a replay
// of the kernel reaches; ok is false when the point of u it sampled has
// none (u's points there all give some opaque let another value).
func (t *opaqueTable) restrictToDefined(ctx context.Context, u *presburger.UnionMap, kernel []string) (_ *presburger.UnionMap, names string, ok bool, err error) {
	var lets []*opaqueLet
	loops := false
	for _, o := range t.lets() {
		if concerns(o, u) {
			lets = append(lets, o)
			loops = loops || o.inLoop
		}
	}
	if p, ok := t.unknownSymbol(u.Maps()...); ok {
		// A symbol another walk kept (see unknownSymbol).
		return nil, p, false, nil
	}
	if len(lets) == 0 {
		return u, "", true, nil
	}
	sp, pt, err := sampleSmall(ctx, u, kernel)
	if err != nil || pt == nil {
		return u, "", pt != nil, err
	}
	env := map[string]int64{}
	for i, p := range sp.Params {
		if v, ok := pt[i].Int64(); ok {
			env[p] = v
		}
	}
	need := map[*opaqueLet]bool{}
	var used []string
	for _, o := range lets {
		need[o] = true
		used = append(used, o.name)
	}
	names = strings.Join(used, ", ")
	vals, ok := t.opaqueValues(env, func(o *opaqueLet) bool { return need[o] })
	if !ok {
		return nil, names, false, nil
	}
	var fix []string
	fixed := map[string]int64{}
	for _, p := range kernel {
		if v, ok := env[p]; ok {
			fix, fixed[p] = append(fix, p), v
		}
	}
	if loops {
		// The value of a let inside a loop is the one at the sampled
		// iteration: its loop variables are fixed too.
		for _, p := range sp.Params {
			v, has := env[p]
			if _, done := fixed[p]; has && !done && !t.isOpaque(p) {
				fix, fixed[p] = append(fix, p), v
			}
		}
	}
	for _, o := range lets {
		if v, ok := vals[o.param]; ok {
			fix, fixed[o.param] = append(fix, o.param), v
		}
	}
	dom := presburger.Universe(presburger.ParamSpace(fix))
	for _, p := range fix {
		if dom, err = dom.FixParam(p, presburger.NewInt(fixed[p])); err != nil {
			return nil, names, false, err
		}
	}
	r, err := u.IntersectParams(dom)
	if err != nil {
		return nil, names, false, err
	}
	empty, err := r.IsEmpty(ctx)
	if err != nil || empty {
		return nil, names, false, err
	}
	return r, names, true, nil
}

// sampleSmall returns a point of u, its kernel parameters within
// [-4, 4] if it has one there, else within [-16, 16], [-256, 256], else
// any: the replay of a counterexample at the point runs the kernel at
// those parameters.
func sampleSmall(ctx context.Context, u *presburger.UnionMap, kernel []string) (presburger.Space, []presburger.Int, error) {
	for _, bound := range []int64{4, 16, 256} {
		var comps []*presburger.Map
		for _, m := range u.Maps() {
			b, err := m.BoundParams(kernel, bound)
			if err != nil {
				return presburger.Space{}, nil, err
			}
			comps = append(comps, b)
		}
		sp, pt, err := presburger.NewUnionMap(comps...).Sample(ctx)
		if err != nil || pt != nil {
			return sp, pt, err
		}
	}
	return u.Sample(ctx)
}

// A loop's range over lets of the kernel's parameters can run out of
// pieces where the lets themselves did not: Halide's range of a
// pyramid's first level, (f3_s0_v1_max_s - f3_s0_v1_min + 3) / 4 in
// lens_blur, reads two lets of 9 and 8 pieces whose conditions, built
// through the 8 levels, have 528 and 176 conjunctions, and their product
// passes maxPieces. Such a range fails with loopLets naming those lets;
// Analyze evaluates the kernel again with them kept as symbols from
// their let statements on (wantOpaque), as letOpaque keeps a let of too
// many pieces, and with the lets that letOpaque kept before the range
// kept at once. Bound at the let, the symbol is a parameter of every
// scope after it, the loop's and those after the loop alike.

// loopLets is the error of a loop's range that ran out of pieces over
// lets that can be kept as symbols.
type loopLets struct {
	names []string
	err   error
	// kept names the lets the walk had kept as symbols before the
	// range (letOpaque): the evaluation again keeps them from the
	// start, rather than translate each until it runs out of pieces
	// once more, work that counts against the step budget (lens_blur's
	// realized regions of f3 take most of a million steps each).
	kept []string
}

func (e *loopLets) Error() string {
	return fmt.Sprintf("%v (over the lets %s, to be kept as symbols)", e.err, strings.Join(e.names, ", "))
}

func (e *loopLets) Unwrap() error { return e.err }

// opaqueLetsKey is the context key of the names of the lets to keep as
// symbols (wantOpaque).
type opaqueLetsKey struct{}

// withOpaqueLets returns ctx with the let names added to those kept as
// symbols.
func withOpaqueLets(ctx context.Context, names []string) context.Context {
	old, _ := ctx.Value(opaqueLetsKey{}).(map[string]bool)
	m := make(map[string]bool, len(old)+len(names))
	for n := range old {
		m[n] = true
	}
	for _, n := range names {
		m[n] = true
	}
	return context.WithValue(ctx, opaqueLetsKey{}, m)
}

// wantOpaque reports whether the let name is to be kept as a symbol in
// the evaluation of ctx.
func wantOpaque(ctx context.Context, name string) bool {
	m, _ := ctx.Value(opaqueLetsKey{}).(map[string]bool)
	return m[name]
}

// rangeLets returns err as a loopLets naming the lets that the bounds
// lo and hi of a loop in s read by name and that can be kept as
// symbols (of several pieces, keepable: over the kernel's parameters
// alone in a scope without loop variables, or inside a loop), when err
// ran out of pieces (the range's own) and there are some; err itself
// otherwise. A scope's facts that pass their bound with the range do not
// keep its lets: nl_means's loop over x tiles, kept so, went on to a
// constraint of more than 4,096 disjuncts, in 100 times the CPU.
func (s *Scope) rangeLets(err error, lo, hi syntax.Expr) error {
	if !outOfPieces(err) {
		return err
	}
	var names []string
	seen := map[string]bool{}
	for _, e := range []syntax.Expr{lo, hi} {
		syntax.Inspect(e, func(x syntax.Expr) bool {
			id, ok := x.(*syntax.Ident)
			if !ok || seen[id.Name] {
				return true
			}
			seen[id.Name] = true
			if b, found := s.names[id.Name]; found && b.paramLet {
				names = append(names, id.Name)
			}
			return true
		})
	}
	if len(names) == 0 {
		return err
	}
	if s.inLoop() {
		names = s.letsRead(names, seen)
	}
	var kept []string
	for _, o := range s.opaque.lets() {
		kept = append(kept, o.name)
	}
	return &loopLets{names: names, err: err, kept: kept}
}

// storeLets returns err as a loopLets naming the lets that the indices
// and annotation xs of an assignment in s read by name, can be kept as
// symbols (paramLet) and have more than maxStoreLetConjs conjunctions
// in all their pieces' conditions, when err ran out of pieces and there
// are some not yet asked to be kept (wantOpaque); err itself otherwise.
// Halide's store to a pyramid level's buffer inside lens_blur's f26
// loops is at x - repeat_edge_3_v0_min_realized, a realized region's min
// (a nest of min, max and division through the levels) of hundreds of
// conjunctions: the write's cell map, its equalities per dimension
// multiplied, passes maxPieces where the index kept over a symbol has a
// handful of pieces. The lets of few conjunctions (the tile's base
// min(8 * x + lo, hi - 7)) are left alone: inside a loop the heap the
// block writes, over their symbol, would have no exact projection.
// Like a loop's range (rangeLets), Analyze then evaluates the kernel
// again with those lets kept as symbols from their let statements on.
func (s *Scope) storeLets(err error, xs ...syntax.Expr) error {
	if !outOfPieces(err) {
		return err
	}
	ctx := s.w.context()
	var names []string
	seen := map[string]bool{}
	for _, e := range xs {
		if e == nil {
			continue
		}
		syntax.Inspect(e, func(x syntax.Expr) bool {
			id, ok := x.(*syntax.Ident)
			if !ok || seen[id.Name] {
				return true
			}
			seen[id.Name] = true
			b, found := s.names[id.Name]
			if found && b.paramLet && conjunctions(b.let) > maxStoreLetConjs && !wantOpaque(ctx, id.Name) {
				names = append(names, id.Name)
			}
			return true
		})
	}
	if len(names) == 0 {
		return err
	}
	var kept []string
	for _, o := range s.opaque.lets() {
		kept = append(kept, o.name)
	}
	return &loopLets{names: names, err: err, kept: kept}
}

// maxStoreLetConjs is the most conjunctions a let read by an
// assignment's indices or annotation may have without being kept as a
// symbol when the assignment runs out of pieces (storeLets).
const maxStoreLetConjs = 8

// conjunctions returns the conjunctions of the conditions of v's pieces.
func conjunctions(v pwExpr) int {
	n := 0
	for _, p := range v {
		n += len(p.cond)
	}
	return n
}

// letsRead returns names and, after them, the lets inside a loop that
// their definitions read, directly or through other such lets, that can
// be kept as symbols (paramLet), each once (seen holds those met
// already). A loop's range
// inside a loop over Halide's bounds of a pyramid's level reads the
// bounds of the level below, which read the next level's, and so on:
// each level's loop would run out of pieces in turn, and each time the
// evaluation would start again (maxOpaqueRetries); the chain is kept as
// symbols at once.
func (s *Scope) letsRead(names []string, seen map[string]bool) []string {
	out := append([]string(nil), names...)
	for i := 0; i < len(out); i++ {
		b := s.names[out[i]]
		if b.def == nil {
			continue
		}
		syntax.Inspect(b.def, func(x syntax.Expr) bool {
			id, ok := x.(*syntax.Ident)
			if !ok || seen[id.Name] {
				return true
			}
			seen[id.Name] = true
			if d, found := s.names[id.Name]; found && d.paramLet && d.inLoop {
				out = append(out, id.Name)
			}
			return true
		})
	}
	return out
}

// errKeptLet is the cause of a let kept as a symbol because a loop's
// range over it ran out of pieces.
var errKeptLet = budgetError("a loop's range over its value ran out of pieces")

// maxOpaqueRetries bounds the evaluations of a kernel again with more
// lets kept as symbols (loopLets).
const maxOpaqueRetries = 4

// A let inside a loop whose translation costs more than maxLetSteps
// (lens_blur's realized region of a pyramid's level inside f26's loops:
// millions of pairs of cases) or passes maxPieces is kept as a symbol
// too, with the facts of its bounds over the loop's variables. Its value
// changes from one iteration to the next, so its parameter, named by
// the let's place (loopLetParam), stands for the value at one iteration
// and means nothing outside the let's block:
//
//   - A condition decided in the let's scope is proved for every value
//     its facts allow at every iteration, so for the let's own value;
//     violations are kept (restrictToDefined) at the sampled point with
//     the loop variables too, where the let's value is computed from its
//     definition; a condition whose violations mention the parameter
//     without its loop's variables (a read-write race, over two
//     iterations projected out) is undecided.
//   - The heap a block writes, which the iterated update of its loop
//     combines over the iterations, must not depend on the parameter:
//     at the end of the let's block, each component over it is replaced
//     by its projection when that is exact, the component the same for
//     every value the facts of the block allow (withoutLoopLets);
//     otherwise the evaluation fails, naming the let.
//   - A value obligation over the parameter is projected alike, or left
//     undecided, its reason naming the let (settle): the solver would
//     pick a value the let may not take.

// maxLetSteps caps the translation of one let inside a loop, in steps
// of the evaluation's allowance (work.capped).
const maxLetSteps = 100_000

// errLoopLet is the failure of a block whose writes depend on the value
// of a let inside a loop kept as a symbol.
type errLoopLet struct{ name string }

func (e *errLoopLet) Error() string {
	return fmt.Sprintf("the writes depend on the value of the let %s, inside a loop, kept as a symbol (its translation too costly)", e.name)
}

// withoutLoopLets returns h without the parameters of the lets inside a
// loop that the block kept as symbols, s being the scope after the
// block's statements and start the one before: each component over
// such a parameter replaced by its projection, exact under the facts
// of s; an errLoopLet when it is not.
func (s *Scope) withoutLoopLets(ctx context.Context, start *Scope, h *Heap) (*Heap, error) {
	lets := s.blockLets(start)
	if len(lets) == 0 || len(h.u.Maps()) == 0 {
		return h, nil
	}
	var facts *presburger.Map
	if s.facts != nil {
		facts = commonFacts(s.facts)
	}
	var out []*presburger.Map
	for _, m := range h.u.Maps() {
		for i := len(lets) - 1; i >= 0; i-- {
			r, ok, err := projectExact(ctx, m, lets[i].param, facts)
			if err != nil {
				return nil, err
			}
			if !ok {
				return nil, &errLoopLet{name: lets[i].name}
			}
			m = r
		}
		out = append(out, m)
	}
	return &Heap{u: presburger.NewUnionMap(out...)}, nil
}

// blockLets returns the lets inside a loop kept as symbols in s and not
// in start, in the order they were bound.
func (s *Scope) blockLets(start *Scope) []*opaqueLet {
	var out []*opaqueLet
	for _, p := range s.params[len(start.params):] {
		s.opaque.mu.Lock()
		o := s.opaque.byParam[p]
		s.opaque.mu.Unlock()
		if o != nil && o.inLoop {
			out = append(out, o)
		}
	}
	return out
}

// projectExact returns m with its parameter p projected out, and true,
// when that changes nothing where facts hold (nil: everywhere): m is
// then the same set at every value of p that facts allow, so at the
// let's own value. m itself and true when m is not over p.
func projectExact(ctx context.Context, m *presburger.Map, p string, facts *presburger.Map) (*presburger.Map, bool, error) {
	i := paramIndex(m.Space(), p)
	if i < 0 {
		return m, true, nil
	}
	e, err := m.ProjectOut(presburger.DimParam, i, 1)
	if err != nil {
		return nil, false, err
	}
	back := e
	if facts != nil {
		if back, err = e.IntersectParams(facts); err != nil {
			return nil, false, err
		}
	}
	ok, err := back.IsSubset(ctx, m)
	if err != nil || !ok {
		return nil, false, err
	}
	return e, true, nil
}

// settle projects the parameters of the lets inside a loop kept as
// symbols out of the points of c's value obligation, exactly under the
// lets' facts, or makes c undecided, its reason naming the let.
func (t *opaqueTable) settle(ctx context.Context, c *Condition) error {
	if c.Status != Pending || c.Obligation == nil {
		return nil
	}
	lets := t.lets()
	pts := c.Obligation.Points
	if p, ok := t.unknownSymbol(pts); ok {
		c.Status = Undecided
		c.Reason = fmt.Sprintf("the value depends on the let %s, inside a loop, kept as a symbol in the prophecy only: its value at each iteration is not known", p)
		return nil
	}
	for i := len(lets) - 1; i >= 0; i-- {
		o := lets[i]
		if !o.inLoop {
			continue
		}
		r, ok, err := projectExact(ctx, pts, o.param, o.facts)
		if err != nil && !undecidable(err) {
			return err
		}
		if err != nil || !ok {
			c.Status = Undecided
			c.Reason = fmt.Sprintf("the value depends on the let %s, inside a loop, kept as a symbol (its translation too costly): its value at each iteration is not known", o.name)
			return nil
		}
		pts = r
	}
	if pts != c.Obligation.Points {
		ob := *c.Obligation
		ob.Points = pts
		c.Obligation = &ob
	}
	return nil
}
