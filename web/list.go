package web

import (
	"net/http"
	"net/url"
	"path"
	"strconv"
	"time"

	"github.com/augur-verify/augur/store"
)

// listPage is the content of "/".
type listPage struct {
	Form    listForm
	Rows    []listRow
	Next    string // URL of the next page, "" at the end
	First   string // URL of the first page, "" on it
	Filters bool   // some filter is set
	Refresh int    // auto-refresh period in seconds, 0 when off
	// RefreshEvery is the period the auto-refresh would have.
	RefreshEvery int
}

// listForm is the filter form as submitted.
type listForm struct {
	Repository, Branch, Commit, Verdict, Label string
	Refresh                                    bool
	Limit                                      int
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
	if err != nil {
		h.serverError(w, r, err)
		return
	}
	p := &listPage{
		Form:         form,
		Rows:         make([]listRow, len(vs)),
		RefreshEvery: h.refreshSeconds,
		Filters:      f.Repository != "" || f.Branch != "" || f.Commit != "" || f.Verdict != "" || f.Status != "" || f.Label != "",
	}
	for i, v := range vs {
		p.Rows[i] = h.listRow(q, v)
	}
	if next != "" {
		p.Next = withQuery(q, "cursor", next)
	}
	if f.Cursor != "" {
		p.First = withQuery(q, "cursor", "")
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
		Kernel: kernelName(v.Program),
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
	if f.Refresh {
		q.Set("refresh", "on")
	}
	if f.Limit > 0 {
		q.Set("limit", strconv.Itoa(f.Limit))
	}
	return q
}

// withQuery is "/" with the query q where key is set to val (removed if
// val is empty), and the cursor dropped unless it is the key: a new
// filter starts at the first page.
func withQuery(q url.Values, key, val string) string {
	q2 := url.Values{}
	for k, vs := range q {
		if k == "cursor" || len(vs) == 0 || vs[0] == "" {
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
