package web

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"path"
	"strings"
	"time"

	"github.com/augur-verify/augur/store"
	"github.com/augur-verify/augur/validate"
)

// validationPage is the content of "/validations/{id}".
type validationPage struct {
	V      *store.Validation
	Rep    *validate.Report // nil until done
	Badge  badge
	Kernel string
	// ReportError says why the stored report could not be read.
	ReportError string
	// Counts summarises the conditions ("13 proved, 1 failed").
	Counts string
	// Program and Spec are the two sources, line by line with their marks.
	Program, Spec source
	// CX is the counterexample; CXLine the anchor of its line in a
	// listing, "" when it is shown on its own.
	CX     *validate.Counterexample
	CXLine string
	// Explain says where the counterexample's numbers come from (nil
	// when it cannot be recomputed).
	Explain *explanation
	// Errors of malformed input not placed next to a source line.
	Errors     []validate.ErrorDetail
	Conditions []condition
	Timings    []timing
	Total      float64
	Meta       []metaRow
	Labels     []label
	// Live: queued or running, with the progress events' URL.
	Live      bool
	Events    string
	Progress  store.Progress
	JSON      string // the validation in the JSON API
	CachedURL string // the validation whose verdict this one reuses
	Elapsed   string
	// Actions are the buttons.
	Actions actions
	// Changes compares the verdict with the previous validation of the
	// kernel on its branch (nil: none).
	Changes *changes
}

// source is one input file rendered line by line.
type source struct {
	Name  string
	Lines []line
	// Open: the listing should start unfolded (something in it failed,
	// or Cited: the counterexample's explanation cites its line).
	Open  bool
	Cited int
	// CX is the counterexample, when it goes under one of these lines,
	// and Explain where its numbers come from.
	CX      *validate.Counterexample
	Explain *explanation
}

// line is one source line with the status of the conditions on it.
type line struct {
	N      int
	ID     string // anchor: "L17" in the kernel, "S5" in the specification
	Text   string
	Status validate.Status // "", a condition's status, or lineError
	Label  string          // what a screen reader says about the line
	Conds  []int
	Cond   int // the condition that gives the status
	// Before, Mark and After split the failing statement at the
	// counterexample's column, for highlighting.
	Before, Mark, After string
	CX                  bool     // the counterexample follows this line
	Errors              []string // errors of malformed input on this line
}

// condition is one row of the conditions table.
type condition struct {
	validate.ConditionResult
	Where string // anchor of its line, "" if not in a listing
	SMT   string // URL of its SMT-LIB2 script, "" if it has none
	// Time is the solver time the condition took, "" when it took none
	// of its own; Untimed then says why.
	Time, Untimed string
	// NoFormula is shown in place of a missing formula, NoFormulaWhy
	// says why.
	NoFormula, NoFormulaWhy string
}

// conditionRow is the row of condition c: a link to its SMT-LIB2 script
// (at api, the validation's API URL) only when the report keeps one (a
// condition decided without the solver has none), its time only when a
// solver query of its own took it.
func conditionRow(c validate.ConditionResult, api string) condition {
	row := condition{ConditionResult: c}
	if c.SMT != "" {
		row.SMT = fmt.Sprintf("%s/conditions/%d.smt2", api, c.ID)
	}
	switch {
	case c.Seconds > 0:
		row.Time = formatSeconds(c.Seconds)
	case strings.HasPrefix(c.Solver, "same condition as "):
		other := strings.TrimPrefix(c.Solver, "same condition as ")
		row.Untimed = "the same query as " + other + ", decided once: the time is " + other + "'s"
	case c.Solver == "syntactic":
		row.Untimed = "proved without the solver: its two sides are the same expression"
	default:
		row.Untimed = "no solver query of its own: decided over Presburger sets by the symbolic evaluation, or not decided; the phases are timed as a whole"
	}
	if c.Formula == "" {
		row.NoFormula, row.NoFormulaWhy = "none", "not put in readable form"
		if c.Solver == "" && c.Status == validate.Proved {
			row.NoFormula, row.NoFormulaWhy = "no failing point", "decided over Presburger sets: the set of points where it fails is empty"
		}
	}
	return row
}

type timing struct {
	Phase   string
	Seconds float64
	Share   float64 // of the total, 0 to 1
}

type metaRow struct {
	Key, Value, URL string
}

// validation serves one validation's page: one store.Get call.
func (h *handler) validation(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	v, err := h.st.Get(r.Context(), id)
	if errors.Is(err, store.ErrNotFound) {
		h.notFound(w, r, fmt.Sprintf("There is no validation %q: it may have been pruned.", id))
		return
	}
	if err != nil {
		h.serverError(w, r, err)
		return
	}
	p := h.validationPage(r.Context(), v)
	p.Actions = h.actions(r, v)
	if p.Rep != nil {
		// Without the comparison the page still stands.
		prev, err := h.previous(r.Context(), v)
		if err != nil {
			h.opts.ErrorLog(r, fmt.Errorf("the previous validation of %s: %w", v.ID, err))
		}
		p.Changes = changesSince(v, p.Rep, prev)
	}
	pg := &page{Title: p.Kernel + ": " + p.Badge.Text, Data: p}
	if p.Live {
		pg.Script = true
		pg.NoscriptRefresh = 2
	}
	h.render(w, r, http.StatusOK, "validation", pg)
}

// validationPage builds the page of v: its header, its two listings, and,
// once v has a report, the report laid over them.
func (h *handler) validationPage(ctx context.Context, v *store.Validation) *validationPage {
	api := h.opts.API + "/validations/" + url.PathEscape(v.ID)
	p := &validationPage{
		V:        v,
		Badge:    verdictBadge(v),
		Kernel:   store.KernelName(v.Program),
		Live:     v.Status == store.Queued || v.Status == store.Running,
		Events:   api + "/events",
		Progress: v.Progress,
		JSON:     api,
		Labels:   sortedLabels(v.Meta.Labels),
	}
	if v.CachedFrom != "" {
		p.CachedURL = "/validations/" + url.PathEscape(v.CachedFrom)
	}
	if d := elapsed(v, h.opts.Now()); d > 0 {
		p.Elapsed = formatSeconds(d.Seconds())
	}
	p.Rep, p.ReportError = storedReport(v)
	if p.Kernel == "" && p.Rep != nil {
		p.Kernel = p.Rep.Kernel
	}
	if p.Kernel == "" {
		p.Kernel = path.Base(v.ProgramName)
	}
	p.Program = source{Name: v.ProgramName, Lines: splitLines(v.Program, "L")}
	p.Spec = source{Name: v.SpecName, Lines: splitLines(v.Spec, "S")}
	p.Meta = metadata(v)
	if p.Rep == nil {
		return p
	}
	p.markConditions(api)
	p.placeErrors()
	p.placeCounterexample(ctx)
	p.openListings()
	p.timeRows()
	return p
}

// storedReport decodes v's report, named after v's files (a cached
// verdict's report names the files of the submission validated first):
// nil before the verdict, or nil and why when it is unreadable.
func storedReport(v *store.Validation) (*validate.Report, string) {
	if len(v.Report) == 0 {
		return nil, ""
	}
	var rep validate.Report
	if err := json.Unmarshal(v.Report, &rep); err != nil {
		return nil, "the stored report is unreadable: " + err.Error()
	}
	rep.Rename(v.SpecName, v.ProgramName)
	return &rep, ""
}

// listing is the listing a file name designates: the report names the
// inputs as it was given them, the store as they were submitted. It is
// nil for another file.
func (p *validationPage) listing(file string) *source {
	switch {
	case file == "":
		return nil
	case file == p.Rep.Program || file == p.V.ProgramName:
		return &p.Program
	case file == p.Rep.Spec || file == p.V.SpecName:
		return &p.Spec
	}
	return nil
}

// lineAt is line n of file's listing, or nil.
func (p *validationPage) lineAt(file string, n int) *line {
	s := p.listing(file)
	if s == nil || n < 1 || n > len(s.Lines) {
		return nil
	}
	return &s.Lines[n-1]
}

// markConditions lists the report's conditions (their SMT-LIB2 scripts
// under api, the validation's API URL) and gives each line the status of
// its conditions: failed if one failed, else undecided if one is
// undecided, else proved.
func (p *validationPage) markConditions(api string) {
	for _, c := range p.Rep.Conditions {
		row := conditionRow(c, api)
		if l := p.lineAt(c.File, c.Line); l != nil {
			row.Where = l.ID
			l.Conds = append(l.Conds, c.ID)
			if rank(c.Status) > rank(l.Status) {
				l.Status, l.Cond = c.Status, c.ID
			}
		}
		p.Conditions = append(p.Conditions, row)
	}
	p.Counts = p.Rep.Summary()
}

// placeErrors puts the errors of malformed input next to their line, or
// on their own.
func (p *validationPage) placeErrors() {
	for _, e := range p.Rep.Errors {
		if l := p.lineAt(e.File, e.Line); l != nil {
			l.Errors = append(l.Errors, fmt.Sprintf("%d:%d: %s", e.Line, e.Col, e.Message))
			l.Status = lineError
			continue
		}
		p.Errors = append(p.Errors, e)
	}
}

// placeCounterexample puts the counterexample, with where its numbers
// come from, under its statement, which is highlighted from its column
// on.
func (p *validationPage) placeCounterexample(ctx context.Context) {
	cx := p.Rep.Counterexample
	if cx != nil {
		p.CX = cx
		p.Explain = explain(ctx, p.V.SpecName, p.V.Spec, cx)
		if l := p.lineAt(cx.File, cx.Line); l != nil {
			p.listing(cx.File).CX = cx
			p.listing(cx.File).Explain = p.Explain
			l.CX = true
			p.CXLine = l.ID
			if l.Status == "" {
				l.Status = validate.Failed
			}
			if i := cx.Col - 1; i >= 0 && i < len(l.Text) {
				l.Before, l.Mark = l.Text[:i], strings.TrimRight(l.Text[i:], " \t")
				l.After = l.Text[i+len(l.Mark):]
			}
		}
	}
	if x := p.Explain; x != nil && x.Equation != "" {
		p.Spec.Cited = x.LineN
	}
}

// openListings unfolds the listings with something that failed, could
// not be decided or is cited, and labels their marked lines.
func (p *validationPage) openListings() {
	for _, s := range []*source{&p.Program, &p.Spec} {
		if s.Cited > 0 {
			s.Open = true
		}
		for i := range s.Lines {
			l := &s.Lines[i]
			if rank(l.Status) > rank(validate.Proved) {
				s.Open = true
			}
			l.Label = lineLabel(l)
		}
	}
}

// timeRows lists the report's phases with their share of the total.
func (p *validationPage) timeRows() {
	for _, t := range p.Rep.Timings {
		p.Total += t.Seconds
	}
	for _, t := range p.Rep.Timings {
		tm := timing{Phase: t.Phase, Seconds: t.Seconds}
		if p.Total > 0 {
			tm.Share = t.Seconds / p.Total
		}
		p.Timings = append(p.Timings, tm)
	}
}

// lineError is the status of a source line holding an error of malformed
// input, worse than any condition's.
const lineError validate.Status = "error"

// rank orders line statuses by severity: none, proved, undecided,
// failed, lineError.
func rank(status validate.Status) int {
	switch status {
	case validate.Proved:
		return 1
	case validate.Undecided:
		return 2
	case validate.Failed:
		return 3
	case lineError:
		return 4
	}
	return 0
}

// lineLabel is what a screen reader says about a marked line.
func lineLabel(l *line) string {
	if l.Status == "" {
		return ""
	}
	s := fmt.Sprintf("line %d, %s", l.N, l.Status)
	if len(l.Conds) > 0 {
		ids := make([]string, len(l.Conds))
		for i, c := range l.Conds {
			ids[i] = fmt.Sprintf("C%d", c)
		}
		s += " (conditions " + strings.Join(ids, ", ") + ")"
	}
	if l.CX {
		s += ", the counterexample follows"
	}
	return s
}

func splitLines(src, prefix string) []line {
	if src == "" {
		return nil
	}
	texts := strings.Split(strings.TrimSuffix(src, "\n"), "\n")
	lines := make([]line, len(texts))
	for i, t := range texts {
		lines[i] = line{N: i + 1, ID: fmt.Sprintf("%s%d", prefix, i+1), Text: strings.TrimSuffix(t, "\r")}
	}
	return lines
}

// metadata lists what CI said about the submission and its life.
func metadata(v *store.Validation) []metaRow {
	var rows []metaRow
	add := func(k, val, u string) {
		if val != "" {
			rows = append(rows, metaRow{k, val, u})
		}
	}
	q := func(k, val string) string { return "/?" + url.Values{k: {val}}.Encode() }
	add("Repository", v.Meta.Repository, q("repository", v.Meta.Repository))
	add("Branch", v.Meta.Branch, q("branch", v.Meta.Branch))
	add("Commit", v.Meta.Commit, q("commit", v.Meta.Commit))
	if u := commitURL(v.Meta); u != "" {
		add("Commit page", u, u)
	}
	if u := webURL(v.Meta.Labels["ci_url"]); u != "" {
		add("CI run", u, u)
	}
	add("Pipeline", v.Meta.Pipeline, "")
	add("Job", v.Meta.Job, "")
	add("Specification", v.SpecName, "")
	add("Kernel file", v.ProgramName, "")
	vm := v.Options.ValueModel
	if vm == "" {
		vm = "real"
	}
	add("Value model", vm, "")
	if v.Options.TimeoutSeconds > 0 {
		add("Solver timeout", fmt.Sprintf("%d s per query", v.Options.TimeoutSeconds), "")
	}
	if v.Options.AllConditions {
		add("Conditions", "every one decided, even after a failure", "")
	}
	add("Status", string(v.Status), "")
	if v.Attempts > 1 {
		add("Attempts", fmt.Sprint(v.Attempts), "")
	}
	add("ID", v.ID, "")
	return rows
}

// webURL returns s when it is an http(s) URL, "" otherwise: only those
// are made links.
func webURL(s string) string {
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return ""
	}
	return s
}

// commitURL is the page of the commit on its forge: the commit_url label
// (set by augur submit in GitHub Actions and GitLab CI), or, for a
// repository named github.com/OWNER/REPO or gitlab.com/GROUP/REPO (or
// such a URL), the forge's commit page; "" when unknown.
func commitURL(m store.Meta) string {
	if u := webURL(m.Labels["commit_url"]); u != "" {
		return u
	}
	if m.Commit == "" {
		return ""
	}
	repo := strings.TrimSuffix(m.Repository, ".git")
	repo = strings.TrimPrefix(strings.TrimPrefix(repo, "https://"), "http://")
	switch {
	case strings.HasPrefix(repo, "github.com/"):
		return "https://" + repo + "/commit/" + url.PathEscape(m.Commit)
	case strings.HasPrefix(repo, "gitlab.com/"):
		return "https://" + repo + "/-/commit/" + url.PathEscape(m.Commit)
	}
	return ""
}

// Times lists the validation's life: created, started, finished.
func (p *validationPage) Times() []stamped {
	v := p.V
	ts := []stamped{{"Submitted", v.CreatedAt}}
	if v.StartedAt != nil {
		ts = append(ts, stamped{"Started", *v.StartedAt})
	}
	if v.FinishedAt != nil {
		ts = append(ts, stamped{"Finished", *v.FinishedAt})
	}
	return ts
}

type stamped struct {
	Key string
	T   time.Time
}

// ProgressText describes the progress so far.
func (p *validationPage) ProgressText() string {
	if p.Progress.Phase == "" {
		if p.V.Status == store.Queued {
			return "waiting for a worker"
		}
		return "starting"
	}
	return progressText(p.Progress)
}

// Failing is the failing condition of the counterexample, if listed.
func (p *validationPage) Failing() *condition {
	if p.CX == nil {
		return nil
	}
	for i := range p.Conditions {
		if p.Conditions[i].ID == p.CX.Condition {
			return &p.Conditions[i]
		}
	}
	return nil
}
