package web

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"golang.org/x/net/html/atom"

	"github.com/augur-verify/augur/store"
)

// post posts to the dashboard as a form of its own page would, with the
// access the server in front would give.
func post(t *testing.T, h http.Handler, target string, acc *Access, header map[string]string) *httptest.ResponseRecorder {
	t.Helper()
	r := httptest.NewRequest(http.MethodPost, target, strings.NewReader(""))
	r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	for k, v := range header {
		r.Header.Set(k, v)
	}
	if acc != nil {
		r = r.WithContext(WithAccess(r.Context(), *acc))
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w
}

func TestButtons(t *testing.T) {
	s, h := newTest(t)
	forms := func(target string, acc *Access) (actions []string, login string) {
		t.Helper()
		r := httptest.NewRequest(http.MethodGet, target, nil)
		if acc != nil {
			r = r.WithContext(WithAccess(r.Context(), *acc))
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		doc := checkHTML(t, w.Body.String())
		for _, f := range findAll(doc, isTag(atom.Form)) {
			if attr(f, "method") == "post" {
				actions = append(actions, attr(f, "action")+" "+strings.TrimSpace(text(f)))
			}
		}
		for _, a := range findAll(doc, isTag(atom.A)) {
			if strings.HasPrefix(attr(a, "href"), "/login") {
				login = attr(a, "href")
			}
		}
		return actions, login
	}
	for _, c := range []struct {
		target string
		want   string
	}{
		{"/validations/v-queued", "/validations/v-queued/cancel Cancel"},
		{"/validations/v-running", "/validations/v-running/cancel Cancel"},
		{"/validations/v-invalid", "/validations/v-invalid/rerun Re-run"},
		{"/validations/v-error", "/validations/v-error/rerun Re-run"},
	} {
		if got, _ := forms(c.target, nil); len(got) != 1 || got[0] != c.want {
			t.Errorf("%s: buttons %q, want %q", c.target, got, c.want)
		}
	}
	// Without the right to act: no button, a login link back to the page.
	got, login := forms("/validations/v-invalid", &Access{Login: "/login"})
	if len(got) != 0 || login != "/login?next="+url.QueryEscape("/validations/v-invalid") {
		t.Errorf("without access: buttons %q, login link %q", got, login)
	}

	// Cancel: the queued validation is cancelled, the page shown again.
	w := post(t, h, "/validations/v-queued/cancel", nil, nil)
	if w.Code != http.StatusSeeOther || w.Header().Get("Location") != "/validations/v-queued" {
		t.Errorf("cancel: %d to %q", w.Code, w.Header().Get("Location"))
	}
	if v, _ := s.Get(context.Background(), "v-queued"); v.Status != store.Cancelled {
		t.Errorf("after cancel: %s", v.Status)
	}
	if w := post(t, h, "/validations/v-invalid/cancel", nil, nil); w.Code != http.StatusConflict {
		t.Errorf("cancelling a finished validation: %d, want 409", w.Code)
	}
	if w := post(t, h, "/validations/v-nope/cancel", nil, nil); w.Code != http.StatusNotFound {
		t.Errorf("cancelling an unknown validation: %d, want 404", w.Code)
	}

	// Re-run: a new validation of the same pair, options and metadata.
	w = post(t, h, "/validations/v-invalid/rerun", nil, nil)
	loc := w.Header().Get("Location")
	if w.Code != http.StatusSeeOther || !strings.HasPrefix(loc, "/validations/v-new") {
		t.Fatalf("re-run: %d to %q", w.Code, loc)
	}
	old, _ := s.Get(context.Background(), "v-invalid")
	nv, err := s.Get(context.Background(), strings.TrimPrefix(loc, "/validations/"))
	if err != nil {
		t.Fatal(err)
	}
	if nv.Spec != old.Spec || nv.Program != old.Program || nv.SpecName != old.SpecName || nv.ProgramName != old.ProgramName ||
		nv.Meta.Commit != old.Meta.Commit || nv.Meta.Labels["team"] != "imaging" || nv.Status != store.Queued || nv.Report != nil {
		t.Errorf("re-run submitted %+v", nv)
	}

	// Refused: without the right to act (403, nothing submitted), and
	// from another site's page (the cross-origin protection).
	n := len(s.vs)
	if w := post(t, h, "/validations/v-invalid/rerun", &Access{Login: "/login"}, nil); w.Code != http.StatusForbidden {
		t.Errorf("re-run without access: %d, want 403", w.Code)
	}
	if w := post(t, h, "/validations/v-running/cancel", &Access{}, nil); w.Code != http.StatusForbidden {
		t.Errorf("cancel without access: %d, want 403", w.Code)
	}
	if w := post(t, h, "/validations/v-invalid/rerun", nil, map[string]string{"Sec-Fetch-Site": "cross-site"}); w.Code != http.StatusForbidden {
		t.Errorf("re-run from another site: %d, want 403", w.Code)
	}
	if v, _ := s.Get(context.Background(), "v-running"); len(s.vs) != n || v.Status != store.Running {
		t.Errorf("a refused action changed the store: %d validations (want %d), v-running %s", len(s.vs), n, v.Status)
	}
	// GET does not act.
	if code, _, _ := get(t, h, "/validations/v-running/cancel"); code == http.StatusSeeOther || code == http.StatusOK {
		t.Errorf("GET cancel: %d", code)
	}
}
