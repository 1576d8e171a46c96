package web

import (
	"fmt"
	"html/template"
	"path"
	"sort"
	"time"

	"github.com/augur-verify/augur/store"
	"github.com/augur-verify/augur/validate"
)

// badge is a verdict or state as the pages show it: a colour (Kind, a CSS
// class suffix), an icon and the word itself, so that nothing is said by
// colour alone.
type badge struct {
	Kind  string // valid, invalid, unknown, error, queued, running, cancelled
	Text  string
	Icon  string
	Title string
}

var badgeIcons = map[string]string{
	"valid":     "✓",
	"invalid":   "✗",
	"unknown":   "?",
	"error":     "!",
	"queued":    "…",
	"running":   "↻",
	"cancelled": "–",
}

var badgeTitles = map[string]string{
	"valid":     "every verification condition was proved",
	"invalid":   "the kernel is wrong: a counterexample was found",
	"unknown":   "some conditions could be decided neither way",
	"error":     "the input is malformed or the validation failed",
	"queued":    "waiting for a worker",
	"running":   "being validated",
	"cancelled": "cancelled before a verdict",
}

// verdictBadge is the badge of a validation: its verdict when done, else
// its state (an internal failure shows as an error).
func verdictBadge(v *store.Validation) badge {
	kind := ""
	switch v.Status {
	case store.Queued:
		kind = "queued"
	case store.Running:
		kind = "running"
	case store.Cancelled:
		kind = "cancelled"
	case store.Failed:
		kind = "error"
	default:
		kind = v.Verdict
	}
	return makeBadge(kind)
}

func makeBadge(kind string) badge {
	icon, ok := badgeIcons[kind]
	if !ok {
		// A verdict this dashboard does not know: shown as it is, in grey.
		if kind == "" {
			kind = "done"
		}
		return badge{Kind: "other", Text: kind, Icon: "•"}
	}
	return badge{Kind: kind, Text: kind, Icon: icon, Title: badgeTitles[kind]}
}

// statusIcons are the marks of source lines and conditions.
var statusIcons = map[validate.Status]string{
	validate.Proved:    "✓",
	validate.Failed:    "✗",
	validate.Undecided: "?",
	lineError:          "!",
}

func (h *handler) funcs() template.FuncMap {
	return template.FuncMap{
		"age":        func(t time.Time) string { return age(h.opts.Now(), t) },
		"datetime":   func(t time.Time) string { return t.UTC().Format(time.RFC3339) },
		"stamp":      func(t time.Time) string { return t.UTC().Format("2006-01-02 15:04:05 UTC") },
		"short":      shortCommit,
		"seconds":    formatSeconds,
		"statusIcon": func(s validate.Status) string { return statusIcons[s] },
		"labels":     sortedLabels,
		"base":       path.Base,
		"percent":    func(f float64) string { return fmt.Sprintf("%.0f%%", f*100) },
	}
}

// age says how long ago t was, coarsely: "just now", "5 min ago", "3 h
// ago", "2 d ago", or the date beyond a month.
func age(now, t time.Time) string {
	if t.IsZero() {
		return ""
	}
	d := now.Sub(t)
	switch {
	case d < 10*time.Second:
		return "just now"
	case d < time.Minute:
		return fmt.Sprintf("%d s ago", int(d/time.Second))
	case d < time.Hour:
		return fmt.Sprintf("%d min ago", int(d/time.Minute))
	case d < 24*time.Hour:
		return fmt.Sprintf("%d h ago", int(d/time.Hour))
	case d < 30*24*time.Hour:
		return fmt.Sprintf("%d d ago", int(d/(24*time.Hour)))
	}
	return t.UTC().Format("2006-01-02")
}

// shortCommit abbreviates a commit hash to 12 characters.
func shortCommit(c string) string {
	if len(c) > 12 {
		return c[:12]
	}
	return c
}

// formatSeconds prints a duration as augur validate does.
func formatSeconds(s float64) string {
	switch {
	case s == 0:
		return "0"
	case s < 0.001:
		return fmt.Sprintf("%.0f µs", s*1e6)
	case s < 1:
		return fmt.Sprintf("%.0f ms", s*1e3)
	}
	return fmt.Sprintf("%.2f s", s)
}

// label is one free label of a submission.
type label struct{ Key, Value string }

// Filter is the label filter that selects it.
func (l label) Filter() string {
	if l.Value == "" {
		return l.Key
	}
	return l.Key + "=" + l.Value
}

func sortedLabels(m map[string]string) []label {
	ls := make([]label, 0, len(m))
	for k, v := range m {
		ls = append(ls, label{k, v})
	}
	sort.Slice(ls, func(i, j int) bool { return ls[i].Key < ls[j].Key })
	return ls
}
