package validate

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/augur-verify/augur/presburger"
	"github.com/augur-verify/augur/sare"
	"github.com/augur-verify/augur/sched"
	"github.com/augur-verify/augur/symeval"
	"github.com/augur-verify/augur/syntax"
	"github.com/augur-verify/augur/value"
)

// harmTries bounds the points of a condition's violations that
// counterexample tries when the failure at one is no evidence of a wrong
// output (harm.go).
const harmTries = 4

// counterexample builds the counterexample of the failed condition c
// (o is its solver outcome for a value condition, nil otherwise) and
// replays it with the reference interpreter (counterexampleAt). When
// the failure the replay shows reaches no output at the point picked
// (errNoHarm), and c's failure is a set of violations, another point of
// them is tried, away from the parameter values of the ones before (an
// empty output region at the smallest parameters, where nothing can be
// wrong), up to harmTries points; the first point's error stands if
// none shows a wrong output. A failure the solver found and shrank to
// small parameters is tried likewise at the larger parameters it was
// shrunk from (outcome.larger). It fails when no concrete point can be
// produced.
func (v *validation) counterexample(c *symeval.Condition, o *outcome) (*Counterexample, error) {
	cx, err := v.counterexampleAt(c, o)
	first := err
	for try := 1; try < harmTries && errors.Is(err, errNoHarm) && c.Violations != nil && cx != nil; try++ {
		rest, ok := v.exceptParams(c.Violations, cx.Params)
		if !ok {
			break
		}
		next := *c
		next.Violations = rest
		c = &next
		cx, err = v.counterexampleAt(c, o)
	}
	// A solver's failure shrunk to parameters where it reaches no
	// output: the failures it was shrunk from, smallest first.
	for i := 0; errors.Is(err, errNoHarm) && o != nil && i < len(o.larger) && i < harmTries; i++ {
		cx, err = v.counterexampleAt(c, o.larger[len(o.larger)-1-i])
	}
	if err != nil {
		return nil, first
	}
	return cx, nil
}

// exceptParams returns the violations u at other parameter values than
// params; false when there are none (or the Presburger operations fail).
func (v *validation) exceptParams(u *presburger.UnionMap, params []Binding) (*presburger.UnionMap, bool) {
	// Larger parameters first: every one at least doubled (a failure
	// in cells past a small output shows in a larger one), then any
	// other value.
	if rest, ok := v.restrictParams(u, grownParams(presburger.ParamSpace(v.params), params)); ok {
		return rest, true
	}
	return v.restrictParams(u, v.otherParams(params))
}

// grownParams is the set of parameter values each at least its value
// in params plus the larger of its magnitude and 1.
func grownParams(sp presburger.Space, params []Binding) *presburger.Map {
	b := presburger.NewBasicMap(sp)
	for _, p := range params {
		step := p.Value
		if step < 0 {
			step = -step
		}
		step = max(step, 1)
		row := b.NewRow()
		row[sp.ParamCol(p.Name)] = presburger.NewInt(1)
		row[b.ConstCol()] = presburger.NewInt(-p.Value - step)
		b.AddIneq(row)
	}
	return presburger.NewMap(sp, b)
}

// otherParams is the set of parameter values other than params.
func (v *validation) otherParams(params []Binding) *presburger.Map {
	sp := presburger.ParamSpace(v.params)
	other := presburger.Empty(sp)
	for _, p := range params {
		for _, sign := range []int64{1, -1} {
			// sign * (p - value) - 1 >= 0: p above, or below, its value.
			b := presburger.NewBasicMap(sp)
			row := b.NewRow()
			row[sp.ParamCol(p.Name)] = presburger.NewInt(sign)
			row[b.ConstCol()] = presburger.NewInt(-sign*p.Value - 1)
			b.AddIneq(row)
			var err error
			if other, err = other.Union(presburger.NewMap(sp, b)); err != nil {
				return nil
			}
		}
	}
	return other
}

// restrictParams returns u's points whose parameters lie in set; false
// when there are none, set is nil, or the operations fail.
func (v *validation) restrictParams(u *presburger.UnionMap, set *presburger.Map) (*presburger.UnionMap, bool) {
	if set == nil {
		return nil, false
	}
	rest, err := u.IntersectParams(set)
	if err != nil {
		return nil, false
	}
	if empty, err := rest.IsEmpty(v.ctx); err != nil || empty {
		return nil, false
	}
	return rest, true
}

// counterexampleAt is counterexample at the point the solver's outcome o
// gives, or at the smallest point of c's violations.
func (v *validation) counterexampleAt(c *symeval.Condition, o *outcome) (*Counterexample, error) {
	cx := &Counterexample{Kind: c.Kind, Condition: c.ID, File: v.in.progSrc.Name,
		Line: c.Pos.Line, Col: c.Pos.Col, Stmt: c.Text, Detail: c.Detail}
	if c.InSpec {
		cx.File = v.in.specSrc.Name
	}
	var values map[string]int64
	switch {
	case o != nil:
		cx.Kind = o.kind
		values = o.params
		ob := c.Obligation
		if e, err := ob.Spec.Fill(o.specHoles); err == nil {
			cx.ExpectedExpr = exprString(e)
		}
		if e, err := ob.Impl.Fill(o.implHoles); err == nil {
			cx.ActualExpr = exprString(e)
		}
		cx.ExpectedValue, cx.ActualValue = o.specValue, o.implValue
		cx.Inputs = o.inputs
		if o.seed != 0 {
			cx.Seed = o.seed
		}
		if o.confirmNote != "" {
			cx.Detail = joinDetail(cx.Detail, "values computed on "+o.confirmNote)
		} else if len(o.inputs) > 0 {
			cx.Detail = joinDetail(cx.Detail, "values computed on the solver's inputs")
		}
		if c.Kind == sched.WriteWriteConflict {
			cx.Detail = joinDetail(cx.Detail, "two iterations of the loop write the same cell: one writes the annotation's value, the other the computed one")
			cx.ExpectedExpr, cx.ActualExpr = "iteration 1: "+cx.ActualExpr, "iteration 2: "+cx.ExpectedExpr
			cx.ExpectedValue, cx.ActualValue = o.implValue, o.specValue
		}
	case c.Violations != nil:
		pt, cell, err := v.witness(c.Violations)
		if err != nil {
			return nil, err
		}
		values, cx.Cell = pt, cell
	default:
		return nil, errors.New("no evidence")
	}
	for _, p := range v.params {
		x, ok := values[p]
		if !ok {
			return nil, fmt.Errorf("no value for parameter %s", p)
		}
		cx.Params = append(cx.Params, Binding{Name: p, Value: x})
	}
	for _, l := range c.Loops {
		if x, ok := values[l.Param]; ok {
			cx.Loops = append(cx.Loops, Binding{Name: l.Name, Value: x})
		}
	}
	if cx.Seed == 0 {
		cx.Seed = 1
	}
	if err := v.reductionInputs(c, cx); err != nil {
		return nil, err
	}
	f := v.replay(c, cx)
	cx.Command = v.command(v.in, cx)
	if v.orig != nil && !cx.Reproduced {
		// The transformed pair's evidence stands only when the
		// interpreter fails on the pair as given.
		return nil, fmt.Errorf("the interpreter does not fail at this counterexample (%s)", cx.Replay)
	}
	if v.harmlessRead(c) {
		if err := v.garbageEvidence(c, cx, f); err != nil {
			return nil, err
		}
	} else if v.strictConditions() && !cx.Reproduced {
		return nil, fmt.Errorf("the conditions are those without garbage writes (%s), and no replay with garbage writes shows this failure (%s)", v.an.Garbage.Reason, cx.Replay)
	}
	in := v.in
	if v.orig != nil {
		in = v.orig
	}
	err := v.harmEvidence(in, cx, f)
	cx.eval = nil
	if err != nil {
		return cx, err
	}
	return cx, nil
}

// strictConditions reports whether the conditions are those without
// garbage writes although the validation allows them: the garbage
// writes fell back (symeval.GarbageSummary). Their value conditions
// then also check the annotations of the iterations that compute
// garbage, which name values computed nowhere: a failure there is
// evidence only when a replay with garbage writes shows it. (Known only
// once the symbolic evaluation is over, which is when value conditions
// are decided.)
func (v *validation) strictConditions() bool {
	return !v.opts.NoGarbageWrites && v.an != nil && v.an.Garbage.Fallback
}

// harmlessRead reports whether the failed condition c is an undefined
// read that the semantics being validated allows: with garbage writes
// (Clément 2022, section 9.9), an assignment that reads a cell holding
// no defined value writes the undefined value ⊥, and the kernel fails
// only where ⊥ reaches an out cell (or conflicts with a value in a par
// loop). The symbolic evaluation reports such reads when the garbage
// writes fell back to the conditions without them (⊥ reaches an out
// cell, perhaps only by an over-approximation, or no fixpoint).
func (v *validation) harmlessRead(c *symeval.Condition) bool {
	if v.opts.NoGarbageWrites || c.Kind != sched.UndefinedRead {
		return false
	}
	_, ok := c.Stmt.(*sched.Assign)
	return ok
}

// garbageEvidence checks that the replay f of cx, the counterexample of
// the undefined read c, run with garbage writes, shows the kernel
// failing, and points cx at the read where the garbage that reaches an
// out cell starts. The replay fails, when ⊥ is the cause, at the first
// out cell holding ⊥, with the chain of garbage writes that brought it
// there (sched.GarbageStep): cx then gives the loop indices and the cell
// of the chain's origin. An origin at another statement means that this
// read may be harmless: the error says so, and the condition is left
// undecided (the origin's own condition, if failed too, is confirmed in
// its turn). No failure at all, or no replay, is no evidence either.
func (v *validation) garbageEvidence(c *symeval.Condition, cx *Counterexample, f *sched.Failure) error {
	if f == nil {
		why := "no replay with garbage writes shows it reaching an output"
		if strings.Contains(c.Detail, "may reach") {
			why = "⊥ may reach an output by over-approximation; no replay shows it"
		}
		return fmt.Errorf("%s (%s)", why, cx.Replay)
	}
	if f.Garbage == nil {
		// Another failure of the kernel at these parameters: evidence
		// enough, and nothing to point at.
		return nil
	}
	o := f.Garbage.Origin()
	if o.Pos != c.Pos {
		return fmt.Errorf("the undefined value ⊥ that reaches %s starts at the read of %s at %s, not at this statement (augur run --garbage-writes: %s)",
			f.Cell(), o.Read, o.Pos, f.Error())
	}
	at := map[string]int64{}
	for _, x := range o.Env {
		at[x.Name] = x.Value
	}
	var loops []Binding
	for _, l := range c.Loops {
		x, ok := at[l.Name]
		if !ok {
			return nil
		}
		loops = append(loops, Binding{Name: l.Name, Value: x})
	}
	cx.Loops, cx.Cell = loops, o.Read
	cx.Detail = joinDetail(cx.Detail, fmt.Sprintf("the garbage reaches %s: %s", f.Cell(), f.Garbage))
	return nil
}

func joinDetail(a, b string) string {
	if a == "" {
		return b
	}
	return a + "; " + b
}

// witness picks a point of the violations u, with parameters as small as
// it can, and returns the values of the parameters (by presburger name)
// and the cell. It samples u within boxes of growing bounds on the
// parameters' absolute values, then bisects the bound between the last
// box without a point and the largest parameter of the point found: the
// parameters' largest absolute value is the smallest of any point of u.
func (v *validation) witness(u *presburger.UnionMap) (map[string]int64, string, error) {
	lo := int64(-1)
	for _, bound := range []int64{4, 16, 256, -1} {
		vals, cell, err := v.sampleWithin(u, bound)
		if err != nil {
			return nil, "", err
		}
		if vals == nil {
			lo = bound
			continue
		}
		hi := maxAbs(vals, v.params)
		for hi-lo > 1 {
			mid := lo + (hi-lo)/2
			vs, c, err := v.sampleWithin(u, mid)
			if err != nil {
				return nil, "", err
			}
			if vs == nil {
				lo = mid
				continue
			}
			vals, cell, hi = vs, c, maxAbs(vs, v.params)
		}
		return vals, cell, nil
	}
	return nil, "", errors.New("the violations are empty")
}

// sampleWithin returns a point of u whose parameters are within
// [-bound, bound] (any point when bound is negative), as witness does, or
// nil values when there is none.
func (v *validation) sampleWithin(u *presburger.UnionMap, bound int64) (map[string]int64, string, error) {
	var comps []*presburger.Map
	for _, m := range u.Maps() {
		if bound >= 0 {
			b, err := m.BoundParams(v.params, bound)
			if err != nil {
				return nil, "", err
			}
			m = b
		}
		comps = append(comps, m)
	}
	sp, pt, err := presburger.NewUnionMap(comps...).Sample(v.ctx)
	if err != nil || pt == nil {
		return nil, "", err
	}
	vals := map[string]int64{}
	for i, p := range sp.Params {
		x, ok := pt[i].Int64()
		if !ok {
			return nil, "", fmt.Errorf("parameter %s = %s does not fit in 64 bits", p, pt[i])
		}
		vals[p] = x
	}
	var idx []string
	for _, x := range pt[sp.Offset(presburger.DimIn):] {
		idx = append(idx, x.String())
	}
	return vals, fmt.Sprintf("%s[%s]", sp.Out.Name, strings.Join(idx, ", ")), nil
}

// replaySteps bounds the steps of one replay (sched.Options.MaxSteps).
const replaySteps = 5_000_000

// replay runs the reference interpreter at the counterexample cx of the
// condition c, at its parameter values on random inputs, and records what
// it finds. It runs under the semantics being validated: a strict run
// first, then, when that one stops at an undefined read, a run with
// garbage writes unless Options.NoGarbageWrites. It returns the
// interpreter's failure, nil when there is none.
func (v *validation) replay(c *symeval.Condition, cx *Counterexample) *sched.Failure {
	params := map[string]int64{}
	for _, p := range cx.Params {
		params[p.Name] = p.Value
	}
	if v.replayOutOfReach(c, cx, params) {
		cx.Replay = fmt.Sprintf("not replayed: the interpreter would report this failure only after more than %d steps, the replay's limit", replaySteps)
		return nil
	}
	// The interpreter's step bound decides how far the replay goes;
	// the wall clock is only an outer guard.
	ctx, cancel := context.WithTimeout(v.ctx, 2*time.Minute)
	defer cancel()
	fixed := map[string]value.Value{}
	for _, x := range cx.Inputs {
		fixed[inputKey(x.Tensor, x.Index)] = x.v
	}
	for seed := cx.Seed; seed < cx.Seed+3; seed++ {
		random := sare.RandomInputs(seed)
		inputs := sare.InputFunc(func(t *sare.Tensor, idx []int64) (value.Value, error) {
			if x, ok := fixed[inputKey(t.Name.Name, idx)]; ok {
				return x, nil
			}
			return random.Input(t, idx)
		})
		in := v.in
		if v.orig != nil {
			in = v.orig
		}
		ev, err := sare.NewEvaluator(in.spec, in.sinfo, params, inputs)
		if err != nil {
			cx.Replay = "not replayed: " + err.Error()
			return nil
		}
		// As many specification elements as a confirmation may evaluate:
		// a replay that needs more (large parameters, such as a tile
		// past a 512-row specialisation's last row) is reported not
		// replayed sooner.
		ev.MaxPoints = confirmMaxPoints
		_, err = sched.Run(ctx, in.kernel, in.kinfo, ev, sched.Options{MaxSteps: replaySteps, Equality: v.opts.ValueModel.Equality()})
		var f *sched.Failure
		if errors.As(err, &f) && f.Kind == sched.UndefinedRead && !v.opts.NoGarbageWrites {
			// The strict run stops at a read that garbage writes allow:
			// the semantics validated decide. (The two runs are the same
			// up to the first undefined read, so any other failure, or
			// none, is the same with garbage writes.) Which cells hold
			// ⊥ depends on the parameters only, so a passing run is
			// not tried on other inputs.
			strict := f
			f = nil
			cx.garbage = true
			_, err = sched.Run(ctx, in.kernel, in.kinfo, ev, sched.Options{MaxSteps: replaySteps, GarbageWrites: true})
			if err == nil {
				cx.Replay = fmt.Sprintf("augur run --garbage-writes passes at these parameters (seed %d; without garbage writes: %s)", seed, strict.Error())
				return nil
			}
		}
		switch {
		case errors.As(err, &f):
			cx.Reproduced = true
			cx.eval = ev
			cx.Replay = fmt.Sprintf("%s fails (seed %d): %s", cx.runName(), seed, f.Error())
			cx.Seed = seed
			return f
		case err != nil:
			cx.Replay = "not replayed: " + err.Error()
			return nil
		}
	}
	cx.Replay = "augur run passes at these parameters and inputs (3 seeds for the other inputs)"
	return nil
}

// runName is the augur run command that replays cx: with garbage writes
// when the replay needed them.
func (cx *Counterexample) runName() string {
	if cx.garbage {
		return "augur run --garbage-writes"
	}
	return "augur run"
}

// replayOutOfReach reports whether a replay of cx, the counterexample of
// c, at the parameter values params, would exhaust its steps before the
// interpreter could report the failure at cx's point (sched.StepsTo).
// Counting is a walk of
// the kernel's control flow, without values: far cheaper than a replay
// that ends in nothing, such as one at a point past a 512 x 512
// specialisation, where the evaluator also gives up (confirmMaxPoints).
// It answers false whenever it cannot tell: for failures not reported at
// an assignment (races, outputs), when a loop around the assignment has
// no value, and for a pair transformed for reductions, whose replay
// decides whether the evidence stands (counterexample) and runs
// regardless. An earlier failure elsewhere, which a replay might meet
// first, is another failure and not looked for.
func (v *validation) replayOutOfReach(c *symeval.Condition, cx *Counterexample, params map[string]int64) bool {
	if v.orig != nil || c.InSpec {
		return false
	}
	switch c.Kind {
	case sched.WrongValue, sched.UndefinedAnnotation, sched.UndefinedStore,
		sched.OutOfBoundsWrite, sched.OutOfBoundsRead, sched.UndefinedRead:
	default:
		return false
	}
	target, ok := c.Stmt.(*sched.Assign)
	if !ok || len(cx.Loops) != len(c.Loops) {
		return false
	}
	at := make([]sched.Var, len(cx.Loops))
	for i, l := range cx.Loops {
		at[i] = sched.Var{Name: l.Name, Value: l.Value}
	}
	n, reached, err := sched.StepsTo(v.in.kernel, v.in.kinfo, params, target, at, replaySteps)
	return err == nil && !reached && n > replaySteps
}

// command returns the augur run command line that replays cx, a
// counterexample of the pair in (or of its transformation for
// reductions, which keeps the sources' names).
func (sh *shared) command(in *input, cx *Counterexample) string {
	args := []string{cx.runName(), in.specSrc.Name, in.progSrc.Name}
	for _, p := range cx.Params {
		args = append(args, fmt.Sprintf("--param %s=%d", p.Name, p.Value))
	}
	args = append(args, sh.modelArgs()...)
	if cx.Seed != 1 {
		args = append(args, fmt.Sprintf("--seed %d", cx.Seed))
	}
	for _, x := range cx.Inputs {
		args = append(args, "--input '"+x.String()+"'")
	}
	return strings.Join(args, " ")
}

// inputKey identifies an input tensor element.
func inputKey(tensor string, idx []int64) string { return fmt.Sprint(tensor, idx) }

func exprString(e syntax.Expr) string { return syntax.ExprString(e) }
