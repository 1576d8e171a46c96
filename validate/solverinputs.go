package validate

import (
	"fmt"
	"sort"
	"strings"

	"github.com/augur-verify/augur/sare"
	"github.com/augur-verify/augur/sched"
	"github.com/augur-verify/augur/smt"
	"github.com/augur-verify/augur/symeval"
	"github.com/augur-verify/augur/value"
)

// The solver's own inputs in the real value model, for the definedness
// probe's failures (probe.go). A ground check counts such a failure only
// on fixed inputs on which no interpretation of the builtins left
// uninterpreted (a bit cast, exp, ...) nor of a division by zero makes
// the conversion defined (groundReal). Random inputs rarely show a
// failure that needs an extreme input value, such as a scale small
// enough that a float-to-integer conversion leaves its type's range: the
// model of the query found it, and its values of the inputs the query
// reads are tried next, then values the solver picks for those inputs on
// the ground terms. Every candidate is checked like random inputs are,
// every element fixed, and, since the solver's values are not the
// interpreter's, by the reference evaluator too: it must find the same
// failure on them (in binary floating point), so that augur run replays
// the counterexample. The failure then holds in both value models: the
// operand is out of range over the reals, exactly, and after rounding.

// groundElem is an input element that the ground terms of a check read:
// its tensor, its indices and its application in the encoding.
type groundElem struct {
	t   *sare.Tensor
	idx []int64
	app *smt.Term
}

// fixedInput is the value of an input element.
type fixedInput struct {
	t   *sare.Tensor
	idx []int64
	v   value.Value
}

// queryInputs returns, by inputKey, the values that the model m of the
// query q gives the input elements that q reads, or nil when one cannot be
// read (nothing is then tried with them).
func (s *solver) queryInputs(q *query, m *smt.Model) map[string]fixedInput {
	terms := append([]*smt.Term{q.points, q.bad}, q.axioms...)
	out := map[string]fixedInput{}
	for _, t := range s.v.in.spec.Tensors {
		if !t.Input {
			continue
		}
		f, err := s.enc.Tensor(t.Name.Name)
		if err != nil {
			return nil
		}
		apps, err := f.Applications(terms...)
		if err != nil {
			return nil
		}
		for _, args := range apps {
			idx := make([]int64, len(args))
			for i, a := range args {
				k, err := m.Eval(a, true)
				if err != nil {
					return nil
				}
				if idx[i], err = k.Int64Value(); err != nil {
					return nil
				}
			}
			v, err := s.enc.Value(m, f.Apply(args...), t.Type)
			if err != nil {
				return nil
			}
			out[inputKey(t.Name.Name, idx)] = fixedInput{t, idx, v}
		}
	}
	return out
}

// solverInputs looks for inputs on which the point of out fails in the
// real model whatever the uninterpreted builtins are, for the condition c
// whose ground check is g. It tries the values given (queryInputs) with
// random ones of seeds 1 to 3 for the other elements, then, when the
// query's model has a side undefined, values for the given elements that
// the solver finds to make that side undefined on the ground terms, the
// others random (undefinedInputs). A candidate counts when g.check finds
// the sides differing (or undefined) on it, g.independent finds no
// interpretation of the builtins that makes them equal and defined, and
// the reference evaluator finds the failure too (confirmWith). It returns
// g.check's model and the inputs, and records in out the given elements'
// values and the seed; both nil when no candidate counts.
func (s *solver) solverInputs(c *symeval.Condition, out *outcome, given map[string]fixedInput, g *groundQuery) (*smt.Model, sare.Inputs, error) {
	read := map[string]bool{}
	for _, e := range g.elems {
		read[inputKey(e.t.Name.Name, e.idx)] = true
	}
	// The given values of the elements the ground terms read.
	vals := map[string]fixedInput{}
	for key, x := range given {
		if read[key] {
			vals[key] = x
		}
	}
	if len(vals) == 0 {
		return nil, nil, nil
	}
	for k := uint64(1); k <= 3; k++ {
		if m, in, err := s.tryInputs(c, out, g, k, vals); m != nil || err != nil {
			return m, in, err
		}
	}
	return s.undefinedInputs(c, out, g, vals)
}

// tryInputs checks the values vals of the given elements with random
// inputs of seed k for the others, as solverInputs does.
func (s *solver) tryInputs(c *symeval.Condition, out *outcome, g *groundQuery, k uint64, vals map[string]fixedInput) (*smt.Model, sare.Inputs, error) {
	random := sare.RandomInputs(k)
	in := sare.InputFunc(func(t *sare.Tensor, idx []int64) (value.Value, error) {
		if x, ok := vals[inputKey(t.Name.Name, idx)]; ok {
			return x.v, nil
		}
		return random.Input(t, idx)
	})
	fixed, err := g.fix(in)
	if err != nil {
		return nil, nil, err
	}
	// Independence first: where the builtins' freedom (or a division by
	// zero, which the real model leaves unspecified) can make the sides
	// equal, it answers quickly, and the check of the difference need
	// not run.
	if !g.independent(fixed) {
		return nil, nil, nil
	}
	m, res, err := g.check(fixed)
	if err != nil || res != smt.Sat {
		return nil, nil, nil
	}
	// The reference evaluator, in binary floating point, must fail the
	// same way.
	kind := out.kind
	out.kind = groundKindOf(c, m, g.idef, g.sdef)
	err = s.confirmWith(c, out, in)
	out.kind = kind
	if err != nil {
		m.Close()
		return nil, nil, nil
	}
	out.seed, out.inputs = k, nil
	for _, x := range vals {
		out.inputs = append(out.inputs, InputValue{Tensor: x.t.Name.Name, Index: append([]int64(nil), x.idx...), Value: x.v.String(), v: x.v})
	}
	sort.Slice(out.inputs, func(i, j int) bool { return out.inputs[i].String() < out.inputs[j].String() })
	out.confirmNote = fmt.Sprintf("the solver's values of %s and random inputs of seed %d otherwise, the failure checked exactly in the real value model", strings.Join(inputNames(out.inputs), ", "), k)
	return m, in, nil
}

// undefinedInputs is solverInputs' search, when the query's model has a
// side undefined: for seeds 1 to 3, values of the given elements vals
// that the solver finds to make that side undefined on the ground terms
// of g, the other elements random, each tried as tryInputs does.
func (s *solver) undefinedInputs(c *symeval.Condition, out *outcome, g *groundQuery, vals map[string]fixedInput) (*smt.Model, sare.Inputs, error) {
	var target *smt.Term
	switch out.kind {
	case sched.UndefinedStore:
		target = g.idef.Not()
	case sched.UndefinedAnnotation:
		target = g.sdef.Not()
	default:
		// A difference of values depends on the builtins' freedom, which
		// a search would exploit.
		return nil, nil, nil
	}
	for k := uint64(1); k <= 3; k++ {
		random := sare.RandomInputs(k)
		fixed := []*smt.Term{target}
		for _, e := range g.elems {
			if vals[inputKey(e.t.Name.Name, e.idx)].t != nil {
				// Free, but not zero: a division by it would be
				// unspecified in the real model, never independent
				// of the interpretation.
				if e.t.Type.IsFloat() {
					zero, err := s.enc.Constant(value.Float(e.t.Type, 0))
					if err != nil {
						return nil, nil, err
					}
					fixed = append(fixed, e.app.Eq(zero).Not())
				}
				continue
			}
			eq, err := s.fixElem(e, random)
			if err != nil {
				return nil, nil, err
			}
			fixed = append(fixed, eq)
		}
		m, res, err := g.check(fixed)
		if err != nil || res != smt.Sat {
			continue
		}
		found := map[string]fixedInput{}
		for _, e := range g.elems {
			key := inputKey(e.t.Name.Name, e.idx)
			if vals[key].t == nil {
				continue
			}
			v, err := s.enc.Value(m, e.app, e.t.Type)
			if err != nil {
				break
			}
			found[key] = fixedInput{e.t, e.idx, v}
		}
		m.Close()
		if len(found) != len(vals) {
			continue
		}
		if m, in, err := s.tryInputs(c, out, g, k, found); m != nil || err != nil {
			return m, in, err
		}
	}
	return nil, nil, nil
}

// groundKindOf is the kind of failure that the model m of a ground check
// shows for condition c: an undefined value stored when the kernel's side
// (definedness idef) is undefined, an undefined annotation when the
// specification's (sdef) is, c's kind otherwise.
func groundKindOf(c *symeval.Condition, m *smt.Model, idef, sdef *smt.Term) sched.Kind {
	k := c.Kind
	if b, err := m.Eval(idef, true); err == nil {
		if v, err := b.BoolValue(); err == nil && !v {
			k = sched.UndefinedStore
		}
	}
	if k == c.Kind {
		if b, err := m.Eval(sdef, true); err == nil {
			if v, err := b.BoolValue(); err == nil && !v {
				k = sched.UndefinedAnnotation
			}
		}
	}
	return k
}

// inputNames renders the elements of xs as their tensors' accesses, such
// as "sigma()" or "A(0, 1)".
func inputNames(xs []InputValue) []string {
	out := make([]string, len(xs))
	for i, x := range xs {
		s := x.String()
		out[i] = s[:len(s)-len(x.Value)-1]
	}
	return out
}

// fixElem returns the constraint that the input element e has the value
// in gives it.
func (s *solver) fixElem(e groundElem, in sare.Inputs) (*smt.Term, error) {
	v, err := in.Input(e.t, e.idx)
	if err != nil {
		return nil, err
	}
	cst, err := s.enc.Constant(v)
	if err != nil {
		return nil, err
	}
	return e.app.Eq(cst), nil
}
