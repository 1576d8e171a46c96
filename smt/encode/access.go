package encode

import (
	"strconv"
	"strings"

	"github.com/augur-verify/augur/smt"
	"github.com/augur-verify/augur/syntax"
)

// access encodes the tensor access T(args) of type t: the application of
// Tensor(T) to the arguments' Int terms, or, when T may be unfolded, the
// unfolding of its equations (see the package documentation for why both
// are sound given the verifier's separate checks that every accessed
// element lies in its tensor's domain).
func (c *exprEnc) access(x *syntax.Call, t syntax.Type) (tv, error) {
	name := x.Fun.Name
	e := c.e
	if e.spec == nil || e.spec.Tensor(name) == nil {
		return tv{}, exprError(x, "unknown function or tensor %s", name)
	}
	tensor := e.spec.Tensor(name)
	if tensor.Type != t {
		return tv{}, exprError(x, "tensor %s has type %s, recorded as %s", name, tensor.Type, t)
	}
	if len(x.Args) != tensor.Rank() {
		return tv{}, exprError(x, "tensor %s has %d dimensions, accessed with %d indices", name, tensor.Rank(), len(x.Args))
	}
	args, def, err := c.accessArgs(x)
	if err != nil {
		return tv{}, err
	}
	r, err := c.accessAt(x, args)
	if err != nil || def == nil {
		return r, err
	}
	return tv{r.val, c.e.and(r.def, def), r.free}, nil
}

// accessAt encodes the tensor access x at the encoded arguments args.
func (c *exprEnc) accessAt(x *syntax.Call, args []*smt.Term) (tv, error) {
	name := x.Fun.Name
	e := c.e
	tensor := e.spec.Tensor(name)
	f, err := e.Tensor(name)
	if err != nil {
		return tv{}, exprError(x, "%v", err)
	}
	uf := c.defined(f.Apply(args...))
	if tensor.Input {
		return uf, nil
	}
	if tensor.Type.IsFloat() {
		e.rangeFact(name, uf.val)
	}
	top := c.opts.UnfoldTop && c.level == 0
	if (c.opts.Keep != nil && c.opts.Keep(uf.val)) || (!top && (c.opts.Unfold == nil || !c.opts.Unfold(name))) {
		e.cutoffs++
		return uf, nil
	}
	// Every unfoldable access with the same arguments (and parameters) gets
	// one term, whichever came first: the two sides of an obligation are
	// encoded separately, and an access unfolded on one side and not on the
	// other (R(i, j, k-1) inside the unfolding of R(i, j, k), the depth spent)
	// would not be recognised as equal. Any choice is sound.
	key, keep := c.memoKey(name, args)
	if m, ok := e.memo[key]; ok {
		return m.r, nil
	}
	r := uf
	deep := c.level >= max(c.opts.Depth, 1) || c.opts.Unfoldings > 0 && e.unfolded >= c.opts.Unfoldings
	if deep {
		e.cutoffs++
	} else {
		select {
		case <-e.done:
			return tv{}, ErrInterrupted
		default:
		}
		e.unfolded++
		if r, err = c.unfold(tensor.Name.Name, args, uf); err != nil {
			return tv{}, err
		}
		if c.opts.Axioms {
			// Keep the access and state its definition as a hypothesis:
			// every other access to the same element, whatever its
			// arguments' syntax, is then tied to it by congruence.
			e.axioms = append(e.axioms, uf.val.Eq(r.val))
			r = tv{uf.val, r.def, r.free}
		}
	}
	e.memo[key] = memoEntry{r, keep}
	return r, nil
}

// RangeFacts returns the number of range facts among the axioms Axioms
// returns (rangefacts.go).
func (e *Encoder) RangeFacts() int {
	if e.floatInts == 0 {
		return 0
	}
	return len(e.factOrder)
}

// Axioms returns the definitions of the accesses unfolded with
// ExprOptions.Axioms since the last ResetUnfoldings: equalities
// T(args) = unfolding, to be asserted with the formulas that use them.
// Each is an instance of T's equations, true wherever the specification
// is well defined (which the verifier checks separately). Once a
// float-to-integer conversion that the ranges do not decide has been
// encoded, they include the range facts of the float tensors' accesses
// (rangefacts.go), true under the same checks.
func (e *Encoder) Axioms() []*smt.Term {
	out := append([]*smt.Term(nil), e.axioms...)
	if e.floatInts > 0 {
		for _, id := range e.factOrder {
			out = append(out, e.facts[id].fact)
		}
	}
	return out
}

// unfold is ite(where₁(args), body₁(args), ite(..., fallback)) over the
// equations of the tensor called name, the bodies encoded one level deeper.
func (c *exprEnc) unfold(name string, args []*smt.Term, fallback tv) (tv, error) {
	e := c.e
	tensor := e.spec.Tensor(name)
	r := fallback
	for i := len(tensor.Eqs) - 1; i >= 0; i-- {
		eq := tensor.Eqs[i]
		vars := map[string]*smt.Term{}
		for j, v := range eq.Vars {
			if j < len(args) {
				vars[v.Name] = args[j]
			}
		}
		root := c.root
		idx := func(name string) (*smt.Term, bool) {
			if t, ok := vars[name]; ok {
				return t, true
			}
			if root == nil {
				return nil, false
			}
			return root(name)
		}
		cond := e.tru
		if eq.Where != nil {
			k, err := e.constraint(eq.Where, idx)
			if err != nil {
				return tv{}, err
			}
			cond = k
			if k.Simplify().IsFalse() {
				// A ground access outside this equation's domain: its
				// body is irrelevant, and unfolding it could descend
				// forever.
				continue
			}
		}
		decided := false
		if c.opts.Decide != nil && eq.Where != nil {
			if v, ok := c.opts.Decide(cond); ok {
				if !v {
					continue // never in this equation's domain here
				}
				decided = true // always in it: the others are disjoint
			}
		}
		var types map[syntax.Expr]syntax.Type
		if e.info != nil {
			types = e.info.Types
		}
		body := &exprEnc{e: e, types: types, idx: idx, root: c.root, opts: c.opts, level: c.level + 1, overflow: e.spec.Overflow}
		b, err := body.expr(eq.RHS)
		if err != nil {
			return tv{}, err
		}
		if b.free != nil {
			// Where the body is unconstrained, the element is whatever
			// the kernel stored for it: the access, not the body.
			b.val = b.free.Ite(fallback.val, b.val)
		}
		if decided || eq.Where == nil && len(tensor.Eqs) == 1 {
			return b, nil
		}
		var free *smt.Term
		if b.free != nil || r.free != nil {
			free = cond.Ite(e.orFalse(b.free), e.orFalse(r.free))
		}
		r = tv{cond.Ite(b.val, r.val), cond.Ite(b.def, r.def), free}
	}
	return r, nil
}

// memoKey identifies an access by its tensor, its simplified arguments and
// the caller's parameter terms, by their Z3 identifiers (Z3 shares equal
// terms, so equal terms have one identifier). It also returns those terms:
// the memo entry keeps them alive, so that no other term can take an
// identifier over while the entry exists.
func (c *exprEnc) memoKey(name string, args []*smt.Term) (string, []*smt.Term) {
	var b strings.Builder
	keep := make([]*smt.Term, 0, len(args)+len(c.e.spec.Params))
	b.WriteString(name)
	b.WriteByte('(')
	for i, a := range args {
		if i > 0 {
			b.WriteByte(',')
		}
		a = a.Simplify()
		keep = append(keep, a)
		b.WriteString(strconv.FormatUint(uint64(a.ID()), 10))
	}
	b.WriteByte(')')
	for _, p := range c.e.spec.Params {
		b.WriteByte('|')
		if c.root != nil {
			if t, ok := c.root(p.Name); ok && t != nil {
				keep = append(keep, t)
				b.WriteString(strconv.FormatUint(uint64(t.ID()), 10))
			}
		}
	}
	return b.String(), keep
}

// ForgetUnfoldings forgets the unfolded accesses memoised so far (not
// their axioms nor the counts), so that the same expression can be encoded
// again with other options, such as a greater depth.
func (e *Encoder) ForgetUnfoldings() { clear(e.memo) }

// ResetUnfoldings forgets the unfolded tensor accesses shared by every Expr
// call of the encoder, so that later calls unfold afresh. It never matters
// for soundness; calling it between unrelated obligations keeps an access
// cut off at the depth limit in one from staying cut off in the next.
func (e *Encoder) ResetUnfoldings() {
	clear(e.seen)
	clear(e.memo)
	clear(e.intReals)
	e.axioms = nil
	clear(e.facts)
	e.factOrder = nil
	e.floatInts = 0
	e.cutoffs = 0
	e.unfolded = 0
	e.opaqueFuncs = 0
}

// UninterpretedBuiltins returns the number of uses of builtins encoded as
// uninterpreted functions (sqrt, exp, log, pow, sin, cos, tanh,
// fast_inverse, fast_inverse_sqrt in the real model; all but sqrt in the
// IEEE model) since the last ResetUnfoldings: a model of terms using them
// need not be a genuine evaluation.
func (e *Encoder) UninterpretedBuiltins() int { return e.opaqueFuncs }

// CutOffs returns the number of accesses to computed tensors left without
// their definition (not to be unfolded, or the depth spent) since the last
// ResetUnfoldings: zero means the terms mention input tensors only, so a
// model of them is a genuine assignment of the inputs.
func (e *Encoder) CutOffs() int { return e.cutoffs }
