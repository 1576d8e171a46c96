package validate

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"runtime/debug"
	"strings"
	"time"

	"github.com/augur-verify/augur/presburger"
	"github.com/augur-verify/augur/sare"
	"github.com/augur-verify/augur/sched"
	"github.com/augur-verify/augur/symeval"
	"github.com/augur-verify/augur/value"
)

// Testing first: before the symbolic evaluation, the kernel runs with the
// reference interpreter (sched.Run, the semantics the verifier is sound
// against) at a few small parameter points of its assumptions, on the
// interpreter's random inputs. A failure there is a counterexample in the
// verifier's own terms, found by a few concrete runs where the symbolic
// evaluation and the solver may need their whole budget on a wrong kernel
// (docs/validate.md, "Testing first"). Only failures that the verifier
// would report too settle the verdict (quickEvidence); anything else
// leaves the kernel to the proof. A test never makes a kernel valid.

// quickRanges are the upper ends of the ranges the parameter values of
// the successive quick tests are drawn from: small first, where runs are
// cheap, then larger, past the tile sizes of common schedules.
var quickRanges = [...]int64{5, 9, 17, 37}

// quickMaxParam bounds the parameter values of a test.
const quickMaxParam = 128

// errTooLarge: the points left need a parameter past quickMaxParam.
var errTooLarge = errors.New("parameters too large to test")

// quickSteps bounds the interpreter's work over all the quick tests, in
// its steps (statements executed plus cells initialised and checked): a
// budget in work, not time, so that the verdict does not depend on the
// machine's load.
const quickSteps = 40_000

// quickPoints bounds the specification elements each quick test may
// evaluate.
const quickPoints = 1 << 16

// quickTestRun is the result of the quick test phase: testing first,
// under way beside the symbolic evaluation, finished, or not run.
type quickTestRun struct {
	// assumptions is the kernel's assumption domain, which the tests
	// computed and the symbolic evaluation takes too; nil when no test
	// ran or the domain could not be computed.
	assumptions *presburger.Map
	// beside: the test runs beside the symbolic evaluation, and its
	// outcome is waited for once the evaluation is over (symbolicDone).
	beside bool
	done   chan struct{}
	// cx is the counterexample found (nil: none), took the time the
	// tests took; both are set once done is closed.
	cx   *Counterexample
	took time.Duration
}

// wait returns the run once it is finished.
func (r *quickTestRun) wait() *quickTestRun {
	<-r.done
	return r
}

// quickTest is the quick test phase: testing first (startQuickTest),
// unless Options.NoQuickTest or Options.AllConditions, or the
// specification has reductions. The test runs beside the symbolic
// evaluation, and stops it (symCtx) when it finds a counterexample; with
// a trace it runs before, so that the trace keeps its order, and a
// counterexample it finds ends the validation: INVALID.
func (p *pipeline) quickTest(in *input, readings *value.Readings, symCtx *stopCtx) (*quickTestRun, *halt) {
	if p.opts.NoQuickTest || p.opts.AllConditions || in.spec.HasReductions() {
		return &quickTestRun{}, nil
	}
	p.progress(Event{Phase: "test"})
	test := p.startQuickTest(in, readings, p.opts.Trace == nil, symCtx.stop)
	if test.beside {
		return test, nil
	}
	r := test.wait()
	p.phase("test")
	if r.cx != nil {
		return nil, p.tested(r.cx)
	}
	return test, nil
}

// startQuickTest computes the kernel's assumption domain (symeval.Assumptions)
// and runs testFirst on it, in a goroutine when beside is set, calling
// found when the test finds a counterexample. Without an assumption
// domain there is no test.
//
// The test may run beside the symbolic evaluation because neither depends
// on the other: the test's outcome is decided by its own inputs and step
// budget, and a counterexample it finds is the verdict whatever the
// evaluation would conclude (found cancels the evaluation, whose result
// is then dropped). Running both at once changes no verdict and spares
// the test's time.
func (sh *shared) startQuickTest(in *input, readings *value.Readings, beside bool, found func()) *quickTestRun {
	r := &quickTestRun{beside: beside, done: make(chan struct{})}
	dom, err := symeval.Assumptions(presburger.WithBudget(sh.ctx, sh.opts.Budget), in.kernel)
	if err != nil {
		close(r.done)
		return r
	}
	r.assumptions = dom
	run := func() {
		defer close(r.done)
		defer func() {
			// A panic in the test must not escape its goroutine: the
			// test then finds nothing, and the internal error is
			// reported.
			if p := recover(); p != nil {
				r.cx = nil
				sh.internalError(fmt.Sprint(p), debug.Stack())
			}
		}()
		start := time.Now()
		r.cx = sh.testFirst(in, readings, dom)
		r.took = time.Since(start)
		if r.cx != nil {
			found()
		}
	}
	if beside {
		go run()
	} else {
		run()
	}
	return r
}

// tested ends the validation with the verdict of the counterexample cx
// that testing first found.
func (p *pipeline) tested(cx *Counterexample) *halt {
	p.rep.Verdict, p.rep.Reason, p.rep.Counterexample = Invalid, cx.Kind.String(), cx
	p.progress(Event{Phase: "done"})
	return &halt{rep: p.rep}
}

// testFirst runs the kernel of the pair as given (before any
// transformation for reductions), whose float literals have the readings
// given, at small parameter points of its assumption domain dom and
// returns the counterexample of the first failure that counts as
// evidence, or nil. A point that violates the
// specification's assumptions is rejected by the evaluator, and its test
// skipped.
func (sh *shared) testFirst(in *input, readings *value.Readings, dom *presburger.Map) *Counterexample {
	ctx := presburger.WithBudget(sh.ctx, sh.opts.Budget)
	rng := rand.New(rand.NewPCG(0x61756775, 0x72717569))
	steps := int64(quickSteps)
	var dead quickDead
	tested := map[string]bool{} // the points tested, as pointString gives them
	for trial, hi := range quickRanges {
		if steps <= 0 || sh.ctx.Err() != nil {
			return nil
		}
		params, err := quickPoint(ctx, dom, kernelParams(in), rng, hi)
		if errors.Is(err, errTooLarge) {
			// The assumptions ask for large parameters (a kernel
			// specialised to 1024 x 1024): every test would spend its
			// budget on one run.
			return nil
		}
		if err != nil || params == nil {
			continue
		}
		seed := uint64(trial + 1)
		params, ok := sh.deriveQuick(ctx, params, seed, dom)
		if !ok {
			continue
		}
		k := pointString(in, params)
		if tested[k] {
			// The same point again (the range lies below the
			// assumptions' smallest point): a run there differs from
			// the last one in its random inputs alone, where the next
			// range may give another point.
			continue
		}
		tested[k] = true
		if need, err := sched.Steps(in.kernel, in.kinfo, params, steps); err == nil && need > steps {
			// A run at params cannot finish within the steps left, and
			// the later tests draw from wider ranges: the budget would
			// go to one run that ends in nothing.
			if sh.opts.Trace != nil {
				sh.quickSkipTrace(in, params, steps)
			}
			return nil
		}
		f, used := sh.quickRun(in, params, seed, steps, !sh.opts.NoGarbageWrites)
		steps -= used
		if sh.opts.Trace != nil {
			sh.quickTrace(in, params, seed, f, used)
		}
		if f == nil {
			continue
		}
		if f.Kind == sched.OutputNotWritten && !sh.opts.NoGarbageWrites {
			// ⊥ may have reached the output through garbage writes,
			// which the verifier reports differently (an undefined
			// read where the garbage starts): the failure counts only
			// if a strict run fails the same way.
			g, used := sh.quickRun(in, params, seed, steps, false)
			steps -= used
			if g == nil || g.Kind != sched.OutputNotWritten {
				continue
			}
		}
		if !quickEvidence(f, sh.opts.NoGarbageWrites, sh.opts.ValueModel.Equality()) || readings.Len() > 0 && valueFailure(f) {
			// With literals read as derived constants, the
			// interpreter's exact values are not the real model's.
			continue
		}
		if f.Kind == sched.WrongValue && dead.at(ctx, in, dom, f, params) {
			// An annotation false where nothing uses the value stored:
			// the proof does not count it as a failure (dead.go).
			continue
		}
		harmless, g, used := sh.quickHarmless(in, f, params, seed, steps)
		steps -= used
		if harmless {
			// The value that failed its check reaches no output at
			// this point (harm.go): no evidence.
			continue
		}
		cx := sh.quickCounterexample(in, f, params, seed)
		if g != nil {
			cx.Detail = joinDetail(cx.Detail, harmDetail(g))
		}
		return cx
	}
	return nil
}

// quickSkipTrace describes in Options.Trace a test not run for want of
// steps.
func (sh *shared) quickSkipTrace(in *input, params map[string]int64, steps int64) {
	sh.trace(fmt.Sprintf("no test at%s: a run needs more than the %d steps left", pointString(in, params), steps))
}

// pointString writes a point of the kernel's parameters, " N=v" for each
// in the kernel's order.
func pointString(in *input, params map[string]int64) string {
	var b strings.Builder
	for _, p := range in.kernel.Params {
		fmt.Fprintf(&b, " %s=%d", p.Name, params[p.Name])
	}
	return b.String()
}

// quickTrace describes one test in Options.Trace.
func (sh *shared) quickTrace(in *input, params map[string]int64, seed uint64, f *sched.Failure, used int64) {
	var b strings.Builder
	b.WriteString("test at" + pointString(in, params))
	fmt.Fprintf(&b, ", seed %d, %d steps: ", seed, used)
	if f == nil {
		b.WriteString("no failure")
	} else {
		b.WriteString(f.Error())
	}
	sh.trace(b.String())
}

// quickRun runs the kernel once within the given steps and returns its
// failure, if any, and the steps it used (all of them when the budget ran
// out).
func (sh *shared) quickRun(in *input, params map[string]int64, seed uint64, steps int64, garbage bool) (*sched.Failure, int64) {
	ev, err := sare.NewEvaluator(in.spec, in.sinfo, params, sare.RandomInputs(seed))
	if err != nil {
		return nil, 0
	}
	ev.MaxPoints = quickPoints
	// The step bound decides how far a test goes; the wall clock is
	// only an outer guard.
	ctx, cancel := context.WithTimeout(sh.ctx, time.Minute)
	defer cancel()
	res, err := sched.Run(ctx, in.kernel, in.kinfo, ev, sched.Options{MaxSteps: steps, GarbageWrites: garbage, Equality: sh.opts.ValueModel.Equality()})
	if res != nil {
		return nil, res.Steps
	}
	var f *sched.Failure
	if errors.As(err, &f) {
		return f, f.Steps
	}
	return nil, steps
}

// quickEvidence reports whether the interpreter's failure f is one the
// verifier reports too in the value model whose equality is eq: failures
// over indices (bounds, races, an output never written), and differences
// between two values that are both exact (value.Value.Inexact), since the
// interpreter computes floats in binary32 or binary64 where the default
// model has real numbers, and that differ under eq (in the real model, −0
// and +0 are one number; the interpreter, run with eq, finds no such
// difference either). Undefined reads count only without garbage writes;
// the failures of reductions' bookkeeping are left to the verifier.
func quickEvidence(f *sched.Failure, strict bool, eq value.Equality) bool {
	switch f.Kind {
	case sched.OutOfBoundsRead, sched.OutOfBoundsWrite, sched.ReadWriteRace, sched.OutputNotWritten:
		return true
	case sched.UndefinedRead:
		return strict
	case sched.WrongValue, sched.OutputWrongValue, sched.WriteWriteConflict:
		e, a := f.Expected, f.Actual
		return !e.IsUndef() && !a.IsUndef() && !e.Inexact() && !a.Inexact() && !eq.Equal(e, a)
	}
	return false
}

// valueFailure reports whether f is a difference of values (an
// annotation, an output, two writes in a par loop).
func valueFailure(f *sched.Failure) bool {
	switch f.Kind {
	case sched.WrongValue, sched.OutputWrongValue, sched.WriteWriteConflict:
		return true
	}
	return false
}

// kernelParams returns the names of the kernel's parameters, in order.
func kernelParams(in *input) []string {
	names := make([]string, len(in.kernel.Params))
	for i, p := range in.kernel.Params {
		names[i] = p.Name
	}
	return names
}

// quickPoint picks a point of dom, whose parameters are names in order,
// parameter by parameter: each takes a
// random value in [1, hi] if the points left allow it, else the value of
// a point left where it is positive, else of any point left (each choice
// costs an emptiness test: a kernel of Halide has dozens of parameters).
// It returns nil when dom is empty, and errTooLarge when a parameter's
// value would be past quickMaxParam.
//
// The point of the last choice (pt) is what the next fallback to any
// point left takes its value from; after a random value it is a sample
// of the points left, drawn only if a fallback needs it (from ptOf): the
// random values, most choices, cost an emptiness test, not a sample.
func quickPoint(ctx context.Context, dom *presburger.Map, names []string, rng *rand.Rand, hi int64) (map[string]int64, error) {
	if empty, err := dom.IsEmpty(ctx); err != nil || empty {
		return nil, err
	}
	var pt []presburger.Int
	ptOf := dom // when not nil, pt is Sample(ptOf), not drawn yet
	params := map[string]int64{}
	for i, name := range names {
		var x presburger.Int
		tried := false
		for _, c := range []int64{1 + rng.Int64N(hi)} {
			fixed, err := dom.FixParam(name, presburger.NewInt(c))
			if err != nil {
				return nil, err
			}
			empty, err := fixed.IsEmpty(ctx)
			if err != nil {
				return nil, err
			}
			if !empty {
				dom, ptOf, x, tried = fixed, fixed, presburger.NewInt(c), true
				break
			}
		}
		if !tried {
			// A value of p that dom allows: positive if it can be
			// (extents of zero make empty runs), else the last point's.
			pos, err := positive(dom, name)
			if err != nil {
				return nil, err
			}
			if q, err := pos.Sample(ctx); err != nil {
				return nil, err
			} else if q != nil {
				pt, ptOf = q, nil
			}
			if ptOf != nil {
				if pt, err = ptOf.Sample(ctx); err != nil || pt == nil {
					if err == nil {
						err = fmt.Errorf("quick test: no point in a non-empty domain")
					}
					return nil, err
				}
				ptOf = nil
			}
			x = pt[i]
			if dom, err = dom.FixParam(name, x); err != nil {
				return nil, err
			}
		}
		v, ok := x.Int64()
		if !ok || v > quickMaxParam || v < -quickMaxParam {
			return nil, errTooLarge
		}
		params[name] = v
	}
	return params, nil
}

// positive returns the points of m where the parameter name is at least 1.
func positive(m *presburger.Map, name string) (*presburger.Map, error) {
	sp := m.Space()
	b := presburger.NewBasicMap(sp)
	row := b.NewRow()
	row[sp.ParamCol(name)] = presburger.NewInt(1)
	row[b.ConstCol()] = presburger.NewInt(-1)
	b.AddIneq(row) // name - 1 >= 0
	return m.Intersect(presburger.NewMap(sp, b))
}

// quickCounterexample reports the failure f of the test at params and
// seed as the verdict's counterexample.
func (sh *shared) quickCounterexample(in *input, f *sched.Failure, params map[string]int64, seed uint64) *Counterexample {
	cx := &Counterexample{Kind: f.Kind, File: f.File, Line: f.Pos.Line, Col: f.Pos.Col, Stmt: f.Stmt,
		Cell: f.Cell(), ExpectedExpr: f.Tensor, Seed: seed, Reproduced: true,
		Replay: fmt.Sprintf("augur run fails (seed %d): %s", seed, f.Error()),
		Detail: "found by running the kernel before the symbolic evaluation (testing first)"}
	if cx.File == "" {
		cx.File = in.progSrc.Name
	}
	if !f.Expected.IsUndef() {
		cx.ExpectedValue = f.Expected.String()
	}
	if !f.Actual.IsUndef() {
		cx.ActualValue = f.Actual.String()
	}
	for _, p := range in.kernel.Params {
		cx.Params = append(cx.Params, Binding{Name: p.Name, Value: params[p.Name]})
	}
	for _, x := range f.Env {
		cx.Loops = append(cx.Loops, Binding{Name: x.Name, Value: x.Value})
	}
	cx.Command = sh.command(in, cx)
	if !sh.opts.NoGarbageWrites {
		cx.Command += " --garbage-writes"
	}
	return cx
}
