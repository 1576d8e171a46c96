package bench

import (
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/augur-verify/augur/validate"
)

// Summary counts the outcomes of a run.
type Summary struct {
	Run        int `json:"run"`
	Expected   int `json:"expected"`    // the expected verdict reached
	Mismatches int `json:"mismatches"`  // a contrary verdict, an error or a failure
	NoVerdict  int `json:"no_verdict"`  // unknown, or stopped at the time bound
	TargetsMet int `json:"targets_met"` // among those with a target
	Targets    int `json:"targets"`
}

// Summarize counts the outcomes of results.
func Summarize(results []*Result) Summary {
	var s Summary
	for _, r := range results {
		s.Run++
		switch {
		case r.Mismatch:
			s.Mismatches++
		case r.Outcome == string(r.Expected):
			s.Expected++
		case r.Outcome == NoVerdict || r.Outcome == string(validate.Unknown):
			s.NoVerdict++
		}
		if r.TargetMet != nil {
			s.Targets++
			if *r.TargetMet {
				s.TargetsMet++
			}
		}
	}
	return s
}

// Verdict renders an outcome as the command line prints verdicts (VALID,
// INVALID, ...); other outcomes as they are.
func Verdict(outcome string) string {
	switch outcome {
	case string(validate.Valid), string(validate.Invalid), string(validate.Unknown), string(validate.Error):
		return strings.ToUpper(outcome)
	}
	return outcome
}

// WriteTable prints the results as a table: benchmark | verdict |
// expected | time per phase | total | published | ratio | target | met,
// the benchmarks whose verdict differs from the expected one marked with
// "!", then the reasons of the outcomes that are not the expected verdict,
// and the stencil chain's depth curve.
func WriteTable(w io.Writer, results []*Result) error {
	rows := [][]string{{"benchmark", "verdict", "expected", "compile", "parse", "test", "symbolic", "solve", "total", "published", "ratio", "target", "met"}}
	for _, r := range results {
		name := r.ID
		if r.Mismatch {
			name = "! " + name
		}
		comp := ""
		if r.Kind == Bundled {
			comp = seconds(r.Compile)
		}
		var parse, test, sym, solve string
		if len(r.Phases) > 0 {
			parse, test, sym, solve = seconds(r.Phase("parse")), seconds(r.Phase("test")), seconds(r.Phase("symbolic")), seconds(r.Phase("solve")+r.Phase("confirm"))
		}
		total := ""
		if r.Seconds > 0 {
			total = seconds(r.Seconds)
			if r.Outcome == NoVerdict {
				total = ">" + total
			}
		}
		ratio := ""
		if r.Ratio > 0 {
			// A published bound bounds the ratio the other way.
			ratio = map[string]string{"<": ">", ">": "<"}[r.Published.Bound] + fmt.Sprintf("%.2f", r.Ratio)
		}
		target, met := "", ""
		if r.Target > 0 {
			target = seconds(r.Target)
		}
		if r.TargetMet != nil {
			met = map[bool]string{true: "yes", false: "no"}[*r.TargetMet]
		}
		rows = append(rows, []string{name, Verdict(r.Outcome), Verdict(string(r.Expected)),
			comp, parse, test, sym, solve, total, r.Published.String(), ratio, target, met})
	}
	if err := writeMarkdown(w, rows); err != nil {
		return err
	}
	s := Summarize(results)
	fmt.Fprintf(w, "\n%d benchmarks: %d with the expected verdict, %d without a verdict, %d mismatched; %d of %d targets met\n",
		s.Run, s.Expected, s.NoVerdict, s.Mismatches, s.TargetsMet, s.Targets)
	var notes []string
	for _, r := range results {
		if r.Reason != "" {
			notes = append(notes, fmt.Sprintf("  %s: %s: %s", r.ID, Verdict(r.Outcome), r.Reason))
		}
	}
	if len(notes) > 0 {
		fmt.Fprintf(w, "\n%s\n", strings.Join(notes, "\n"))
	}
	for _, k := range []Kind{Halide, Bundled} {
		if c := DepthCurve(results, k); c != "" {
			fmt.Fprintf(w, "\nstencil chain, %s: %s\n", k, c)
		}
	}
	return nil
}

// DepthCurve renders the validation times of a kind's stencil chain by
// number of stages, with the time per stage ("" without any chain
// result).
func DepthCurve(results []*Result, k Kind) string {
	var parts []string
	for _, r := range results {
		if r.Kind != k || r.Stages == 0 {
			continue
		}
		if r.Outcome != string(r.Expected) {
			parts = append(parts, fmt.Sprintf("%d: %s", r.Stages, Verdict(r.Outcome)))
			continue
		}
		parts = append(parts, fmt.Sprintf("%d: %s s (%s s/stage)", r.Stages, seconds(r.Seconds), seconds(r.Seconds/float64(r.Stages))))
	}
	return strings.Join(parts, ", ")
}

func seconds(s float64) string {
	switch {
	case s >= 100:
		return fmt.Sprintf("%.0f", s)
	case s >= 10:
		return fmt.Sprintf("%.1f", s)
	default:
		return fmt.Sprintf("%.2f", s)
	}
}

// writeMarkdown prints rows as a Markdown table, the first row the header,
// the columns padded to their widest cell.
func writeMarkdown(w io.Writer, rows [][]string) error {
	width := make([]int, len(rows[0]))
	for _, row := range rows {
		for i, c := range row {
			width[i] = max(width[i], utf8.RuneCountInString(c))
		}
	}
	var b strings.Builder
	line := func(row []string) {
		for i, c := range row {
			fmt.Fprintf(&b, "| %s%s ", c, strings.Repeat(" ", width[i]-utf8.RuneCountInString(c)))
		}
		b.WriteString("|\n")
	}
	line(rows[0])
	sep := make([]string, len(width))
	for i, n := range width {
		sep[i] = strings.Repeat("-", n)
	}
	line(sep)
	for _, row := range rows[1:] {
		line(row)
	}
	_, err := io.WriteString(w, b.String())
	return err
}
