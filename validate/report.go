package validate

import (
	"fmt"
	"io"
	"strings"

	"github.com/augur-verify/augur/sare"
	"github.com/augur-verify/augur/sched"
	"github.com/augur-verify/augur/symeval"
	"github.com/augur-verify/augur/value"
)

// Verdict is the outcome of a validation.
type Verdict string

// The four verdicts.
const (
	// Valid: every verification condition was proved, for every
	// parameter value satisfying the assumptions.
	Valid Verdict = "valid"
	// Invalid: the kernel is wrong; the report holds a counterexample.
	Invalid Verdict = "invalid"
	// Unknown: some conditions could be decided neither way; the report
	// says which and why. Never a claim about the kernel.
	Unknown Verdict = "unknown"
	// Error: the input is malformed; the report lists the errors with
	// their positions.
	Error Verdict = "error"
)

// Report is the result of a validation, ready to be printed as text or
// encoded as JSON.
type Report struct {
	Verdict Verdict `json:"verdict"`
	// Reason names the failure for an invalid verdict ("annotation
	// mismatch", "read-write race", ...), or summarises why the verdict
	// is unknown or an error.
	Reason string `json:"reason,omitempty"`
	// Spec and Program are the names of the two inputs.
	Spec    string `json:"spec"`
	Program string `json:"program"`
	// Kernel is the kernel's name.
	Kernel string `json:"kernel,omitempty"`
	// ValueModel is the value model used for floats ("real", "ieee").
	ValueModel string `json:"value_model"`
	// Assumptions is the parameter domain the verdict holds under.
	Assumptions string `json:"assumptions,omitempty"`
	// AssumptionPieces is the number of disjoint cases (convex pieces)
	// Assumptions is the union of.
	AssumptionPieces int `json:"assumption_pieces,omitempty"`
	// Vacuous is set on a valid verdict whose assumptions no parameter
	// values satisfy: it then says nothing about any run of the kernel.
	Vacuous bool `json:"vacuous,omitempty"`
	// Readings lists the kernel's float literals that the real value
	// model read as constants derived from the specification's: the
	// verdict holds with those readings.
	Readings []LiteralReading `json:"readings,omitempty"`
	// Counterexample is set for an invalid verdict, and kept on an
	// unknown one when the compiler's code stops at a check the kernel
	// leaves out before the failure it shows (Native, CauseCheckLeftOut).
	Counterexample *Counterexample `json:"counterexample,omitempty"`
	// Native is the counterexample run on the compiler's own compiled
	// code, when the front end that translated the pair can run it
	// (augur halide --validate runs Halide's pipeline).
	Native *NativeCheck `json:"native,omitempty"`
	// Conditions lists every verification condition with its result.
	Conditions []ConditionResult `json:"conditions,omitempty"`
	// Errors lists the errors of malformed input, each as
	// "file:line:col: message" followed by the source line and a caret.
	Errors []ErrorDetail `json:"errors,omitempty"`
	// TimeBound is set when a time guard, not a resource limit,
	// stopped some work: the verdict may then differ on a faster or
	// less loaded machine, and is not to be cached.
	TimeBound bool `json:"time_bound,omitempty"`
	// MemoryBound is set when the solver's memory limit (shared by every
	// validation the process runs at the time) stopped some work: as with
	// TimeBound, the verdict may differ in another run, and is not to be
	// cached. It is not part of the JSON form.
	MemoryBound bool `json:"-"`
	// InternalErrors lists the internal errors (recovered panics) met,
	// each with the input's digest and a stack: a bug of Augur's, to be
	// logged. The work each interrupted is undecided.
	InternalErrors []string `json:"internal_errors,omitempty"`
	// Timings gives the time spent in each phase.
	Timings []PhaseTime `json:"timings,omitempty"`
	// SymbolicSteps is the work of the symbolic evaluation, in the
	// Presburger engine's steps (the unit of Options.SymbolicSteps); 0
	// when it did not finish.
	SymbolicSteps int64 `json:"symbolic_steps,omitempty"`
	// IndexChecks are the index overflow checks of the compiler's final
	// code (augur halide --validate at --stage final; see IndexCheck).
	IndexChecks []IndexCheck `json:"index_checks,omitempty"`
	// IndexOverflowAssumed is set when an index check is not proved and
	// the verdict assumes no index overflows (ApplyIndexChecks).
	IndexOverflowAssumed bool `json:"index_overflow_assumed,omitempty"`
}

// ErrorDetail is one error of malformed input.
type ErrorDetail struct {
	File    string `json:"file,omitempty"`
	Line    int    `json:"line,omitempty"`
	Col     int    `json:"col,omitempty"`
	Message string `json:"message"`
	// Code is the kind of the error (syntax.Code), stable across
	// rewordings of Message; empty when not classified.
	Code string `json:"code,omitempty"`
	// Text is the full rendering with the source line and a caret.
	Text string `json:"text"`
}

// PhaseTime is the time spent in one phase of a validation.
type PhaseTime struct {
	Phase   string  `json:"phase"`
	Seconds float64 `json:"seconds"`
}

// InputValue is one element of an input tensor, such as A(0, 1) = 2.5.
type InputValue struct {
	Tensor string  `json:"tensor"`
	Index  []int64 `json:"index"`
	Value  string  `json:"value"`
	v      value.Value
}

// String renders the element as augur run's --input flag takes it:
// "A(0, 1)=2.5".
func (x InputValue) String() string {
	parts := make([]string, len(x.Index))
	for i, n := range x.Index {
		parts[i] = fmt.Sprint(n)
	}
	return fmt.Sprintf("%s(%s)=%s", x.Tensor, strings.Join(parts, ", "), x.Value)
}

// Binding is a named integer: a parameter or a loop variable.
type Binding struct {
	Name  string `json:"name"`
	Value int64  `json:"value"`
}

// Counterexample shows where and how a kernel goes wrong.
type Counterexample struct {
	// Kind is the failure (sched.WrongValue, "annotation mismatch" in
	// JSON, ...).
	Kind sched.Kind `json:"kind"`
	// Condition is the ID of the condition that failed.
	Condition int `json:"condition"`
	// File, Line, Col and Stmt locate the statement (or binding, or
	// equation).
	File string `json:"file"`
	Line int    `json:"line"`
	Col  int    `json:"col"`
	Stmt string `json:"statement"`
	// Params are the parameter values, Loops the loop indices.
	Params []Binding `json:"params"`
	Loops  []Binding `json:"loops,omitempty"`
	// Cell is the array cell concerned, such as "c[1, 2]".
	Cell string `json:"cell,omitempty"`
	// Expected is the annotation or specification element, symbolically
	// (Expr, such as "R(0, 1, 2)") and as a number where known (Value).
	ExpectedExpr  string `json:"expected_expr,omitempty"`
	ExpectedValue string `json:"expected_value,omitempty"`
	// Actual is what the kernel computes, symbolically and as a number.
	ActualExpr  string `json:"actual_expr,omitempty"`
	ActualValue string `json:"actual_value,omitempty"`
	// Inputs lists the input tensor elements of the solver's model that
	// the two sides read; the other elements are random (Seed).
	Inputs []InputValue `json:"inputs,omitempty"`
	// Seed is the seed of the random inputs the values were computed
	// with (and the replay run), 1 unless stated.
	Seed uint64 `json:"seed"`
	// Detail completes the description.
	Detail string `json:"detail,omitempty"`
	// Reproduced tells whether the reference interpreter, run at these
	// parameter values on random inputs, fails too, and how (Replay).
	Reproduced bool   `json:"reproduced"`
	Replay     string `json:"replay,omitempty"`
	// Command reproduces the failure with augur run.
	Command string `json:"command,omitempty"`
	// garbage is set when the replay ran with garbage writes (Command
	// says --garbage-writes).
	garbage bool
	// eval is the specification's evaluator of the replay that failed,
	// at Params on the replay's inputs, until harmEvidence runs the
	// kernel again on the same inputs with it (the elements it computed
	// are the same), and drops it.
	eval *sare.Evaluator
}

// NativeOutcome is what the compiler's own compiled code showed on a
// counterexample.
type NativeOutcome string

// The outcomes of a NativeCheck.
const (
	// NativeConfirmed: the compiled code computes, at some output cell,
	// another value than the algorithm's.
	NativeConfirmed NativeOutcome = "confirmed"
	// NativeNotReproduced: the compiled code computes the algorithm's
	// values at every output cell; Cause says what the difference would
	// need to show.
	NativeNotReproduced NativeOutcome = "not reproduced"
	// NativeNotRun: the compiled code could not be run on the
	// counterexample; Reason says why.
	NativeNotRun NativeOutcome = "not run"
)

// NativeCause says what a difference the compiled code does not
// reproduce would need to show, or that the translation is suspect.
type NativeCause string

// The causes of a difference not reproduced.
const (
	// CauseUninitializedMemory: a read of memory never written, whose
	// value did not change the outputs of the runs (with their memory
	// poisoned).
	CauseUninitializedMemory NativeCause = "uninitialized memory"
	// CauseRace: a race between iterations of a parallel loop, which
	// shows only when the threads interleave so.
	CauseRace NativeCause = "race"
	// CauseOutsideBuffers: an access outside an array, which need not
	// change the outputs.
	CauseOutsideBuffers NativeCause = "access outside the buffers"
	// CauseTranslation: nothing but a wrong translation explains the
	// difference: a defect of Augur's.
	CauseTranslation NativeCause = "translation suspect"
	// CauseCheckLeftOut: the compiled code stops, on the counterexample,
	// at a run-time check that the translation leaves out of the kernel;
	// the kernel goes on where the compiled code stops, so the failure
	// is no wrong output of the compiler's, and the verdict is UNKNOWN.
	CauseCheckLeftOut NativeCause = "check left out"
	// CauseOverflow: the counterexample needs a signed overflow of the
	// kernel's arithmetic, which the compiler leaves undefined (Halide's
	// Int(32) and Int(64)); the failure is no wrong output of the
	// compiler's, and the verdict is UNKNOWN.
	CauseOverflow NativeCause = "signed overflow"
	// CauseUndefined: the specification has no value at some output
	// cells on the counterexample (an operation undefined there), and
	// the compiled code agrees with it at the others: the counterexample
	// lies outside the algorithm's domain, and the verdict is UNKNOWN.
	CauseUndefined NativeCause = "undefined in the algorithm"
	// CauseRounding: the compiled code differs from the algorithm only
	// at output cells whose values are sensitive to rounding (the
	// algorithm's own evaluations in binary32 and binary64 differ
	// there), and agrees with it at the others: in the real value model
	// the failure is no wrong output of the compiler's, and the verdict
	// is UNKNOWN.
	CauseRounding NativeCause = "sensitive to rounding"
)

// NativeCheck is an invalid verdict's counterexample run on the
// compiler's own compiled code, compared with the algorithm's values
// computed without the schedule.
type NativeCheck struct {
	// Compiler names the compiler whose code ran ("Halide").
	Compiler string        `json:"compiler"`
	Outcome  NativeOutcome `json:"outcome"`
	// Cause is set when the outcome is NativeNotReproduced.
	Cause NativeCause `json:"cause,omitempty"`
	// Reason says what the runs showed.
	Reason string `json:"reason"`
	// Compared counts the output cells compared, Differing those that
	// differ, of which Cells lists the first few.
	Compared  int          `json:"compared"`
	Differing int          `json:"differing"`
	Cells     []NativeCell `json:"cells,omitempty"`
	// Inputs are the input elements the counterexample fixes, the other
	// elements drawn from Seed as the replay draws them; or, with
	// AllInputs, every input element the runs read.
	Inputs    []InputValue `json:"inputs,omitempty"`
	AllInputs bool         `json:"all_inputs,omitempty"`
	Seed      uint64       `json:"seed"`
}

// NativeCell is an output cell where the compiled code differs from the
// algorithm.
type NativeCell struct {
	Tensor string  `json:"tensor"`
	Index  []int64 `json:"index"`
	// Expected is the specification's value; Unscheduled the compiler's
	// code for the algorithm without its schedule, when it ran.
	Expected    string `json:"expected"`
	Unscheduled string `json:"unscheduled,omitempty"`
	// Actual is what the compiled code computes; Again what it computes
	// in a second run with memory poisoned differently, when it differs
	// (the value then comes from memory never written).
	Actual string `json:"actual"`
	Again  string `json:"again,omitempty"`
}

// Element renders the cell as a tensor element: "f(0, 1)".
func (c NativeCell) Element() string {
	parts := make([]string, len(c.Index))
	for i, n := range c.Index {
		parts[i] = fmt.Sprint(n)
	}
	return c.Tensor + "(" + strings.Join(parts, ", ") + ")"
}

// Status is the result of one verification condition, as JSON and text
// print it.
type Status string

// The statuses of a condition in a report, in the order summaries list
// them.
const (
	// Proved: the condition holds for every parameter value satisfying
	// the assumptions.
	Proved Status = "proved"
	// Failed: the condition fails; a counterexample shows it.
	Failed Status = "failed"
	// Undecided: the condition could be decided neither way; the
	// result's reason says why.
	Undecided Status = "undecided"
)

// statusOf is the status of a condition whose symbolic evaluation or
// solving left it in state s. A condition still pending keeps the name
// of its state until the validation concludes (see cancelled).
func statusOf(s symeval.Status) Status {
	switch s {
	case symeval.Proved:
		return Proved
	case symeval.Failed:
		return Failed
	case symeval.Undecided:
		return Undecided
	}
	return Status(s.String())
}

// ConditionResult is the result of one verification condition.
type ConditionResult struct {
	ID int `json:"id"`
	// Kind is the failure the condition rules out.
	Kind sched.Kind `json:"kind"`
	// File, Line, Col and Text locate the condition's statement.
	File string `json:"file"`
	Line int    `json:"line"`
	Col  int    `json:"col"`
	Text string `json:"text"`
	// Status is Proved, Failed or Undecided.
	Status Status `json:"status"`
	// Reason explains a failed or undecided status (timeout, budget,
	// unconfirmed counterexample).
	Reason string `json:"reason,omitempty"`
	// Formula is the condition in symbolic form: for a value condition
	// "impl = spec for points", for a Presburger condition the points
	// where it fails.
	Formula string `json:"formula,omitempty"`
	// Solver says how a value condition was decided ("syntactic",
	// "z3", "z3 with unfolding").
	Solver  string  `json:"solver,omitempty"`
	Seconds float64 `json:"seconds"`
	// Resources is the solver work the condition took, in Z3's resource
	// units (the unit of Options.Resources).
	Resources uint64 `json:"resources,omitempty"`
	// SMT holds the SMT-LIB2 script of a value condition (when asked
	// for); z3 reproduces the result on it (unsat: proved).
	SMT string `json:"smt,omitempty"`
	// Counterexample is a failed condition's own counterexample,
	// confirmed as Report.Counterexample is (which is the first failed
	// condition's); at most the first few failed conditions have one.
	Counterexample *Counterexample `json:"counterexample,omitempty"`
}

// ExitCode maps the verdict to augur validate's exit codes: 0 valid, 1
// invalid, 2 unknown, 3 error.
func (r *Report) ExitCode() int {
	switch r.Verdict {
	case Valid:
		return 0
	case Invalid:
		return 1
	case Unknown:
		return 2
	}
	return 3
}

// Counts returns the number of conditions by status.
func (r *Report) Counts() map[Status]int {
	m := map[Status]int{}
	for _, c := range r.Conditions {
		m[c.Status]++
	}
	return m
}

// Summary counts the conditions by status, as augur validate and the
// dashboard print them: "14 conditions: 13 proved, 1 failed"; "" when
// there are none.
func (r *Report) Summary() string {
	n := len(r.Conditions)
	if n == 0 {
		return ""
	}
	counts := r.Counts()
	var parts []string
	for _, s := range []Status{Proved, Failed, Undecided} {
		if counts[s] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", counts[s], s))
		}
	}
	return fmt.Sprintf("%d condition%s: %s", n, plural(n), strings.Join(parts, ", "))
}

// maxInlineAssumptions bounds the length of the assumptions a valid
// verdict's first line spells out without verbose: a domain of many
// cases (a real pipeline's buffer checks, split at every min and max)
// would bury the verdict.
const maxInlineAssumptions = 500

// LongAssumptions reports whether the assumptions are too long to spell
// out in a verdict's sentence (maxInlineAssumptions): a report shows them
// apart.
func (r *Report) LongAssumptions() bool { return len(r.Assumptions) > maxInlineAssumptions }

// WriteText prints the report as augur validate does: the verdict first,
// the counterexample right under it, then the conditions that were not
// proved, a summary and the timings. verbose adds every condition.
func (r *Report) WriteText(w io.Writer, verbose bool) error {
	var b strings.Builder
	switch r.Verdict {
	case Valid:
		if r.Vacuous {
			fmt.Fprintf(&b, "VALID, VACUOUSLY: no parameter values satisfy the assumptions of %s and %s", r.Program, r.Spec)
			if r.Assumptions != "" && r.Assumptions != "false" {
				fmt.Fprintf(&b, " (%s)", r.Assumptions)
			}
			b.WriteString(": the verdict holds for no run of the kernel\n")
			break
		}
		fmt.Fprintf(&b, "VALID: %s computes its specification %s", r.Program, r.Spec)
		switch {
		case r.Assumptions == "":
		case r.LongAssumptions() && !verbose:
			n := max(r.AssumptionPieces, 1)
			fmt.Fprintf(&b, " whenever its assumptions hold (%d case%s over the parameters, %d characters: --verbose prints them, as the JSON report's assumptions do)",
				n, plural(n), len(r.Assumptions))
		default:
			fmt.Fprintf(&b, " whenever %s", r.Assumptions)
		}
		b.WriteString("\n")
	case Invalid:
		fmt.Fprintf(&b, "INVALID: %s\n", r.Reason)
	case Unknown:
		fmt.Fprintf(&b, "UNKNOWN: %s\n", r.Reason)
	default:
		fmt.Fprintf(&b, "ERROR: %s\n", r.Reason)
		for _, e := range r.Errors {
			b.WriteString(e.Text)
			b.WriteString("\n")
		}
	}
	if r.Verdict != Error {
		writeReadings(&b, r.Readings)
	}
	if cx := r.Counterexample; cx != nil {
		writeCounterexample(&b, cx)
	}
	if r.Native != nil {
		writeNative(&b, r.Native)
	}
	if r.Verdict == Unknown && (r.Native == nil || r.Counts()[Undecided] > 0) && (len(r.IndexChecks) == 0 || r.Counts()[Undecided] > 0) {
		b.WriteString("\nundecided conditions:\n")
		for _, c := range r.Conditions {
			if c.Status == Undecided {
				fmt.Fprintf(&b, "  C%d %s at %s:%d:%d: %s\n      %s\n", c.ID, c.Kind, c.File, c.Line, c.Col, c.Text, c.Reason)
			}
		}
	}
	writeIndexChecks(&b, r)
	if s := r.Summary(); s != "" {
		fmt.Fprintf(&b, "\n%s\n", s)
	}
	if verbose {
		for _, c := range r.Conditions {
			fmt.Fprintf(&b, "  C%d %-9s %s at %s:%d:%d: %s\n", c.ID, c.Status, c.Kind, c.File, c.Line, c.Col, c.Text)
			if c.Formula != "" {
				for _, l := range strings.Split(c.Formula, "\n") {
					fmt.Fprintf(&b, "      %s\n", l)
				}
			}
			if c.Reason != "" {
				fmt.Fprintf(&b, "      (%s)\n", c.Reason)
			}
		}
	}
	if len(r.Timings) > 0 {
		var parts []string
		for _, t := range r.Timings {
			parts = append(parts, fmt.Sprintf("%s %s", t.Phase, formatSeconds(t.Seconds)))
		}
		fmt.Fprintf(&b, "time: %s\n", strings.Join(parts, ", "))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// writeReadings says which literals the real model read as derived
// constants: "literals read as the specification's constants they round
// (real model): 0.33333334 as 1 / 3".
func writeReadings(b *strings.Builder, rs []LiteralReading) {
	if len(rs) == 0 {
		return
	}
	parts := make([]string, len(rs))
	for i, x := range rs {
		parts[i] = x.Value + " as " + x.As
		if x.Type != "f32" {
			parts[i] += " (" + x.Type + ")"
		}
	}
	fmt.Fprintf(b, "literals read as the specification's constants they round (real model): %s\n", strings.Join(parts, ", "))
}

func writeCounterexample(b *strings.Builder, cx *Counterexample) {
	row := func(label, format string, args ...any) {
		fmt.Fprintf(b, "  %-12s %s\n", label+":", fmt.Sprintf(format, args...))
	}
	fmt.Fprintf(b, "\n%s:%d:%d: %s\n", cx.File, cx.Line, cx.Col, cx.Stmt)
	row("parameters", "%s", formatBindings(cx.Params))
	if len(cx.Loops) > 0 {
		row("loop indices", "%s", formatBindings(cx.Loops))
	}
	if cx.Cell != "" {
		row("cell", "%s", cx.Cell)
	}
	if cx.ExpectedExpr != "" || cx.ExpectedValue != "" {
		row("annotation", "%s", joinNonEmpty(cx.ExpectedExpr, cx.ExpectedValue))
	}
	if cx.ActualExpr != "" || cx.ActualValue != "" {
		row("computed", "%s", joinNonEmpty(cx.ActualExpr, cx.ActualValue))
	}
	if len(cx.Inputs) > 0 {
		var parts []string
		for i, x := range cx.Inputs {
			if i == 12 {
				parts = append(parts, fmt.Sprintf("... (%d more)", len(cx.Inputs)-12))
				break
			}
			parts = append(parts, x.String())
		}
		row("inputs", "%s", strings.Join(parts, ", "))
	}
	if cx.Detail != "" {
		row("detail", "%s", cx.Detail)
	}
	if cx.Replay != "" {
		if cx.Reproduced {
			row("reproduced", "%s", cx.Replay)
		} else {
			row("replay", "%s", cx.Replay)
		}
	}
	if cx.Command != "" {
		row("reproduce", "%s", cx.Command)
	}
}

// writeNative prints the run of the compiler's code on the
// counterexample: "CONFIRMED in Halide's code: ..." and the cells that
// differ, or "NOT REPRODUCED by Halide's code (cause): ...".
func writeNative(b *strings.Builder, n *NativeCheck) {
	switch n.Outcome {
	case NativeConfirmed:
		fmt.Fprintf(b, "\nCONFIRMED in %s's code: %s\n", n.Compiler, n.Reason)
	case NativeNotReproduced:
		fmt.Fprintf(b, "\nNOT REPRODUCED by %s's code (%s): %s\n", n.Compiler, n.Cause, n.Reason)
	default:
		fmt.Fprintf(b, "\nNot run on %s's code: %s\n", n.Compiler, n.Reason)
	}
	for _, c := range n.Cells {
		fmt.Fprintf(b, "  %-12s %s computed, %s expected", c.Element()+":", c.Actual, c.Expected)
		if c.Unscheduled != "" {
			fmt.Fprintf(b, " (unscheduled: %s)", c.Unscheduled)
		}
		if c.Again != "" {
			fmt.Fprintf(b, "; %s in a run with other poison", c.Again)
		}
		b.WriteString("\n")
	}
	if n.Differing > len(n.Cells) {
		fmt.Fprintf(b, "  ... (%d more cells)\n", n.Differing-len(n.Cells))
	}
	if n.Outcome == NativeConfirmed {
		var parts []string
		for i, x := range n.Inputs {
			if i == 12 {
				parts = append(parts, fmt.Sprintf("... (%d more)", len(n.Inputs)-12))
				break
			}
			parts = append(parts, x.String())
		}
		switch {
		case n.AllInputs:
		case len(parts) == 0:
			parts = append(parts, fmt.Sprintf("random (seed %d)", n.Seed))
		default:
			parts = append(parts, fmt.Sprintf("the others random (seed %d)", n.Seed))
		}
		fmt.Fprintf(b, "  %-12s %s\n", "inputs:", strings.Join(parts, ", "))
	}
}

func joinNonEmpty(expr, val string) string {
	switch {
	case expr == "":
		return val
	case val == "":
		return expr
	}
	return expr + " = " + val
}

func formatBindings(bs []Binding) string {
	parts := make([]string, len(bs))
	for i, x := range bs {
		parts[i] = fmt.Sprintf("%s=%d", x.Name, x.Value)
	}
	return strings.Join(parts, ", ")
}

func formatSeconds(s float64) string {
	switch {
	case s < 0.001:
		return fmt.Sprintf("%.0fµs", s*1e6)
	case s < 1:
		return fmt.Sprintf("%.0fms", s*1e3)
	}
	return fmt.Sprintf("%.2fs", s)
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
