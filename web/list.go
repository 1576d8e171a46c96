package web

import (
	"errors"
	"net/http"
	"net/url"
	"path"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/augur-verify/augur/store"
)

// listPage is the content of "/".
type listPage struct {
	Form    listForm
	Rows    []listRow
	Next    string // URL of the next page, "" at the end
	Prev    string // URL of the previous page, "" on the first
	First   string // URL of the first page, "" on it
	Filters bool   // some filter is set
	Refresh int    // auto-refresh period in seconds, 0 when off
	// RefreshEvery is the period the auto-refresh would have.
	RefreshEvery int
}

// listForm is the filter form as submitted.
type listForm struct {
	Repository, Branch, Commit, Verdict, Label string
	// Name searches the file names; Since and Until are dates
	// (2006-01-02) bounding the submission day, both included.
	Name, Since, Until string
	Refresh            bool
	Limit              int
}

// VerdictOptions are the choices of the verdict filter: the verdicts,
// then the states before a verdict.
func (listForm) VerdictOptions() []string {
	return []string{"valid", "invalid", "unknown", "error", "queued", "running", "cancelled"}
}

// listRow is one validation of the list.
type listRow struct {
	V      *store.Validation
	URL    string
	Badge  badge
	Kernel string
	File   string
	Reason string
	Labels []label
	Repo   string // filter URLs of the repository, branch and commit
	Branch string
	Commit string
	// Duration is how long the validation took ("" before its end),
	// Cached whether it reused an earlier verdict.
	Duration string
	Cached   bool
}

// list serves the list of validations: one store.List call per page.
func (h *handler) list(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	form := listForm{
		Repository: q.Get("repository"),
		Branch:     q.Get("branch"),
		Commit:     q.Get("commit"),
		Verdict:    q.Get("verdict"),
		Label:      q.Get("label"),
		Name:       q.Get("name"),
		Since:      q.Get("since"),
		Until:      q.Get("until"),
		Refresh:    q.Get("refresh") != "",
	}
	f := store.Filter{
		Repository: form.Repository,
		Branch:     form.Branch,
		Commit:     form.Commit,
		Label:      form.Label,
		Status:     store.Status(q.Get("status")),
		Cursor:     q.Get("cursor"),
		Limit:      h.opts.PageSize,
		Name:       form.Name,
	}
	var badDate string
	if form.Since != "" {
		if t, err := time.Parse(time.DateOnly, form.Since); err == nil {
			f.Since = t
		} else {
			badDate = form.Since
		}
	}
	if form.Until != "" {
		if t, err := time.Parse(time.DateOnly, form.Until); err == nil {
			f.Until = t.AddDate(0, 0, 1) // the day included
		} else {
			badDate = form.Until
		}
	}
	if badDate != "" {
		h.render(w, r, http.StatusBadRequest, "error", &page{Title: "Bad date",
			Data: errorPage{Status: http.StatusBadRequest, Heading: "Bad date", Message: "The date " + strconv.Quote(badDate) + " is not of the form 2006-01-02."}})
		return
	}
	// The verdict filter also offers the states before a verdict.
	switch form.Verdict {
	case "queued", "running", "cancelled":
		f.Status = store.Status(form.Verdict)
	default:
		f.Verdict = form.Verdict
	}
	if n, err := strconv.Atoi(q.Get("limit")); err == nil && n > 0 {
		f.Limit = min(n, maxPageSize)
		form.Limit = f.Limit
	}

	vs, next, err := h.st.List(r.Context(), f)
	if errors.Is(err, store.ErrInvalidCursor) {
		h.render(w, r, http.StatusBadRequest, "error", &page{Title: "Bad page", Data: errorPage{Status: http.StatusBadRequest,
			Heading: "No such page", Message: "The page's cursor is not one this list gave. Start again from the first page."}})
		return
	}
	if err != nil {
		h.serverError(w, r, err)
		return
	}
	p := &listPage{
		Form:         form,
		Rows:         make([]listRow, len(vs)),
		RefreshEvery: h.refreshSeconds,
		Filters: f.Repository != "" || f.Branch != "" || f.Commit != "" || f.Verdict != "" || f.Status != "" || f.Label != "" ||
			f.Name != "" || !f.Since.IsZero() || !f.Until.IsZero(),
	}
	for i, v := range vs {
		p.Rows[i] = h.listRow(q, v)
	}
	// The cursors of the pages before this one travel in "back", so
	// that the previous page is one link away.
	var back []string
	if b := q.Get("back"); b != "" {
		back = strings.Split(b, ",")
	}
	if next != "" {
		p.Next = pageURL(q, next, append(slices.Clone(back), cmpOr(f.Cursor, "-")))
	}
	if f.Cursor != "" {
		p.First = pageURL(q, "", nil)
		p.Prev = p.First
		if n := len(back); n > 0 && back[n-1] != "-" {
			p.Prev = pageURL(q, back[n-1], back[:n-1])
		}
	}
	pg := &page{Title: "Validations", Data: p}
	if form.Refresh {
		p.Refresh = h.refreshSeconds
		pg.Refresh = h.refreshSeconds
	}
	h.render(w, r, http.StatusOK, "list", pg)
}

func (h *handler) listRow(q url.Values, v *store.Validation) listRow {
	row := listRow{
		V:      v,
		URL:    "/validations/" + url.PathEscape(v.ID),
		Badge:  verdictBadge(v),
		Kernel: v.Kernel,
		File:   path.Base(v.ProgramName),
		Reason: v.Reason,
		Labels: sortedLabels(v.Meta.Labels),
	}
	if v.ProgramName == "" {
		row.File = ""
	}
	if row.Kernel == "" {
		row.Kernel = row.File
	}
	if row.Kernel == "" {
		row.Kernel = v.ID
	}
	switch v.Status {
	case store.Failed:
		row.Reason = v.Error
	case store.Running:
		if v.Progress.Phase != "" {
			row.Reason = progressText(v.Progress)
		}
	}
	filter := func(key, val string) string {
		if val == "" {
			return ""
		}
		return withQuery(q, key, val)
	}
	if d := elapsed(v, h.opts.Now()); d > 0 && v.FinishedAt != nil {
		row.Duration = formatSeconds(d.Seconds())
	}
	row.Cached = v.CachedFrom != ""
	row.Repo = filter("repository", v.Meta.Repository)
	row.Branch = filter("branch", v.Meta.Branch)
	row.Commit = filter("commit", v.Meta.Commit)
	return row
}

// LabelURL is the list filtered by the label l.
func (p *listPage) LabelURL(l label) string {
	return withQuery(p.Form.values(), "label", l.Filter())
}

func (f listForm) values() url.Values {
	q := url.Values{}
	set := func(k, v string) {
		if v != "" {
			q.Set(k, v)
		}
	}
	set("repository", f.Repository)
	set("branch", f.Branch)
	set("commit", f.Commit)
	set("verdict", f.Verdict)
	set("label", f.Label)
	set("name", f.Name)
	set("since", f.Since)
	set("until", f.Until)
	if f.Refresh {
		q.Set("refresh", "on")
	}
	if f.Limit > 0 {
		q.Set("limit", strconv.Itoa(f.Limit))
	}
	return q
}

// pageURL is "/" with the query q at the page of cursor ("" the first),
// the cursors of the pages before it in back ("-" for the first page).
func pageURL(q url.Values, cursor string, back []string) string {
	q2 := url.Values{}
	for k, vs := range q {
		if k != "cursor" && k != "back" && len(vs) > 0 && vs[0] != "" {
			q2[k] = vs[:1]
		}
	}
	if cursor != "" {
		q2.Set("cursor", cursor)
	}
	if len(back) > 0 {
		q2.Set("back", strings.Join(back, ","))
	}
	if len(q2) == 0 {
		return "/"
	}
	return "/?" + q2.Encode()
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// withQuery is "/" with the query q where key is set to val (removed if
// val is empty), and the cursor dropped unless it is the key: a new
// filter starts at the first page.
func withQuery(q url.Values, key, val string) string {
	q2 := url.Values{}
	for k, vs := range q {
		if k == "cursor" || k == "back" || len(vs) == 0 || vs[0] == "" {
			continue
		}
		q2[k] = vs[:1]
	}
	if val == "" {
		q2.Del(key)
	} else {
		q2.Set(key, val)
	}
	if len(q2) == 0 {
		return "/"
	}
	return "/?" + q2.Encode()
}

// progressText describes a progress event: "solve: 3 of 12".
func progressText(p store.Progress) string {
	s := p.Phase
	if p.Total > 0 {
		s += ": " + strconv.Itoa(p.Done) + " of " + strconv.Itoa(p.Total)
	}
	return s
}

// elapsed is the time a validation took, or has been running.
func elapsed(v *store.Validation, now time.Time) time.Duration {
	if v.StartedAt == nil {
		return 0
	}
	end := now
	if v.FinishedAt != nil {
		end = *v.FinishedAt
	}
	return end.Sub(*v.StartedAt)
}
