package validate

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/augur-verify/augur/presburger"
	"github.com/augur-verify/augur/sare"
	"github.com/augur-verify/augur/sched"
	"github.com/augur-verify/augur/smt/encode"
	"github.com/augur-verify/augur/symeval"
	"github.com/augur-verify/augur/syntax"
	"github.com/augur-verify/augur/value"
)

// This file joins the validation of reductions (Clément 2022, chapter
// 7) to Validate: the conditions of the pair's reductions, built by
// package symeval (Analysis.AddReductionConditions), are added to the
// symbolic evaluation's, and a re-ordered float reduction in the ieee
// model gets inputs on which the two orders differ.

// reductionConditions adds the reduction conditions when the pair was
// transformed.
func (v *validation) reductionConditions() error {
	if v.red == nil {
		return nil
	}
	return v.an.AddReductionConditions(v.ctx, v.red.pair, v.opts.ValueModel == encode.IEEE)
}

// reductionInputs finds, for a re-ordered float reduction, inputs on
// which the interpreter's exact run differs from the specification: the
// random inputs of augur run are small multiples of 1/8, whose float sums
// are exact in any order, so inputs of mixed magnitudes are tried.
func (v *validation) reductionInputs(c *symeval.Condition, cx *Counterexample) error {
	if c.Kind != sched.ReorderedReduction || v.orig == nil {
		return nil
	}
	// Bounded in interpreter steps (6 sizes, 40 seeds, searchSteps
	// each), not in time: whether inputs are found must not depend on
	// the machine's load.
	ctx := v.ctx
	// The smallest parameters where the order differs may give equal
	// results (two positions added to 0 in either order): larger ones
	// are tried too.
	for _, grow := range []int64{0, 1, 2, 3, 5, 8} {
		params, err := v.grownParams(ctx, cx, grow)
		if err != nil {
			return err
		}
		found, err := v.searchInputs(ctx, cx, params)
		if err != nil || found {
			return err
		}
		if ctx.Err() != nil {
			break
		}
	}
	return errors.New("no inputs found on which the re-ordered reduction differs")
}

// grownParams returns cx's parameters with each grown by grow as far as
// the kernel's assumptions allow: all of them when the assumptions hold
// there, else, parameter by parameter in two passes, each growth that
// keeps them (a buffer's min that Halide's checks pin stays put while the
// extents grow).
func (v *validation) grownParams(ctx context.Context, cx *Counterexample, grow int64) (map[string]int64, error) {
	params := map[string]int64{}
	for _, p := range cx.Params {
		params[p.Name] = p.Value + grow
	}
	if grow == 0 || v.an == nil || v.an.Assumptions == nil {
		return params, nil
	}
	sp := v.an.Assumptions.Space()
	holds := func(ps map[string]int64) (bool, error) {
		pt := make([]presburger.Int, len(sp.Params))
		for i, name := range sp.Params {
			x, ok := ps[name]
			if !ok {
				return false, nil
			}
			pt[i] = presburger.NewInt(x)
		}
		return v.an.Assumptions.ContainsPoint(ctx, pt)
	}
	if ok, err := holds(params); err != nil || ok {
		return params, err
	}
	for _, p := range cx.Params {
		params[p.Name] = p.Value
	}
	for range 2 {
		for _, p := range cx.Params {
			if params[p.Name] != p.Value {
				continue
			}
			params[p.Name] = p.Value + grow
			ok, err := holds(params)
			if err != nil {
				return nil, err
			}
			if !ok {
				params[p.Name] = p.Value
			}
		}
	}
	return params, nil
}

// searchSteps bounds each interpreter run of the search for inputs on
// which a re-ordered float reduction rounds differently.
const searchSteps = 1_000_000

// searchInputs tries inputs of mixed magnitudes at params; on a failure of
// the interpreter it sets cx's parameters and inputs.
func (v *validation) searchInputs(ctx context.Context, cx *Counterexample, params map[string]int64) (bool, error) {
	for seed := uint64(1); seed <= 40; seed++ {
		read := map[string]InputValue{}
		var order []string
		r := rand.New(rand.NewPCG(seed, 0x7265647563))
		inputs := sare.InputFunc(func(t *sare.Tensor, idx []int64) (value.Value, error) {
			key := inputKey(t.Name.Name, idx)
			if x, ok := read[key]; ok {
				return x.v, nil
			}
			x := wideRandom(t.Type, r)
			read[key] = InputValue{Tensor: t.Name.Name, Index: append([]int64(nil), idx...), Value: x.String(), v: x}
			order = append(order, key)
			return x, nil
		})
		ev, err := sare.NewEvaluator(v.orig.spec, v.orig.sinfo, params, inputs)
		if err != nil {
			return false, nil // parameters outside the assumptions
		}
		_, err = sched.Run(ctx, v.orig.kernel, v.orig.kinfo, ev, sched.Options{MaxSteps: searchSteps, Equality: v.opts.ValueModel.Equality()})
		var f *sched.Failure
		var ae *sched.AssumptionError
		switch {
		case errors.As(err, &f):
			for _, k := range order {
				cx.Inputs = append(cx.Inputs, read[k])
			}
			for i := range cx.Params {
				cx.Params[i].Value = params[cx.Params[i].Name]
			}
			cx.Loops = nil
			cx.Detail = joinDetail(cx.Detail, "inputs of mixed magnitudes on which the two orders round differently")
			return true, nil
		case errors.As(err, &ae), errors.Is(err, sched.ErrBudget):
			return false, nil // outside the assumptions, or too large
		case err != nil && ctx.Err() == nil:
			return false, fmt.Errorf("searching inputs where the orders differ: %w", err)
		}
		if ctx.Err() != nil {
			break
		}
	}
	return false, nil
}

// wideRandom is a random value of type t; floats span many magnitudes.
func wideRandom(t syntax.Type, r *rand.Rand) value.Value {
	if !t.IsFloat() {
		return value.Random(t, r)
	}
	m := float64(r.IntN(1<<12)+1) / (1 << 12)
	if r.IntN(2) == 0 {
		m = -m
	}
	e := r.IntN(40) - 20
	if t == syntax.F32 {
		return value.Float(t, float64(float32(math.Ldexp(m, e))))
	}
	return value.Float(t, math.Ldexp(m, e*4))
}
