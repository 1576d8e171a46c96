package validate

import (
	"context"
	"errors"
	"fmt"
	"time"
	"unicode/utf8"

	"github.com/augur-verify/augur/sare"
	"github.com/augur-verify/augur/sched"
	"github.com/augur-verify/augur/value"
)

// Values that reach no output. An annotation mismatch, or a failure of a
// reduction's bookkeeping (or an undefined read that garbage writes do
// not excuse because the value also reads an incomplete partial result,
// partialGarbage), concerns the value one assignment stores; the
// kernel's format counts it as a failure wherever it is, but a compiler
// computes cells nothing uses (lanes and tiles rounded up past the data,
// a sliding window's rows recomputed over a stale stage, the merge of
// an rfactor intermediate's partial results that were never
// initialised), and its translator annotates them with elements that
// were never meant there. Such a failure is no evidence of a wrong output.
//
// Before a counterexample of such a failure sets the verdict INVALID,
// the kernel runs once more at its parameters and inputs with
// sched.Options.PoisonValueFailures: every assignment whose stored value
// fails its check writes the undefined value ⊥ instead, as a garbage
// write (Clément 2022, section 9.9), and the run fails only where ⊥
// reaches an out cell, an out cell is wrong, or over indices (bounds,
// races). A run that fails so keeps the verdict, the path of ⊥ to the
// output in the counterexample's detail. A run that passes shows that no
// value that failed its check is used by an output at this point: the
// condition is left undecided with that reason, and the verdict is
// UNKNOWN, never VALID (the annotation is false). A run that cannot
// finish within its steps keeps the verdict as it was.

// valueOnly reports whether a failure of kind k concerns only the value
// that an assignment stores into its cell (sched.Options.PoisonValueFailures).
// An undefined annotation does not: the kernel claims an element the
// specification does not define, whatever the value.
func valueOnly(k sched.Kind) bool {
	switch k {
	case sched.WrongValue, sched.UndefinedStore,
		sched.WrongIdentity, sched.DoubleCount, sched.IncompleteReduction,
		sched.OutsideReduction, sched.NotAccumulator, sched.WrongOperator:
		return true
	}
	return false
}

// partialGarbage reports whether f, the failure of cx's replay, is an
// undefined read that the replay with garbage writes met (cx.garbage)
// and did not take as a garbage read: the value that reads the cell
// holding no defined value also reads a partial result of a reduction
// before every position was accumulated into it (sched's valueEnv), a
// failure of the stored value only. The run with
// sched.Options.PoisonValueFailures writes ⊥ there, as for a garbage
// read, and decides whether it reaches an output.
func partialGarbage(cx *Counterexample, f *sched.Failure) bool {
	return cx.garbage && f.Kind == sched.UndefinedRead
}

// errNoHarm is harmEvidence's error when the failure reaches no output.
var errNoHarm = errors.New("no evidence of a wrong output")

// errHarmUnknown is harmRun's error when the run did not finish.
var errHarmUnknown = errors.New("the run did not finish")

// harmRun runs the kernel of in at params on inputs, within steps, with
// garbage writes and sched.Options.PoisonValueFailures. It returns the
// run's failure, nil when it passes, and the steps it used; errHarmUnknown
// (wrapped) when it could not finish (a budget, the specification's
// evaluator). ev, if not nil, is an evaluator of in's specification at
// params on the same inputs, whose elements computed already are not
// computed again: a replay's, which ran the same kernel on the same
// inputs up to its failure, so that the run needs every element ev holds
// and maxPoints, ev's bound, counts the same elements with or without
// it.
func harmRun(ctx context.Context, in *input, params map[string]int64, inputs sare.Inputs, ev *sare.Evaluator, steps int64, eq value.Equality, maxPoints int) (*sched.Failure, int64, error) {
	if ev == nil {
		var err error
		if ev, err = sare.NewEvaluator(in.spec, in.sinfo, params, inputs); err != nil {
			return nil, 0, fmt.Errorf("%w: %v", errHarmUnknown, err)
		}
	}
	ev.MaxPoints = maxPoints
	// The step bound decides how far the run goes; the wall clock is
	// only an outer guard.
	ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	res, err := sched.Run(ctx, in.kernel, in.kinfo, ev, sched.Options{MaxSteps: steps, GarbageWrites: true, PoisonValueFailures: true, Equality: eq})
	if res != nil {
		return nil, res.Steps, nil
	}
	if f, ok := errors.AsType[*sched.Failure](err); ok {
		return f, f.Steps, nil
	}
	return nil, steps, fmt.Errorf("%w: %v", errHarmUnknown, err)
}

// harmEvidence checks that f, the replay's failure at the counterexample
// cx of a pair whose kernel is in's, shows a wrong output when it
// concerns only a stored value (valueOnly): it returns an error, the
// reason the failure is no evidence, when the run with
// PoisonValueFailures at cx's parameters and inputs passes. Otherwise it
// completes cx's detail with what that run showed. The error wraps
// errNoHarm.
func (v *validation) harmEvidence(in *input, cx *Counterexample, f *sched.Failure) error {
	if f == nil || v.opts.NoGarbageWrites || !valueOnly(f.Kind) && !partialGarbage(cx, f) {
		return nil
	}
	params := map[string]int64{}
	for _, p := range cx.Params {
		params[p.Name] = p.Value
	}
	fixed := map[string]value.Value{}
	for _, x := range cx.Inputs {
		fixed[inputKey(x.Tensor, x.Index)] = x.v
	}
	random := sare.RandomInputs(cx.Seed)
	inputs := sare.InputFunc(func(t *sare.Tensor, idx []int64) (value.Value, error) {
		if x, ok := fixed[inputKey(t.Name.Name, idx)]; ok {
			return x, nil
		}
		return random.Input(t, idx)
	})
	g, _, err := harmRun(v.ctx, in, params, inputs, cx.eval, replaySteps, v.opts.ValueModel.Equality(), confirmMaxPoints)
	switch {
	case err != nil:
		cx.Detail = joinDetail(cx.Detail, "whether the value reaches an output is not known: "+err.Error())
		return nil
	case g == nil:
		return fmt.Errorf("%w: %s, but a replay that writes ⊥ in place of every stored value that fails its check (augur run --poison-value-failures, seed %d) passes: no such value reaches an out cell at these parameters", errNoHarm, f.Error(), cx.Seed)
	default:
		cx.Detail = joinDetail(cx.Detail, harmDetail(g))
	}
	return nil
}

// harmDetail describes g, the failure of harmRun: the path of a value
// that failed its check to an out cell, or another failure.
func harmDetail(g *sched.Failure) string {
	if g.Garbage != nil {
		return clip(fmt.Sprintf("the value reaches %s: %s", g.Cell(), g.Garbage), 600)
	}
	return clip("with ⊥ in place of every value that fails its check, the kernel still fails: "+g.Error(), 600)
}

// clip shortens s to at most n bytes, marking the cut.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "..."
}

// quickHarmless reports whether f, the failure of a test at params on the
// random inputs of seed, concerns only stored values and is no evidence:
// when harmRun passes (no such value reaches an output), or cannot
// finish within steps (the proof then decides, and its counterexample
// is checked again with the replay's steps). It also returns harmRun's
// failure, and the steps used.
func (sh *shared) quickHarmless(in *input, f *sched.Failure, params map[string]int64, seed uint64, steps int64) (bool, *sched.Failure, int64) {
	if sh.opts.NoGarbageWrites || !valueOnly(f.Kind) {
		return false, nil, 0
	}
	if steps <= 0 {
		return true, nil, 0
	}
	g, used, err := harmRun(sh.ctx, in, params, sare.RandomInputs(seed), nil, steps, sh.opts.ValueModel.Equality(), quickPoints)
	return err != nil || g == nil, g, used
}
