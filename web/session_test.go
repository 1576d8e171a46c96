package web

import (
	"net/http/httptest"
	"strings"
	"testing"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// Every page's header shows a Log out button, a form posting to the
// server's logout, when the request is logged in, and a Log in link back
// to the page when logging in would grant the buttons; neither without a
// login at all.
func TestSessionInHeader(t *testing.T) {
	_, h := newTest(t)
	for _, c := range []struct {
		name   string
		access *Access
		logout string // the form's action, "" for none
		login  string // the link's URL, "" for none
	}{
		{"no login", nil, "", ""},
		{"logged in", &Access{Act: true, Login: "/login", Logout: "/logout"}, "/logout", ""},
		{"may log in", &Access{Login: "/login"}, "", "/login?next=%2Fvalidations%2Fv-valid"},
		{"logged in, reading only", &Access{Login: "/login", Logout: "/logout"}, "/logout", ""},
	} {
		for _, target := range []string{"/validations/v-valid", "/", "/nowhere"} {
			req := httptest.NewRequest("GET", target, nil)
			if c.access != nil {
				req = req.WithContext(WithAccess(req.Context(), *c.access))
			}
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			header := findAll(checkHTML(t, rec.Body.String()), func(n *html.Node) bool { return n.DataAtom == atom.Header })[0]
			var logout, login string
			for _, f := range findAll(header, isTag(atom.Form)) {
				if attr(f, "method") != "post" || text(f) != "Log out" {
					t.Errorf("%s, %s: a form in the header: %s %q", c.name, target, attr(f, "method"), text(f))
				}
				logout = attr(f, "action")
			}
			for _, a := range findAll(header, isTag(atom.A)) {
				if text(a) == "Log in" {
					login = attr(a, "href")
				}
			}
			if logout != c.logout {
				t.Errorf("%s, %s: Log out form posting to %q, want %q", c.name, target, logout, c.logout)
			}
			wantLogin := c.login
			if wantLogin != "" {
				wantLogin = "/login?next=" + strings.ReplaceAll(target, "/", "%2F")
			}
			if login != wantLogin {
				t.Errorf("%s, %s: Log in link %q, want %q", c.name, target, login, wantLogin)
			}
		}
	}
}

// The icon: /favicon.ico, which browsers ask for on any page, and the SVG
// every page names.
func TestFavicon(t *testing.T) {
	_, h := newTest(t)
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "/favicon.ico", nil))
	if rec.Code != 200 || rec.Header().Get("Content-Type") != "image/x-icon" || !strings.HasPrefix(rec.Body.String(), "\x00\x00\x01\x00") {
		t.Errorf("GET /favicon.ico: %d %s, %d bytes", rec.Code, rec.Header().Get("Content-Type"), rec.Body.Len())
	}
	_, _, doc := get(t, h, "/")
	var icons []string
	for _, l := range findAll(doc, isTag(atom.Link)) {
		if attr(l, "rel") == "icon" {
			icons = append(icons, attr(l, "href"))
		}
	}
	if len(icons) != 2 || icons[1] != "/favicon.ico" || !strings.HasPrefix(icons[0], "/assets/favicon.svg?v=") {
		t.Fatalf("the page's icons: %q", icons)
	}
	rec = httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", icons[0], nil))
	if rec.Code != 200 || rec.Header().Get("Content-Type") != "image/svg+xml" || !strings.HasPrefix(rec.Body.String(), "<svg ") {
		t.Errorf("GET %s: %d %s", icons[0], rec.Code, rec.Header().Get("Content-Type"))
	}
}
