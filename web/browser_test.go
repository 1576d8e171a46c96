package web

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/augur-verify/augur/internal/browsertest"
)

// browser and eval: see package browsertest; browser also skips t in
// -short runs, since a browser test is not short.
func browser(t *testing.T) context.Context {
	t.Helper()
	if testing.Short() {
		t.Skip("the browser test is not short")
	}
	return browsertest.Browser(t)
}

func eval[T any](t *testing.T, ctx context.Context, expr string) T {
	t.Helper()
	return browsertest.Eval[T](t, ctx, expr)
}

// TestBrowser drives the dashboard in headless Chromium: the list with a
// valid and an invalid validation (the reports of augur validate), then a
// click through to the invalid one, whose failing statement is
// highlighted with its counterexample.
func TestBrowser(t *testing.T) {
	ctx := browser(t)
	s := fixture(t)
	srv := httptest.NewServer(New(s, Options{}))
	defer srv.Close()

	if err := chromedp.Do(ctx,
		chromedp.Navigate(srv.URL+"/"),
		chromedp.WaitVisible(chromedp.CSS("table.validations")),
	); err != nil {
		t.Fatal(err)
	}
	badges := eval[[]string](t, ctx, `Array.from(document.querySelectorAll("table.validations tbody tr")).map(r => r.querySelector("th a").textContent + ": " + r.querySelector(".badge").innerText.trim())`)
	for _, want := range []string{"blur_wrong_row: ✗ invalid", "matmul: ✓ valid"} {
		if !slices.Contains(badges, want) {
			t.Errorf("the list's badges %q lack %q", badges, want)
		}
	}

	// Click through to the invalid one.
	if err := chromedp.Do(ctx,
		chromedp.Click(chromedp.CSS(`table.validations a[href="/validations/v-invalid"]`), chromedp.NodeVisible),
		chromedp.WaitVisible(chromedp.CSS(".source tr.failed")),
	); err != nil {
		t.Fatal(err)
	}
	if u := eval[string](t, ctx, `location.href`); u != srv.URL+"/validations/v-invalid" {
		t.Errorf("the click led to %s", u)
	}
	if h1 := eval[string](t, ctx, `document.querySelector("h1").innerText`); !strings.Contains(h1, "✗ invalid") || !strings.Contains(h1, "blur_wrong_row") {
		t.Errorf("h1 %q", h1)
	}
	type failed struct {
		N          int    `json:"n"`
		ID         string `json:"id"`
		Text       string `json:"text"`
		Label      string `json:"label"`
		Background string `json:"background"`
		CX         string `json:"cx"`
	}
	f := eval[failed](t, ctx, `(() => {
		const all = document.querySelectorAll(".failed"), f = all[0];
		return {n: all.length, id: f.id, text: f.innerText, label: f.getAttribute("aria-label"),
			background: getComputedStyle(f).backgroundColor,
			cx: f.nextElementSibling.classList.contains("cx-row") ? f.nextElementSibling.innerText : ""};
	})()`)
	if f.N != 1 || f.ID != "L17" || !strings.Contains(f.Text, failingStmt) {
		t.Errorf("%d elements of class failed; the first, %s, reads %q", f.N, f.ID, f.Text)
	}
	if !strings.HasPrefix(f.Label, "line 17, failed") {
		t.Errorf("aria-label %q", f.Label)
	}
	if f.Background == "rgba(0, 0, 0, 0)" || f.Background == "" {
		t.Errorf("the failing line is not highlighted (background %q): the style sheet did not load", f.Background)
	}
	for _, want := range []string{"W=3, H=1", "0.19444445", "0.6527778", "augur run examples/blur/blur.sare examples/blur/broken_wrong_row.sched --param W=3 --param H=1"} {
		if !strings.Contains(f.CX, want) {
			t.Errorf("the counterexample under the failing line lacks %q:\n%s", want, f.CX)
		}
	}

	// Next to it, where its numbers come from; the equation's link leads
	// to its line in the specification.
	for _, want := range []string{"Where the numbers come from", "Out(x, y) = (BH(x, y) + BH(x, y + 1) + BH(x, y + 2)) / 9",
		"BH(2, 2) = 0.25", "BH(2, 1) = 4.375", "In(4, 1) = 2.125"} {
		if !strings.Contains(f.CX, want) {
			t.Errorf("the explanation under the failing line lacks %q:\n%s", want, f.CX)
		}
	}
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`#explanation a[href="#S12"]`), chromedp.NodeVisible)); err != nil {
		t.Fatal(err)
	}
	waitFor(t, ctx, `location.hash == "#S12"`)
	if vis := eval[string](t, ctx, `(() => { const r = document.getElementById("S12").getBoundingClientRect(); return r.height > 0 && r.bottom > 0 && r.top < innerHeight ? "" : JSON.stringify([r.top, r.height, innerHeight, scrollY]); })()`); vis != "" {
		t.Errorf("the specification's line 12 is not in view after the equation's link: %s", vis)
	}

	// The valid one: every assignment proved, nothing failed.
	if err := chromedp.Do(ctx,
		chromedp.Navigate(srv.URL+"/validations/v-valid"),
		chromedp.WaitVisible(chromedp.CSS(".source")),
	); err != nil {
		t.Fatal(err)
	}
	marks := eval[[]string](t, ctx, `Array.from(document.querySelectorAll(".source tr.line")).filter(r => r.textContent.includes(":=")).map(r => r.className)`)
	if !slices.Equal(marks, []string{"line proved", "line proved"}) {
		t.Errorf("the valid kernel's assignments are marked %q", marks)
	}
	if n := eval[int](t, ctx, `document.querySelectorAll(".failed").length`); n != 0 {
		t.Errorf("%d failed elements on the valid kernel's page", n)
	}
}

// TestBrowserLiveProgress checks live.js: a running validation's page
// shows the progress events of the API's event stream and reloads at
// "done", showing the verdict.
func TestBrowserLiveProgress(t *testing.T) {
	ctx := browser(t)
	s := fixture(t)
	finish := make(chan struct{})
	mux := http.NewServeMux()
	mux.Handle("/", New(s, Options{}))
	// A stand-in for the API's event stream.
	mux.HandleFunc("GET /v1/validations/{id}/events", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.Header().Set("Cache-Control", "no-cache")
		fmt.Fprint(w, "event: progress\ndata: {\"phase\":\"solve\",\"done\":7,\"total\":12}\n\n")
		w.(http.Flusher).Flush()
		select {
		case <-finish:
		case <-r.Context().Done():
			return
		}
		v, _ := s.Get(r.Context(), "v-valid")
		v.ID = "v-running"
		s.put(v)
		fmt.Fprint(w, "event: done\ndata: {}\n\n")
		w.(http.Flusher).Flush()
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()

	if err := chromedp.Do(ctx,
		chromedp.Navigate(srv.URL+"/validations/v-running"),
		chromedp.WaitVisible(chromedp.CSS("[data-events]")),
	); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`document.querySelector("[data-progress-text]").textContent === "solve: 7 of 12" && document.querySelector("progress").value === 7`, chromedp.WithPollingTimeout(20*time.Second))); err != nil {
		t.Fatalf("waiting for the progress event: %v (the page shows %q)", err, eval[string](t, ctx, `document.querySelector("[data-events]").innerText`))
	}
	close(finish)
	if err := chromedp.Do(ctx, chromedp.WaitVisible(chromedp.CSS("h1 .badge-valid"))); err != nil {
		t.Fatalf("waiting for the reload at done: %v", err)
	}
	if h1 := eval[string](t, ctx, `document.querySelector("h1").innerText`); !strings.Contains(h1, "valid") {
		t.Errorf("after done, h1 %q", h1)
	}
}

// waitFor waits until the JavaScript condition holds in the page (an
// evaluation that fails while a page loads counts as false).
func waitFor(t *testing.T, ctx context.Context, cond string) {
	t.Helper()
	for start := time.Now(); ; time.Sleep(50 * time.Millisecond) {
		if ok, err := chromedp.Run(ctx, chromedp.Evaluate[bool](cond)); err == nil && ok {
			return
		}
		if time.Since(start) > 20*time.Second {
			t.Fatalf("still not %s", cond)
		}
	}
}

// TestBrowserListFeatures drives the list's new features in headless
// Chromium: searching by file name through the form, the duration column
// with its "cached" marker, the pages back and forth, and the download
// links of a validation's page.
func TestBrowserListFeatures(t *testing.T) {
	ctx := browser(t)
	_, h := newTest(t)
	srv := httptest.NewServer(h)
	defer srv.Close()

	// Search "wrong_row" through the form.
	if err := chromedp.Do(ctx,
		chromedp.Navigate(srv.URL+"/"),
		chromedp.WaitVisible(chromedp.CSS("input#f-name")),
		chromedp.SendKeys(chromedp.CSS("input#f-name"), "wrong_row"),
		chromedp.Submit(chromedp.CSS("form.filters")),
	); err != nil {
		t.Fatal(err)
	}
	waitFor(t, ctx, `location.search.includes("name=wrong_row") && document.readyState == "complete" && !!document.querySelector("table.validations")`)
	rows := eval[[]string](t, ctx, `Array.from(document.querySelectorAll("table.validations tbody tr th a")).map(a => a.getAttribute("href"))`)
	if len(rows) != 1 || rows[0] != "/validations/v-invalid" || !strings.Contains(eval[string](t, ctx, `location.search`), "name=wrong_row") {
		t.Errorf("searching wrong_row shows %q", rows)
	}

	// The date filter: from the day of the newest ones, through the form.
	if err := chromedp.Do(ctx,
		chromedp.Navigate(srv.URL+"/"),
		chromedp.WaitVisible(chromedp.CSS("input#f-since")),
		chromedp.SetValue(chromedp.CSS("input#f-since"), "2026-11-22"),
		chromedp.SetValue(chromedp.CSS("input#f-until"), "2026-11-22"),
		chromedp.Submit(chromedp.CSS("form.filters")),
	); err != nil {
		t.Fatal(err)
	}
	waitFor(t, ctx, `location.search.includes("since=2026-11-22") && document.readyState == "complete" && !!document.querySelector("table.validations")`)
	dated := eval[[]string](t, ctx, `Array.from(document.querySelectorAll("table.validations tbody tr th a")).map(a => a.getAttribute("href"))`)
	if !slices.Contains(dated, "/validations/v-invalid") || slices.Contains(dated, "/validations/v-unknown") {
		t.Errorf("submitted on 2026-11-22: %q (v-unknown is of the 21st)", dated)
	}

	// The durations, and the cached marker in their column.
	if err := chromedp.Do(ctx, chromedp.Navigate(srv.URL+"/"), chromedp.WaitVisible(chromedp.CSS("table.validations"))); err != nil {
		t.Fatal(err)
	}
	cells := eval[map[string]string](t, ctx, `Object.fromEntries(Array.from(document.querySelectorAll("table.validations tbody tr")).map(r =>
		[r.querySelector("th a").getAttribute("href"), r.querySelector("td.duration").innerText.trim()]))`)
	if cells["/validations/v-valid"] != "cached" || !strings.HasSuffix(cells["/validations/v-invalid"], " s") {
		t.Errorf("durations %q", cells)
	}

	// One validation a page: next twice, then previous twice.
	if err := chromedp.Do(ctx, chromedp.Navigate(srv.URL+"/?limit=1"), chromedp.WaitVisible(chromedp.CSS("table.validations"))); err != nil {
		t.Fatal(err)
	}
	first := eval[string](t, ctx, `document.querySelector("table.validations tbody th a").getAttribute("href")`)
	for i, rel := range []string{"next", "next", "prev", "prev"} {
		want := eval[string](t, ctx, `document.querySelector('nav.pager a[rel="`+rel+`"]').href`)
		if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`nav.pager a[rel="`+rel+`"]`), chromedp.NodeVisible)); err != nil {
			t.Fatalf("%d %s: %v", i, rel, err)
		}
		waitFor(t, ctx, `location.href == `+strconv.Quote(want)+` && document.readyState == "complete" && !!document.querySelector("table.validations")`)
	}
	if got := eval[string](t, ctx, `document.querySelector("table.validations tbody th a").getAttribute("href")`); got != first {
		t.Errorf("next, next, previous, previous leads to %s, want %s", got, first)
	}

	// A validation's downloads.
	if err := chromedp.Do(ctx, chromedp.Navigate(srv.URL+"/validations/v-invalid"), chromedp.WaitVisible(chromedp.CSS("ul.downloads"))); err != nil {
		t.Fatal(err)
	}
	status := func(u string) int {
		n, err := chromedp.Run(ctx, chromedp.Evaluate[int](`fetch("`+u+`").then(r => r.status)`, chromedp.EvalAwaitPromise))
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	for _, u := range eval[[]string](t, ctx, `Array.from(document.querySelectorAll("ul.downloads a")).map(a => a.getAttribute("href"))`) {
		if n := status(u); n != 200 {
			t.Errorf("download %s: %d", u, n)
		}
	}
	// The link back to the commit on its forge.
	if links := eval[[]string](t, ctx, `Array.from(document.querySelectorAll("dl.meta a")).map(a => a.href)`); !slices.Contains(links, "https://github.com/acme/kernels/commit/0123456789abcdef0123") {
		t.Errorf("no link back to the commit among %q", links)
	}
}

// TestBrowserButtons presses the Cancel button of a queued validation and
// the Re-run button of a finished one in headless Chromium.
func TestBrowserButtons(t *testing.T) {
	ctx := browser(t)
	s, h := newTest(t)
	srv := httptest.NewServer(h)
	defer srv.Close()

	if err := chromedp.Do(ctx,
		chromedp.Navigate(srv.URL+"/validations/v-queued"),
		chromedp.WaitVisible(chromedp.CSS("button.cancel")),
		chromedp.Click(chromedp.CSS("button.cancel"), chromedp.NodeVisible),
	); err != nil {
		t.Fatal(err)
	}
	waitFor(t, ctx, `document.readyState == "complete" && !!document.querySelector(".badge-cancelled")`)
	if v, _ := s.Get(context.Background(), "v-queued"); v.Status != "cancelled" {
		t.Errorf("after Cancel: %s", v.Status)
	}
	if n := eval[int](t, ctx, `document.querySelectorAll("button.cancel").length`); n != 0 {
		t.Errorf("a cancelled validation still has a Cancel button")
	}

	// The cancelled one can be run again: a new validation, queued.
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS("button.rerun"), chromedp.NodeVisible)); err != nil {
		t.Fatal(err)
	}
	waitFor(t, ctx, `location.pathname.startsWith("/validations/v-new") && document.readyState == "complete" && !!document.querySelector(".badge-queued")`)
	id := strings.TrimPrefix(eval[string](t, ctx, `location.pathname`), "/validations/")
	nv, err := s.Get(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	if old, _ := s.Get(context.Background(), "v-queued"); nv.Program != old.Program || nv.ProgramName != old.ProgramName || nv.Meta.Commit != old.Meta.Commit {
		t.Errorf("Re-run submitted %s of %s, want %s's pair", nv.ProgramName, nv.Meta.Commit, old.ID)
	}
}

// TestBrowserChanges shows, in headless Chromium, what changed since the
// kernel's previous validation on its branch, and follows a changed
// statement to its line.
func TestBrowserChanges(t *testing.T) {
	ctx := browser(t)
	s, h := newTest(t)
	addHistory(t, s)
	srv := httptest.NewServer(h)
	defer srv.Close()
	if err := chromedp.Do(ctx,
		chromedp.Navigate(srv.URL+"/validations/v-invalid"),
		chromedp.WaitVisible(chromedp.CSS("section.changes")),
	); err != nil {
		t.Fatal(err)
	}
	rows := eval[[]string](t, ctx, `Array.from(document.querySelectorAll("table.changes tbody tr")).map(r => Array.from(r.cells).map(c => c.innerText.trim()).join(" | "))`)
	want := []string{"17 | " + failingStmt + " | ✓ proved | ✗ failed", " | old[x] {Old(x)} := 1 | ✗ failed | gone"}
	if !slices.Equal(rows, want) {
		t.Errorf("changed statements %q, want %q", rows, want)
	}
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`table.changes a[href="#L17"]`), chromedp.NodeVisible)); err != nil {
		t.Fatal(err)
	}
	waitFor(t, ctx, `location.hash == "#L17"`)
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`section.changes a[href="/validations/v-prev"]`), chromedp.NodeVisible)); err != nil {
		t.Fatal(err)
	}
	waitFor(t, ctx, `location.pathname == "/validations/v-prev" && document.readyState == "complete"`)
	if got := eval[string](t, ctx, `document.querySelector("section.changes p").innerText`); !strings.Contains(got, "v-older") || !strings.Contains(got, "No statement changed") {
		t.Errorf("v-prev's comparison: %q", got)
	}
}
