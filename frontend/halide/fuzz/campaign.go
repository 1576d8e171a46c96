package fuzz

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/augur-verify/augur/frontend/halide"
	"github.com/augur-verify/augur/value"
)

// Verdict is a validator's answer on a case's translation.
type Verdict struct {
	Verdict string // valid, invalid, unknown or error
	Reason  string
	// Params are the counterexample's parameter values (invalid).
	Params map[string]int64
	// Report is the validator's report, as text.
	Report string
	// Witness is the counterexample's parameters, fixed inputs and
	// seed (invalid), with which NeedsOverflow replays it; nil when the
	// validator gives none.
	Witness *halide.Witness
}

// Validator validates a translation: the specification's and the
// kernel's texts. Validation lives above the front ends (the caller,
// augur fuzz-halide, passes package validate's).
type Validator func(ctx context.Context, spec, sched string) (*Verdict, error)

// Options configure a campaign.
type Options struct {
	Seed  uint64
	Cases int           // the number of cases; 0: until Until
	Until time.Time     // no new case starts after it (zero: no limit)
	Mode  string        // "mixed" (every other case slides), "sliding" or "random"
	Out   string        // where bug bundles go (empty: none written)
	Log   io.Writer     // a line per case, when set
	Limit time.Duration // the driver's limit per request
}

// Outcome is what became of one case.
type Outcome struct {
	Case string `json:"case"`
	// Verdict is Augur's verdict (valid, invalid, unknown, error), or
	// rejected (Halide refused the schedule), untranslated (the
	// translator refused the pipeline) or crash.
	Verdict string `json:"verdict"`
	Cause   string `json:"cause,omitempty"`
	// Reason is Augur's reason for its verdict, in full (Cause is its
	// normalised summary).
	Reason string `json:"-"`
	// Confirmed is set on an invalid verdict that Halide's JIT shows:
	// the scheduled pipeline differs from the algorithm.
	Confirmed bool `json:"confirmed,omitempty"`
	// Elsewhere is the output region that confirmed it when the
	// counterexample's did not.
	Elsewhere string `json:"confirmed_elsewhere,omitempty"`
	// Sizes are the output's extents of the region Elsewhere, written
	// W x H.
	Sizes    string  `json:"confirmed_sizes,omitempty"`
	Mismatch string  `json:"mismatch,omitempty"`
	Bundle   string  `json:"bundle,omitempty"`
	Seconds  float64 `json:"seconds"`
	// Text, Spec, Sched and Report are the case, its translation and
	// Augur's report (invalid); Region the output region Halide's JIT
	// showed it wrong over (confirmed).
	Text, Spec, Sched, Report string `json:"-"`
	Region                    Region `json:"-"`
}

// CompilerError says whether the case made Halide's compiler fail with
// an internal error.
func (o *Outcome) CompilerError() bool {
	return o.Verdict == "crash" && strings.HasPrefix(o.Cause, internalError+":")
}

// Campaign runs cases on the driver, validating each with v, confirming
// every invalid verdict with Halide's JIT, minimising and bundling the
// confirmed ones, and returns the summary.
func Campaign(ctx context.Context, d *Driver, v Validator, o Options) (*Summary, error) {
	s := newSummary(o)
	start := time.Now()
	for i := 0; o.Cases == 0 || i < o.Cases; i++ {
		if !o.Until.IsZero() && time.Now().After(o.Until) || ctx.Err() != nil {
			break
		}
		gen := GenOptions{Sliding: o.Mode == "sliding" || o.Mode == "mixed" && i%2 == 1}
		c := Generate(o.Seed, i, gen)
		t := time.Now()
		out, err := RunCase(ctx, d, v, c)
		if err != nil {
			if ctx.Err() != nil {
				break
			}
			return nil, err
		}
		if out.Confirmed || out.CompilerError() {
			if err := s.bug(ctx, d, v, c, out, o.Out); err != nil {
				if ctx.Err() != nil {
					// Interrupted while minimising: the case counts,
					// unbundled.
					s.add(out)
					break
				}
				return nil, err
			}
		} else if out.Verdict == "invalid" && o.Out != "" {
			if err := keepUnconfirmed(o.Out, out); err != nil {
				return nil, err
			}
		}
		out.Seconds = time.Since(t).Seconds()
		s.add(out)
		if o.Log != nil {
			fmt.Fprintf(o.Log, "%s %s %s %s\n", out.Case, out.Verdict, out.Cause, confirmedWord(out))
		}
	}
	s.finish(time.Since(start))
	return s, nil
}

func confirmedWord(o *Outcome) string {
	switch {
	case o.Verdict != "invalid":
		return ""
	case o.Confirmed:
		return "CONFIRMED " + o.Mismatch
	}
	return "not reproduced by Halide's JIT"
}

// RunCase translates the case, validates it and, when invalid, confirms
// it with Halide's JIT.
func RunCase(ctx context.Context, d *Driver, v Validator, c *Case) (*Outcome, error) {
	out := &Outcome{Case: c.Name}
	a, err := d.Do(ctx, c, "translate")
	if err != nil {
		return nil, err
	}
	switch a.Cause {
	case "":
	case "unsupported", "parse", "error":
		out.Verdict, out.Cause = "untranslated", a.Cause+": "+Normalize(a.Msg)
		return out, nil
	case "crash", "timeout", "halide-internal":
		out.Verdict, out.Cause = "crash", a.Cause+": "+Normalize(a.Msg)
		return out, nil
	default:
		out.Verdict, out.Cause = "rejected", a.Cause+": "+Normalize(a.Msg)
		return out, nil
	}
	ver, err := v(ctx, a.Spec, a.Sched)
	if err != nil {
		return nil, err
	}
	out.Verdict, out.Cause, out.Reason = ver.Verdict, Normalize(ver.Reason), ver.Reason
	if ver.Verdict != "invalid" {
		return out, nil
	}
	out.Text, out.Spec, out.Sched, out.Report = c.String(), a.Spec, a.Sched, ver.Report
	r := OutputRegion(c, a.Params, ver.Params)
	j, wide, check, err := confirmElsewhere(ctx, d, c, r)
	if err != nil {
		return nil, err
	}
	if wide.Extents != nil {
		out.Elsewhere = wide.String()
		out.Sizes = wide.sizes()
	}
	own := r
	if check != "" && droppedCheck(j) == "" && emptyOutput(c, a.Params, ver.Params) {
		// No cell to be wrong at the counterexample, and Halide's code
		// stops at a check the kernel leaves out where it has cells.
		out.Verdict = "unknown"
		out.Reason = halide.EmptyOutputReason(check)
		out.Cause = Normalize(out.Reason)
		out.Mismatch = "the JIT stops at " + check + " over the other output regions tried"
		return out, nil
	}
	if out.Elsewhere != "" {
		r = wide
	}
	switch {
	case j.Cause == "crash-scheduled":
		// Halide's code of the schedule crashed where that of the
		// algorithm ran.
		out.Confirmed = true
		out.Mismatch = "the scheduled pipeline crashed: " + j.Msg
	case j.Cause != "":
		out.Mismatch = "the JIT failed: " + j.Cause + ": " + Normalize(j.Msg)
		if check := droppedCheck(j); check != "" {
			// Halide's code stops where the kernel goes on: the
			// counterexample is no wrong output of Halide's.
			out.Verdict = "unknown"
			out.Reason = halide.DroppedCheckReason(check)
			out.Cause = Normalize(out.Reason)
		}
	case j.Mismatch > 0:
		out.Confirmed = true
		out.Mismatch = fmt.Sprintf("%d cells differ, first at %s", j.Mismatch, j.First)
	}
	if err := unconfirmedOverflow(ctx, out, a, ver); err != nil {
		return nil, err
	}
	out.Region = r
	if out.Elsewhere != "" {
		out.Mismatch = fmt.Sprintf("at sizes %s (not the counterexample's %s), over %s: %s",
			out.Sizes, own.sizes(), out.Elsewhere, out.Mismatch)
	}
	return out, nil
}

// unconfirmedOverflow makes the invalid outcome out that Halide's JIT
// did not confirm unknown when its counterexample needs a signed overflow
// of the kernel's arithmetic (halide.NeedsOverflow), which Halide leaves
// undefined: Augur's INVALID is then no claim about Halide. The replay
// compares values as augur validate's default value model, real, does.
func unconfirmedOverflow(ctx context.Context, out *Outcome, a *Answer, ver *Verdict) error {
	if out.Verdict != "invalid" || out.Confirmed || ver.Witness == nil {
		return nil
	}
	needs, err := halide.NeedsOverflow(ctx, a.Spec, a.Sched, *ver.Witness, value.RealEqual, 0)
	if err != nil || !needs {
		return err
	}
	out.Verdict, out.Reason = "unknown", halide.OverflowReason
	out.Cause = Normalize(out.Reason)
	return nil
}

// droppedCheck names the check the translation leaves out at which
// Halide's code stopped in the JIT run j (halide.DroppedCheck), or is
// empty.
func droppedCheck(j *Answer) string {
	if j.Cause != "halide-runtime" {
		return ""
	}
	return halide.DroppedCheck(j.Msg)
}

// inputMargin is how many cells past the output region, on each side,
// the last of the wider runs gives the inputs.
const inputMargin = 32

// maxExtent bounds each extent of a region a JIT run realises.
const maxExtent = 256

// confirmElsewhere confirms the case over the counterexample's region r
// and, when that shows nothing and either runs or stops at an error of
// Halide's runtime other than a check the kernel leaves out (Halide's
// code may reject the region's sizes), over the wider regions
// (widerRegions), then the sized ones (sizedRegions), in turn, until a
// run times out. It returns the answer that shows the bug and
// its region (zero when r's answer is returned), or r's answer; and the
// first check the kernel leaves out at which a run stopped, when no run
// shows the bug.
func confirmElsewhere(ctx context.Context, d *Driver, c *Case, r Region) (*Answer, Region, string, error) {
	j, err := Confirm(ctx, d, c, r)
	if err != nil || shows(j) || droppedCheck(j) != "" || j.Cause != "" && j.Cause != "halide-runtime" {
		return j, Region{}, droppedCheck(j), err
	}
	check := ""
	for _, wide := range append(widerRegions(r), sizedRegions(c, r)...) {
		w, err := Confirm(ctx, d, c, wide)
		if err != nil {
			return nil, Region{}, "", err
		}
		if shows(w) {
			return w, wide, "", nil
		}
		if check == "" {
			check = droppedCheck(w)
		}
		if w.Cause == "timeout" {
			break
		}
	}
	return j, Region{}, check, nil
}

// emptyOutput tells whether the counterexample's params give the
// output an extent of 0 (or less), named by the translation's names.
func emptyOutput(c *Case, names map[string]string, params map[string]int64) bool {
	for d := range c.Dims(c.Output) {
		if v, ok := params[names[fmt.Sprintf("%s.extent.%d", c.Output, d)]]; ok && v <= 0 {
			return true
		}
	}
	return false
}

// widerRegions are the regions tried when the counterexample's does not
// show the bug: its mins with extents of 16, mins 0 with extents of 16,
// and the counterexample's region again with inputs widened by
// inputMargin. Bounds inference may size an input read only through a
// boundary condition over the input's own bounds (constant_exterior) to
// one cell, and every value the output then reads is the condition's
// constant, which hides a wrong number of accumulations.
func widerRegions(r Region) []Region {
	a := Region{Mins: r.Mins, Extents: make([]int, len(r.Extents))}
	b := Region{Mins: make([]int, len(r.Mins)), Extents: make([]int, len(r.Extents))}
	for i := range r.Extents {
		a.Extents[i], b.Extents[i] = 16, 16
	}
	c := Region{Mins: r.Mins, Extents: r.Extents, InputMargin: inputMargin}
	return []Region{a, b, c}
}

// Region is the output's mins and extents a JIT run realises, and the
// number of cells by which its inputs extend past the output region on
// each side (0: only what bounds inference asks for).
type Region struct {
	Mins, Extents []int
	InputMargin   int
}

// String is the region as the fuzz driver's jit action takes it: the
// mins and extents, then "pad P" when the inputs are widened.
func (r Region) String() string {
	var b strings.Builder
	for i := range r.Mins {
		fmt.Fprintf(&b, " %d %d", r.Mins[i], r.Extents[i])
	}
	if r.InputMargin > 0 {
		fmt.Fprintf(&b, " pad %d", r.InputMargin)
	}
	return strings.TrimSpace(b.String())
}

// OutputRegion is the output region of a counterexample: its values of
// the output's min and extent parameters, named by the translation's
// names (from the driver's answer); min 0 and extent 8 for those it does
// not give.
func OutputRegion(c *Case, names map[string]string, params map[string]int64) Region {
	var r Region
	for d := range c.Dims(c.Output) {
		lo, ext := 0, 8
		if v, ok := params[names[fmt.Sprintf("%s.min.%d", c.Output, d)]]; ok {
			lo = int(v)
		}
		if v, ok := params[names[fmt.Sprintf("%s.extent.%d", c.Output, d)]]; ok {
			ext = int(max(1, min(v, maxExtent)))
		}
		r.Mins, r.Extents = append(r.Mins, lo), append(r.Extents, ext)
	}
	return r
}

// poisons are the bytes Halide's allocations are filled with in turn
// when confirming: zeros, a pattern and all ones (a NaN for floats).
var poisons = []int{0, 0x55, 0xff}

// Confirm realises the scheduled pipeline and the algorithm with Halide's
// JIT over the region, with each poison in turn, and returns the first
// answer that shows a mismatch or a failure (else the last).
func Confirm(ctx context.Context, d *Driver, c *Case, r Region) (*Answer, error) {
	return confirmWith(ctx, d, c, r, poisons)
}

func confirmWith(ctx context.Context, d *Driver, c *Case, r Region, poisons []int) (*Answer, error) {
	c = c.Pruned()
	var a *Answer
	for _, p := range poisons {
		var err error
		if a, err = d.Do(ctx, c, fmt.Sprintf("jit 1 %d %s", p, r)); err != nil {
			return nil, err
		}
		if a.Cause != "" || a.Mismatch > 0 {
			a.Poison = p
			return a, nil
		}
	}
	return a, nil
}

var (
	numbers = regexp.MustCompile(`\b(f|b|in)\d+\b|\b[a-z]+\d+\b|-?\d+`)
	spaces  = regexp.MustCompile(`\s+`)
	// notProved is the start of Augur's reason for UNKNOWN.
	notProved = regexp.MustCompile(`^\d+ conditions? not proved, the first C\d+ `)
)

// Normalize turns a message into a cause that groups like failures: its
// first sentence, names of the case's funcs and numbers replaced, at most
// 100 characters.
func Normalize(msg string) string {
	msg = spaces.ReplaceAllString(strings.TrimSpace(msg), " ")
	msg = strings.TrimPrefix(msg, "Error: ")
	// Augur's UNKNOWN: the first condition not proved and why, without
	// the words every such reason has.
	msg = notProved.ReplaceAllString(msg, "")
	msg = strings.Replace(msg, "counterexample not confirmed: ", "", 1)
	if i := strings.Index(msg, ". "); i > 0 {
		msg = msg[:i]
	}
	msg = numbers.ReplaceAllString(msg, "N")
	if len(msg) > 100 {
		msg = msg[:100]
	}
	return msg
}

// keepUnconfirmed writes an invalid verdict that Halide's JIT did not
// show into out/unconfirmed/CASE: the case, its translation and the
// report, to find the cause in Augur.
func keepUnconfirmed(out string, o *Outcome) error {
	dir := filepath.Join(out, "unconfirmed", o.Case)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	o.Bundle = dir
	for name, text := range map[string]string{"case.txt": o.Text, "spec.sare": o.Spec, "prog.sched": o.Sched, "augur.txt": o.Report + "\n" + o.Mismatch + "\n"} {
		if err := writeFile(dir, name, text); err != nil {
			return err
		}
	}
	return nil
}

// writeFile writes a file of a bundle.
func writeFile(dir, name, text string) error {
	return os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644)
}

func sortedKeys[V any](m map[string]V) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}
