package web

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/augur-verify/augur/store"
	"github.com/augur-verify/augur/validate"
)

func newTest(t *testing.T) (*fakeStore, http.Handler) {
	t.Helper()
	s := fixture(t)
	return s, New(s, Options{Now: func() time.Time { return now }, ErrorLog: func(r *http.Request, err error) { t.Logf("error log: %v", err) }})
}

// get serves target and returns the status, the body and its parsed tree
// after checking that it is well formed.
func get(t *testing.T, h http.Handler, target string) (int, string, *html.Node) {
	t.Helper()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", target, nil))
	body := rec.Body.String()
	if ct := rec.Header().Get("Content-Type"); ct != "text/html; charset=utf-8" {
		t.Fatalf("GET %s: Content-Type %q", target, ct)
	}
	return rec.Code, body, checkHTML(t, body)
}

func TestListShowsVerdictBadges(t *testing.T) {
	s, h := newTest(t)
	code, _, doc := get(t, h, "/")
	if code != 200 {
		t.Fatalf("status %d", code)
	}
	rows := findAll(doc, func(n *html.Node) bool {
		return n.DataAtom == atom.Tr && n.Parent.DataAtom == atom.Tbody
	})
	var got [][2]string
	for _, r := range rows {
		b := findAll(r, hasClass("badge"))
		if len(b) != 1 {
			t.Fatalf("row %q: %d badges", text(r), len(b))
		}
		got = append(got, [2]string{attr(findAll(r, isTag(atom.A))[0], "href"), text(b[0])})
	}
	wantRows := [][2]string{
		{"/validations/v-queued", "… queued"},
		{"/validations/v-running", "↻ running"},
		{"/validations/v-invalid", "✗ invalid"},
		{"/validations/v-valid", "✓ valid"},
		{"/validations/v-unknown", "? unknown"},
		{"/validations/v-error", "! error"},
	}
	if !reflect.DeepEqual(got, wantRows) {
		t.Errorf("rows:\n got %q\nwant %q", got, wantRows)
	}
	// The badge's colour comes from its class; its word is in its text.
	for _, b := range findAll(doc, hasClass("badge")) {
		kind := strings.TrimPrefix(strings.Fields(attr(b, "class"))[1], "badge-")
		if !strings.HasSuffix(text(b), kind) {
			t.Errorf("badge %q has class badge-%s", text(b), kind)
		}
	}
	inv := rowOf(t, doc, "/validations/v-invalid")
	for _, w := range []string{"blur_wrong_row", "broken_wrong_row.sched", "annotation mismatch", "github.com/acme/kernels", "main", "0123456789ab", "target=x86", "team=imaging", "5 min ago"} {
		if !strings.Contains(text(inv), w) {
			t.Errorf("the invalid row %q lacks %q", text(inv), w)
		}
	}
	if r := text(rowOf(t, doc, "/validations/v-running")); !strings.Contains(r, "solve: 3 of 12") {
		t.Errorf("the running row %q lacks its progress", r)
	}
	if r := text(rowOf(t, doc, "/validations/v-error")); !strings.Contains(r, "worker ran out of memory") {
		t.Errorf("the failed row %q lacks its error", r)
	}
	// One List call, and no Get per row.
	if len(s.filters) != 1 || len(s.gets) != 0 {
		t.Errorf("%d List and %d Get calls for one list page", len(s.filters), len(s.gets))
	}
	if f := s.filters[0]; !reflect.DeepEqual(f, store.Filter{Limit: 50}) {
		t.Errorf("filter %+v", f)
	}
}

func rowOf(t *testing.T, doc *html.Node, href string) *html.Node {
	t.Helper()
	for _, a := range findAll(doc, isTag(atom.A)) {
		if attr(a, "href") == href {
			for n := a; n != nil; n = n.Parent {
				if n.DataAtom == atom.Tr {
					return n
				}
			}
		}
	}
	t.Fatalf("no row links to %s", href)
	return nil
}

func TestListFilters(t *testing.T) {
	for _, tc := range []struct {
		query string
		want  store.Filter
		rows  []string
	}{
		{
			query: "repository=github.com%2Facme%2Fkernels&branch=main&commit=0123456789abcdef0123&verdict=invalid&label=team%3Dimaging",
			want:  store.Filter{Repository: "github.com/acme/kernels", Branch: "main", Commit: "0123456789abcdef0123", Verdict: "invalid", Label: "team=imaging", Limit: 50},
			rows:  []string{"/validations/v-invalid"},
		},
		{
			query: "verdict=running",
			want:  store.Filter{Status: store.Running, Limit: 50},
			rows:  []string{"/validations/v-running"},
		},
		{
			query: "branch=main&verdict=valid",
			want:  store.Filter{Branch: "main", Verdict: "valid", Limit: 50},
		},
		{
			query: "label=team&limit=2",
			want:  store.Filter{Label: "team", Limit: 2},
			rows:  []string{"/validations/v-invalid", "/validations/v-valid"},
		},
		{
			query: "status=failed&limit=100000",
			want:  store.Filter{Status: store.Failed, Limit: 500},
			rows:  []string{"/validations/v-error"},
		},
	} {
		t.Run(tc.query, func(t *testing.T) {
			s, h := newTest(t)
			code, _, doc := get(t, h, "/?"+tc.query)
			if code != 200 {
				t.Fatalf("status %d", code)
			}
			if len(s.filters) != 1 || !reflect.DeepEqual(s.filters[0], tc.want) {
				t.Fatalf("filters %+v, want %+v", s.filters, tc.want)
			}
			var rows []string
			for _, a := range findAll(doc, func(n *html.Node) bool {
				return n.DataAtom == atom.A && strings.HasPrefix(attr(n, "href"), "/validations/")
			}) {
				rows = append(rows, attr(a, "href"))
			}
			if !slices.Equal(rows, tc.rows) {
				t.Errorf("rows %q, want %q", rows, tc.rows)
			}
			if len(tc.rows) == 0 && !strings.Contains(text(doc), "No validation matches the filters.") {
				t.Errorf("no empty-state message")
			}
			// The form shows the filters it applied.
			for name, val := range map[string]string{"repository": tc.want.Repository, "branch": tc.want.Branch, "commit": tc.want.Commit, "label": tc.want.Label} {
				in := findAll(doc, func(n *html.Node) bool { return n.DataAtom == atom.Input && attr(n, "name") == name })
				if len(in) != 1 || attr(in[0], "value") != val {
					t.Errorf("field %s does not show %q", name, val)
				}
			}
			sel := findAll(doc, func(n *html.Node) bool { return n.DataAtom == atom.Option && hasAttr(n, "selected") })
			want := tc.want.Verdict + string(tc.want.Status)
			if tc.want.Status == store.Failed {
				want = "" // not a choice of the form
			}
			if want != "" && (len(sel) != 1 || attr(sel[0], "value") != want) {
				t.Errorf("selected options %q, want %q", texts(sel), want)
			}
		})
	}
}

func hasAttr(n *html.Node, key string) bool {
	for _, a := range n.Attr {
		if a.Key == key {
			return true
		}
	}
	return false
}

func TestListPagination(t *testing.T) {
	s, h := newTest(t)
	_, _, doc := get(t, h, "/?repository=github.com%2Facme%2Fkernels&limit=3")
	next := findAll(doc, func(n *html.Node) bool { return attr(n, "rel") == "next" })
	if len(next) != 1 {
		t.Fatalf("no next page link")
	}
	u := attr(next[0], "href")
	if u != "/?back=-&cursor=3&limit=3&repository=github.com%2Facme%2Fkernels" {
		t.Errorf("next page %s", u)
	}
	_, _, doc = get(t, h, u)
	if got := s.filters[1]; got.Cursor != "3" || got.Limit != 3 || got.Repository != "github.com/acme/kernels" {
		t.Errorf("second page's filter %+v", got)
	}
	rows := findAll(doc, func(n *html.Node) bool {
		return n.DataAtom == atom.A && strings.HasPrefix(attr(n, "href"), "/validations/")
	})
	if len(rows) != 1 || attr(rows[0], "href") != "/validations/v-valid" {
		t.Errorf("second page: %q", texts(rows))
	}
	if len(findAll(doc, func(n *html.Node) bool { return attr(n, "rel") == "next" })) != 0 {
		t.Errorf("a next link on the last page")
	}
	first := findAll(doc, func(n *html.Node) bool { return n.DataAtom == atom.A && text(n) == "First page" })
	if len(first) != 1 || attr(first[0], "href") != "/?limit=3&repository=github.com%2Facme%2Fkernels" {
		t.Errorf("first page link %q", texts(first))
	}

	// Page by page, one validation each: the previous page is one link
	// away, back to the first.
	u = "/?limit=1&repository=github.com%2Facme%2Fkernels"
	var seen []string
	for range 4 {
		_, _, doc = get(t, h, u)
		rows := findAll(doc, func(n *html.Node) bool {
			return n.DataAtom == atom.A && strings.HasPrefix(attr(n, "href"), "/validations/")
		})
		if len(rows) != 1 {
			t.Fatalf("%s: %d rows", u, len(rows))
		}
		seen = append(seen, attr(rows[0], "href"))
		next := findAll(doc, func(n *html.Node) bool { return attr(n, "rel") == "next" })
		if len(next) == 0 {
			break
		}
		u = attr(next[0], "href")
	}
	for i := len(seen) - 2; i >= 0; i-- {
		prev := findAll(doc, func(n *html.Node) bool { return attr(n, "rel") == "prev" })
		if len(prev) != 1 {
			t.Fatalf("no previous page link on page %d", i+2)
		}
		_, _, doc = get(t, h, attr(prev[0], "href"))
		rows := findAll(doc, func(n *html.Node) bool {
			return n.DataAtom == atom.A && strings.HasPrefix(attr(n, "href"), "/validations/")
		})
		if len(rows) != 1 || attr(rows[0], "href") != seen[i] {
			t.Errorf("previous page %d shows %q, want %s", i+1, texts(rows), seen[i])
		}
	}
	if len(findAll(doc, func(n *html.Node) bool { return attr(n, "rel") == "prev" })) != 0 {
		t.Errorf("a previous link on the first page")
	}
}

// The list searches the file names, bounds the submission dates, and
// shows each validation's duration (or that it was cached).
func TestListSearchDatesDuration(t *testing.T) {
	s, h := newTest(t)
	_, _, doc := get(t, h, "/?name=BLUR")
	rows := findAll(doc, func(n *html.Node) bool {
		return n.DataAtom == atom.A && strings.HasPrefix(attr(n, "href"), "/validations/")
	})
	if len(rows) == 0 || s.filters[0].Name != "BLUR" {
		t.Fatalf("name search: %q, filter %+v", texts(rows), s.filters[0])
	}
	for _, r := range rows {
		if attr(r, "href") != "/validations/v-invalid" {
			t.Errorf("searching blur shows %s", attr(r, "href"))
		}
	}
	if byID(doc, "f-name") == nil || attr(byID(doc, "f-name"), "value") != "BLUR" {
		t.Errorf("the search field does not keep the search")
	}
	get(t, h, "/?since=2020-01-02&until=2020-01-03")
	f := s.filters[len(s.filters)-1]
	if !f.Since.Equal(time.Date(2020, 1, 2, 0, 0, 0, 0, time.UTC)) || !f.Until.Equal(time.Date(2020, 1, 4, 0, 0, 0, 0, time.UTC)) {
		t.Errorf("dates: since %s until %s", f.Since, f.Until)
	}
	if code, _, _ := get(t, h, "/?since=yesterday"); code != 400 {
		t.Errorf("a bad date: %d", code)
	}
	_, _, doc = get(t, h, "/")
	durations := map[string]string{}
	for _, tr := range findAll(doc, isTag(atom.Tr)) {
		a := findAll(tr, func(n *html.Node) bool {
			return n.DataAtom == atom.A && strings.HasPrefix(attr(n, "href"), "/validations/")
		})
		d := findAll(tr, hasClass("duration"))
		if len(a) == 1 && len(d) == 1 {
			durations[attr(a[0], "href")] = text(d[0])
		}
	}
	if durations["/validations/v-invalid"] != "1 min" && !strings.HasSuffix(durations["/validations/v-invalid"], "s") {
		t.Errorf("durations %q", durations)
	}
	if durations["/validations/v-valid"] != "cached" || durations["/validations/v-queued"] != "" {
		t.Errorf("durations %q", durations)
	}
}

func TestListRefresh(t *testing.T) {
	_, h := newTest(t)
	_, body, _ := get(t, h, "/")
	if strings.Contains(body, `http-equiv="refresh"`) {
		t.Errorf("the list refreshes without being asked to")
	}
	_, body, doc := get(t, h, "/?refresh=on&verdict=invalid")
	if !strings.Contains(body, `<meta http-equiv="refresh" content="10">`) {
		t.Errorf("no refresh with refresh=on")
	}
	box := byID(doc, "f-refresh")
	if box == nil || !hasAttr(box, "checked") {
		t.Errorf("the refresh box is not checked")
	}
}

func TestInvalidValidation(t *testing.T) {
	s, h := newTest(t)
	code, body, doc := get(t, h, "/validations/v-invalid")
	if code != 200 {
		t.Fatalf("status %d", code)
	}
	// One Get, and one List looking for the previous validation of the
	// kernel on its branch (there is none).
	if len(s.gets) != 1 || len(s.filters) != 1 {
		t.Fatalf("%d Get and %d List calls for one page", len(s.gets), len(s.filters))
	}
	v, _ := s.Get(t.Context(), "v-invalid")
	if f := s.filters[0]; f.Program != v.ProgramName || f.Repository != v.Meta.Repository || f.Branch != "main" ||
		f.Status != store.Done || !f.Until.Equal(v.CreatedAt) {
		t.Errorf("the previous validation looked for with %+v", f)
	}
	h1 := text(findAll(doc, isTag(atom.H1))[0])
	if h1 != "✗ invalid blur_wrong_row" {
		t.Errorf("h1 %q", h1)
	}
	if r := text(findAll(doc, hasClass("reason"))[0]); !strings.Contains(r, "annotation mismatch at examples/blur/broken_wrong_row.sched:17:9") {
		t.Errorf("reason %q", r)
	}

	// The failing statement: one line, marked failed, labelled for
	// screen readers, with the counterexample right under it.
	failed := findAll(doc, hasClass("failed"))
	if len(failed) != 1 {
		t.Fatalf("%d elements of class failed: %q", len(failed), texts(failed))
	}
	line := failed[0]
	if attr(line, "id") != "L17" || !strings.Contains(text(line), failingStmt) || !strings.Contains(text(line), "failed") {
		t.Errorf("failed element %s: %q", attr(line, "id"), text(line))
	}
	if l := attr(line, "aria-label"); l != "line 17, failed (conditions C8, C9, C10, C11, C12), the counterexample follows" {
		t.Errorf("aria-label %q", l)
	}
	if m := findAll(line, isTag(atom.Mark)); len(m) != 1 || text(m[0]) != failingStmt {
		t.Errorf("highlighted %q", texts(m))
	}
	if a := findAll(line, isTag(atom.A)); len(a) != 2 || attr(a[1], "href") != "#C12" {
		t.Errorf("the mark does not link to the failed condition")
	}
	cxRow := nextElement(line)
	if cxRow == nil || !hasClass("cx-row")(cxRow) {
		t.Fatalf("no counterexample after the failing line")
	}
	cx := text(cxRow)
	for _, w := range []string{
		"Counterexample: annotation mismatch",
		"Parameters W=3, H=1",
		"Loop indices y=0, x=2",
		"Annotation Out(2, 0) = 0.19444445",
		"Computed (BH(2, 0) + BH(2, 1) + BH(2, 1)) / 9 = 0.6527778",
		"Replay reproduced: augur run fails (seed 1)",
		"Reproduce augur run examples/blur/blur.sare examples/blur/broken_wrong_row.sched --param W=3 --param H=1",
	} {
		if !strings.Contains(cx, w) {
			t.Errorf("the counterexample lacks %q:\n%s", w, cx)
		}
	}
	if strings.Count(body, "augur run examples/blur/blur.sare examples/blur/broken_wrong_row.sched --param W=3 --param H=1") != 1 {
		t.Errorf("the reproduce command is not shown once")
	}

	// The other statement is proved, the loop and binding lines too.
	for _, id := range []string{"L7", "L12", "L13", "L16"} {
		if n := byID(doc, id); n == nil || !hasClass("proved")(n) {
			t.Errorf("line %s is not marked proved", id)
		}
	}
	for _, id := range []string{"L1", "L8", "L9", "L14"} {
		if n := byID(doc, id); n == nil || attr(n, "class") != "line" {
			t.Errorf("line %s without conditions is marked", id)
		}
	}

	// The conditions, with SMT-LIB2 links for the value conditions.
	c12 := byID(doc, "C12")
	if c12 == nil {
		t.Fatal("no row C12")
	}
	if got := text(c12); !strings.Contains(got, "C12 annotation mismatch broken_wrong_row.sched:17:9 ✗ failed (BH(x, y) + BH(x, y + 1) + BH(x, y + 1)) / 9 = Out(x, y)") {
		t.Errorf("row C12: %q", got)
	}
	links := findAll(doc, func(n *html.Node) bool { return strings.HasSuffix(attr(n, "href"), ".smt2") })
	var hrefs []string
	for _, a := range links {
		hrefs = append(hrefs, attr(a, "href"))
	}
	// Only the conditions whose script the report keeps link to it: C14,
	// proved syntactically, has none.
	want := []string{"/v1/validations/v-invalid/conditions/6.smt2", "/v1/validations/v-invalid/conditions/12.smt2"}
	if !slices.Equal(hrefs, want) {
		t.Errorf("SMT links %q, want %q", hrefs, want)
	}
	// A proved condition shows its formula and the solver's time; one
	// decided without a query of its own shows no time, and says why.
	for _, c := range []struct{ id, row, untimed string }{
		{"C6", "C6 annotation mismatch broken_wrong_row.sched:13:11 ✓ proved In(x, y + dy) + In(x + 1, y + dy) + In(x + 2, y + dy) = BH(x, y + dy)", ""},
		{"C14", "C14 output wrong value broken_wrong_row.sched:7:1 ✓ proved both sides are the same expression Out(s1, s2) = Out(s1, s2)", "proved without the solver: its two sides are the same expression"},
		{"C1", "C1 read-write race", "no solver query of its own: decided over Presburger sets by the symbolic evaluation, or not decided; the phases are timed as a whole"},
	} {
		row := byID(doc, c.id)
		got := strings.Join(strings.Fields(text(row)), " ")
		if !strings.HasPrefix(got, c.row) {
			t.Errorf("row %s: %q, want it to start with %q", c.id, got, c.row)
		}
		cells := findAll(row, isTag(atom.Td))
		time := cells[len(cells)-2]
		switch tm := text(time); {
		case c.untimed == "" && (tm == "–" || tm == "0"):
			t.Errorf("row %s shows the time %q, not the solver's", c.id, tm)
		case c.untimed != "" && (tm != "–" || attr(findAll(time, isTag(atom.Span))[0], "title") != c.untimed):
			t.Errorf("row %s shows the time %q, want – titled %q", c.id, tm, c.untimed)
		}
	}
	if got := text(byID(doc, "C6")); !strings.Contains(got, "126 ms") {
		t.Errorf("row C6 lacks the solver's 126 ms: %q", got)
	}
	if n := len(findAll(byID(doc, "C1").Parent, isTag(atom.Tr))); n != 14 {
		t.Errorf("%d condition rows, want 14", n)
	}

	// Timings, metadata, the specification folded.
	var phases []string
	for _, th := range findAll(doc, func(n *html.Node) bool {
		return n.DataAtom == atom.Th && attr(n, "scope") == "row" && n.Parent.Parent.Parent != nil && hasClass("timings")(n.Parent.Parent.Parent)
	}) {
		phases = append(phases, text(th))
	}
	if !slices.Equal(phases, []string{"parse", "symbolic", "solve", "confirm", "total"}) {
		t.Errorf("timings %q", phases)
	}
	meta := text(findAll(doc, hasClass("meta"))[0])
	for _, w := range []string{"Repository github.com/acme/kernels", "Branch main", "Commit 0123456789abcdef0123", "Pipeline 1234", "Job validate", "Value model real", "team=imaging", "Submitted 2026-11-22 14:55:00 UTC (5 min ago)", "Finished 2026-11-22 14:56:00 UTC"} {
		if !strings.Contains(meta, w) {
			t.Errorf("metadata lacks %q: %s", w, meta)
		}
	}
	det := findAll(doc, isTag(atom.Details))
	// Unfolded: the counterexample's explanation cites its line 12.
	if len(det) != 1 || !hasAttr(det[0], "open") || byID(doc, "S6") == nil ||
		!strings.Contains(text(det[0]), "the annotation's equation is on line 12") {
		t.Errorf("the specification is not listed unfolded, citing line 12")
	}
	// A finished validation neither refreshes nor loads the script.
	if strings.Contains(body, "refresh") || strings.Contains(body, "<script") {
		t.Errorf("a finished validation refreshes")
	}
}

func TestValidValidation(t *testing.T) {
	_, h := newTest(t)
	code, _, doc := get(t, h, "/validations/v-valid")
	if code != 200 {
		t.Fatalf("status %d", code)
	}
	if h1 := text(findAll(doc, isTag(atom.H1))[0]); h1 != "✓ valid matmul" {
		t.Errorf("h1 %q", h1)
	}
	if r := text(findAll(doc, hasClass("reason"))[0]); r != "matmul.sched computes its specification matmul.sare whenever N >= 1 and M >= 1 and P >= 0." {
		t.Errorf("reason %q", r)
	}
	if c := findAll(doc, hasClass("cached")); len(c) != 1 || text(c[0]) != "cached" {
		t.Errorf("the cached verdict is not marked")
	}
	for _, l := range findAll(doc, hasClass("line")) {
		if strings.Contains(text(l), "examples/matmul") {
			t.Errorf("a line names the first submission's files: %q", text(l))
		}
	}
	if c := text(findAll(doc, hasClass("counts"))[0]); !strings.HasPrefix(c, "13 conditions: 13 proved, in ") {
		t.Errorf("counts %q", c)
	}
	// Every assignment is marked proved, and nothing failed.
	lines := findAll(doc, hasClass("line"))
	assignments := 0
	for _, l := range lines {
		if strings.HasPrefix(attr(l, "id"), "L") && strings.Contains(text(l), ":=") {
			assignments++
			if !hasClass("proved")(l) || !strings.HasPrefix(attr(l, "aria-label"), "line ") {
				t.Errorf("assignment %q is not marked proved: class %q", text(l), attr(l, "class"))
			}
		}
	}
	if assignments != 2 {
		t.Errorf("%d assignments, want 2", assignments)
	}
	if n := findAll(doc, func(n *html.Node) bool { return hasClass("failed")(n) || hasClass("undecided")(n) || hasClass("cx")(n) }); len(n) != 0 {
		t.Errorf("a valid kernel has failed or undecided lines: %q", texts(n))
	}
}

func TestUnknownValidation(t *testing.T) {
	_, h := newTest(t)
	_, _, doc := get(t, h, "/validations/v-unknown")
	if h1 := text(findAll(doc, isTag(atom.H1))[0]); h1 != "? unknown matmul" {
		t.Errorf("h1 %q", h1)
	}
	// Line 14 has a proved and an undecided condition: undecided.
	l := byID(doc, "L14")
	if l == nil || attr(l, "class") != "line undecided" || !strings.Contains(text(l), "c[i, j] {R(i, j, k)} := c[i, j] + a[i, k] * b[k, j]") {
		t.Fatalf("line 14 %q: class %q", text(l), attr(l, "class"))
	}
	if c := text(byID(doc, "C11")); !strings.Contains(c, "? undecided timeout after 20s") {
		t.Errorf("C11 %q", c)
	}
	if l := byID(doc, "L12"); attr(l, "class") != "line proved" {
		t.Errorf("line 12 class %q", attr(l, "class"))
	}
	if c := text(findAll(doc, hasClass("counts"))[0]); !strings.HasPrefix(c, "13 conditions: 12 proved, 1 undecided") {
		t.Errorf("counts %q", c)
	}
}

func TestRunningValidation(t *testing.T) {
	_, h := newTest(t)
	code, body, doc := get(t, h, "/validations/v-running")
	if code != 200 {
		t.Fatalf("status %d", code)
	}
	if !strings.Contains(body, `<noscript><meta http-equiv="refresh" content="2"></noscript>`) {
		t.Errorf("no refresh without scripts")
	}
	scripts := findAll(doc, isTag(atom.Script))
	if len(scripts) != 1 || !strings.HasPrefix(attr(scripts[0], "src"), "/assets/live.js?v=") {
		t.Errorf("scripts %v", scripts)
	}
	live := findAll(doc, func(n *html.Node) bool { return hasAttr(n, "data-events") })
	if len(live) != 1 || attr(live[0], "data-events") != "/v1/validations/v-running/events" {
		t.Fatalf("no live progress section")
	}
	if got := text(live[0]); !strings.Contains(got, "solve: 3 of 12") {
		t.Errorf("progress %q", got)
	}
	p := findAll(live[0], isTag(atom.Progress))
	if len(p) != 1 || attr(p[0], "max") != "12" || attr(p[0], "value") != "3" {
		t.Errorf("progress bar %v", p)
	}
	// No marks before a report.
	if n := findAll(doc, func(n *html.Node) bool { return hasClass("proved")(n) || hasClass("failed")(n) }); len(n) != 0 {
		t.Errorf("marks on a running validation")
	}
	_, body, _ = get(t, h, "/validations/v-queued")
	if !strings.Contains(body, "waiting for a worker") || !strings.Contains(body, "<noscript>") {
		t.Errorf("queued page without its state or refresh")
	}
}

func TestFailedValidation(t *testing.T) {
	_, h := newTest(t)
	_, _, doc := get(t, h, "/validations/v-error")
	if r := text(findAll(doc, hasClass("reason"))[0]); r != "The validation failed without a verdict: worker ran out of memory" {
		t.Errorf("reason %q", r)
	}
}

func TestNotFound(t *testing.T) {
	_, h := newTest(t)
	for _, target := range []string{"/validations/nope", "/nope", "/validations/v-valid/extra", "/assets/nope.css"} {
		code, body, doc := get(t, h, target)
		if code != 404 {
			t.Errorf("GET %s: status %d", target, code)
		}
		if h1 := text(findAll(doc, isTag(atom.H1))[0]); h1 != "Not found" {
			t.Errorf("GET %s: h1 %q", target, h1)
		}
		if !strings.Contains(body, `<a href="/">Back to the validations</a>`) {
			t.Errorf("GET %s: no way back", target)
		}
	}
}

func TestStoreErrors(t *testing.T) {
	s := fixture(t)
	s.err = errors.New("database is locked")
	var logged []error
	h := New(s, Options{
		RequestID: func(*http.Request) string { return "req-42" },
		ErrorLog:  func(r *http.Request, err error) { logged = append(logged, err) },
	})
	for _, target := range []string{"/", "/validations/v-valid"} {
		code, body, _ := get(t, h, target)
		if code != 500 {
			t.Errorf("GET %s: status %d", target, code)
		}
		if strings.Contains(body, "database is locked") || !strings.Contains(body, "req-42") {
			t.Errorf("GET %s: the page reveals the error or hides the request id", target)
		}
	}
	if len(logged) != 2 {
		t.Errorf("logged %v", logged)
	}
}

func TestAssets(t *testing.T) {
	_, h := newTest(t)
	h2 := h.(*handler)
	for name, ctype := range map[string]string{"style.css": "text/css; charset=utf-8", "live.js": "text/javascript; charset=utf-8"} {
		u := h2.assetURL(name)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("GET", u, nil))
		if rec.Code != 200 || rec.Header().Get("Content-Type") != ctype || !strings.Contains(rec.Header().Get("Cache-Control"), "immutable") || rec.Body.Len() == 0 {
			t.Errorf("GET %s: %d %v", u, rec.Code, rec.Header())
		}
		req := httptest.NewRequest("GET", "/assets/"+name, nil)
		req.Header.Set("If-None-Match", rec.Header().Get("ETag"))
		rec = httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != http.StatusNotModified {
			t.Errorf("GET %s with its ETag: %d", name, rec.Code)
		}
	}
}

func TestHeadAndRedirect(t *testing.T) {
	_, h := newTest(t)
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("HEAD", "/validations/v-valid", nil))
	if rec.Code != 200 || rec.Body.Len() != 0 {
		t.Errorf("HEAD: %d with %d bytes", rec.Code, rec.Body.Len())
	}
	rec = httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "/validations?verdict=valid", nil))
	if rec.Code != http.StatusMovedPermanently || rec.Header().Get("Location") != "/?verdict=valid" {
		t.Errorf("GET /validations: %d %q", rec.Code, rec.Header().Get("Location"))
	}
}

func TestEscaping(t *testing.T) {
	s := fixture(t)
	v, _ := s.Get(t.Context(), "v-valid")
	v.ID = "v-<script>"
	v.Meta.Labels = map[string]string{"x<y": "\"quoted\""}
	v.Program = "kernel k(N)\n# </td><script>alert(1)</script>\n"
	s.put(v)
	h := New(s, Options{})
	for _, target := range []string{"/", "/validations/v-%3Cscript%3E"} {
		code, body, _ := get(t, h, target)
		if code != 200 || strings.Contains(body, "<script>") {
			t.Errorf("GET %s: %d, unescaped", target, code)
		}
	}
}

func TestKernelName(t *testing.T) {
	for src, want := range map[string]string{
		"# c\nkernel blur_wrong_row(W, H)\n": "blur_wrong_row",
		"kernel\tk2 (N)":                     "k2",
		"# kernel not(this)\n":               "",
		"kernels x":                          "",
		"":                                   "",
	} {
		if got := store.KernelName(src); got != want {
			t.Errorf("kernelName(%q) = %q, want %q", src, got, want)
		}
	}
}

func TestMalformedInput(t *testing.T) {
	s := fixture(t)
	v, _ := s.Get(t.Context(), "v-valid")
	v.ID, v.Verdict, v.Reason = "v-malformed", "error", "1 error"
	v.Report = []byte(`{"verdict":"error","reason":"1 error","spec":"matmul.sare","program":"matmul.sched",
		"errors":[{"file":"matmul.sched","line":14,"col":37,"message":"undefined array d","text":"matmul.sched:14:37: undefined array d"},
		          {"file":"elsewhere.sched","line":1,"col":1,"message":"other","text":"elsewhere.sched:1:1: other"}]}`)
	s.put(v)
	h := New(s, Options{})
	_, _, doc := get(t, h, "/validations/v-malformed")
	l := byID(doc, "L14")
	if attr(l, "class") != "line error" {
		t.Errorf("line 14 class %q", attr(l, "class"))
	}
	if n := nextElement(l); n == nil || text(n) != "14:37: undefined array d" {
		t.Errorf("the error does not follow its line")
	}
	if e := findAll(doc, hasClass("errors")); len(e) != 1 || text(e[0]) != "elsewhere.sched:1:1: other" {
		t.Errorf("the unplaced error is not listed: %q", texts(e))
	}
}

// A validation's page offers its sources, reports and SMT-LIB2 scripts in
// one archive, under the submission's own file names.
func TestArchiveAndReportText(t *testing.T) {
	_, h := newTest(t)
	_, _, doc := get(t, h, "/validations/v-invalid")
	links := findAll(doc, func(n *html.Node) bool { return attr(n, "href") == "/validations/v-invalid/archive.zip" })
	if len(links) != 1 {
		t.Fatalf("no archive link")
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "/validations/v-invalid/archive.zip", nil))
	if rec.Code != 200 || rec.Header().Get("Content-Type") != "application/zip" {
		t.Fatalf("archive: %d %s", rec.Code, rec.Header().Get("Content-Type"))
	}
	zr, err := zip.NewReader(bytes.NewReader(rec.Body.Bytes()), int64(rec.Body.Len()))
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]string{}
	for _, f := range zr.File {
		rc, _ := f.Open()
		data, _ := io.ReadAll(rc)
		rc.Close()
		names[f.Name] = string(data)
	}
	dir := "augur-v-invalid/"
	if !strings.Contains(names[dir+"blur.sare"], "Out(x, y)") || !strings.Contains(names[dir+"broken_wrong_row.sched"], "kernel") ||
		!strings.HasPrefix(names[dir+"report.txt"], "INVALID: annotation mismatch") || !strings.Contains(names[dir+"report.json"], `"verdict": "invalid"`) {
		t.Errorf("archive files: %q", keys(names))
	}
	// The reports name the files as the archive holds them: the reproduce
	// line runs in its directory.
	const reproduce = "augur run blur.sare broken_wrong_row.sched --param W=3 --param H=1"
	if !strings.Contains(names[dir+"report.txt"], "reproduce:   "+reproduce+"\n") ||
		!strings.Contains(names[dir+"report.txt"], "broken_wrong_row.sched:17:9") {
		t.Errorf("the archive's report.txt does not use the archive's paths:\n%s", names[dir+"report.txt"])
	}
	if !strings.Contains(names[dir+"report.json"], `"command": "`+reproduce+`"`) {
		t.Errorf("the archive's report.json does not use the archive's paths:\n%s", names[dir+"report.json"])
	}
	for n, data := range names {
		if strings.Contains(data, "examples/blur/") {
			t.Errorf("the archive's %s names a file by its path outside the archive", n)
		}
	}
	smt := 0
	for n, data := range names {
		if strings.HasPrefix(n, dir+"conditions/C") && strings.HasSuffix(n, ".smt2") {
			smt++
			if !strings.Contains(data, "(check-sat)") {
				t.Errorf("%s is no SMT-LIB2 script", n)
			}
		}
	}
	// The scripts the report keeps: C6 and C12 reached the solver.
	if smt != 2 || names[dir+"conditions/C6.smt2"] == "" || names[dir+"conditions/C12.smt2"] == "" {
		t.Errorf("SMT-LIB2 scripts in the archive: %q", keys(names))
	}
	rec = httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "/validations/v-invalid/report.txt", nil))
	code, body := rec.Code, rec.Body.String()
	if code != 200 || !strings.HasPrefix(body, "INVALID: annotation mismatch") || !strings.Contains(body, "examples/blur/broken_wrong_row.sched:17:9") {
		t.Errorf("report.txt: %d %.300s", code, body)
	}
	if code, _, _ := get(t, h, "/validations/nope/archive.zip"); code != http.StatusNotFound {
		t.Errorf("archive of nothing: %d", code)
	}
}

// The commit and the CI run link back to their pages when known.
func TestCILinks(t *testing.T) {
	for _, c := range []struct {
		meta       store.Meta
		commit, ci string
	}{
		{store.Meta{Repository: "github.com/acme/kernels", Commit: "abc"}, "https://github.com/acme/kernels/commit/abc", ""},
		{store.Meta{Repository: "https://gitlab.com/g/r.git", Commit: "abc"}, "https://gitlab.com/g/r/-/commit/abc", ""},
		{store.Meta{Repository: "acme/kernels", Commit: "abc", Labels: map[string]string{
			"commit_url": "https://ghe.example/acme/kernels/commit/abc", "ci_url": "https://ghe.example/acme/kernels/actions/runs/7"}},
			"https://ghe.example/acme/kernels/commit/abc", "https://ghe.example/acme/kernels/actions/runs/7"},
		{store.Meta{Repository: "acme/kernels", Commit: "abc", Labels: map[string]string{"ci_url": "javascript:alert(1)"}}, "", ""},
	} {
		rows := metadata(&store.Validation{Meta: c.meta})
		got := map[string]string{}
		for _, r := range rows {
			got[r.Key] = r.URL
		}
		if got["Commit page"] != c.commit || got["CI run"] != c.ci {
			t.Errorf("%+v: commit %q, CI %q", c.meta, got["Commit page"], got["CI run"])
		}
	}
}

func keys(m map[string]string) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

// TestValidLongAssumptions checks that a valid verdict whose domain is too
// long for its sentence (validate.Report.LongAssumptions) names it there
// and shows it whole, folded, under it.
func TestValidLongAssumptions(t *testing.T) {
	s, h := newTest(t)
	long := strings.Repeat("N >= 1 and M >= 1 and P >= 0; ", 20)
	for _, v := range s.vs {
		if v.ID != "v-valid" {
			continue
		}
		var rep validate.Report
		if err := json.Unmarshal(v.Report, &rep); err != nil {
			t.Fatal(err)
		}
		rep.Assumptions, rep.AssumptionPieces = long, 20
		b, err := json.Marshal(&rep)
		if err != nil {
			t.Fatal(err)
		}
		v.Report = b
	}
	_, _, doc := get(t, h, "/validations/v-valid")
	if r := text(findAll(doc, hasClass("reason"))[0]); r != "matmul.sched computes its specification matmul.sare whenever its assumptions hold (below)." {
		t.Errorf("reason %q", r)
	}
	det := findAll(doc, hasClass("assumptions"))
	if len(det) != 1 || hasAttr(det[0], "open") || !strings.HasPrefix(text(det[0]), "The assumptions, 20 cases over the parameters") ||
		!strings.Contains(text(det[0]), strings.TrimSpace(long)) {
		t.Errorf("the assumptions are not shown folded under the verdict")
	}
}
