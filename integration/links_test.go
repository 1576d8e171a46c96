package integration

import (
	"context"
	"encoding/json"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/augur-verify/augur/store"
)

// TestDashboardLinksBrowser validates a kernel through the API (the real
// verifier decides) and opens its page in headless Chromium: a condition
// proved by the solver shows its formula and the solver's time, one
// proved without the solver links to no script, no link of the page
// answers 404, and the icon loads.
func TestDashboardLinksBrowser(t *testing.T) {
	chromium(t)
	p := readPairs(t, []pair{{spec: "examples/blur/blur.sare", program: "examples/blur/broken_wrong_row.sched", verdict: "invalid"}})[0]
	svc := startService(t, 1, store.WithFetchPollInterval(50*time.Millisecond))
	v, code, err := submit(svc.Client, svc.URL, "?wait=60s", p.submission(store.Meta{Repository: "integration/links", Branch: "main", Commit: "0123abcd", Labels: map[string]string{"team": "imaging"}}))
	if err != nil {
		t.Fatal(err)
	}
	if code != http.StatusOK || v.Verdict != p.verdict {
		t.Fatalf("%s: %d, verdict %q (%s), want %s", p.program, code, v.Verdict, v.Reason, p.verdict)
	}

	ctx := browser(t)
	if err := chromedp.Do(ctx,
		chromedp.Navigate(svc.URL+"/validations/"+v.ID),
		chromedp.WaitVisible(chromedp.CSS("table.conditions")),
	); err != nil {
		t.Fatal(err)
	}

	// C6 is proved by z3, C14 syntactically (its two sides the same
	// expression).
	type row struct {
		Status  string `json:"status"`
		Formula string `json:"formula"`
		Solver  string `json:"solver"`
		Time    string `json:"time"`
		SMT     string `json:"smt"`
	}
	rows := eval[map[string]row](t, ctx, `Object.fromEntries(["C6", "C14"].map(id => {
		const cells = document.getElementById(id).querySelectorAll("td"), link = cells[6].querySelector("a");
		return [id, {status: cells[2].innerText.trim(), formula: cells[3].querySelector("code.formula") ? cells[3].innerText : "",
			solver: cells[4].innerText, time: cells[5].innerText.trim(), smt: link ? link.href : ""}];
	}))`)
	solverTime := regexp.MustCompile(`^[0-9]+ (µs|ms)$|^[0-9]+\.[0-9]{2} s$`)
	if c6 := rows["C6"]; !strings.Contains(c6.Status, "proved") || !strings.HasPrefix(c6.Solver, "z3") ||
		!solverTime.MatchString(c6.Time) || !strings.Contains(c6.Formula, " = BH(") || !strings.HasSuffix(c6.SMT, "/conditions/6.smt2") {
		t.Errorf("C6, proved by z3, reads %+v: want its formula, the solver's time and its script", c6)
	}
	if c14 := rows["C14"]; !strings.Contains(c14.Status, "proved") || c14.Solver != "syntactic" || c14.Time != "–" ||
		!strings.HasPrefix(c14.Formula, "Out(s1, s2) = Out(s1, s2)") || c14.SMT != "" {
		t.Errorf("C14, proved syntactically, reads %+v: want its formula, no time and no script", c14)
	}

	// Every link of the page on this site answers, none 404.
	raw := evalAwait[json.RawMessage](t, ctx, `(async () => {
		const urls = [...new Set(Array.from(document.querySelectorAll("a[href], link[href]"))
			.map(a => new URL(a.href)).filter(u => u.origin == location.origin).map(u => u.origin + u.pathname + u.search))];
		return await Promise.all(urls.map(u => fetch(u).then(r => [u, r.status])));
	})()`)
	var statuses [][2]any
	if err := json.Unmarshal(raw, &statuses); err != nil {
		t.Fatal(err)
	}
	t.Logf("%d links checked: %v", len(statuses), statuses)
	if len(statuses) < 10 {
		t.Errorf("only %d links on the page: %v", len(statuses), statuses)
	}
	smt := 0
	for _, s := range statuses {
		u, status := s[0].(string), s[1].(float64)
		if status == 404 || status >= 500 {
			t.Errorf("the page links to %s, which answers %v", u, status)
		}
		if strings.HasSuffix(u, ".smt2") {
			smt++
		}
	}
	if smt != 2 {
		t.Errorf("%d links to SMT-LIB2 scripts, want 2 (C6 and C12)", smt)
	}

	// The icon: the SVG the page names, and /favicon.ico, both images.
	icons := evalAwait[map[string]int](t, ctx, `(async () => {
		const load = src => new Promise(done => { const i = new Image(); i.onload = () => done(i.naturalWidth); i.onerror = () => done(-1); i.src = src; });
		const svg = document.querySelector("link[rel=icon][type='image/svg+xml']");
		return {svg: svg ? await load(svg.href) : -2, ico: await load("/favicon.ico")};
	})()`)
	if icons["svg"] <= 0 || icons["ico"] != 32 {
		t.Errorf("the icons load with widths %v, want a positive width for the SVG and 32 for /favicon.ico", icons)
	}
}

// evalAwait evaluates a JavaScript expression whose value is a promise in
// the page, and returns what the promise resolves to.
func evalAwait[T any](t *testing.T, ctx context.Context, expr string) T {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("evaluating %s: %v", expr, err)
	}
	return v
}
