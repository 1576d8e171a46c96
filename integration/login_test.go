package integration

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/augur-verify/augur/api"
	"github.com/augur-verify/augur/store"
	"github.com/augur-verify/augur/web"
)

// With --read-token the dashboard is closed until a login: in headless
// Chromium, the list and a validation's page lead to the login form, a
// wrong token is refused, the right one opens them (the page's live API
// calls included), no script can read the token, and the header's Log
// out button closes them again.
func TestDashboardLoginBrowser(t *testing.T) {
	chromium(t)
	ctx := context.Background()
	st, err := store.Open(ctx, "sqlite:"+filepath.Join(t.TempDir(), "augur.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	const token = "s3cret-token"
	srv := httptest.NewServer(api.New(api.Config{Store: st, Tokens: []string{token}, ReadToken: true, Web: web.New(st, web.Options{})}))
	// Closed after the browser (cleanups run last in, first out): the
	// event stream of the validation's page would hold the server's Close
	// until its requests time out.
	t.Cleanup(srv.Close)

	// A queued validation (no workers): its page opens an event stream.
	p := loadPairs(t)[0]
	body, _ := json.Marshal(p.submission(store.Meta{}))
	req, _ := http.NewRequest("POST", srv.URL+"/v1/validations", bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var v validation
	json.NewDecoder(resp.Body).Decode(&v)
	resp.Body.Close()
	if v.ID == "" {
		t.Fatalf("submission: %d", resp.StatusCode)
	}

	b := browser(t)
	page := "/validations/" + v.ID
	if err := chromedp.Do(b, chromedp.Navigate(srv.URL+page), chromedp.WaitVisible(chromedp.CSS("input#token"))); err != nil {
		t.Fatal(err)
	}
	if u := eval[string](t, b, `location.pathname + location.search`); !strings.HasPrefix(u, "/login?next=") {
		t.Errorf("the closed page led to %s", u)
	}
	if html := eval[string](t, b, `document.body.innerText`); strings.Contains(html, p.program) {
		t.Errorf("the login page shows the kernel's name")
	}
	// A wrong token, then the right one.
	if err := chromedp.Do(b,
		chromedp.SendKeys(chromedp.CSS("input#token"), "wrong"),
		chromedp.Submit(chromedp.CSS("form")),
		chromedp.WaitVisible(chromedp.CSS(".error")),
	); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(b,
		chromedp.SendKeys(chromedp.CSS("input#token"), token),
		chromedp.Submit(chromedp.CSS("form")),
		chromedp.WaitVisible(chromedp.CSS("h1")),
	); err != nil {
		t.Fatal(err)
	}
	waitUntil(t, 10*time.Second, 100*time.Millisecond, "the browser at "+page+" after the login", func() bool {
		return eval[string](t, b, `location.pathname`) == page
	})
	if src := eval[string](t, b, `document.body.innerText`); !strings.Contains(src, "out c[i, j]") {
		t.Errorf("the validation's page does not show the kernel:\n%.500s", src)
	}
	// The cookie goes with the page's API calls, and scripts cannot read it.
	if c := eval[string](t, b, `document.cookie`); strings.Contains(c, token) {
		t.Errorf("a script reads the token: %q", c)
	}
	status, err := chromedp.Run(b, chromedp.Evaluate[int](`fetch("/v1/validations/`+v.ID+`", {headers: {Accept: "application/json"}}).then(r => r.status)`,
		chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatal(err)
	}
	if status != 200 {
		t.Errorf("the page's API call: %d", status)
	}
	// The list opens too.
	if err := chromedp.Do(b, chromedp.Navigate(srv.URL+"/"), chromedp.WaitVisible(chromedp.CSS("table.validations"))); err != nil {
		t.Fatal(err)
	}

	// The header's Log out button forgets the login: the browser is back
	// at the login form, and the pages and their API calls are closed.
	if err := chromedp.Do(b,
		chromedp.Click(chromedp.CSS("header form.session button"), chromedp.NodeVisible),
		chromedp.WaitVisible(chromedp.CSS("input#token")),
	); err != nil {
		t.Fatal(err)
	}
	if u := eval[string](t, b, `location.pathname`); u != "/login" {
		t.Errorf("the logout led to %s, want /login", u)
	}
	status, err = chromedp.Run(b, chromedp.Evaluate[int](`fetch("/v1/validations/`+v.ID+`", {headers: {Accept: "application/json"}}).then(r => r.status)`,
		chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatal(err)
	}
	if status != 401 {
		t.Errorf("the API after the logout: %d, want 401", status)
	}
	if err := chromedp.Do(b, chromedp.Navigate(srv.URL+page), chromedp.WaitVisible(chromedp.CSS("input#token"))); err != nil {
		t.Fatal(err)
	}
	if u := eval[string](t, b, `location.pathname`); u != "/login" {
		t.Errorf("the validation's page after the logout led to %s, want the login", u)
	}
}
