package api

import (
	"context"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/augur-verify/augur/api/apitest"
	"github.com/augur-verify/augur/store"
	"github.com/augur-verify/augur/web"
)

// With ReadToken the dashboard asks for a login; the login keeps the token
// in a Secure, HttpOnly, SameSite=Strict cookie that opens the pages and
// the reading API, never the writing one.
func TestDashboardLogin(t *testing.T) {
	dashboard := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("dashboard " + r.URL.Path)) })
	h := newHarness(t, Config{Tokens: []string{"s3cret"}, ReadToken: true, Web: dashboard}, nil)
	nr := noRedirect(nil)
	for _, path := range []string{"/", "/validations/01M81WA400HBRE2AYE63D26F8D?x=1"} {
		resp, err := nr.Get(h.srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/login?next="+url.QueryEscape(path) {
			t.Errorf("GET %s without a login: %d %s", path, resp.StatusCode, resp.Header.Get("Location"))
		}
	}
	get := func(base, path string) (int, string) {
		resp, err := http.Get(base + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		data, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(data)
	}
	if code, body := get(h.srv.URL, "/login"); code != 200 || !strings.Contains(body, `name="token"`) {
		t.Errorf("login form: %d %s", code, body)
	}
	if code, _ := get(h.srv.URL, "/assets/style.css"); code != 200 {
		t.Errorf("assets: %d", code)
	}

	post := func(token, next string) *http.Response {
		resp, err := nr.PostForm(h.srv.URL+"/login", url.Values{"token": {token}, "next": {next}})
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp
	}
	if resp := post("nope", "/"); resp.StatusCode != http.StatusUnauthorized || len(resp.Cookies()) != 0 {
		t.Errorf("a wrong token: %d, cookies %v", resp.StatusCode, resp.Cookies())
	}
	if resp := post("s3cret", "https://elsewhere.example/"); resp.Header.Get("Location") != "/" {
		t.Errorf("the login redirects off the site: %s", resp.Header.Get("Location"))
	}
	resp := post("s3cret", "/validations/x")
	if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/validations/x" || len(resp.Cookies()) != 1 {
		t.Fatalf("login: %d %s %v", resp.StatusCode, resp.Header.Get("Location"), resp.Cookies())
	}
	c := resp.Cookies()[0]
	if c.Name != TokenCookie || !c.Secure || !c.HttpOnly || c.SameSite != http.SameSiteStrictMode || c.Path != "/" {
		t.Errorf("cookie %+v", c)
	}

	// The cookie opens the dashboard and the reading API, not writing.
	client := &http.Client{Jar: jarWith(h.srv.URL, c)}
	for path, want := range map[string]int{"/": 200, "/v1/validations": 200} {
		resp, err := client.Get(h.srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != want {
			t.Errorf("GET %s with the cookie: %d", path, resp.StatusCode)
		}
	}
	resp, err := client.Post(h.srv.URL+"/v1/validations", "application/json", strings.NewReader("{}"))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("POST with the cookie only: %d, want 401", resp.StatusCode)
	}
	// Without ReadToken the dashboard is open.
	open := newHarness(t, Config{Tokens: []string{"s3cret"}, Web: dashboard}, nil)
	if code, body := get(open.srv.URL, "/"); code != 200 || body != "dashboard /" {
		t.Errorf("open dashboard: %d %s", code, body)
	}
}

// The dashboard's buttons (re-run, cancel): anyone's without tokens;
// with tokens, those of a logged-in browser (the login then only grants
// them when the dashboard is open to reading), and never from the API's
// writing endpoints by the cookie alone; rate-limited as writing.
func TestDashboardButtons(t *testing.T) {
	setup := func(cfg Config) (*httptest.Server, string) {
		st := apitest.NewStore()
		v, err := st.Submit(context.Background(), &store.Validation{SpecName: "s.sare", Spec: "s", ProgramName: "k.sched", Program: "kernel k(N)\n"})
		if err != nil {
			t.Fatal(err)
		}
		cfg.Store, cfg.Web = st, web.New(st, web.Options{})
		srv := httptest.NewServer(New(cfg))
		t.Cleanup(srv.Close)
		return srv, "/validations/" + v.ID
	}
	page := func(c *http.Client, u string) string {
		t.Helper()
		resp, err := c.Get(u)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return string(b)
	}
	press := func(c *http.Client, u string) int {
		t.Helper()
		resp, err := c.PostForm(u, nil)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}

	// No tokens: the buttons are anyone's.
	srv, v := setup(Config{})
	c := noRedirect(nil)
	if body := page(c, srv.URL+v); !strings.Contains(body, `action="`+v+`/cancel"`) {
		t.Errorf("no tokens: no Cancel button")
	}
	if code := press(c, srv.URL+v+"/cancel"); code != http.StatusSeeOther {
		t.Errorf("no tokens: cancel %d, want 303", code)
	}
	if code := press(c, srv.URL+v+"/rerun"); code != http.StatusSeeOther {
		t.Errorf("no tokens: re-run %d, want 303", code)
	}

	// Tokens, the dashboard open to reading: a login link instead of the
	// buttons until the login.
	srv, v = setup(Config{Tokens: []string{"s3cret"}, RatePerMinute: 2})
	if body := page(c, srv.URL+v); strings.Contains(body, `action="`+v+`/cancel"`) || !strings.Contains(body, `href="/login?next=`) {
		t.Errorf("tokens, no login: the page shows the buttons or no login link")
	}
	if code := press(c, srv.URL+v+"/cancel"); code != http.StatusForbidden {
		t.Errorf("tokens, no login: cancel %d, want 403", code)
	}
	if body := page(c, srv.URL+"/login"); !strings.Contains(body, "Re-running and cancelling validations needs") {
		t.Errorf("the login page of an open dashboard does not say what the login is for")
	}
	resp, err := c.PostForm(srv.URL+"/login", url.Values{"token": {"s3cret"}, "next": {v}})
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusSeeOther || len(resp.Cookies()) != 1 {
		t.Fatalf("login: %d %v", resp.StatusCode, resp.Cookies())
	}
	cookie := resp.Cookies()[0]
	in := noRedirect(jarWith(srv.URL, cookie))
	if body := page(in, srv.URL+v); !strings.Contains(body, `action="`+v+`/cancel"`) {
		t.Errorf("logged in: no Cancel button")
	}
	if code := press(in, srv.URL+v+"/cancel"); code != http.StatusSeeOther {
		t.Errorf("logged in: cancel %d, want 303", code)
	}
	if code := press(in, srv.URL+v+"/rerun"); code != http.StatusSeeOther {
		t.Errorf("logged in: re-run %d, want 303", code)
	}
	if code := press(in, srv.URL+v+"/rerun"); code != http.StatusTooManyRequests {
		t.Errorf("a third press within the minute at 2 a minute: %d, want 429", code)
	}
	resp, err = in.Post(srv.URL+"/v1/validations/x/cancel", "application/json", nil)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("the API's cancel with the cookie only: %d, want 401", resp.StatusCode)
	}

	// ReadToken: the login opens the pages and the buttons.
	srv, v = setup(Config{Tokens: []string{"s3cret"}, ReadToken: true})
	if code := press(noRedirect(jarWith(srv.URL, cookie)), srv.URL+v+"/cancel"); code != http.StatusSeeOther {
		t.Errorf("read token, logged in: cancel %d, want 303", code)
	}
	if code := press(c, srv.URL+v+"/cancel"); code != http.StatusUnauthorized {
		t.Errorf("read token, no login: cancel %d, want 401", code)
	}
}

// noRedirect returns a client that keeps its cookies in jar (nil: none)
// and follows no redirect.
func noRedirect(jar http.CookieJar) *http.Client {
	return &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
}

// keepCookie puts the login cookie c in jar for the test server at base,
// without its Secure flag: the test server speaks HTTP, and the jar would
// not send it.
func keepCookie(jar http.CookieJar, base string, c *http.Cookie) {
	u, _ := url.Parse(base) // an httptest server's URL
	plain := *c
	plain.Secure = false
	jar.SetCookies(u, []*http.Cookie{&plain})
}

// jarWith returns a new cookie jar holding c for the test server at base.
func jarWith(base string, c *http.Cookie) http.CookieJar {
	jar, _ := cookiejar.New(nil)
	keepCookie(jar, base, c)
	return jar
}
