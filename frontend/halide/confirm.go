package halide

import (
	"bufio"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/augur-verify/augur/expr"
	"github.com/augur-verify/augur/sare"
	"github.com/augur-verify/augur/sched"
	"github.com/augur-verify/augur/syntax"
	"github.com/augur-verify/augur/value"
)

// Witness is what a counterexample gives to run a pipeline on: the
// parameter values (buffer mins and extents, int32 parameters, named as in
// the translation), the input elements it fixes, the seed of the others
// (sare.RandomInputs, as the reference interpreter's replay draws them),
// and the kind of failure it shows.
type Witness struct {
	Params map[string]int64
	Inputs []Cell
	Seed   uint64
	Kind   sched.Kind
}

// Outcome is what Halide's compiled code showed on a counterexample.
type Outcome int

// The outcomes of a confirmation.
const (
	// Confirmed: Halide's compiled pipeline computes, at some output
	// cell, another value than the algorithm's.
	Confirmed Outcome = iota + 1
	// NotReproduced: every output cell Halide's compiled pipeline
	// computes is the algorithm's (or Halide rejects the parameters).
	NotReproduced
)

func (o Outcome) String() string {
	switch o {
	case Confirmed:
		return "confirmed in Halide's code"
	case NotReproduced:
		return "not reproduced by Halide's code"
	}
	return fmt.Sprintf("Outcome(%d)", int(o))
}

// Cause says what a difference that Halide's code does not reproduce
// would need to show, or that the translation is suspect.
type Cause int

// The causes of a difference not reproduced.
const (
	// UninitializedMemory: the kernel reads a cell never written, and
	// the value found there decides the output; Halide's runs, with its
	// memory poisoned, did not show it (the value read may not change
	// the outputs on these inputs, or lie where the poison does not
	// reach).
	UninitializedMemory Cause = iota + 1
	// Race: two iterations of a parallel loop touch the same cell; the
	// outputs depend on how the threads interleave.
	Race
	// OutsideBuffers: the kernel reads or writes outside an array, in
	// memory Halide's buffers do not cover.
	OutsideBuffers
	// Translation: nothing but a wrong translation explains the
	// difference: a defect of Augur.
	Translation
	// CheckLeftOut: Halide's compiled pipeline stops, on the
	// counterexample, at a run-time check that the translation leaves
	// out of the kernel (DroppedCheck): the kernel goes on where
	// Halide's code stops, and the difference is no output of Halide's.
	CheckLeftOut
	// Overflow: the counterexample needs a signed 32- or 64-bit overflow
	// of the kernel's arithmetic (NeedsOverflow), undefined in Halide:
	// the difference is no wrong output of Halide's.
	Overflow
	// Undefined: the specification has no value at some output cells
	// on the counterexample (an operation undefined there, as a float's
	// conversion outside its integer type's range), and Halide's code
	// agrees with the algorithm at the others: the counterexample lies
	// outside the algorithm's domain, no wrong output of Halide's.
	Undefined
	// Rounding: Halide's runs differ from the algorithm only at output
	// cells whose values are sensitive to rounding (Sensitive), where
	// the algorithm's own evaluations in binary32 and in binary64
	// differ beyond the confirmation's tolerance: any float computation
	// of them, right or wrong, may land anywhere there, so a difference
	// shows no wrong output of Halide's.
	Rounding
)

func (c Cause) String() string {
	switch c {
	case UninitializedMemory:
		return "uninitialized memory"
	case Race:
		return "race"
	case OutsideBuffers:
		return "access outside the buffers"
	case Translation:
		return "translation suspect"
	case CheckLeftOut:
		return "check left out"
	case Overflow:
		return "signed overflow"
	case Undefined:
		return "undefined in the algorithm"
	case Rounding:
		return "sensitive to rounding"
	}
	return fmt.Sprintf("Cause(%d)", int(c))
}

// Difference is an output cell where Halide's compiled pipeline differs
// from the algorithm.
type Difference struct {
	Tensor string
	Index  []int64
	// Expected is the specification's value (Augur's reference
	// interpreter), Unscheduled Halide's realisation of the algorithm
	// without its schedule ("" when it could not run).
	Expected, Unscheduled string
	// Actual is the value of the first run of the scheduled pipeline;
	// Again that of the second, with another poison byte, when it
	// differs (the value then comes from memory never written).
	Actual, Again string
}

// Confirmation is the result of running Halide's compiled pipeline on a
// counterexample.
type Confirmation struct {
	Outcome Outcome
	// Cause is set when the outcome is NotReproduced.
	Cause Cause
	// Check names the check left out at which Halide's code stopped,
	// when Cause is CheckLeftOut.
	Check string
	// Reason says, in a sentence, what the runs showed.
	Reason string
	// Compared counts the output cells compared; Differences lists the
	// first MaxDifferences cells that differ, out of Differing.
	// Undefined counts the cells compared where the specification has
	// no value (any value of Halide's agrees with it there).
	Compared, Differing, Undefined int
	// Sensitive counts the output cells left out of the comparison
	// because their values are sensitive to rounding (Rounding): Halide's
	// runs, or its unscheduled one, differ from the specification there,
	// and so does the specification's evaluation in binary64.
	Sensitive   int
	Differences []Difference
	// Inputs lists every input element the runs read, when there are at
	// most MaxListedInputs; nil otherwise (the counterexample's fixed
	// elements and its seed then say what they were).
	Inputs []Cell
	// Overruns counts the heap allocations whose surrounding bytes a run
	// of the scheduled pipeline changed (the most of the two runs): a
	// write outside an allocation, which confirms a failure by itself.
	Overruns int
}

// MaxListedInputs bounds the input elements a Confirmation lists.
const MaxListedInputs = 16

// MaxDifferences bounds the cells a Confirmation lists.
const MaxDifferences = 8

// maxConfirmElements bounds the input elements a confirmation writes.
const maxConfirmElements = 1 << 22

// Confirm runs Halide's compiled pipeline (the generator's driver, with
// the options of the translation) on the parameters and inputs of w,
// twice, with every allocation and output buffer filled first with one
// poison byte, then another, and the algorithm unscheduled once, and
// compares their outputs with the specification's values computed by the
// reference interpreter on the same inputs (floats up to tolerance, as
// value.Close compares). spec and prog are the translation's texts: the
// kernel's in bindings say which input elements Halide's buffers hold.
func Confirm(ctx context.Context, driver string, o Options, spec, prog string, w Witness, tolerance float64) (*Confirmation, error) {
	sp, sinfo, k, err := parsePair(spec, prog)
	if err != nil {
		return nil, err
	}
	if msg := ExtentsTooLarge(w.Params, o.Target); msg != "" {
		// Halide's first checks stop its code here, whatever the
		// inputs: nothing to run (and the inputs may be too many).
		c := stopped(msg)
		c.Reason += " (Halide's check computed on the counterexample's extents; the pipeline was not run)"
		return c, nil
	}
	inputs, err := witnessInputs(sp, w)
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "augur-confirm-*")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	in := filepath.Join(dir, "witness.txt")
	listed, err := writeWitness(in, sp, k, w.Params, inputs)
	if err != nil {
		return nil, err
	}
	result := filepath.Join(dir, "result")
	if err := runDriver(ctx, driver, o, nil, nil, "--confirm", in, "--result", result); err != nil {
		return nil, err
	}
	runs := make([]*Sample, 3)
	var halideErr [3]string
	overruns := 0
	for i, run := range []string{".0", ".1", ".algorithm"} {
		var n int
		runs[i], halideErr[i], n, err = readRun(result + run)
		if err != nil {
			return nil, err
		}
		overruns = max(overruns, n)
	}
	if runs[0] == nil || runs[1] == nil {
		return stopped(firstLine(cmp.Or(halideErr[0], halideErr[1]))), nil
	}
	ev, err := sare.NewEvaluator(sp, sinfo, w.Params, inputs)
	if err != nil {
		return nil, err
	}
	c, err := compare(ctx, sp, ev, widened(sp, w.Params, inputs, tolerance), runs, tolerance)
	if err != nil {
		return nil, err
	}
	c.Overruns = overruns
	overflow := false
	if c.Outcome == NotReproduced && overruns == 0 {
		if overflow, err = NeedsOverflow(ctx, spec, prog, w, ReplayEquality(tolerance), tolerance); err != nil {
			return nil, err
		}
	}
	c.classify(w.Kind, runs[2] != nil, firstLine(halideErr[2]), overflow)
	c.Inputs = listed
	return c, nil
}

// stopped is the confirmation of a counterexample on which Halide's
// compiled pipeline stopped with the error msg: at a check the
// translation leaves out, or rejecting parameters that the kernel's
// assumptions admit, which only a wrong translation explains.
func stopped(msg string) *Confirmation {
	if check := DroppedCheck(msg); check != "" {
		return &Confirmation{Outcome: NotReproduced, Cause: CheckLeftOut, Check: check,
			Reason: "Halide's compiled pipeline stops at its check " + check + ", which the translation leaves out of the kernel: " + msg}
	}
	return &Confirmation{Outcome: NotReproduced, Cause: Translation,
		Reason: "Halide's compiled pipeline rejects the counterexample's parameters, which the kernel's assumptions admit: " + msg}
}

func parsePair(spec, prog string) (*sare.Spec, *expr.Info, *sched.Kernel, error) {
	sp, errs := sare.Parse(&syntax.Source{Name: "spec.sare", Text: spec})
	if len(errs) > 0 {
		return nil, nil, nil, errs
	}
	sinfo, errs := sare.Check(sp)
	if len(errs) > 0 {
		return nil, nil, nil, errs
	}
	k, errs := sched.Parse(&syntax.Source{Name: "prog.sched", Text: prog})
	if len(errs) > 0 {
		return nil, nil, nil, errs
	}
	if _, errs := sched.Check(k, sp); len(errs) > 0 {
		return nil, nil, nil, errs
	}
	return sp, sinfo, k, nil
}

// witnessInputs are the input elements of w, the others drawn as the
// reference interpreter's replay draws them.
func witnessInputs(sp *sare.Spec, w Witness) (sare.Inputs, error) {
	fixed := map[string]value.Value{}
	for _, c := range w.Inputs {
		t := sp.Tensor(c.Tensor)
		if t == nil {
			return nil, fmt.Errorf("the counterexample's input %s is not a tensor of the specification", c.Tensor)
		}
		v, err := value.Parse(t.Type, c.Value)
		if err != nil {
			return nil, fmt.Errorf("the counterexample's input %s: %w", expr.FormatIndex(c.Tensor, c.Index, '(', ')'), err)
		}
		fixed[key(c.Tensor, c.Index)] = v
	}
	seed := w.Seed
	if seed == 0 {
		seed = 1
	}
	random := sare.RandomInputs(seed)
	return sare.InputFunc(func(t *sare.Tensor, idx []int64) (value.Value, error) {
		if v, ok := fixed[key(t.Name.Name, idx)]; ok {
			return v, nil
		}
		return random.Input(t, idx)
	}), nil
}

// bindingEnv evaluates a binding's expressions: the parameters, and the
// binding's variables at a cell.
type bindingEnv struct {
	params map[string]int64
	vars   map[string]int64
}

func (e bindingEnv) Index(name string) (int64, bool) {
	if v, ok := e.vars[name]; ok {
		return v, true
	}
	v, ok := e.params[name]
	return v, ok
}

func (bindingEnv) Tensor(string, []int64) (value.Value, error) {
	return value.Value{}, errors.New("no tensors in a binding")
}

func (bindingEnv) Array(string, []int64) (value.Value, error) {
	return value.Value{}, errors.New("no arrays in a binding")
}

// writeWitness writes the parameters and every element of every input
// tensor that the kernel's in bindings hold, in the sample's format, for
// the driver's --confirm, and returns them when there are at most
// MaxListedInputs.
func writeWitness(path string, sp *sare.Spec, k *sched.Kernel, params map[string]int64, inputs sare.Inputs) ([]Cell, error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b := bufio.NewWriter(f)
	names := make([]string, 0, len(params))
	for n := range params {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		fmt.Fprintf(b, "param %s = %d\n", n, params[n])
	}
	var listed []Cell
	count := 0
	for _, bd := range k.Bindings {
		if bd.Dir != sched.In {
			continue
		}
		t := sp.Tensor(bd.Tensor.Fun.Name)
		if t == nil {
			return nil, fmt.Errorf("the binding of %s names no tensor of the specification", bd.Array.Name)
		}
		err := writeBinding(b, bd, t, params, inputs, func(c Cell) error {
			if count++; count > maxConfirmElements {
				return fmt.Errorf("the counterexample's inputs have more than %d elements", maxConfirmElements)
			}
			if count <= MaxListedInputs {
				listed = append(listed, c)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	if count > MaxListedInputs {
		listed = nil
	}
	if err := b.Flush(); err != nil {
		return nil, err
	}
	return listed, f.Close()
}

// writeBinding writes the elements of t that the in binding bd holds,
// each told to seen first.
func writeBinding(b *bufio.Writer, bd *sched.Binding, t *sare.Tensor, params map[string]int64, inputs sare.Inputs, seen func(Cell) error) error {
	env := bindingEnv{params: params, vars: map[string]int64{}}
	ext := make([]int64, len(bd.Extents))
	for i, x := range bd.Extents {
		n, err := expr.EvalIndex(x, env)
		if err != nil {
			return fmt.Errorf("the extents of %s: %w", bd.Array.Name, err)
		}
		ext[i] = max(n, 0)
	}
	cell := make([]int64, len(ext))
	var visit func(d int) error
	visit = func(d int) error {
		if d < len(ext) {
			for cell[d] = 0; cell[d] < ext[d]; cell[d]++ {
				env.vars[bd.Vars[d].Name] = cell[d]
				if err := visit(d + 1); err != nil {
					return err
				}
			}
			return nil
		}
		if bd.Where != nil {
			if ok, err := expr.EvalCond(bd.Where, env); err != nil || !ok {
				return err
			}
		}
		idx := make([]int64, len(bd.Tensor.Args))
		for i, x := range bd.Tensor.Args {
			n, err := expr.EvalIndex(x, env)
			if err != nil {
				return fmt.Errorf("the binding of %s: %w", bd.Array.Name, err)
			}
			idx[i] = n
		}
		v, err := inputs.Input(t, idx)
		if err != nil {
			return err
		}
		if err := seen(Cell{Tensor: t.Name.Name, Index: idx, Value: v.String()}); err != nil {
			return err
		}
		fmt.Fprintf(b, "in %s", t.Name.Name)
		for _, n := range idx {
			fmt.Fprintf(b, " %d", n)
		}
		fmt.Fprintf(b, " = %s\n", v)
		return nil
	}
	return visit(0)
}

// readRun reads the outputs of one run of the driver's --confirm, or the
// message of Halide's error when the run failed, and the number of
// allocations the run wrote outside of.
func readRun(path string) (*Sample, string, int, error) {
	if msg, err := os.ReadFile(path + ".error"); err == nil {
		return nil, strings.TrimSpace(string(msg)), 0, nil
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, "", 0, err
	}
	overruns := 0
	if b, err := os.ReadFile(path + ".overrun"); err == nil {
		if overruns, err = strconv.Atoi(strings.TrimSpace(string(b))); err != nil {
			return nil, "", 0, fmt.Errorf("%s.overrun: %w", path, err)
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, "", 0, err
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, "", 0, err
	}
	s, err := ParseSample(string(b))
	return s, "", overruns, err
}

// compare compares the outputs of the two scheduled runs, runs[0] and
// runs[1], with the specification's values, and with the unscheduled
// run, runs[2] (nil when it failed).
func compare(ctx context.Context, sp *sare.Spec, ev, wide *sare.Evaluator, runs []*Sample, tolerance float64) (*Confirmation, error) {
	again := map[string]string{}
	for _, cell := range runs[1].Outputs {
		again[key(cell.Tensor, cell.Index)] = cell.Value
	}
	unsched := map[string]string{}
	if runs[2] != nil {
		for _, cell := range runs[2].Outputs {
			unsched[key(cell.Tensor, cell.Index)] = cell.Value
		}
	}
	c := &Confirmation{}
	algorithmDiffers := 0
	for _, cell := range runs[0].Outputs {
		t := sp.Tensor(cell.Tensor)
		if t == nil {
			return nil, fmt.Errorf("the output %s of Halide's run is not a tensor of the specification", cell.Tensor)
		}
		want, err := ev.Eval(ctx, cell.Tensor, cell.Index)
		if err != nil {
			return nil, fmt.Errorf("evaluating %s: %w", expr.FormatIndex(cell.Tensor, cell.Index, '(', ')'), err)
		}
		k := key(cell.Tensor, cell.Index)
		c.Compared++
		if want.IsUndef() {
			c.Undefined++
			continue
		}
		same := func(text string) bool {
			v, err := value.Parse(t.Type, text)
			return err == nil && value.BitExact.Accepts(want, v, tolerance)
		}
		u, haveU := unsched[k]
		if haveU && !same(u) {
			if sensitive(ctx, wide, cell, want, tolerance) {
				c.Sensitive++
			} else {
				algorithmDiffers++
			}
			continue
		}
		a2, ok := again[k]
		if !ok {
			return nil, fmt.Errorf("the second run has no %s", expr.FormatIndex(cell.Tensor, cell.Index, '(', ')'))
		}
		if same(cell.Value) && same(a2) {
			continue
		}
		if a2 == cell.Value && sensitive(ctx, wide, cell, want, tolerance) {
			// Both runs agree (no memory never written shows), and
			// the value is not one rounding can be told from.
			c.Sensitive++
			continue
		}
		c.Differing++
		if len(c.Differences) < MaxDifferences {
			d := Difference{Tensor: cell.Tensor, Index: cell.Index, Expected: want.String(), Unscheduled: u, Actual: cell.Value}
			if a2 != cell.Value {
				d.Again = a2
			}
			c.Differences = append(c.Differences, d)
		}
	}
	if c.Differing > 0 {
		c.Outcome = Confirmed
		return c, nil
	}
	c.Outcome = NotReproduced
	if algorithmDiffers > 0 {
		c.Cause = Translation
		c.Reason = fmt.Sprintf("Halide's realisation of the algorithm without its schedule differs from the specification at %d of %d output cells", algorithmDiffers, c.Compared) + specSuspect
	}
	return c, nil
}

// widened is the evaluator of the specification computed in binary64
// (sare.Widen) on the counterexample's inputs, which tells the cells
// sensitive to rounding; nil at a tolerance of 0 (the ieee value model,
// where every bit counts) or when the specification does not widen.
func widened(sp *sare.Spec, params map[string]int64, inputs sare.Inputs, tolerance float64) *sare.Evaluator {
	if tolerance == 0 {
		return nil
	}
	w, info, err := sare.Widen(sp)
	if err != nil {
		return nil
	}
	ev, err := sare.NewEvaluator(w, info, params, sare.WidenInputs(sp, inputs))
	if err != nil {
		return nil
	}
	return ev
}

// sensitive reports whether the specification's value want at an output
// cell is sensitive to rounding: its evaluation in binary64 (wide),
// rounded to want's type, is not within tolerance of it, or has no
// value. Without wide, no cell is.
func sensitive(ctx context.Context, wide *sare.Evaluator, cell Cell, want value.Value, tolerance float64) bool {
	if wide == nil {
		return false
	}
	v, err := wide.Eval(ctx, cell.Tensor, cell.Index)
	if err != nil || v.IsUndef() {
		return true
	}
	if v.Type() != want.Type() {
		v = value.Float(want.Type(), v.Float64())
	}
	return !value.RealEqual.Close(v, want, tolerance)
}

// specSuspect ends the reason of a confirmation whose unscheduled run
// differs from the specification, unless the counterexample needs an
// overflow (which Halide's simplifier may put in the algorithm too).
const specSuspect = ": the specification is suspect"

// classify completes the confirmation: its reason, and for a difference
// not reproduced its cause, from the counterexample's kind of failure.
// unscheduled tells whether the unscheduled run ran; unschedErr is its
// error otherwise.
func (c *Confirmation) classify(kind sched.Kind, unscheduled bool, unschedErr string, overflow bool) {
	note := ""
	if !unscheduled {
		note = " (the algorithm without its schedule did not run: " + unschedErr + ")"
	}
	overrun := ""
	if c.Overruns > 0 {
		overrun = fmt.Sprintf("Halide's compiled pipeline writes outside %d of its allocations (the poisoned bytes around them changed)", c.Overruns)
	}
	if c.Outcome == Confirmed {
		c.Reason = fmt.Sprintf("Halide's compiled pipeline differs from the algorithm at %d of %d output cells%s", c.Differing, c.Compared, note)
		for _, d := range c.Differences {
			if d.Again != "" {
				c.Reason += "; its two runs with differently poisoned memory differ too: the value comes from memory never written"
				break
			}
		}
		if overrun != "" {
			c.Reason += "; " + overrun
		}
		return
	}
	if overrun != "" {
		c.Outcome, c.Cause = Confirmed, 0
		c.Reason = fmt.Sprintf("%s, though its outputs agree with the algorithm at all %d output cells%s", overrun, c.Compared, note)
		return
	}
	agree := fmt.Sprintf("both runs of Halide's compiled pipeline, with its allocations, output buffers and thread stacks poisoned with two different bytes, agree with the algorithm at all %d output cells%s", c.Compared, note)
	if c.Sensitive > 0 {
		agree = fmt.Sprintf("both runs of Halide's compiled pipeline, with its allocations, output buffers and thread stacks poisoned with two different bytes, agree with the algorithm at the %d of %d output cells whose values are not sensitive to rounding%s", c.Compared-c.Sensitive, c.Compared, note)
	}
	if overflow {
		// Whatever else the runs showed (Halide's unscheduled run may
		// differ from the specification where its simplifier put the
		// overflow in the algorithm too).
		if c.Cause == 0 {
			c.Reason = agree
		}
		c.Reason = strings.TrimSuffix(c.Reason, specSuspect)
		c.Cause = Overflow
		c.Reason += "; the counterexample needs a signed overflow of the kernel's arithmetic, undefined in Halide: with the kernel's i32 and i64 overflow unconstrained, the reference interpreter's replay passes"
		return
	}
	if c.Cause != 0 {
		return
	}
	if c.Undefined > 0 && (kind == sched.UndefinedStore || kind == sched.UndefinedAnnotation) {
		c.Cause = Undefined
		c.Reason = fmt.Sprintf("the algorithm has no value at %d of the %d output cells on the counterexample (an operation undefined there, such as a float's conversion outside its integer type's range)", c.Undefined, c.Compared)
		if c.Undefined < c.Compared {
			c.Reason += ", and both runs of Halide's compiled pipeline agree with it at the others"
		}
		c.Reason += note
		return
	}
	switch kind {
	case sched.ReadWriteRace, sched.WriteWriteConflict:
		c.Cause = Race
		c.Reason = agree + "; the failure is a race, which shows only when the threads interleave so"
	case sched.UndefinedRead, sched.OutputNotWritten:
		c.Cause = UninitializedMemory
		c.Reason = agree + "; the failure needs memory never written to show: the value read may not change these outputs, or lie where the poison does not reach; else the translation is wrong"
	case sched.OutOfBoundsRead, sched.OutOfBoundsWrite:
		c.Cause = OutsideBuffers
		c.Reason = agree + "; the failure is an access outside an array, which need not change Halide's outputs"
	default:
		if c.Sensitive > 0 {
			c.Cause = Rounding
			c.Reason = agree + fmt.Sprintf("; at the other %d, the algorithm's own values in binary32 and binary64 differ beyond the confirmation's tolerance, and a difference there shows no wrong output", c.Sensitive)
			return
		}
		c.Cause = Translation
		c.Reason = agree + "; the translation is suspect (a defect of Augur)"
	}
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	return s
}

// ReplayEquality is the equality with which a replay of a counterexample
// compares values, given the relative tolerance of the confirmation's
// float comparison: bit for bit at 0 (the ieee value model's), as reals
// otherwise.
func ReplayEquality(tolerance float64) value.Equality {
	if tolerance == 0 {
		return value.BitExact
	}
	return value.RealEqual
}
