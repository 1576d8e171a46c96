package api

import (
	"context"
	"crypto/subtle"
	"html/template"
	"net/http"
	"net/url"
	"strings"

	"github.com/augur-verify/augur/web"
)

// TokenCookie is the cookie in which the dashboard's login keeps the
// token, when the server requires one for reading (Config.ReadToken): the
// pages, and the API calls they make (event streams, JSON, SMT-LIB2
// scripts), then carry it. It is Secure (sent over HTTPS only; browsers
// make an exception for localhost), HttpOnly (out of scripts' reach) and
// SameSite=Strict (never sent by another site's requests), and lasts for
// the browser's session.
const TokenCookie = "augur_token"

// validToken reports whether tok is one of the configured tokens.
func (s *server) validToken(tok string) bool {
	ok := false
	for _, t := range s.cfg.Tokens {
		if subtle.ConstantTimeCompare([]byte(t), []byte(tok)) == 1 {
			ok = true
		}
	}
	return ok
}

// cookieToken returns the token of the login cookie, if any.
func cookieToken(r *http.Request) (string, bool) {
	c, err := r.Cookie(TokenCookie)
	if err != nil || c.Value == "" {
		return "", false
	}
	return c.Value, true
}

// protectsReads reports whether reading needs a token.
func (s *server) protectsReads() bool { return s.cfg.ReadToken && len(s.cfg.Tokens) > 0 }

// dashboardGate protects the dashboard with the reading token: without a
// valid login cookie a page request is sent to /login (GET shows the
// form, POST checks the token and sets the cookie), any other request is
// answered 401. POST /logout forgets the cookie (logout). The style
// sheet, the script and the icon stay public: they hold no data.
func (s *server) dashboardGate(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.URL.Path == "/login":
			s.login(w, r)
			return
		case r.URL.Path == "/logout":
			logout(w, r, "/login")
			return
		case strings.HasPrefix(r.URL.Path, "/assets/"), r.URL.Path == "/favicon.ico":
			next.ServeHTTP(w, r)
			return
		}
		if tok, ok := cookieToken(r); ok && s.validToken(tok) {
			next.ServeHTTP(w, r)
			return
		}
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			problem(w, r, http.StatusUnauthorized, probUnauthorized, "the dashboard needs a login: see /login")
			return
		}
		http.Redirect(w, r, "/login?next="+url.QueryEscape(r.URL.RequestURI()), http.StatusSeeOther)
	})
}

// loginPages serves /login and /logout in front of a dashboard open to
// reading: the login then only grants its buttons (web.Access).
func (s *server) loginPages(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/login":
			s.login(w, r)
		case "/logout":
			logout(w, r, "/")
		default:
			next.ServeHTTP(w, r)
		}
	})
}

// logoutOrigin refuses a logout posted from another site's page.
var logoutOrigin = http.NewCrossOriginProtection()

// logout is /logout, the dashboard's Log out button: POST forgets the
// login cookie and sends the browser to then (303); any other method is
// refused (405), and so is a POST from another site's page (403).
func logout(w http.ResponseWriter, r *http.Request, then string) {
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", "POST")
		problem(w, r, http.StatusMethodNotAllowed, probBadRequest, "method "+r.Method+" not allowed here; allowed: POST (the dashboard's Log out button)")
		return
	}
	if err := logoutOrigin.Check(r); err != nil {
		problem(w, r, http.StatusForbidden, probForbidden, "logging out from another site's page is refused: "+err.Error())
		return
	}
	http.SetCookie(w, loginCookie("", -1))
	http.Redirect(w, r, then, http.StatusSeeOther)
}

// dashboardAccess tells the dashboard what the request may do (its
// buttons: re-run, cancel): anything without tokens, else what a valid
// login cookie or bearer token permits; a valid login cookie also gets
// the Log out button. The buttons' requests (any method but GET and
// HEAD) count as writing for the rate limit.
func (s *server) dashboardAccess(next http.Handler) http.Handler {
	limited := s.rateLimit(next)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		acc := web.Access{Act: len(s.cfg.Tokens) == 0}
		if !acc.Act {
			acc.Login = "/login"
			if tok, ok := cookieToken(r); ok && s.validToken(tok) {
				acc.Logout = "/logout"
			}
			tok, has := bearer(r)
			if !has {
				tok, has = cookieToken(r)
			}
			if has && s.validToken(tok) {
				acc.Act = true
				r = r.WithContext(context.WithValue(r.Context(), tokenKey{}, tok))
			}
		}
		r = r.WithContext(web.WithAccess(r.Context(), acc))
		if r.Method == http.MethodGet || r.Method == http.MethodHead {
			next.ServeHTTP(w, r)
			return
		}
		limited.ServeHTTP(w, r)
	})
}

// loginCookie is the login cookie holding tok (maxAge -1: delete it).
func loginCookie(tok string, maxAge int) *http.Cookie {
	return &http.Cookie{Name: TokenCookie, Value: tok, Path: "/", MaxAge: maxAge,
		Secure: true, HttpOnly: true, SameSite: http.SameSiteStrictMode}
}

// localNext returns next when it is a path of this site, "/" otherwise,
// so that the login cannot redirect elsewhere.
func localNext(next string) string {
	if !strings.HasPrefix(next, "/") || strings.HasPrefix(next, "//") || strings.HasPrefix(next, "/\\") {
		return "/"
	}
	return next
}

// login is GET and POST /login.
func (s *server) login(w http.ResponseWriter, r *http.Request) {
	next := localNext(r.URL.Query().Get("next"))
	failed := false
	switch r.Method {
	case http.MethodGet, http.MethodHead:
	case http.MethodPost:
		r.Body = http.MaxBytesReader(w, r.Body, 64<<10)
		if err := r.ParseForm(); err != nil {
			problem(w, r, http.StatusBadRequest, probBadRequest, "the login form cannot be read: "+err.Error())
			return
		}
		next = localNext(r.PostForm.Get("next"))
		if tok := strings.TrimSpace(r.PostForm.Get("token")); s.validToken(tok) {
			http.SetCookie(w, loginCookie(tok, 0))
			http.Redirect(w, r, next, http.StatusSeeOther)
			return
		}
		failed = true
	default:
		w.Header().Set("Allow", "GET, POST")
		problem(w, r, http.StatusMethodNotAllowed, probBadRequest, "method "+r.Method+" not allowed here; allowed: GET, POST")
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	if failed {
		w.WriteHeader(http.StatusUnauthorized)
	}
	_ = loginPage.Execute(w, struct {
		Next   string
		Failed bool
		Open   bool // the dashboard is open to reading
	}{next, failed, !s.protectsReads()})
}

// loginPage is the dashboard's login form.
var loginPage = template.Must(template.New("login").Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Log in · Augur</title>
<link rel="icon" href="/favicon.ico" sizes="32x32">
<style>
body { font-family: system-ui, sans-serif; max-width: 28rem; margin: 4rem auto; padding: 0 1rem; line-height: 1.5; }
label, input, button { display: block; font: inherit; }
input { width: 100%; box-sizing: border-box; margin: 0.3rem 0 1rem; padding: 0.4rem; }
button { padding: 0.4rem 1.2rem; }
.error { color: #a40000; border-left: 4px solid #a40000; padding-left: 0.8rem; }
</style>
</head>
<body>
<main>
<h1>Augur</h1>
{{- if .Open}}
<p>Re-running and cancelling validations needs one of the service's tokens.</p>
{{- else}}
<p>This dashboard needs one of the service's tokens.</p>
{{- end}}
{{- if .Failed}}
<p class="error" role="alert">That token is not accepted.</p>
{{- end}}
<form method="post" action="/login">
<input type="hidden" name="next" value="{{.Next}}">
<label for="token">Token</label>
<input id="token" name="token" type="password" autocomplete="current-password" required autofocus>
<button type="submit">Log in</button>
</form>
<p>The token is kept in a cookie for this browser session only, sent over HTTPS (or to localhost) and never to scripts.</p>
</main>
</body>
</html>
`))
