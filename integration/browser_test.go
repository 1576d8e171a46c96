package integration

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/augur-verify/augur/internal/browsertest"

	"github.com/augur-verify/augur/api"
	"github.com/augur-verify/augur/store"
	"github.com/augur-verify/augur/web"
)

// service is the whole service in the test's process: the API with the
// dashboard over a real SQLite store, and in-process workers running the
// real verifier.
type service struct {
	URL    string
	Store  store.Store
	Client *http.Client
}

func startService(t testing.TB, workers int, opts ...store.Option) *service {
	t.Helper()
	ctx := context.Background()
	st, err := store.Open(ctx, "sqlite:"+filepath.Join(t.TempDir(), "augur.db"), opts...)
	if err != nil {
		t.Fatal(err)
	}
	h := api.New(api.Config{Store: st, Key: store.Key, Web: web.New(st, web.Options{})})
	srv := httptest.NewServer(h)
	wctx, stop := context.WithCancel(ctx)
	worked := make(chan error, 1)
	go func() {
		worked <- st.Work(wctx, workers, 5*time.Second, api.Runner(api.RunnerOptions{Budget: time.Minute}))
	}()
	t.Cleanup(func() {
		srv.Close()
		stop()
		if err := <-worked; err != nil {
			t.Errorf("work: %v", err)
		}
		st.Close()
	})
	return &service{URL: srv.URL, Store: st, Client: &http.Client{Timeout: 2 * time.Minute}}
}

// chromium, browser and eval: see package browsertest; chromium also
// skips t in -short runs, since a browser test is not short.
func chromium(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("the browser test is not short")
	}
	return browsertest.Chromium(t)
}

func browser(t *testing.T) context.Context { t.Helper(); return browsertest.Browser(t) }

func eval[T any](t *testing.T, ctx context.Context, expr string) T {
	t.Helper()
	return browsertest.Eval[T](t, ctx, expr)
}

// TestDashboardBrowser submits a valid and an invalid kernel through the
// API (the real verifier decides), then drives the dashboard in headless
// Chromium: the list shows both verdicts, and a click leads to the failing
// validation's page, where the failing statement is highlighted.
func TestDashboardBrowser(t *testing.T) {
	chromium(t)
	pairs := loadPairs(t)
	svc := startService(t, 2, store.WithFetchPollInterval(50*time.Millisecond))
	find := func(program string) pair {
		for _, p := range pairs {
			if p.program == program {
				return p
			}
		}
		t.Fatalf("no pair %s", program)
		return pair{}
	}
	ids := map[string]string{}
	for _, p := range []pair{find("examples/matmul/matmul.sched"), find("examples/blur/broken_wrong_row.sched")} {
		sub := p.submission(store.Meta{Repository: "integration/browser", Branch: "main"})
		v, code, err := submit(svc.Client, svc.URL, "?wait=60s", sub)
		if err != nil {
			t.Fatal(err)
		}
		if code != http.StatusOK || v.Status != store.Done || v.Verdict != p.verdict {
			t.Fatalf("%s: %d, status %s, verdict %q (%s), want 200, done, %s", p.program, code, v.Status, v.Verdict, v.Reason, p.verdict)
		}
		ids[p.verdict] = v.ID
	}

	ctx := browser(t)
	if err := chromedp.Do(ctx,
		chromedp.Navigate(svc.URL+"/"),
		chromedp.WaitVisible(chromedp.CSS("table.validations")),
	); err != nil {
		t.Fatal(err)
	}
	// The badge of each validation's row, by the link to its page.
	badges := eval[map[string]string](t, ctx, `Object.fromEntries(Array.from(document.querySelectorAll("table.validations tbody tr")).map(r =>
		[r.querySelector("a[href^='/validations/']").getAttribute("href"), r.querySelector(".badge").innerText.trim()]))`)
	if len(badges) != 2 {
		t.Errorf("the list shows %d validations, want 2: %q", len(badges), badges)
	}
	for verdict, mark := range map[string]string{"valid": "✓ valid", "invalid": "✗ invalid"} {
		if got := badges["/validations/"+ids[verdict]]; got != mark {
			t.Errorf("the %s validation's badge reads %q, want %q (list: %q)", verdict, got, mark, badges)
		}
	}

	// Click through to the failing validation.
	link := `table.validations a[href="/validations/` + ids["invalid"] + `"]`
	if err := chromedp.Do(ctx,
		chromedp.Click(chromedp.CSS(link), chromedp.NodeVisible),
		chromedp.WaitVisible(chromedp.CSS(".source tr.failed")),
	); err != nil {
		t.Fatal(err)
	}
	if u := eval[string](t, ctx, `location.href`); u != svc.URL+"/validations/"+ids["invalid"] {
		t.Errorf("the click led to %s", u)
	}
	if h1 := eval[string](t, ctx, `document.querySelector("h1").innerText`); !strings.Contains(h1, "✗ invalid") {
		t.Errorf("the page's heading %q lacks the verdict ✗ invalid", h1)
	}
	var failed struct {
		N          int    `json:"n"`
		ID         string `json:"id"`
		Text       string `json:"text"`
		Background string `json:"background"`
		CX         string `json:"cx"`
	}
	raw := eval[json.RawMessage](t, ctx, `(() => {
		const all = document.querySelectorAll(".failed"), f = all[0];
		return {n: all.length, id: f.id, text: f.innerText, background: getComputedStyle(f).backgroundColor,
			cx: f.nextElementSibling && f.nextElementSibling.classList.contains("cx-row") ? f.nextElementSibling.innerText : ""};
	})()`)
	if err := json.Unmarshal(raw, &failed); err != nil {
		t.Fatal(err)
	}
	const stmt = "output[x, y] {Out(x, y)} := (bh[x, 0] + bh[x, 1] + bh[x, 1]) / 9"
	if failed.N != 1 || failed.ID != "L17" || !strings.Contains(failed.Text, stmt) {
		t.Errorf("%d elements of class failed; the first, %s, reads %q; want one, L17, reading %q", failed.N, failed.ID, failed.Text, stmt)
	}
	if failed.Background == "rgba(0, 0, 0, 0)" || failed.Background == "" {
		t.Errorf("the failing statement is not highlighted (background %q)", failed.Background)
	}
	if !strings.Contains(failed.CX, "augur run examples/blur/blur.sare examples/blur/broken_wrong_row.sched") {
		t.Errorf("no counterexample under the failing statement:\n%s", failed.CX)
	}
}
