package validate

import (
	"context"
	"strings"
	"sync/atomic"
	"time"

	"github.com/augur-verify/augur/sched"
	"github.com/augur-verify/augur/smt"
	"github.com/augur-verify/augur/smt/encode"
	"github.com/augur-verify/augur/symeval"
	"github.com/augur-verify/augur/syntax"
	"github.com/augur-verify/augur/value"
)

// A solver is one worker's Z3 context and the encoder of the specification
// into it: made fresh for each value condition (newSolver), renewed when
// a check abandons it, and released when the condition is decided. Its
// outcome records what deciding the condition found.

// outcome is the result of discharging one value condition.
type outcome struct {
	status    symeval.Status
	reason    string
	solver    string
	seconds   float64
	resources uint64
	smt       string

	// For a failure: the kind (refined: an undefined value stored or an
	// undefined annotation), the values of the parameters (the kernel's
	// and the loop variables, by presburger name), of the holes, of
	// both sides, and of the inputs read.
	kind        sched.Kind
	params      map[string]int64
	implHoles   []int64
	specHoles   []int64
	implValue   string
	specValue   string
	inputs      []InputValue // the model's inputs read by the concrete evaluation
	seed        uint64       // when confirmed on random inputs instead: their seed
	groundKind  sched.Kind   // the kind found by the real-arithmetic check
	confirmNote string

	// larger holds the confirmed failures that shrinking replaced by
	// this one, larger parameters first: a failure at small parameters
	// may reach no output (harm.go) where one at larger ones does.
	larger []*outcome
}

// solver is a worker's Z3 context with its encoder.
type solver struct {
	v   *validation
	z   *smt.Context
	enc *encode.Encoder
	// ctx cancels the solver's checks: the validation's context, or the
	// narrower one of the conditions decided ahead (ahead.go).
	ctx context.Context
	// guard records that a check reached the CPU-time guard: the
	// validation's guardHit, or the flag of a condition decided ahead,
	// which counts only if its outcome is used.
	guard *atomic.Bool
	// used counts the resource units of every check of the condition
	// being decided.
	used uint64
	// termsSpent: the condition's encodings held more terms than
	// Options.ConditionTerms (termsOver).
	termsSpent bool
	// lookLimit, when not zero, bounds the checks of a counterexample
	// search (check, groundCheck) below the query's resource limit.
	lookLimit uint64
	// ground is the solver of the ground checks (groundSolver).
	ground *solver
	// side is the Z3 context of the portfolio's abstraction checks
	// (sideContext), apart so that their terms and tactics leave the
	// course of the context's own searches as it was.
	side *smt.Context
	// defOnly: the kernel's side of the condition being confirmed is a
	// subexpression of the stored value (the definedness probe), whose
	// undefinedness alone is the failure: a ground check and a
	// concrete evaluation consider neither the specification's side nor
	// the equality of the two.
	defOnly bool
	// ranged: the query being checked holds range facts (query.ranged).
	ranged bool
	// refining: the query being checked only looks for a smaller
	// counterexample than one found (shrink), so that a query the legacy
	// arithmetic solver gives up on is not tried again by the default one
	// (checkTerms), which may run on to the CPU-time guard.
	refining bool
	// meter reads the Z3 context's count of resource units, which its
	// simplifications during an encoding advance too (meter.go).
	meter contextMeter
}

// lookResources bounds each check of the first, quick look at the model
// of an encoding that leaves specification elements uninterpreted: a
// wrong kernel's counterexample is usually confirmed well within it.
const lookResources = 1_000_000

// lookGuard is the CPU-time guard of the quick look's checks: far above
// what lookResources allows (a fraction of a second), it only stops the
// checks on which Z3 ignores its resource limit.
const lookGuard = 10 * time.Second

// searchLimit is the resource limit of a counterexample search's checks.
func (s *solver) searchLimit() uint64 {
	if s.lookLimit > 0 {
		return min(s.lookLimit, s.v.opts.Resources)
	}
	return s.v.opts.Resources
}

func newSolver(v *validation) (*solver, error) {
	return v.newSolverIn(v.ctx, &v.guardHit)
}

// newSolverIn is newSolver with the checks cancelled by ctx and the
// CPU-time guard's hits recorded in guard.
func (v *validation) newSolverIn(ctx context.Context, guard *atomic.Bool) (*solver, error) {
	z, err := smt.NewContext(smt.WithModels(true), smt.WithManualRelease())
	if err != nil {
		return nil, err
	}
	s := &solver{v: v, z: z, ctx: ctx, guard: guard}
	s.enc = s.newEncoder(z)
	return s, nil
}

// encoder is an encoder of the specification into z, in the value model
// of the options, reading the kernel's derived literals (literals.go).
func (v *validation) encoder(z *smt.Context) *encode.Encoder {
	e := encode.New(z, v.in.spec, v.in.sinfo, v.opts.ValueModel)
	e.SetReadings(v.readings)
	return e
}

// newEncoder is the solver's encoder into z (validation.encoder),
// stopped by the solver's context and metered to its resource units
// (meter.go).
func (s *solver) newEncoder(z *smt.Context) *encode.Encoder {
	enc := s.v.encoder(z)
	enc.SetDone(s.ctx.Done())
	enc.SetMeter(s.meterEncoding)
	return enc
}

// renew replaces a context that a check abandoned (smt.ErrUnresponsive)
// with a fresh one, so that the condition's next strategies can run: the
// terms of the old one are gone with it. It reports whether the context
// was renewed.
func (s *solver) renew() (bool, error) {
	if !s.z.Abandoned() {
		return false, nil
	}
	z, err := smt.NewContext(smt.WithModels(true), smt.WithManualRelease())
	if err != nil {
		return false, err
	}
	s.meter.charge(s)
	s.meter.close()
	s.z, s.enc = z, s.newEncoder(z)
	s.meter.reset(s.z)
	return true, nil
}

// close deletes the solver's Z3 contexts. Each gives Z3 back the
// references its wrappers still hold before it is deleted
// (smt.Context.Close): Z3 deletes a context's terms still referenced in
// rounds, one level of the terms' graph a round, each round over all of
// them (ast_manager's destructor), so that a context holding a deep
// unfolding (a scan of 256 steps unfolded at a model's point) took 48 s
// of CPU to delete, against a fraction of a second for the same terms
// released one by one, each with the terms only it held.
func (s *solver) close() {
	if s.ground != nil {
		s.ground.close()
	}
	if s.side != nil {
		s.side.Close()
	}
	s.meter.close()
	s.z.Close()
}

// groundApart reports whether the ground checks of obligation ob run in a
// Z3 context apart (solver.groundSolver): in the real value model, when
// its sides or the specification's equations call a builtin that the
// encoding leaves uninterpreted (exp, sqrt, bit casts, ...), whose values
// the ground terms multiply.
func (v *validation) groundApart(ob *symeval.Obligation) bool {
	if v.opts.ValueModel != encode.Real {
		return false
	}
	v.opaqueOnce.Do(func() {
		for _, t := range v.in.spec.Tensors {
			for _, eq := range t.Eqs {
				v.specOpaque = v.specOpaque || callsOpaque(eq.RHS) || callsOpaque(eq.Where)
			}
		}
	})
	return v.specOpaque || callsOpaque(ob.Impl.Expr) || callsOpaque(ob.Spec.Expr)
}

// callsOpaque reports whether x calls a float builtin (exp, sqrt, ...:
// those the real model leaves uninterpreted, and floor, ceil and round)
// or a bit cast.
func callsOpaque(x syntax.Expr) bool {
	if x == nil {
		return false
	}
	found := false
	syntax.Inspect(x, func(e syntax.Expr) bool {
		if c, ok := e.(*syntax.Call); ok && c.Fun != nil {
			b, builtin := value.LookupBuiltin(c.Fun.Name)
			if builtin && b.FloatOnly || strings.HasPrefix(c.Fun.Name, "reinterpret_") {
				found = true
			}
		}
		return !found
	})
	return found
}

// groundSolver returns the solver of the ground checks (groundReal), in a
// Z3 context of its own, made on first use and again after a check
// abandoned the previous one.
func (s *solver) groundSolver() (*solver, error) {
	if s.ground != nil && !s.ground.z.Abandoned() {
		return s.ground, nil
	}
	if s.ground != nil {
		s.ground.close()
	}
	g, err := s.v.newSolverIn(s.ctx, s.guard)
	if err != nil {
		return nil, err
	}
	s.ground = g
	return g, nil
}

// sideContext returns the context of the abstraction checks
// (checkAbstracted), made on first use and again after a check abandoned
// the previous one.
func (s *solver) sideContext() (*smt.Context, error) {
	if s.side != nil && !s.side.Abandoned() {
		return s.side, nil
	}
	if s.side != nil {
		s.side.Close()
	}
	z, err := smt.NewContext(smt.WithManualRelease())
	if err != nil {
		return nil, err
	}
	s.side = z
	return z, nil
}

// decide discharges the value condition c.
func (s *solver) decide(c *symeval.Condition) *outcome {
	start := time.Now()
	s.used, s.termsSpent = 0, false
	s.meter.reset(s.z)
	o := s.decideStrategies(c)
	s.meter.charge(s)
	o.seconds = time.Since(start).Seconds()
	o.resources = s.used
	return o
}

// usesFloats reports whether the specification computes with floats
// anywhere (otherwise the real model changes nothing and concrete
// evaluation is exact).
func (v *validation) usesFloats() bool {
	for _, t := range v.in.spec.Tensors {
		if t.Type.IsFloat() {
			return true
		}
	}
	for _, t := range v.in.sinfo.Types {
		if t.IsFloat() {
			return true
		}
	}
	for _, t := range v.in.kinfo.Types.Types {
		if t.IsFloat() {
			return true
		}
	}
	return false
}
