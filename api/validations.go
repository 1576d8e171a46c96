package api

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/rs/zerolog"

	"github.com/augur-verify/augur/store"
	"github.com/augur-verify/augur/validate"
)

// finished reports whether a validation has reached its final state.
func finished(s store.Status) bool {
	return s == store.Done || s == store.Cancelled || s == store.Failed
}

func validationURL(id string) string { return "/v1/validations/" + url.PathEscape(id) }

// internalError logs err and answers 500.
func internalError(w http.ResponseWriter, r *http.Request, err error) {
	zerolog.Ctx(r.Context()).Error().Err(err).Msg("internal error")
	problem(w, r, http.StatusInternalServerError, probInternal, "an internal error occurred: "+err.Error())
}

// storeFailed answers an error of the store about validation id.
func storeFailed(w http.ResponseWriter, r *http.Request, id string, err error) {
	switch {
	case errors.Is(err, store.ErrNotFound):
		problem(w, r, http.StatusNotFound, probNotFound, fmt.Sprintf("no validation %q", id))
	case errors.Is(err, store.ErrFinished):
		problem(w, r, http.StatusConflict, probConflict, fmt.Sprintf("validation %q has already finished", id))
	default:
		internalError(w, r, err)
	}
}

// Summary is a validation in a list, and the answer to a submission that
// has no verdict yet.
type Summary struct {
	ID          string          `json:"id"`
	URL         string          `json:"url"`
	Status      store.Status    `json:"status"`
	Progress    *store.Progress `json:"progress,omitempty"`
	Verdict     string          `json:"verdict,omitempty"`
	Reason      string          `json:"reason,omitempty"`
	SpecName    string          `json:"spec_name"`
	ProgramName string          `json:"program_name"`
	Meta        store.Meta      `json:"meta"`
	// Cached is set when the verdict is that of an identical earlier
	// submission, CachedFrom; the report then names this submission's
	// files.
	Cached     bool       `json:"cached,omitempty"`
	CachedFrom string     `json:"cached_from,omitempty"`
	CreatedAt  time.Time  `json:"created_at"`
	FinishedAt *time.Time `json:"finished_at,omitempty"`
}

func summarize(v *store.Validation) Summary {
	s := Summary{
		ID: v.ID, URL: validationURL(v.ID), Status: v.Status, Verdict: v.Verdict, Reason: v.Reason,
		SpecName: v.SpecName, ProgramName: v.ProgramName, Meta: v.Meta, Cached: v.CachedFrom != "", CachedFrom: v.CachedFrom,
		CreatedAt: v.CreatedAt, FinishedAt: v.FinishedAt,
	}
	if v.Status == store.Running {
		p := v.Progress
		s.Progress = &p
	}
	return s
}

// Condition is one condition of a validation's report, its SMT-LIB2
// script replaced by the URL serving it.
type Condition struct {
	validate.ConditionResult
	SMTURL string `json:"smt_url,omitempty"`
}

// Detail is a validation with its report merged in: GET
// /v1/validations/{id}.
type Detail struct {
	Summary
	EventsURL      string                    `json:"events_url"`
	Options        store.Options             `json:"options"`
	Kernel         string                    `json:"kernel,omitempty"`
	ValueModel     string                    `json:"value_model,omitempty"`
	Assumptions    string                    `json:"assumptions,omitempty"`
	Readings       []validate.LiteralReading `json:"readings,omitempty"`
	Counterexample *validate.Counterexample  `json:"counterexample,omitempty"`
	Conditions     []Condition               `json:"conditions,omitempty"`
	Errors         []validate.ErrorDetail    `json:"errors,omitempty"`
	Timings        []validate.PhaseTime      `json:"timings,omitempty"`
	Error          string                    `json:"error,omitempty"`
	Attempts       int                       `json:"attempts"`
	StartedAt      *time.Time                `json:"started_at,omitempty"`
	Spec           string                    `json:"spec,omitempty"`
	Program        string                    `json:"program,omitempty"`
}

// report decodes a validation's stored report (nil when it has none),
// under the validation's own file names: a cached verdict's report was
// written for the submission validated first.
func report(v *store.Validation) (*validate.Report, error) {
	if len(v.Report) == 0 || string(v.Report) == "null" {
		return nil, nil
	}
	var rep validate.Report
	if err := json.Unmarshal(v.Report, &rep); err != nil {
		return nil, fmt.Errorf("validation %s: stored report: %w", v.ID, err)
	}
	rep.Rename(v.SpecName, v.ProgramName)
	return &rep, nil
}

// CachedNote is the line that follows the text report of a cached
// verdict.
func CachedNote(from string) string {
	return fmt.Sprintf("cached: the verdict of validation %s, an identical submission (same content, options, build of Augur and Z3)", from)
}

func detail(v *store.Validation, rep *validate.Report, source bool) Detail {
	d := Detail{
		Summary: summarize(v), EventsURL: validationURL(v.ID) + "/events", Options: v.Options,
		Error: v.Error, Attempts: v.Attempts, StartedAt: v.StartedAt,
	}
	if source {
		d.Spec, d.Program = v.Spec, v.Program
	}
	if rep != nil {
		d.Kernel, d.ValueModel, d.Assumptions, d.Readings = rep.Kernel, rep.ValueModel, rep.Assumptions, rep.Readings
		d.Counterexample, d.Errors, d.Timings = rep.Counterexample, rep.Errors, rep.Timings
		for _, c := range rep.Conditions {
			cv := Condition{ConditionResult: c}
			if c.SMT != "" {
				cv.SMTURL = fmt.Sprintf("%s/conditions/%d.smt2", validationURL(v.ID), c.ID)
				cv.SMT = ""
			}
			d.Conditions = append(d.Conditions, cv)
		}
	}
	return d
}

// wantsText reports whether the client prefers the text report: it asks
// for text/plain, or it is curl with its default Accept: */* (when
// curlDefault holds).
func wantsText(r *http.Request, curlDefault bool) bool {
	accept := r.Header.Get("Accept")
	for _, part := range strings.Split(accept, ",") {
		mt, _, _ := strings.Cut(strings.TrimSpace(part), ";")
		switch strings.TrimSpace(mt) {
		case "application/json", "application/problem+json":
			return false
		case "text/plain":
			return true
		}
	}
	return curlDefault && (accept == "" || accept == "*/*") && strings.HasPrefix(r.UserAgent(), "curl/")
}

// writeText prints a validation as augur validate does: the report when
// there is a verdict, its state otherwise.
func writeText(w http.ResponseWriter, status int, v *store.Validation, rep *validate.Report, verbose bool) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.WriteHeader(status)
	switch {
	case rep != nil:
		_ = rep.WriteText(w, verbose)
		if v.CachedFrom != "" {
			fmt.Fprintf(w, "%s\n", CachedNote(v.CachedFrom))
		}
	case v.Status == store.Queued && v.CachedFrom != "":
		fmt.Fprintf(w, "QUEUED: %s against %s, sharing the run of validation %s (an identical submission)\n", v.ProgramName, v.SpecName, v.CachedFrom)
	case v.Status == store.Queued:
		fmt.Fprintf(w, "QUEUED: %s against %s\n", v.ProgramName, v.SpecName)
	case v.Status == store.Running:
		fmt.Fprintf(w, "RUNNING: %s against %s (phase %s", v.ProgramName, v.SpecName, orDash(v.Progress.Phase))
		if v.Progress.Total > 0 {
			fmt.Fprintf(w, ", %d of %d conditions settled", v.Progress.Done, v.Progress.Total)
		}
		fmt.Fprintln(w, ")")
	case v.Status == store.Cancelled:
		fmt.Fprintf(w, "CANCELLED: %s against %s was cancelled before its verdict\n", v.ProgramName, v.SpecName)
	case v.Status == store.Failed:
		fmt.Fprintf(w, "FAILED: %s against %s: %s\n", v.ProgramName, v.SpecName, v.Error)
	default:
		fmt.Fprintf(w, "%s: %s against %s\n", strings.ToUpper(string(v.Status)), v.ProgramName, v.SpecName)
	}
	if rep == nil || v.Status != store.Done {
		fmt.Fprintf(w, "\nvalidation %s: %s\n", v.ID, validationURL(v.ID))
	}
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func boolParam(r *http.Request, name string) bool {
	b, _ := strconv.ParseBool(r.URL.Query().Get(name))
	return b
}

// respond answers with a validation: the full detail (200) when it is
// finished or full is set, its summary (202) otherwise.
func (s *server) respond(w http.ResponseWriter, r *http.Request, v *store.Validation, status int, full, curlDefault bool) {
	rep, err := report(v)
	if err != nil {
		internalError(w, r, err)
		return
	}
	if wantsText(r, curlDefault) {
		writeText(w, status, v, rep, boolParam(r, "verbose"))
		return
	}
	if full {
		writeJSON(w, status, detail(v, rep, boolParam(r, "source")))
		return
	}
	writeJSON(w, status, summarize(v))
}

// decodeFailed answers the error of decoding a request body, if any: 415
// with the accepted forms (unsupported), 413 (too large) or 400 (what
// cannot be read), and reports whether it did.
func (s *server) decodeFailed(w http.ResponseWriter, r *http.Request, err error, what, unsupported string) bool {
	switch {
	case err == nil:
		return false
	case errors.Is(err, errUnsupported):
		problem(w, r, http.StatusUnsupportedMediaType, probUnsupported, unsupported)
	default:
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			s.tooLarge(w, r)
		} else {
			problem(w, r, http.StatusBadRequest, probBadRequest, what+" cannot be read: "+err.Error())
		}
	}
	return true
}

// submit is POST /v1/validations.
func (s *server) submit(w http.ResponseWriter, r *http.Request) {
	wait, ok := s.waitParam(w, r)
	if !ok {
		return
	}
	sub, err := decodeSubmission(r)
	if s.decodeFailed(w, r, err, "the submission",
		"send multipart/form-data, application/x-www-form-urlencoded or application/json") {
		return
	}
	v, ok := s.enqueue(w, r, sub, wait)
	if !ok {
		return
	}
	w.Header().Set("Location", validationURL(v.ID))
	if wait > 0 && finished(v.Status) {
		s.respond(w, r, v, http.StatusOK, true, false)
		return
	}
	s.respond(w, r, v, http.StatusAccepted, false, false)
}

// waitParam reads ?wait, bounded by MaxWait; on a bad value it answers 400
// and reports false.
func (s *server) waitParam(w http.ResponseWriter, r *http.Request) (time.Duration, bool) {
	q := r.URL.Query().Get("wait")
	if q == "" {
		return 0, true
	}
	d, err := parseSeconds(q)
	if err != nil {
		problem(w, r, http.StatusBadRequest, probBadRequest, "wait: "+err.Error())
		return 0, false
	}
	return min(d, s.cfg.MaxWait), true
}

// enqueue checks a decoded submission (400 on a bad option, 422 on
// malformed input), submits it to the store and, with wait, waits for its
// verdict. It reports false when it has answered the request itself.
func (s *server) enqueue(w http.ResponseWriter, r *http.Request, sub *Submission, wait time.Duration) (*store.Validation, bool) {
	errs, usage := sub.Check()
	if usage != nil {
		problem(w, r, http.StatusBadRequest, probBadRequest, usage.Error())
		return nil, false
	}
	if len(errs) > 0 {
		writeProblem(w, r, Problem{Type: probMalformed, Status: http.StatusUnprocessableEntity, Title: "Malformed input",
			Detail: fmt.Sprintf("%d error%s in the specification or the kernel", len(errs), plural(len(errs))), Errors: errs})
		return nil, false
	}
	v, err := s.cfg.Store.Submit(r.Context(), sub.Validation(s.cfg.Key))
	if err != nil {
		internalError(w, r, err)
		return nil, false
	}
	outcome := "queued"
	switch {
	case v.CachedFrom != "" && finished(v.Status):
		outcome = "cached"
	case v.CachedFrom != "":
		outcome = "shared" // waits for an identical submission's run
	}
	s.metrics.submissions.WithLabelValues(outcome).Inc()
	zerolog.Ctx(r.Context()).Info().Str("validation", v.ID).Str("outcome", outcome).
		Str("program", v.ProgramName).Str("repository", v.Meta.Repository).Msg("submitted")
	if wait > 0 && !finished(v.Status) {
		if nv, err := s.waitFor(r.Context(), v.ID, wait); err == nil {
			v = nv
		} else if !errors.Is(err, context.Canceled) && !errors.Is(err, context.DeadlineExceeded) {
			internalError(w, r, err)
			return nil, false
		}
	}
	return v, true
}

// waitFor polls the store until validation id has finished or d is over;
// it returns the last state seen.
func (s *server) waitFor(ctx context.Context, id string, d time.Duration) (*store.Validation, error) {
	ctx, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	tick := time.NewTicker(s.cfg.Poll)
	defer tick.Stop()
	var last *store.Validation
	for {
		v, err := s.cfg.Store.Get(context.WithoutCancel(ctx), id)
		if err != nil {
			return last, err
		}
		last = v
		if finished(v.Status) {
			return v, nil
		}
		select {
		case <-ctx.Done():
			return last, nil
		case <-tick.C:
		}
	}
}

// get is GET /v1/validations/{id}.
func (s *server) get(w http.ResponseWriter, r *http.Request) {
	id := chi.URLParam(r, "id")
	v, err := s.cfg.Store.Get(r.Context(), id)
	if err != nil {
		storeFailed(w, r, id, err)
		return
	}
	s.respond(w, r, v, http.StatusOK, true, true)
}

// List is the answer of GET /v1/validations.
type List struct {
	Validations []Summary `json:"validations"`
	// NextCursor continues the list ("" at its end); Next is the URL of
	// the next page.
	NextCursor string `json:"next_cursor,omitempty"`
	Next       string `json:"next,omitempty"`
}

var validStatus = map[store.Status]bool{store.Queued: true, store.Running: true, store.Done: true, store.Cancelled: true, store.Failed: true}
var validVerdict = map[string]bool{"valid": true, "invalid": true, "unknown": true, "error": true}

// listParams are the query parameters of GET /v1/validations.
var listParams = []string{"repository", "branch", "commit", "verdict", "status", "label", "name", "since", "until", "limit", "cursor"}

// ParseDay reads a time bound of a list: RFC 3339, or a date (YYYY-MM-DD,
// its midnight in UTC).
func ParseDay(s string) (time.Time, error) {
	if t, err := time.Parse(time.RFC3339, s); err == nil {
		return t, nil
	}
	t, err := time.Parse(time.DateOnly, s)
	if err != nil {
		return time.Time{}, fmt.Errorf("%q is neither a date (2006-01-02) nor an RFC 3339 time", s)
	}
	return t, nil
}

// list is GET /v1/validations.
func (s *server) list(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	for k := range q {
		if !slices.Contains(listParams, k) {
			problem(w, r, http.StatusBadRequest, probBadRequest,
				fmt.Sprintf("unknown parameter %q; the filters are %s", k, strings.Join(listParams, ", ")))
			return
		}
	}
	f := store.Filter{
		Repository: q.Get("repository"), Branch: q.Get("branch"), Commit: q.Get("commit"),
		Verdict: q.Get("verdict"), Status: store.Status(q.Get("status")), Label: q.Get("label"), Cursor: q.Get("cursor"),
		Name: q.Get("name"),
	}
	for _, b := range []struct {
		param string
		dst   *time.Time
	}{{"since", &f.Since}, {"until", &f.Until}} {
		if v := q.Get(b.param); v != "" {
			t, err := ParseDay(v)
			if err != nil {
				problem(w, r, http.StatusBadRequest, probBadRequest, b.param+": "+err.Error())
				return
			}
			*b.dst = t
		}
	}
	if f.Status != "" && !validStatus[f.Status] {
		problem(w, r, http.StatusBadRequest, probBadRequest, fmt.Sprintf("status %q is none of queued, running, done, cancelled, failed", f.Status))
		return
	}
	if f.Verdict != "" && !validVerdict[f.Verdict] {
		problem(w, r, http.StatusBadRequest, probBadRequest, fmt.Sprintf("verdict %q is none of valid, invalid, unknown, error", f.Verdict))
		return
	}
	if l := q.Get("limit"); l != "" {
		n, err := strconv.Atoi(l)
		if err != nil || n < 1 || n > 500 {
			problem(w, r, http.StatusBadRequest, probBadRequest, fmt.Sprintf("limit %q is not a number from 1 to 500", l))
			return
		}
		f.Limit = n
	}
	vs, next, err := s.cfg.Store.List(r.Context(), f)
	if err != nil {
		if errors.Is(err, store.ErrInvalidCursor) {
			problem(w, r, http.StatusBadRequest, probBadRequest,
				fmt.Sprintf("cursor %q is not a next_cursor of this list", f.Cursor))
			return
		}
		internalError(w, r, err)
		return
	}
	out := List{Validations: make([]Summary, len(vs)), NextCursor: next}
	for i, v := range vs {
		out.Validations[i] = summarize(v)
	}
	if next != "" {
		q.Set("cursor", next)
		out.Next = "/v1/validations?" + q.Encode()
	}
	writeJSON(w, http.StatusOK, out)
}

// cancel is POST /v1/validations/{id}/cancel and DELETE
// /v1/validations/{id}.
func (s *server) cancel(w http.ResponseWriter, r *http.Request) {
	id := chi.URLParam(r, "id")
	if err := s.cfg.Store.Cancel(r.Context(), id); err != nil {
		storeFailed(w, r, id, err)
		return
	}
	zerolog.Ctx(r.Context()).Info().Str("validation", id).Msg("cancelled")
	v, err := s.cfg.Store.Get(r.Context(), id)
	if err != nil {
		storeFailed(w, r, id, err)
		return
	}
	writeJSON(w, http.StatusOK, summarize(v))
}

// Event is the data of a server-sent event: "progress" while the
// validation is queued or running, "done" once it has finished. Done and
// Total count one thing throughout, the validation's conditions (those
// its report lists): Total all of them (0 until the symbolic evaluation
// has found them), Done those settled, whatever their status; in "done"
// Done equals Total (see validate.Event).
type Event struct {
	ID      string       `json:"id"`
	Status  store.Status `json:"status"`
	Phase   string       `json:"phase,omitempty"`
	Done    int          `json:"done"`
	Total   int          `json:"total"`
	Verdict string       `json:"verdict,omitempty"`
	Reason  string       `json:"reason,omitempty"`
	URL     string       `json:"url"`
}

// events is GET /v1/validations/{id}/events: server-sent events from
// polling the store, ending with a "done" event.
func (s *server) events(w http.ResponseWriter, r *http.Request) {
	id := chi.URLParam(r, "id")
	ctx := r.Context()
	v, err := s.cfg.Store.Get(ctx, id)
	if err != nil {
		storeFailed(w, r, id, err)
		return
	}
	rc := http.NewResponseController(w)
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-cache")
	h.Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	seq := 0
	send := func(name string, e Event) error {
		seq++
		data, _ := json.Marshal(e)
		if _, err := fmt.Fprintf(w, "id: %d\nevent: %s\ndata: %s\n\n", seq, name, data); err != nil {
			return err
		}
		return rc.Flush()
	}
	tick := time.NewTicker(s.cfg.Poll)
	defer tick.Stop()
	var last Event
	lastSent := time.Time{}
	for {
		e := Event{ID: v.ID, Status: v.Status, Phase: v.Progress.Phase, Done: v.Progress.Done, Total: v.Progress.Total, URL: validationURL(v.ID)}
		if finished(v.Status) {
			e.Verdict, e.Reason = v.Verdict, v.Reason
			if v.Status == store.Failed {
				e.Reason = v.Error
			}
			e.Phase = "done"
			if rep, err := report(v); err == nil && rep != nil {
				// Every condition is settled once the report is in.
				e.Done, e.Total = len(rep.Conditions), len(rep.Conditions)
			}
			_ = send("done", e)
			return
		}
		switch {
		case e != last:
			if send("progress", e) != nil {
				return
			}
			last, lastSent = e, time.Now()
		case time.Since(lastSent) > 15*time.Second:
			if _, err := fmt.Fprint(w, ": keep-alive\n\n"); err != nil || rc.Flush() != nil {
				return
			}
			lastSent = time.Now()
		}
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		if v, err = s.cfg.Store.Get(ctx, id); err != nil {
			if ctx.Err() == nil {
				zerolog.Ctx(ctx).Warn().Err(err).Str("validation", id).Msg("event stream ended")
			}
			return
		}
	}
}

// smt2 is GET /v1/validations/{id}/conditions/{n}.smt2.
func (s *server) smt2(w http.ResponseWriter, r *http.Request) {
	id := chi.URLParam(r, "id")
	n, err := strconv.Atoi(chi.URLParam(r, "n"))
	if err != nil {
		problem(w, r, http.StatusNotFound, probNotFound, fmt.Sprintf("%q is not a condition number", chi.URLParam(r, "n")))
		return
	}
	v, err := s.cfg.Store.Get(r.Context(), id)
	if err != nil {
		storeFailed(w, r, id, err)
		return
	}
	rep, err := report(v)
	if err != nil {
		internalError(w, r, err)
		return
	}
	if rep == nil {
		problem(w, r, http.StatusNotFound, probNotFound, fmt.Sprintf("validation %s has no report (status %s)", id, v.Status))
		return
	}
	for _, c := range rep.Conditions {
		if c.ID != n {
			continue
		}
		if c.SMT == "" {
			problem(w, r, http.StatusNotFound, probNotFound,
				fmt.Sprintf("condition C%d (%s) has no SMT-LIB2 script: only value conditions left to the solver have one", n, c.Kind))
			return
		}
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.Header().Set("Content-Disposition", fmt.Sprintf(`inline; filename="C%d.smt2"`, n))
		fmt.Fprint(w, c.Script())
		return
	}
	problem(w, r, http.StatusNotFound, probNotFound, fmt.Sprintf("validation %s has no condition C%d", id, n))
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
