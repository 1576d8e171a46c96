package web

import (
	"bytes"
	"context"
	"embed"
	"errors"
	"fmt"
	"html/template"
	"io/fs"
	"log/slog"
	"net/http"
	"net/url"
	"runtime/debug"
	"strings"
	"time"

	"github.com/augur-verify/augur/store"
)

//go:embed templates/*.html
var templateFS embed.FS

//go:embed assets
var assetFS embed.FS

// Options configure the dashboard. The zero value serves.
type Options struct {
	// API is the path of the JSON API, which the pages link to (the
	// progress events, the SMT-LIB2 of conditions, the JSON of a
	// validation). Default "/v1".
	API string
	// PageSize is the number of validations a list page shows unless
	// the request says otherwise (?limit=). Default 50, at most 500.
	PageSize int
	// ListRefresh is the period of the list's optional auto-refresh
	// (the "refresh" checkbox of its form). Default 10s.
	ListRefresh time.Duration
	// RequestID returns the request's id, shown on the 500 page so that
	// a user can quote it (nil: none shown).
	RequestID func(*http.Request) string
	// ErrorLog receives the store and rendering errors behind a 500
	// page (nil: slog's default logger).
	ErrorLog func(r *http.Request, err error)
	// Now is the clock the ages are computed with (nil: time.Now).
	Now func() time.Time
}

// Handler is the dashboard; see New.
type handler struct {
	st    store.Store
	opts  Options
	mux   *http.ServeMux
	pages map[string]*template.Template
	// assets by name (style.css, live.js) and their versioned URLs.
	assets         map[string]*asset
	cssURL         string
	jsURL          string
	iconURL        string
	refreshSeconds int // ListRefresh in seconds
}

// New returns the dashboard over st. It parses its templates once and
// panics only if the embedded templates are malformed (a build error).
func New(st store.Store, opts Options) http.Handler {
	if opts.API == "" {
		opts.API = "/v1"
	}
	opts.API = strings.TrimRight(opts.API, "/")
	if opts.PageSize <= 0 {
		opts.PageSize = 50
	}
	if opts.PageSize > maxPageSize {
		opts.PageSize = maxPageSize
	}
	if opts.ListRefresh <= 0 {
		opts.ListRefresh = 10 * time.Second
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.ErrorLog == nil {
		opts.ErrorLog = func(r *http.Request, err error) {
			slog.ErrorContext(r.Context(), "web: "+err.Error(), "method", r.Method, "path", r.URL.Path)
		}
	}
	h := &handler{st: st, opts: opts, mux: http.NewServeMux()}
	h.refreshSeconds = int((opts.ListRefresh + time.Second - 1) / time.Second)
	h.loadAssets()
	h.parseTemplates()

	h.mux.HandleFunc("GET /{$}", h.list)
	h.mux.HandleFunc("GET /validations", func(w http.ResponseWriter, r *http.Request) {
		u := "/"
		if r.URL.RawQuery != "" {
			u += "?" + r.URL.RawQuery
		}
		http.Redirect(w, r, u, http.StatusMovedPermanently)
	})
	h.mux.HandleFunc("GET /validations/{id}", h.validation)
	h.mux.HandleFunc("GET /validations/{id}/archive.zip", h.archive)
	h.mux.HandleFunc("GET /validations/{id}/report.txt", h.reportText)
	// The buttons: forms posted from the dashboard's own pages only.
	xorigin := http.NewCrossOriginProtection()
	h.mux.Handle("POST /validations/{id}/cancel", xorigin.Handler(http.HandlerFunc(h.cancel)))
	h.mux.Handle("POST /validations/{id}/rerun", xorigin.Handler(http.HandlerFunc(h.rerun)))
	h.mux.HandleFunc("GET /assets/{name}", h.asset)
	h.mux.HandleFunc("GET /favicon.ico", h.favicon)
	h.mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		h.notFound(w, r, "There is no page at "+r.URL.Path+".")
	})
	return h
}

const maxPageSize = 500

// ServeHTTP serves the dashboard; a panic becomes a 500 page.
func (h *handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	defer func() {
		if p := recover(); p != nil {
			if p == http.ErrAbortHandler {
				panic(p)
			}
			h.serverError(w, r, fmt.Errorf("panic: %v\n%s", p, debug.Stack()))
		}
	}()
	hd := w.Header()
	hd.Set("X-Content-Type-Options", "nosniff")
	hd.Set("Referrer-Policy", "same-origin")
	hd.Set("Content-Security-Policy", "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'")
	h.mux.ServeHTTP(w, r)
}

// page is what the layout template renders: the head and the frame
// around a page's content, which is Data.
type page struct {
	Title string
	// Refresh reloads the page every so many seconds; NoscriptRefresh
	// does so only when scripts do not run.
	Refresh, NoscriptRefresh int
	// Script loads live.js.
	Script bool
	CSS    string
	JS     string
	Icon   string
	API    string
	// Logout is the action of the header's Log out form, Login the URL
	// of its Log in link ("": none; see Access).
	Logout, Login string
	Data          any
}

func (h *handler) parseTemplates() {
	base := template.Must(template.New("layout.html").Funcs(h.funcs()).ParseFS(templateFS, "templates/layout.html", "templates/parts.html"))
	h.pages = map[string]*template.Template{}
	names, err := fs.Glob(templateFS, "templates/*.html")
	if err != nil {
		panic(err)
	}
	for _, name := range names {
		name = strings.TrimPrefix(name, "templates/")
		if name == "layout.html" || name == "parts.html" {
			continue
		}
		t := template.Must(base.Clone())
		h.pages[strings.TrimSuffix(name, ".html")] = template.Must(t.ParseFS(templateFS, "templates/"+name))
	}
}

// render executes the page template name into a buffer first, so that a
// failing template gives a whole 500 page rather than half a page.
func (h *handler) render(w http.ResponseWriter, r *http.Request, status int, name string, p *page) {
	p.CSS, p.JS, p.Icon, p.API = h.cssURL, h.jsURL, h.iconURL, h.opts.API
	if acc := access(r); acc.Logout != "" {
		p.Logout = acc.Logout
	} else if !acc.Act && acc.Login != "" {
		p.Login = acc.Login + "?" + url.Values{"next": {r.URL.RequestURI()}}.Encode()
	}
	var b bytes.Buffer
	if err := h.pages[name].ExecuteTemplate(&b, "layout", p); err != nil {
		if name == "error" {
			// The error page itself failed: plain text is all that is left.
			h.opts.ErrorLog(r, err)
			http.Error(w, "internal server error", http.StatusInternalServerError)
			return
		}
		h.serverError(w, r, fmt.Errorf("rendering %s: %w", name, err))
		return
	}
	hd := w.Header()
	hd.Set("Content-Type", "text/html; charset=utf-8")
	hd.Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	if r.Method != http.MethodHead {
		w.Write(b.Bytes())
	}
}

// errorPage is the content of the 404 and 500 pages.
type errorPage struct {
	Status    int
	Heading   string
	Message   string
	RequestID string
}

func (h *handler) notFound(w http.ResponseWriter, r *http.Request, msg string) {
	h.render(w, r, http.StatusNotFound, "error", &page{
		Title: "Not found",
		Data:  errorPage{Status: http.StatusNotFound, Heading: "Not found", Message: msg},
	})
}

// serverError logs err and answers a 500 page that does not reveal it.
func (h *handler) serverError(w http.ResponseWriter, r *http.Request, err error) {
	if errors.Is(err, context.Canceled) && r.Context().Err() != nil {
		return // the client went away
	}
	h.opts.ErrorLog(r, err)
	var id string
	if h.opts.RequestID != nil {
		id = h.opts.RequestID(r)
	}
	h.render(w, r, http.StatusInternalServerError, "error", &page{
		Title: "Server error",
		Data: errorPage{
			Status:    http.StatusInternalServerError,
			Heading:   "Something went wrong",
			Message:   "The dashboard could not read the validations. Try again in a moment.",
			RequestID: id,
		},
	})
}
