package bench

import (
	"fmt"
	"io"
	"strings"

	"github.com/augur-verify/augur/validate"
)

// AppSummary counts the outcomes of a run of the apps' bench.
type AppSummary struct {
	Run int `json:"run"`
	// Verdicts counts the apps with a verdict (VALID, INVALID or
	// UNKNOWN); Faster those among them validated in less CPU time than
	// stock Halide took to compile them.
	Verdicts int `json:"verdicts"`
	Faster   int `json:"faster"`
	// FasterNoRuntime counts those validated in less CPU time than
	// Halide took to compile them without its runtime.
	FasterNoRuntime int `json:"faster_no_runtime"`
	NoVerdict       int `json:"no_verdict"`
	Mismatches      int `json:"mismatches"`
}

// SummarizeApps counts the outcomes of results.
func SummarizeApps(results []*AppResult) AppSummary {
	var s AppSummary
	for _, r := range results {
		s.Run++
		switch r.Outcome {
		case string(validate.Valid), string(validate.Invalid), string(validate.Unknown):
			s.Verdicts++
			if r.Ratio > 0 && r.Ratio < 1 {
				s.Faster++
			}
			if r.RatioPipeline > 0 && r.RatioPipeline < 1 {
				s.FasterNoRuntime++
			}
		case NoVerdict:
			s.NoVerdict++
		}
		if r.Mismatch {
			s.Mismatches++
		}
	}
	return s
}

// WriteAppTable prints the apps' results as a table: app | verdict |
// documented | Halide's lowering, code generation and both, and both
// without the runtime | the translation's capture lowering and the rest |
// the validation's CPU and wall-clock times | the confirmation on
// Halide's code (wall-clock: it runs in the driver) | the ratios of the
// validation to Halide's compilation, in CPU and in wall-clock time, and
// to the compilation without the runtime in CPU time; then the counts and
// the reason of every outcome but VALID.
func WriteAppTable(w io.Writer, results []*AppResult) error {
	rows := [][]string{{"app", "verdict", "documented", "Halide lower", "Halide codegen", "Halide compile", "no runtime",
		"capture lower", "translate", "validate", "validate wall", "confirm", "ratio", "ratio wall", "ratio no runtime"}}
	for _, r := range results {
		rows = append(rows, appRow(r))
	}
	if err := writeMarkdown(w, rows); err != nil {
		return err
	}
	s := SummarizeApps(results)
	fmt.Fprintf(w, "\n%d apps: %d with a verdict, %d of them validated in less CPU time than Halide's compilation (%d than without its runtime); %d without a verdict; %d mismatched\n",
		s.Run, s.Verdicts, s.Faster, s.FasterNoRuntime, s.NoVerdict, s.Mismatches)
	fmt.Fprintln(w, "(seconds of CPU time, user and system, but the wall-clock columns, validate wall and confirm; ratio: validation / Halide's compilation)")
	var notes []string
	for _, r := range results {
		if r.Reason != "" {
			notes = append(notes, fmt.Sprintf("  %s: %s: %s", r.Name, Verdict(r.Outcome), r.Reason))
		}
	}
	if len(notes) > 0 {
		fmt.Fprintf(w, "\n%s\n", strings.Join(notes, "\n"))
	}
	return nil
}

// appRow is an app's row of the table.
func appRow(r *AppResult) []string {
	name := r.Name
	if r.Mismatch {
		name = "! " + name
	}
	row := []string{name, Verdict(r.Outcome), Verdict(string(r.Documented)), "", "", "", "", "", "", "", "", "", "", "", ""}
	if h := r.Halide; h != nil {
		row[3], row[4], row[5] = seconds(h.Lower.CPU), seconds(h.Codegen.CPU), seconds(h.Total().CPU)
	}
	if h := r.HalidePipeline; h != nil {
		row[6] = seconds(h.Total().CPU)
	}
	if t := r.Translation; t != nil {
		row[7], row[8] = seconds(t.Lower.CPU), seconds(t.Translate.CPU)
	}
	if r.Validation.Wall > 0 {
		row[9], row[10] = seconds(r.Validation.CPU), seconds(r.Validation.Wall)
		if r.Outcome == NoVerdict {
			row[9], row[10] = ">"+row[9], ">"+row[10]
		}
	}
	if r.Confirm != nil {
		row[11] = seconds(r.Confirm.Wall)
	}
	if r.Ratio > 0 {
		row[12], row[13] = ratio(r.Ratio, r.Outcome), ratio(r.RatioWall, r.Outcome)
	}
	if r.RatioPipeline > 0 {
		row[14] = ratio(r.RatioPipeline, r.Outcome)
	}
	return row
}

// ratio renders a ratio, as a lower bound when the validation was stopped
// without a verdict.
func ratio(x float64, outcome string) string {
	s := fmt.Sprintf("%.2f", x)
	if x >= 100 {
		s = fmt.Sprintf("%.0f", x)
	}
	if outcome == NoVerdict {
		return ">" + s
	}
	return s
}
