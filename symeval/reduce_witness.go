package symeval

import (
	"fmt"

	"github.com/augur-verify/augur/expr"
	"github.com/augur-verify/augur/internal/quasiaffine"
	"github.com/augur-verify/augur/presburger"
	"github.com/augur-verify/augur/sched"
	"github.com/augur-verify/augur/syntax"
	"github.com/augur-verify/augur/value"
)

// This file turns the reduction checks' results into conditions: proved,
// or failed with one violating instance, as small as the parameters
// allow, located at its statement with its loop indices and cell.

// add records a condition of family f.
func (c *redCheck) add(f *redFamily, kind sched.Kind, st Status, viol *presburger.UnionMap, detail string) *Condition {
	cond := &Condition{Kind: kind, Status: st, Violations: viol, Detail: detail}
	if f.kind == redOut {
		cond.Pos, cond.Text = f.binding.Pos(), sched.BindingString(f.binding)
	} else {
		cond.Pos, cond.Text, cond.Stmt = f.stmt.Pos(), sched.StmtLine(f.stmt), f.stmt
		for d, l := range f.loops {
			cond.Loops = append(cond.Loops, LoopVar{Name: l.loop.Var.Name, Param: fmt.Sprintf("L%d", d)})
		}
	}
	c.conds = append(c.conds, cond)
	return cond
}

// undecided records an undecided condition of family f, with its reason.
func (c *redCheck) undecided(f *redFamily, kind sched.Kind, reason string) {
	cond := c.add(f, kind, Undecided, nil, "")
	cond.Reason = reason
}

// decide records the condition that bad, a set of f's instances, is
// empty.
func (c *redCheck) decide(f *redFamily, kind sched.Kind, bad *presburger.UnionMap, msg string) error {
	var err error
	if c.assume != nil {
		if bad, err = bad.IntersectParams(c.assume); err != nil {
			return err
		}
	}
	empty, err := bad.IsEmpty(c.ctx)
	if err != nil {
		if c.ctx.Err() != nil {
			return c.ctx.Err()
		}
		c.undecided(f, kind, "presburger budget exceeded: "+err.Error())
		return nil
	}
	if empty {
		c.add(f, kind, Proved, nil, "")
		return nil
	}
	viol, err := c.witness(f, bad)
	if err != nil {
		c.undecided(f, kind, "no violating instance found: "+err.Error())
		return nil
	}
	c.add(f, kind, Failed, viol, msg)
	return nil
}

// witness picks an instance of bad with small parameters and returns it
// as the point violations of a condition: over the kernel's parameters
// and the loop variables L0, L1, ..., the tuple naming the cell.
func (c *redCheck) witness(f *redFamily, bad *presburger.UnionMap) (*presburger.UnionMap, error) {
	var pt []presburger.Int
	var sp presburger.Space
	for _, bound := range []int64{4, 16, 256, 0} {
		var comps []*presburger.Map
		for _, m := range bad.Maps() {
			if bound > 0 {
				b, err := m.BoundParams(c.m.params, bound)
				if err != nil {
					return nil, err
				}
				m = b
			}
			comps = append(comps, m)
		}
		s, p, err := presburger.NewUnionMap(comps...).Sample(c.ctx)
		if err != nil {
			return nil, err
		}
		if p != nil {
			sp, pt = s, p
			break
		}
	}
	if pt == nil {
		return nil, fmt.Errorf("the violations are empty")
	}
	params := map[string]int64{}
	for i, p := range sp.Params {
		x, ok := pt[i].Int64()
		if !ok {
			return nil, fmt.Errorf("parameter %s too large", p)
		}
		params[p] = x
	}
	var dims []int64
	for _, x := range pt[sp.Offset(presburger.DimIn):] {
		n, ok := x.Int64()
		if !ok {
			return nil, fmt.Errorf("index too large")
		}
		dims = append(dims, n)
	}
	var cell []int64
	if f.kind == redOut {
		cell = dims
	} else {
		env := &redEnv{m: c.m, s: f.scope, loops: dims, params: params}
		for _, x := range f.index {
			n, err := expr.EvalIndex(x, env)
			if err != nil {
				return nil, err
			}
			cell = append(cell, n)
		}
	}
	var pnames []string
	var eqs []quasiaffine.Formula
	for _, p := range c.m.params {
		pnames = append(pnames, p)
		eqs = append(eqs, redCmp(redParam(p), syntax.OpEq, redInt(params[p])))
	}
	if f.kind != redOut {
		for d := range f.loops {
			l := fmt.Sprintf("L%d", d)
			pnames = append(pnames, l)
			eqs = append(eqs, redCmp(redParam(l), syntax.OpEq, redInt(dims[d])))
		}
	}
	var cs []syntax.Expr
	for _, n := range cell {
		cs = append(cs, redInt(n))
	}
	eqs = append(eqs, redTrue())
	return redUnion(c.ctx, []redPiece{{params: pnames, out: redTuple{name: f.array, elems: cs}, cond: quasiaffine.And(eqs...)}})
}

// redEnv evaluates index expressions of a family at one instance.
type redEnv struct {
	m      *redModel
	s      *redScope
	loops  []int64
	params map[string]int64
}

func (e *redEnv) Index(name string) (int64, bool) {
	if b := e.s.lookup(name); b != nil {
		if b.depth >= 0 {
			if b.depth < len(e.loops) {
				return e.loops[b.depth], true
			}
			return 0, false
		}
		n, err := expr.EvalIndex(b.let, &redEnv{m: e.m, s: b.parent, loops: e.loops, params: e.params})
		return n, err == nil
	}
	n, ok := e.params[name]
	return n, ok
}
func (e *redEnv) Tensor(name string, _ []int64) (value.Value, error) {
	return value.Value{}, fmt.Errorf("tensor %s in an index", name)
}
func (e *redEnv) Array(name string, _ []int64) (value.Value, error) {
	return value.Value{}, fmt.Errorf("array %s in an index", name)
}
