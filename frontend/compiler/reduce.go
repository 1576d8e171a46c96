package compiler

import (
	"fmt"
	"strings"

	"github.com/augur-verify/augur/frontend/compiler/alg"

	"github.com/augur-verify/augur/expr"
	"github.com/augur-verify/augur/syntax"
	"github.com/augur-verify/augur/value"
)

// This file compiles reductions whose order the schedule may change
// (Clément 2022, chapter 7): atomic() and rfactor.
//
// `F.update(0).atomic()` declares, as Halide's atomic() does, that the
// update of F folds an associative and commutative operator over its RDom:
// F(x) += e, F(x) *= e, F(x) = min(F(x), e), max, &, | or ^, from a pure
// definition that is the operator's identity. The specification then
// defines F with reduce(...) over the whole RDom instead of a recurrence,
// the pure definition's store initialises an accumulator
// ({F(x) @ ()} := 0), and the update's store accumulates the position of
// the RDom it runs at ({F(x) @ (r_k)} += e). Its reduction loops may then
// be reordered, run in parallel (atomic accumulations), vectorised or
// unrolled, and the verifier checks that every position is accumulated
// exactly once.
//
// `F.update(0).rfactor(rv, u[, I])` is Halide's rfactor (Suriana, Adams
// and Kamil, "Parallel associative reductions in Halide", CGO 2017): the
// reduction loop rv of the update (an RDom variable, or a loop split or
// fused from them) becomes the pure variable u of a new intermediate func
// I (default F_intm), I(x, u), which reduces over the update's other
// reduction loops; F's update then merges I(x, rv) over rv. Both are
// reductions of F's elements: I's cells hold partial results of F(x),
// their accumulations annotated with the position of the original RDom
// they add ({F(x) @ (4 * r_ko + u)} += e), and F's update merges them
// ({F(x)} += buf_I[x, r_ki]). I is a func of its own, scheduled by name
// (I.update(0).vectorize(u)); rfactor applied again to F gives a tree of
// partial results.

// reduction is how a func takes part in a reduction of the specification.
type reduction struct {
	// target is the user's func whose elements the cells hold: F itself,
	// or the func an intermediate was factored out of.
	target *alg.Func
	op     expr.ReduceOp
	// the user's update, for the specification: its RDom, predicate and
	// the value folded at each position (alg names, r.k).
	rdom  *alg.RDom
	where syntax.Expr
	body  syntax.Expr
	// merge: the update's value reads a partial result (F after rfactor)
	// instead of accumulating positions.
	merge bool
	// at is the position the update accumulates, one expression per
	// variable of the user's RDom, outermost first, in the names of the
	// update's loops (alg names); nil for a merge.
	at []syntax.Expr
	// intermediate: a func rfactor made; it has no tensor in the
	// specification.
	intermediate bool
}

// reductionPattern recognises the update of f as a reduction: its operator
// and the value folded at each position.
func reductionPattern(f *alg.Func, u *alg.Update) (expr.ReduceOp, syntax.Expr, bool) {
	switch u.Op {
	case alg.AddTo:
		return expr.Sum, u.Value, true
	case alg.MulBy:
		return expr.Prod, u.Value, true
	case alg.Set:
	default:
		return expr.NoReduce, nil, false
	}
	self := func(x syntax.Expr) bool {
		cl, ok := x.(*syntax.Call)
		if !ok || cl.Fun.Name != f.Name.Name || len(cl.Args) != len(f.Vars) {
			return false
		}
		for i, a := range cl.Args {
			if id, ok := a.(*syntax.Ident); !ok || id.Name != f.Vars[i].Name {
				return false
			}
		}
		return true
	}
	other := func(x, y syntax.Expr) (syntax.Expr, bool) {
		switch {
		case self(x) && !self(y):
			return y, true
		case self(y) && !self(x):
			return x, true
		}
		return nil, false
	}
	switch v := u.Value.(type) {
	case *syntax.Call:
		if (v.Fun.Name == "min" || v.Fun.Name == "max") && len(v.Args) == 2 {
			if e, ok := other(v.Args[0], v.Args[1]); ok {
				op, _ := expr.ReduceOpByName(v.Fun.Name)
				return op, e, true
			}
		}
	case *syntax.Binary:
		ops := map[syntax.Op]expr.ReduceOp{syntax.OpAdd: expr.Sum, syntax.OpMul: expr.Prod,
			syntax.OpBitAnd: expr.BitAnd, syntax.OpBitOr: expr.BitOr, syntax.OpBitXor: expr.BitXor}
		if op, ok := ops[v.Op]; ok {
			if e, ok := other(v.X, v.Y); ok {
				return op, e, true
			}
		}
	}
	return expr.NoReduce, nil, false
}

// isIdentity reports whether x is a constant equal to op's identity on t.
func isIdentity(x syntax.Expr, op expr.ReduceOp, t syntax.Type) bool {
	neg := false
	if u, ok := x.(*syntax.Unary); ok && u.Op == syntax.OpNeg {
		neg, x = true, u.X
	}
	l, ok := x.(*syntax.Lit)
	if !ok {
		return false
	}
	text := l.Text
	if neg {
		text = "-" + text
	}
	v, err := value.Literal(t, text)
	if err != nil {
		return false
	}
	return v.String() == op.Identity(t).String()
}

// identityExpr is op's identity on t as an expression: the literal
// expr.ReduceOp.IdentityText spells (a number, true or false, inf),
// negated by a unary minus where the spelling has one.
func identityExpr(op expr.ReduceOp, t syntax.Type) syntax.Expr {
	text, negative := strings.CutPrefix(op.IdentityText(t), "-")
	var x syntax.Expr
	switch {
	case text == "inf":
		x = ident(text)
	case text == "true" || text == "false":
		x = &syntax.Lit{Kind: syntax.BoolLiteral, Text: text}
	case strings.ContainsAny(text, ".eE"):
		x = &syntax.Lit{Kind: syntax.FloatLiteral, Text: text}
	default:
		x = &syntax.Lit{Kind: syntax.IntLiteral, Text: text}
	}
	if negative {
		x = neg(x)
	}
	return x
}

// makeReduction checks that f's update is a reduction the schedule may
// re-order (atomic() and rfactor need one), records it, and replaces f in
// the compiled program by its normal form: the update's value is the value
// folded at each position. A func already recorded is returned as is.
func (c *compiler) makeReduction(d *alg.Directive, f *alg.Func) (*reduction, error) {
	if red := c.red[f.Name.Name]; red != nil {
		return red, nil
	}
	if d.Update < 0 {
		return nil, c.dirErr(d, syntax.CodeSchedule, "%s applies to an update stage: %s.update(0).%s(...)", d.Name, f.Name.Name, d.Name)
	}
	if len(f.Updates) != 1 {
		return nil, c.dirErr(d, syntax.CodeSchedule, "%s needs %s to have a single update definition: its pure definition and that update are one reduction", d.Name, f.Name.Name)
	}
	u := f.Updates[0]
	if u.RDom == nil {
		return nil, c.dirErr(d, syntax.CodeSchedule, "%s needs an update over an RDom: there is nothing to reduce", d.Name)
	}
	op, body, ok := reductionPattern(f, u)
	if !ok {
		return nil, c.dirErr(d, syntax.CodeSchedule, "%s needs an associative and commutative update: F(x) += e, F(x) *= e, or F(x) = OP(F(x), e) with min, max, +, *, &, | or ^ (this update is %s %s %s)",
			d.Name, syntax.ExprString(call(f.Name.Name, u.Args...)), u.Op, syntax.ExprString(u.Value))
	}
	if len(readsOf(body, f.Name.Name)) > 0 {
		return nil, c.dirErr(d, syntax.CodeSchedule, "%s needs an update that reads %s only as its accumulator %s", d.Name, f.Name.Name, syntax.ExprString(call(f.Name.Name, idents(identNames(f.Vars))...)))
	}
	if !op.AppliesTo(f.Type) {
		return nil, c.dirErr(d, syntax.CodeSchedule, "the reduction operator %s does not apply to %s values", op, f.Type)
	}
	if f.Type.IsFloat() && (op == expr.Min || op == expr.Max) {
		return nil, c.dirErr(d, syntax.CodeSchedule, "a %s reduction of floats starts from an infinite identity, which the kernel language cannot write: reduce integers, or keep the update's order", op)
	}
	if !isIdentity(f.Value, op, f.Type) {
		return nil, c.dirErr(d, syntax.CodeSchedule, "%s needs the pure definition of %s to be the identity of %s, %s; it is %s", d.Name, f.Name.Name, op, op.IdentityText(f.Type), syntax.ExprString(f.Value))
	}
	red := &reduction{target: f, op: op, rdom: u.RDom, where: u.Where, body: body}
	names, _ := rdomDims(u)
	for i := range names {
		v := u.RDom.Vars[len(u.RDom.Vars)-1-i]
		red.at = append(red.at, ident(u.RDom.Name.Name+"."+v.Name.Name))
	}
	// the normal form: F's update folds body
	nu := *u
	nu.Op, nu.Value = alg.Set, body
	c.replaceUpdate(f, &nu)
	c.red[f.Name.Name] = red
	return red, nil
}

// replaceUpdate replaces f, in the compiled program, by a copy whose only
// update is u.
func (c *compiler) replaceUpdate(f *alg.Func, u *alg.Update) {
	nf := *f
	u.Target = &nf
	nf.Updates = []*alg.Update{u}
	for i, d := range c.p.Decls {
		if d == alg.Decl(f) {
			c.p.Decls[i] = &nf
		}
	}
}

// atomicDirective checks and records atomic().
func (c *compiler) atomicDirective(d *alg.Directive, f *alg.Func) error {
	_, err := c.makeReduction(d, f)
	return err
}

// span is a half-open range [lo, hi) of a loop, in alg names.
type span struct{ lo, hi syntax.Expr }

// rfactorDirective applies F.update(0).rfactor(rv, u[, I]): F's update
// becomes the merge, over rv, of the partial results of a new func I
// (rfactorIntermediate) that reduces over the other loops of the update
// with rv as a new pure dimension u.
func (c *compiler) rfactorDirective(d *alg.Directive, f *alg.Func) error {
	name := f.Name.Name
	rvName, uName, intm, err := c.rfactorArgs(d, f)
	if err != nil {
		return err
	}
	red, err := c.makeReduction(d, f)
	if err != nil {
		return err
	}
	f = c.p.Func(name)
	ls, err := c.rfactorStage(d, f, rvName, uName, intm)
	if err != nil {
		return err
	}
	u := f.Updates[0]
	rd := u.RDom
	rngs, defs, guards, err := c.rfactorLoops(ls, rd)
	if err != nil {
		return err
	}
	iref, ired := rfactorIntermediate(f, red, ls, rvName, uName, intm, rngs, defs, guards)
	// F's update now merges the partial results over rv
	short := strings.TrimPrefix(rvName, rd.Name.Name+".")
	rv := rngs[rvar(rvName)]
	nrd := &alg.RDom{Pos: rd.Pos, Name: &syntax.Ident{Name: rd.Name.Name}, Vars: []*alg.RVar{{Name: &syntax.Ident{Name: short}, Lo: rv.lo, Hi: rv.hi}}}
	nu := &alg.Update{Func: u.Func, Args: u.Args, Op: alg.Set, OpPos: u.OpPos,
		Value: call(intm, append(idents(identNames(f.Vars)), ident(rd.Name.Name+"."+short))...), RDom: nrd}
	// the intermediate is defined just before F, which reads it
	for i, dc := range c.p.Decls {
		if dc == alg.Decl(f) {
			c.p.Decls = append(c.p.Decls[:i], append([]alg.Decl{iref}, c.p.Decls[i:]...)...)
			break
		}
	}
	c.replaceUpdate(f, nu)
	red.merge, red.at = true, nil
	c.red[intm] = ired
	c.taken[intm], c.taken[uName] = true, true
	c.stages[intm] = []string{intm, intm}
	nf := c.p.Func(name)
	c.fs[intm] = newFuncSched(iref)
	c.fs[name].stages[1] = defaultStage(nf, 1)
	return nil
}

// rfactorArgs checks where rfactor stands (on the update, at the end of
// its chain, not in a specialised copy) and returns its arguments: the
// reduction loop rv, the new pure variable u and the intermediate's name.
func (c *compiler) rfactorArgs(d *alg.Directive, f *alg.Func) (rvName, uName, intm string, err error) {
	name := f.Name.Name
	if d.Update != 0 {
		return "", "", "", c.dirErr(d, syntax.CodeSchedule, "rfactor applies to the update of a func: %s.update(0).rfactor(r.k, u)", name)
	}
	rvName, ok1 := argName(d, 0)
	uName, ok2 := argName(d, 1)
	if !ok1 || !ok2 {
		return "", "", "", c.dirErr(d, syntax.CodeArity, "expected %s", arity["rfactor"].usage)
	}
	intm = alg.RFactorName(d)
	if intm == "" {
		return "", "", "", c.dirErr(d, syntax.CodeSchedule, "the intermediate func must be named by a plain name")
	}
	after := false
	for _, o := range c.dirs {
		if after && o.Chain == d.Chain {
			return "", "", "", c.dirErr(d, syntax.CodeSchedule, "rfactor ends its chain: schedule the intermediate %s, and %s.update(0), on lines of their own", intm, name)
		}
		after = after || o == d
	}
	if _, in := c.chainSpec[d.Chain]; in {
		return "", "", "", c.dirErr(d, syntax.CodeSchedule, "rfactor cannot apply to a specialised copy of a stage")
	}
	return rvName, uName, intm, nil
}

// rfactorStage returns the loops of f's update as scheduled so far, after
// checking that only splits and fuses of reduction loops precede rfactor
// (the rest of the stage's schedule would be lost), that rv is one of its
// reduction loops and that u and the intermediate's name are new.
func (c *compiler) rfactorStage(d *alg.Directive, f *alg.Func, rvName, uName, intm string) (*loopSched, error) {
	name := f.Name.Name
	st := c.fs[name].stages[1]
	ls := st.loops
	if len(st.specs) > 0 {
		return nil, c.dirErr(d, syntax.CodeSchedule, "rfactor must come before specialize")
	}
	var pureDims []string
	for _, dm := range ls.dims {
		if dm.pure {
			if dm.kind != serial {
				return nil, c.dirErr(d, syntax.CodeSchedule, "rfactor must come before the other directives of %s.update(0) (the pure loop %s is already scheduled)", name, dm.name)
			}
			pureDims = append(pureDims, dm.name)
		} else if len(pureDims) > 0 {
			return nil, c.dirErr(d, syntax.CodeSchedule, "rfactor must come before the stage's reorders: reduction loops innermost, then %s", strings.Join(identNames(f.Vars), ", "))
		} else if dm.kind != serial {
			return nil, c.dirErr(d, syntax.CodeSchedule, "rfactor must come before the other directives of %s.update(0) (the loop %s is already scheduled)", name, dm.name)
		}
	}
	if strings.Join(pureDims, ",") != strings.Join(identNames(f.Vars), ",") {
		return nil, c.dirErr(d, syntax.CodeSchedule, "rfactor must come before the directives on the pure loops of %s.update(0)", name)
	}
	rvi := ls.find(rvName)
	if rvi < 0 || ls.dims[rvi].pure {
		var red []string
		for _, dm := range ls.dims {
			if !dm.pure {
				red = append(red, dm.name)
			}
		}
		return nil, c.dirErr(d, syntax.CodeSchedule, "%s is not a reduction loop of %s.update(0) (its reduction loops, innermost first: %s)", rvName, name, strings.Join(red, ", "))
	}
	if !syntax.ValidName(uName) || strings.HasPrefix(uName, "buf_") || strings.Contains(uName, ".") {
		return nil, c.dirErr(d, syntax.CodeSchedule, "%s cannot name a pure variable", uName)
	}
	if c.taken[uName] {
		return nil, c.dirErr(d, syntax.CodeSchedule, "%s is already a name of the algorithm: the new pure variable needs a new name", uName)
	}
	if !syntax.ValidName(intm) || strings.HasPrefix(intm, "buf_") || c.taken[intm] {
		return nil, c.dirErr(d, syntax.CodeSchedule, "%s cannot name the intermediate func: it must be a new name", intm)
	}
	return ls, nil
}

// rfactorLoops returns each loop of the stage ls (of the RDom rd) as an
// expression of the loops left after the splits and fuses (Reinking 2022,
// section 2.8.2): the ranges of the loops, the definitions of the loops
// split or fused away, and the guards of the splits' tails. Loops are
// named here without dots (r.k is r_k, a name reserved for generated
// code), so that affine forms parse.
func (c *compiler) rfactorLoops(ls *loopSched, rd *alg.RDom) (rngs map[string]span, defs map[string]syntax.Expr, guards []syntax.Expr, err error) {
	rngs = map[string]span{}
	for _, v := range rd.Vars {
		rngs[rvar(rd.Name.Name+"."+v.Name.Name)] = span{v.Lo, v.Hi}
	}
	defs = map[string]syntax.Expr{}
	for _, sp := range ls.splits {
		old, inner, outer := rvar(sp.old), rvar(sp.inner), rvar(sp.outer)
		if sp.fuse {
			ri, ro := rngs[inner], rngs[outer]
			l, ok := linearize(sub(ri.hi, ri.lo))
			if !ok || !allZero(l) || l.c < 1 {
				return nil, nil, nil, c.errAt(sp.pos, syntax.CodeUnsupported, "fuse of %s and %s: the extent of the inner loop is not a positive constant", sp.inner, sp.outer)
			}
			rngs[old] = span{intLit(0), norm(bin(intLit(l.c), syntax.OpMul, sub(ro.hi, ro.lo)))}
			defs[inner] = add(ri.lo, bin(ident(old), syntax.OpRem, intLit(l.c)))
			defs[outer] = add(ro.lo, bin(ident(old), syntax.OpDiv, intLit(l.c)))
			continue
		}
		ro := rngs[old]
		ext := sub(ro.hi, ro.lo)
		F := sp.factor
		outerHi := norm(ceilDiv(ext, F))
		divisible := false
		if l, ok := linearize(ext); ok && allZero(l) {
			outerHi = intLit((l.c + F - 1) / F)
			divisible = l.c%F == 0
		}
		if c.inject == InjectReductionSkipTail && !c.injected && !divisible {
			// the last, partial tile of the split reduction forgotten
			outerHi = norm(floorDiv(ext, num(F)))
			c.injected = true
		}
		rngs[inner] = span{intLit(0), intLit(F)}
		rngs[outer] = span{intLit(0), outerHi}
		defs[old] = add(ro.lo, bin(bin(intLit(F), syntax.OpMul, ident(outer)), syntax.OpAdd, ident(inner)))
		if !divisible {
			guards = append(guards, bin(ident(old), syntax.OpLt, ro.hi))
		}
	}
	return rngs, defs, guards, nil
}

// rfactorIntermediate builds the intermediate func intm of rfactor and its
// reduction: f's dimensions and u (the loop rv), initialised to the
// identity and updated over an RDom of the other loops left (none when rv
// was the only one) with f's update rewritten into those loops, under the
// guards of the splits' tails.
func rfactorIntermediate(f *alg.Func, red *reduction, ls *loopSched, rvName, uName, intm string,
	rngs map[string]span, defs map[string]syntax.Expr, guards []syntax.Expr) (*alg.Func, *reduction) {
	u := f.Updates[0]
	rd := u.RDom
	// the loops left: rv becomes u, the others the intermediate's RDom
	leaf := map[string]syntax.Expr{rvar(rvName): ident(uName)}
	ird := &alg.RDom{Pos: rd.Pos, Name: &syntax.Ident{Name: rd.Name.Name}}
	for _, dm := range ls.dims {
		if dm.pure || dm.name == rvName {
			continue
		}
		short := strings.TrimPrefix(dm.name, rd.Name.Name+".")
		leaf[rvar(dm.name)] = ident(rd.Name.Name + "." + short)
		r := rngs[rvar(dm.name)]
		ird.Vars = append(ird.Vars, &alg.RVar{Name: &syntax.Ident{Name: short}, Lo: r.lo, Hi: r.hi})
	}
	if len(ird.Vars) == 0 {
		ird = nil
	}
	// resolve rewrites an expression of the stage's original loops into
	// the intermediate's (affine ones in canonical form).
	resolve := func(x syntax.Expr) syntax.Expr {
		x = rewrite(x, func(e syntax.Expr) syntax.Expr {
			if id, ok := e.(*syntax.Ident); ok && strings.Contains(id.Name, ".") {
				return ident(rvar(id.Name))
			}
			return nil
		})
		for i := 0; i < 64; i++ {
			y := renameVars(x, defs)
			if syntax.Equal(x, y) {
				break
			}
			x = y
		}
		return renameVars(norm(x), leaf)
	}
	var where syntax.Expr
	for _, g := range guards {
		where = conj(where, resolve(g))
	}
	if u.Where != nil {
		where = conj(where, resolve(u.Where))
	}
	vars := append(append([]*syntax.Ident(nil), f.Vars...), &syntax.Ident{Name: uName})
	iref := &alg.Func{Pos: f.Pos, Name: &syntax.Ident{Name: intm}, Vars: vars, Type: f.Type, Value: identityExpr(red.op, f.Type)}
	iu := &alg.Update{Func: &syntax.Ident{Name: intm}, Args: idents(identNames(vars)), Op: alg.Set, Value: resolve(u.Value), Where: where, Target: iref, RDom: ird}
	iref.Updates = []*alg.Update{iu}
	ired := &reduction{target: red.target, op: red.op, rdom: red.rdom, where: red.where, body: red.body, merge: red.merge, intermediate: true}
	for _, a := range red.at {
		ired.at = append(ired.at, resolve(a))
	}
	return iref, ired
}

// reductionSpec writes F(x) = reduce(op, r_k in lo .. hi, ..., body) for
// the user's func of red.
func (c *compiler) reductionSpec(b *strings.Builder, red *reduction) {
	f := red.target
	x := joinIdents(f.Vars)
	fmt.Fprintf(b, "tensor %s(%s) : %s\n", f.Name.Name, x, f.Type)
	var ranges []string
	for i := len(red.rdom.Vars) - 1; i >= 0; i-- {
		v := red.rdom.Vars[i]
		ranges = append(ranges, fmt.Sprintf("%s in %s .. %s", rvar(red.rdom.Name.Name+"."+v.Name.Name), syntax.ExprString(v.Lo), syntax.ExprString(v.Hi)))
	}
	dom := strings.Join(ranges, ", ")
	if red.where != nil {
		dom += " where " + syntax.ExprString(specValue(red.where, "", nil))
	}
	fmt.Fprintf(b, "%s(%s) = reduce(%s, %s, %s)\n", f.Name.Name, x, red.op, dom, syntax.ExprString(specValue(red.body, "", nil)))
}

// reductionStore is the store of stage s of a reduction func: the
// initialisation of an accumulator, or the accumulation of the RDom's
// position or the merge of a partial result (under an if on the update's
// predicate).
func (c *compiler) reductionStore(f *alg.Func, s int, u *alg.Update, ren map[string]syntax.Expr, pure []string) node {
	name := f.Name.Name
	red := c.red[name]
	ann := call(red.target.Name.Name, idents(pure[:len(red.target.Vars)])...)
	if s == 0 {
		val := renameVars(c.values[name][0], ren)
		if c.inject == InjectReductionIdentity && !c.injected {
			val = bin(val, syntax.OpAdd, intLit(1))
			c.injected = true
		}
		return &nStore{fn: name, stage: 0, args: idents(pure), ann: ann, at: []syntax.Expr{}, value: val}
	}
	op := red.op
	if red.merge && c.inject == InjectMergeOperator && !c.injected {
		op = map[expr.ReduceOp]expr.ReduceOp{expr.Sum: expr.Prod, expr.Prod: expr.Sum, expr.Min: expr.Max, expr.Max: expr.Min,
			expr.BitAnd: expr.BitOr, expr.BitOr: expr.BitAnd, expr.BitXor: expr.BitOr}[op]
		c.injected = true
	}
	st := &nStore{fn: name, stage: s, args: idents(pure), ann: ann, op: op, value: renameVars(c.values[name][s], ren)}
	if !red.merge {
		for _, a := range red.at {
			st.at = append(st.at, renameVars(a, ren))
		}
	}
	if u.Where == nil {
		return st
	}
	return &nIf{cond: renameVars(u.Where, ren), then: &nBlock{stmts: []node{st}}}
}
