package web

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"

	"github.com/augur-verify/augur/store"
	"github.com/augur-verify/augur/validate"
)

// changes compares a validation with the previous one of the same kernel
// on the same branch: the last validation with a verdict, submitted
// before it, of the same kernel file in the same repository and branch,
// at another commit.
type changes struct {
	// Prev is the previous validation, PrevURL its page, PrevBadge its
	// verdict; Commit its commit.
	Prev      *store.Validation
	PrevURL   string
	PrevBadge badge
	// Statements are the statements whose status changed, in the order
	// of the kernel (then those removed); Unchanged counts the others.
	Statements []stmtChange
	Unchanged  int
	// NotCompared counts the statements of one validation that the other
	// says nothing about: it stopped at its first failure, found by
	// testing the kernel before any condition was recorded. Partial
	// names which: "this validation", "the previous validation" or "each
	// validation".
	NotCompared int
	Partial     string
}

// stmtChange is one statement whose status differs between the two
// validations: Before or Now is "" when the statement is new or gone.
type stmtChange struct {
	Text        string
	Line        string // anchor of its line in this validation's listing, "" if gone
	LineN       int
	Before, Now validate.Status
}

// maxPrevious bounds the validations looked through for one at another
// commit (the same commit validated again is no change).
const maxPrevious = 20

// previous finds the validation v is compared with, or nil.
func (h *handler) previous(ctx context.Context, v *store.Validation) (*store.Validation, error) {
	if v.Status != store.Done || v.Meta.Branch == "" || v.ProgramName == "" {
		return nil, nil
	}
	vs, _, err := h.st.List(ctx, store.Filter{Repository: v.Meta.Repository, Branch: v.Meta.Branch,
		Program: v.ProgramName, Status: store.Done, Until: v.CreatedAt, Limit: maxPrevious})
	if err != nil {
		return nil, err
	}
	for _, w := range vs {
		if w.ID == v.ID || w.Meta.Repository != v.Meta.Repository || w.Meta.Branch != v.Meta.Branch ||
			w.ProgramName != v.ProgramName || !w.CreatedAt.Before(v.CreatedAt) {
			continue
		}
		if v.Meta.Commit != "" && w.Meta.Commit == v.Meta.Commit {
			continue
		}
		return h.st.Get(ctx, w.ID)
	}
	return nil, nil
}

// statement is one statement of a report with the status of its
// conditions (failed over undecided over proved).
type statement struct {
	key    string // the statement's text, with its occurrence among equal ones
	text   string
	file   string
	line   int
	status validate.Status
}

// statements lists the statements of rep's conditions, in the order of
// their first condition. A report without conditions whose counterexample
// was found by testing the kernel first (Counterexample.Condition 0)
// knows one statement, the failing one: it is listed alone, and complete
// is false. src is the kernel's source, which numbers that statement
// among the statements of the same text.
func statements(rep *validate.Report, src string) (out []statement, complete bool) {
	if len(rep.Conditions) == 0 {
		if cx := rep.Counterexample; cx != nil && cx.Stmt != "" {
			k := occurrence(src, cx.Stmt, cx.Line)
			return []statement{{key: fmt.Sprintf("%s#%d", cx.Stmt, k), text: cx.Stmt, file: cx.File, line: cx.Line, status: validate.Failed}}, false
		}
		return nil, true
	}
	at := map[string]int{}          // by file and line: index in out
	occurrences := map[string]int{} // by text
	for _, c := range rep.Conditions {
		pos := fmt.Sprintf("%s:%d", c.File, c.Line)
		i, ok := at[pos]
		if !ok {
			occurrences[c.Text]++
			i = len(out)
			at[pos] = i
			out = append(out, statement{key: fmt.Sprintf("%s#%d", c.Text, occurrences[c.Text]), text: c.Text,
				file: c.File, line: c.Line})
		}
		if rank(c.Status) > rank(out[i].status) {
			out[i].status = c.Status
		}
	}
	return out, true
}

// occurrence numbers the statement text on line n of src among the lines
// holding the same text, from 1, as statements numbers the statements of
// a report's conditions (in program order).
func occurrence(src, text string, n int) int {
	k := 1
	for i, l := range strings.Split(src, "\n") {
		if i+1 >= n {
			break
		}
		if strings.TrimSpace(l) == text {
			k++
		}
	}
	return k
}

// compare lists the statements whose status differs between prev and cur
// (matched by their text, so that moved lines still match), and counts
// those unchanged. When one of the two stopped at a failure found by
// testing and knows only its failing statement, only that statement is
// compared: the others are counted in notCompared, neither new nor gone.
// prevSrc and curSrc are the two kernels' sources.
func compare(prev, cur *validate.Report, program, prevSrc, curSrc string) (out []stmtChange, unchanged, notCompared int) {
	ps, prevComplete := statements(prev, prevSrc)
	cs, curComplete := statements(cur, curSrc)
	before := map[string]statement{}
	for _, s := range ps {
		before[s.key] = s
	}
	now := map[string]bool{}
	for _, s := range cs {
		now[s.key] = true
	}
	for _, s := range cs {
		b, ok := before[s.key]
		if !ok && !prevComplete {
			notCompared++
			continue
		}
		if b.status == s.status {
			unchanged++
			continue
		}
		c := stmtChange{Text: s.text, Before: b.status, Now: s.status, LineN: s.line}
		if s.file == program {
			c.Line = fmt.Sprintf("L%d", s.line)
		} else {
			c.Line = fmt.Sprintf("S%d", s.line)
		}
		out = append(out, c)
	}
	for _, s := range ps {
		if now[s.key] {
			continue
		}
		if !curComplete {
			notCompared++
			continue
		}
		out = append(out, stmtChange{Text: s.text, Before: s.status})
	}
	return out, unchanged, notCompared
}

// changesSince compares v (its report rep) with prev.
func changesSince(v *store.Validation, rep *validate.Report, prev *store.Validation) *changes {
	if prev == nil || rep == nil || len(prev.Report) == 0 {
		return nil
	}
	var prep validate.Report
	if err := json.Unmarshal(prev.Report, &prep); err != nil {
		return nil
	}
	prep.Rename(prev.SpecName, prev.ProgramName)
	c := &changes{Prev: prev, PrevURL: "/validations/" + url.PathEscape(prev.ID), PrevBadge: verdictBadge(prev)}
	c.Statements, c.Unchanged, c.NotCompared = compare(&prep, rep, v.ProgramName, prev.Program, v.Program)
	switch prevPartial, curPartial := len(prep.Conditions) == 0, len(rep.Conditions) == 0; {
	case c.NotCompared == 0:
	case prevPartial && curPartial:
		c.Partial = "each validation"
	case curPartial:
		c.Partial = "this validation"
	default:
		c.Partial = "the previous validation"
	}
	return c
}
