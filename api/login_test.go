package api

import (
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"strings"
	"testing"
)

// With ReadToken the dashboard asks for a login; the login keeps the token
// in a Secure, HttpOnly, SameSite=Strict cookie that opens the pages and
// the reading API, never the writing one.
func TestDashboardLogin(t *testing.T) {
	dashboard := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("dashboard " + r.URL.Path)) })
	h := newHarness(t, Config{Tokens: []string{"s3cret"}, ReadToken: true, Web: dashboard}, nil)
	noRedirect := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	for _, path := range []string{"/", "/validations/01M81WA400HBRE2AYE63D26F8D?x=1"} {
		resp, err := noRedirect.Get(h.srv.URL + path)
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
		resp, err := noRedirect.PostForm(h.srv.URL+"/login", url.Values{"token": {token}, "next": {next}})
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
	jar, _ := cookiejar.New(nil)
	u, _ := url.Parse(h.srv.URL)
	c.Secure = false // the test server speaks HTTP: the jar would not send it
	jar.SetCookies(u, []*http.Cookie{c})
	client := &http.Client{Jar: jar}
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
