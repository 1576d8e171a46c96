package fuzz

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// Summary is a campaign's account: its cases and verdicts, the causes of
// what was not validated, every invalid verdict and the distinct
// miscompilations confirmed.
type Summary struct {
	Seed           uint64  `json:"seed"`
	Mode           string  `json:"mode"`
	Cases          int     `json:"cases"`
	WallSeconds    float64 `json:"wall_seconds"`
	CPUSeconds     float64 `json:"cpu_seconds"` // set by the caller, who knows the processes
	SecondsPerCase float64 `json:"seconds_per_case"`
	// Verdicts counts the outcomes: valid, invalid, unknown, error,
	// rejected, untranslated, crash.
	Verdicts map[string]int `json:"verdicts"`
	// Causes counts, per outcome other than valid, its causes.
	Causes map[string]map[string]int `json:"causes"`
	// Invalid lists every invalid verdict.
	Invalid []*Outcome `json:"invalid,omitempty"`
	// Bugs are the distinct confirmed miscompilations.
	Bugs []*Bug `json:"bugs,omitempty"`
	// Crashes are the distinct internal errors of Halide's compiler,
	// minimised as the bugs are.
	Crashes []*Bug `json:"crashes,omitempty"`
}

// Bug is a confirmed miscompilation after minimisation.
type Bug struct {
	Key      string   `json:"key"`   // what makes it distinct: the minimised schedule's directives (after "crash " for a crash)
	Cases    []string `json:"cases"` // the cases that minimised to it
	Bundle   string   `json:"bundle,omitempty"`
	Case     string   `json:"minimised"` // the minimised case's text
	Mismatch string   `json:"mismatch"`
	Reason   string   `json:"reason"` // Augur's on the minimised case
}

func newSummary(o Options) *Summary {
	return &Summary{Seed: o.Seed, Mode: o.Mode, Verdicts: map[string]int{}, Causes: map[string]map[string]int{}}
}

func (s *Summary) add(o *Outcome) {
	s.Cases++
	s.Verdicts[o.Verdict]++
	if o.Verdict != "valid" && o.Cause != "" {
		if s.Causes[o.Verdict] == nil {
			s.Causes[o.Verdict] = map[string]int{}
		}
		s.Causes[o.Verdict][o.Cause]++
	}
	if o.Verdict == "invalid" {
		s.Invalid = append(s.Invalid, o)
	}
}

func (s *Summary) finish(wall time.Duration) {
	s.WallSeconds = wall.Seconds()
	if s.Cases > 0 {
		s.SecondsPerCase = s.WallSeconds / float64(s.Cases)
	}
}

// bug minimises a confirmed case, or one that made Halide's compiler
// fail with an internal error, and, unless an earlier one minimised to
// the same, bundles it into out (bug-NNN, or crash-NNN).
func (s *Summary) bug(ctx context.Context, d *Driver, v Validator, c *Case, o *Outcome, out string) error {
	r := o.Region
	var m *Case
	var err error
	if o.Confirmed {
		m, err = Minimise(ctx, d, c, r)
	} else {
		r = OutputRegion(c, nil, nil)
		m, err = MinimiseCrash(ctx, d, c)
	}
	if err != nil {
		return err
	}
	b, err := NewBundle(ctx, d, v, c, m, r)
	if err != nil {
		return err
	}
	list, stem := &s.Bugs, "bug"
	if b.Crash {
		list, stem = &s.Crashes, "crash"
	}
	for _, old := range *list {
		if old.Key == b.Key {
			old.Cases = append(old.Cases, c.Name)
			o.Bundle = old.Bundle
			return nil
		}
	}
	if out != "" {
		dir := filepath.Join(out, fmt.Sprintf("%s-%03d", stem, len(*list)+1))
		if err := b.Write(dir); err != nil {
			return err
		}
		o.Bundle = dir
	}
	*list = append(*list, &Bug{Key: b.Key, Cases: []string{c.Name}, Bundle: o.Bundle, Case: m.String(), Mismatch: b.Mismatch, Reason: b.Reason})
	return nil
}

// WriteJSON writes the summary as indented JSON.
func (s *Summary) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(s)
}

// WriteText writes the summary for a reader.
func (s *Summary) WriteText(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "seed %d, mode %s: %d cases in %.0f s (%.0f s of CPU), %.2f s per case\n",
		s.Seed, s.Mode, s.Cases, s.WallSeconds, s.CPUSeconds, s.SecondsPerCase)
	for _, k := range sortedKeys(s.Verdicts) {
		fmt.Fprintf(&b, "  %-13s %d\n", k, s.Verdicts[k])
	}
	for _, k := range sortedKeys(s.Causes) {
		fmt.Fprintf(&b, "%s, by cause:\n", k)
		causes := sortedKeys(s.Causes[k])
		slices.SortStableFunc(causes, func(x, y string) int { return s.Causes[k][y] - s.Causes[k][x] })
		for _, c := range causes {
			fmt.Fprintf(&b, "  %5d  %s\n", s.Causes[k][c], c)
		}
	}
	fmt.Fprintf(&b, "invalid verdicts: %d\n", len(s.Invalid))
	for _, o := range s.Invalid {
		fmt.Fprintf(&b, "  %s: %s; %s\n", o.Case, o.Cause, confirmedWord(o))
	}
	fmt.Fprintf(&b, "distinct confirmed miscompilations: %d\n", len(s.Bugs))
	for _, bug := range s.Bugs {
		fmt.Fprintf(&b, "  %s (%s): %s; %s\n", bug.Bundle, strings.Join(bug.Cases, ", "), bug.Reason, bug.Mismatch)
	}
	fmt.Fprintf(&b, "distinct internal errors of Halide's compiler: %d\n", len(s.Crashes))
	for _, bug := range s.Crashes {
		fmt.Fprintf(&b, "  %s (%s): %s\n", bug.Bundle, strings.Join(bug.Cases, ", "), bug.Reason)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// Save writes summary.txt and summary.json into dir.
func (s *Summary) Save(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	var t, j strings.Builder
	if err := s.WriteText(&t); err != nil {
		return err
	}
	if err := s.WriteJSON(&j); err != nil {
		return err
	}
	if err := writeFile(dir, "summary.txt", t.String()); err != nil {
		return err
	}
	return writeFile(dir, "summary.json", j.String())
}
