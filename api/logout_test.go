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
	"github.com/augur-verify/augur/web"
)

// A logged-in page shows the Log out button, a form posting to /logout,
// which forgets the login cookie; /logout takes only that form's POST,
// from the dashboard's own pages. The icon stays public, as the style
// sheet does.
func TestDashboardLogout(t *testing.T) {
	for _, c := range []struct {
		name  string
		read  bool
		after string // where the logout leads
	}{{"closed", true, "/login"}, {"open", false, "/"}} {
		t.Run(c.name, func(t *testing.T) {
			st := apitest.NewStore()
			srv := httptest.NewServer(New(Config{Store: st, Tokens: []string{"s3cret"}, ReadToken: c.read, Web: web.New(st, web.Options{})}))
			defer srv.Close()
			jar, _ := cookiejar.New(nil)
			client := noRedirect(jar)
			do := func(method, path string, header http.Header) (*http.Response, string) {
				t.Helper()
				req, _ := http.NewRequestWithContext(context.Background(), method, srv.URL+path, nil)
				for k, v := range header {
					req.Header[k] = v
				}
				resp, err := client.Do(req)
				if err != nil {
					t.Fatal(err)
				}
				defer resp.Body.Close()
				b, _ := io.ReadAll(resp.Body)
				return resp, string(b)
			}
			const logoutForm = `<form class="session" method="post" action="/logout">`

			// The icon needs no login.
			if resp, body := do("GET", "/favicon.ico", nil); resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "image/x-icon" ||
				!strings.HasPrefix(body, "\x00\x00\x01\x00") {
				t.Errorf("GET /favicon.ico without a login: %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
			}
			if !c.read {
				// Open to reading: a Log in link, no Log out button.
				if _, body := do("GET", "/", nil); strings.Contains(body, logoutForm) || !strings.Contains(body, `<a class="session" href="/login?next=%2F">Log in</a>`) {
					t.Errorf("not logged in: the header shows the Log out button or no Log in link")
				}
			}
			resp, err := client.PostForm(srv.URL+"/login", url.Values{"token": {"s3cret"}, "next": {"/"}})
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if len(resp.Cookies()) != 1 {
				t.Fatalf("login: %d %v", resp.StatusCode, resp.Cookies())
			}
			keepCookie(jar, srv.URL, resp.Cookies()[0])
			if resp, body := do("GET", "/", nil); resp.StatusCode != 200 || !strings.Contains(body, logoutForm) || strings.Contains(body, ">Log in</a>") {
				t.Fatalf("logged in: %d, the header lacks the Log out button or shows Log in", resp.StatusCode)
			}

			// Only the form's POST logs out, and only from this site.
			if resp, _ := do("GET", "/logout", nil); resp.StatusCode != http.StatusMethodNotAllowed || resp.Header.Get("Allow") != "POST" || len(resp.Cookies()) != 0 {
				t.Errorf("GET /logout: %d, Allow %q, cookies %v; want 405, POST, none", resp.StatusCode, resp.Header.Get("Allow"), resp.Cookies())
			}
			if resp, _ := do("POST", "/logout", http.Header{"Sec-Fetch-Site": {"cross-site"}}); resp.StatusCode != http.StatusForbidden || len(resp.Cookies()) != 0 {
				t.Errorf("POST /logout from another site: %d, cookies %v; want 403, none", resp.StatusCode, resp.Cookies())
			}
			resp, _ = do("POST", "/logout", http.Header{"Sec-Fetch-Site": {"same-origin"}})
			if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != c.after {
				t.Errorf("POST /logout: %d to %q, want 303 to %s", resp.StatusCode, resp.Header.Get("Location"), c.after)
			}
			if cs := resp.Cookies(); len(cs) != 1 || cs[0].Name != TokenCookie || cs[0].MaxAge >= 0 || cs[0].Value != "" {
				t.Errorf("POST /logout does not clear the login cookie: %v", cs)
			}
			// The jar forgot the cookie: the dashboard is as before the login.
			resp, body := do("GET", "/", nil)
			switch {
			case c.read && (resp.StatusCode != http.StatusSeeOther || !strings.HasPrefix(resp.Header.Get("Location"), "/login")):
				t.Errorf("after the logout: %d %s, want the login", resp.StatusCode, resp.Header.Get("Location"))
			case !c.read && strings.Contains(body, logoutForm):
				t.Errorf("after the logout the header still shows the Log out button")
			}
		})
	}
}
