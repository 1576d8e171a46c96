package symeval

import (
	"fmt"

	"github.com/augur-verify/augur/expr"
	"github.com/augur-verify/augur/sare"
	"github.com/augur-verify/augur/sched"
	"github.com/augur-verify/augur/syntax"
)

// This file reduces the value side of reductions to the verifier of
// chapter 5 (Clément 2022, Section 7.5): the pair is transformed so that
// every cell holding a partial result of T(x) holds, prophetically, the
// element T(x) itself, and every accumulation is checked against the body
// of the reduction at its position by Analyze:
//
//   - in the specification, a reduction tensor T becomes opaque, T(x) =
//     T__val(x) with T__val an input (anything proved for every value of
//     it holds for the fold), and T__at(x, j), the body at position j of
//     T(x)'s domain (undefined outside it), is added;
//   - in the kernel, `{T(x) @ (j)} OP= e` becomes `{T__at(x, j)} := e`
//     whose heap entry is T(x); `{T(x) @ ()} := e` and the merge
//     `{T(x)} OP= b[...]` become plain assignments annotated T(x) whose
//     values reduce.go decides (the identity; the positions merged).
//
// What this leaves out, the positions of every partial result, is decided
// over Presburger sets by reduce.go (Analysis.AddReductionConditions):
// together they are the rules of Fig. 7.1 and 7.2.

// ReductionPair is a kernel and its specification transformed for their
// reductions, with what the symbolic evaluation needs to know about them.
// Analyze the transformed pair with the pair's options, then add the
// conditions on the positions with Analysis.AddReductionConditions.
type ReductionPair struct {
	// Spec and Kernel are the transformed pair, checked (SpecInfo,
	// KernelInfo).
	Spec       *sare.Spec
	SpecInfo   *expr.Info
	Kernel     *sched.Kernel
	KernelInfo *sched.Info

	// The pair as given.
	origSpec   *sare.Spec
	origKernel *sched.Kernel
	origInfo   *sched.Info

	heapAnnot map[*sched.Assign]syntax.Expr
	noValue   map[*sched.Assign]bool
	// accumulates lists the accumulations and merges, which read the
	// cell they write (Options.Accumulates).
	accumulates map[*sched.Assign]bool
	// orig maps the transformed assignments to the kernel's.
	orig map[*sched.Assign]*sched.Assign
}

// TransformReductions returns the transformed pair of the kernel k
// (checked by kinfo) and its specification spec, which has reductions. It
// fails when a reduction depends on itself, or when the transformed pair
// does not check.
func TransformReductions(spec *sare.Spec, k *sched.Kernel, kinfo *sched.Info) (p *ReductionPair, err error) {
	defer guard(&err, "transformation")
	if t := recursiveReduction(spec); t != "" {
		// The transformation hides a reduction's dependences on its
		// body: the specification's check that its recursion is well
		// founded would no longer see them.
		return nil, fmt.Errorf("the reduction %s depends on itself, which Augur cannot prove well founded", t)
	}
	used := map[string]bool{}
	for _, t := range spec.Tensors {
		used[t.Name.Name] = true
	}
	fresh := func(base string) string {
		name := base
		for i := 2; used[name]; i++ {
			name = fmt.Sprintf("%s%d", base, i)
		}
		used[name] = true
		return name
	}
	at := map[string]string{} // reduction tensor -> its body tensor
	ts := &sare.Spec{Params: spec.Params, Assumes: spec.Assumes, Outputs: spec.Outputs}
	for _, t := range spec.Tensors {
		eq := t.Reduction()
		if eq == nil {
			ts.Tensors = append(ts.Tensors, t)
			continue
		}
		red := eq.Reduce
		val := &sare.Tensor{Pos: t.Pos, Input: true, Name: &syntax.Ident{NamePos: t.Name.NamePos, Name: fresh(t.Name.Name + "__val")},
			Vars: t.Vars, Type: t.Type, TypePos: t.TypePos}
		args := make([]syntax.Expr, len(eq.Vars))
		for i, v := range eq.Vars {
			args[i] = &syntax.Ident{NamePos: v.NamePos, Name: v.Name}
		}
		opaque := &sare.Tensor{Pos: t.Pos, Name: t.Name, Vars: t.Vars, Type: t.Type, TypePos: t.TypePos}
		opaque.Eqs = []*sare.Equation{{Tensor: eq.Tensor, Vars: eq.Vars, Where: eq.Where, WherePos: eq.WherePos,
			RHS: &syntax.Call{Fun: &syntax.Ident{NamePos: eq.Tensor.NamePos, Name: val.Name.Name}, Args: args}}}
		body := &sare.Tensor{Pos: t.Pos, Name: &syntax.Ident{NamePos: t.Name.NamePos, Name: fresh(t.Name.Name + "__at")},
			Vars: append(append([]*syntax.Ident{}, t.Vars...), red.Vars...), Type: t.Type, TypePos: t.TypePos}
		at[t.Name.Name] = body.Name.Name
		where := eq.Where
		and := func(a, b syntax.Expr) syntax.Expr {
			if a == nil {
				return b
			}
			return &syntax.Binary{Op: syntax.OpAnd, X: a, Y: b}
		}
		for i, v := range red.Vars {
			id := &syntax.Ident{NamePos: v.NamePos, Name: v.Name}
			where = and(where, &syntax.Chain{Operands: []syntax.Expr{red.Los[i], id, red.His[i]}, Ops: []syntax.Op{syntax.OpLe, syntax.OpLt}})
		}
		if red.Cond != nil {
			where = and(where, red.Cond)
		}
		body.Eqs = []*sare.Equation{{Tensor: &syntax.Ident{NamePos: eq.Tensor.NamePos, Name: body.Name.Name},
			Vars: append(append([]*syntax.Ident{}, eq.Vars...), red.Vars...), RHS: eq.RHS, Where: where, WherePos: eq.WherePos}}
		ts.Tensors = append(ts.Tensors, val, opaque, body)
	}
	tsinfo, errs := sare.Check(ts)
	if err := errs.Err(); err != nil {
		return nil, fmt.Errorf("transformed specification: %w", err)
	}
	rp := &ReductionPair{origSpec: spec, origKernel: k, origInfo: kinfo,
		heapAnnot: map[*sched.Assign]syntax.Expr{}, noValue: map[*sched.Assign]bool{}, accumulates: map[*sched.Assign]bool{},
		orig: map[*sched.Assign]*sched.Assign{}}
	tk := *k
	tk.Body = rp.block(k.Body, at)
	tkinfo, errs := sched.Check(&tk, ts)
	if err := errs.Err(); err != nil {
		return nil, fmt.Errorf("transformed kernel: %w", err)
	}
	for st, x := range rp.heapAnnot {
		if t := ts.Tensor(st.Annot.(*syntax.Call).Fun.Name); t != nil {
			if c, ok := x.(*syntax.Call); ok {
				if tr := spec.Tensor(c.Fun.Name); tr != nil {
					tkinfo.Types.Types[x] = tr.Type
				}
			}
		}
	}
	rp.Spec, rp.SpecInfo, rp.Kernel, rp.KernelInfo = ts, tsinfo, &tk, tkinfo
	return rp, nil
}

// block returns b transformed, at mapping each reduction tensor to its
// body tensor.
func (rp *ReductionPair) block(b *sched.Block, at map[string]string) *sched.Block {
	if b == nil {
		return nil
	}
	nb := &sched.Block{Lbrace: b.Lbrace, Rbrace: b.Rbrace}
	for _, s := range b.Stmts {
		nb.Stmts = append(nb.Stmts, rp.stmt(s, at))
	}
	return nb
}

// stmt returns s transformed.
func (rp *ReductionPair) stmt(s sched.Stmt, at map[string]string) sched.Stmt {
	switch s := s.(type) {
	case *sched.Block:
		return rp.block(s, at)
	case *sched.If:
		n := *s
		n.Then = rp.block(s.Then, at)
		if s.Else != nil {
			n.Else = rp.stmt(s.Else, at)
		}
		return &n
	case *sched.Loop:
		n := *s
		n.Body = rp.block(s.Body, at)
		return &n
	case *sched.Alloc:
		n := *s
		n.Body = rp.block(s.Body, at)
		return &n
	case *sched.Assign:
		if !s.IsReduction() {
			return s
		}
		n := &sched.Assign{Array: s.Array, Indices: s.Indices, Annot: s.Annot, Value: s.Value}
		rp.orig[n] = s
		if s.At == nil || len(s.At) > 0 {
			rp.accumulates[n] = true
		}
		call, ok := s.Annot.(*syntax.Call)
		if len(s.At) > 0 && ok && at[call.Fun.Name] != "" {
			args := append(append([]syntax.Expr{}, call.Args...), s.At...)
			n.Annot = &syntax.Call{Fun: &syntax.Ident{NamePos: call.Fun.NamePos, Name: at[call.Fun.Name]}, Args: args}
			rp.heapAnnot[n] = s.Annot
		} else {
			rp.noValue[n] = true
		}
		return n
	}
	return s
}

// AnalyzeOptions returns o with the transformation's hooks, the options
// of the symbolic evaluation of the transformed pair.
func (rp *ReductionPair) AnalyzeOptions(o AnalyzeOptions) AnalyzeOptions {
	o.HeapAnnot, o.NoValue, o.Accumulates = rp.heapAnnot, rp.noValue, rp.accumulates
	return o
}

// recursiveReduction returns a reduction tensor whose equation depends,
// directly or not, on the tensor itself, or "".
func recursiveReduction(spec *sare.Spec) string {
	deps := map[string][]string{}
	for _, t := range spec.Tensors {
		for _, eq := range t.Eqs {
			syntax.Inspect(eq.RHS, func(x syntax.Expr) bool {
				if c, ok := x.(*syntax.Call); ok && spec.Tensor(c.Fun.Name) != nil {
					deps[t.Name.Name] = append(deps[t.Name.Name], c.Fun.Name)
				}
				return true
			})
		}
	}
	for _, t := range spec.Tensors {
		if t.Reduction() == nil {
			continue
		}
		seen := map[string]bool{}
		stack := append([]string{}, deps[t.Name.Name]...)
		for len(stack) > 0 {
			n := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if n == t.Name.Name {
				return n
			}
			if !seen[n] {
				seen[n] = true
				stack = append(stack, deps[n]...)
			}
		}
	}
	return ""
}
