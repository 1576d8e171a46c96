package api

import (
	"net/http"
	"strings"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/go-chi/chi/v5/middleware"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"github.com/rs/zerolog"

	"github.com/augur-verify/augur/presburger"
	"github.com/augur-verify/augur/store"
)

// Config configures the service. Only Store is required.
type Config struct {
	// Store keeps the validations and queues them.
	Store store.Store
	// Tokens are the bearer tokens accepted on writing endpoints (POST,
	// DELETE); none means every client may write.
	Tokens []string
	// ReadToken makes reading endpoints under /v1 require one of Tokens
	// as well (health, metrics and the OpenAPI document stay open), and
	// protects the dashboard (Web) with a login that keeps the token in
	// a cookie (see TokenCookie).
	ReadToken bool
	// MaxBody bounds a request body in bytes (default 4 MiB; 413 beyond).
	MaxBody int64
	// RatePerMinute bounds the writing requests of one token (or, without
	// a token, of one client address) per minute, with bursts of as many
	// (0: no limit; 429 beyond).
	RatePerMinute int
	// MaxWait bounds ?wait= on submissions (default 10 minutes).
	MaxWait time.Duration
	// Poll is how often ?wait and the event stream look at the store
	// (default 250 ms).
	Poll time.Duration
	// PresburgerTimeout bounds a calculator script (default 10 s), and
	// PresburgerBudget each of its engine operations (zero: the engine's
	// default).
	PresburgerTimeout time.Duration
	PresburgerBudget  presburger.Budget
	// CompileTimeout bounds one compilation of POST /v1/compile, its
	// wait for a turn included (default 2 minutes; 503 beyond). MaxCompiles
	// compilations run at once (default 2), the others wait in line;
	// MaxAlgorithm bounds an algorithm's and a schedule's size in bytes
	// (default 256 KiB; 413 beyond).
	CompileTimeout time.Duration
	MaxCompiles    int
	MaxAlgorithm   int
	// Key identifies a submission's content, so that identical ones share
	// their verdict (default: store.Key).
	Key func(spec, program string, opts store.Options) string
	// Logger receives one line per request and every error, each with
	// the request id (default: no logging).
	Logger *zerolog.Logger
	// Registry receives the service's metrics and is served on /metrics
	// (default: a new registry with the Go and process collectors). One
	// registry serves one handler: New registers its metrics in it.
	Registry *prometheus.Registry
	// Web, when set, serves every path the API does not (the dashboard,
	// mounted at "/").
	Web http.Handler
}

func (c *Config) defaults() {
	if c.MaxBody <= 0 {
		c.MaxBody = 4 << 20
	}
	if c.MaxWait <= 0 {
		c.MaxWait = 10 * time.Minute
	}
	if c.Poll <= 0 {
		c.Poll = 250 * time.Millisecond
	}
	if c.PresburgerTimeout <= 0 {
		c.PresburgerTimeout = 10 * time.Second
	}
	if c.CompileTimeout <= 0 {
		c.CompileTimeout = 2 * time.Minute
	}
	if c.MaxCompiles <= 0 {
		c.MaxCompiles = 2
	}
	if c.MaxAlgorithm <= 0 {
		c.MaxAlgorithm = 256 << 10
	}
	if c.Key == nil {
		c.Key = store.Key
	}
	if c.Logger == nil {
		l := zerolog.Nop()
		c.Logger = &l
	}
	if c.Registry == nil {
		c.Registry = prometheus.NewRegistry()
		c.Registry.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	}
}

// server holds the handlers' shared state.
type server struct {
	cfg     Config
	metrics *metrics
	limiter *limiter
	// compiles holds a token per compilation running (Config.MaxCompiles).
	compiles chan struct{}
}

// New returns the service's handler: the API under /v1, /healthz,
// /readyz, /metrics and /openapi.json, and cfg.Web for every other path.
func New(cfg Config) http.Handler {
	_, h := newServer(cfg)
	return h
}

// newServer is New, with the server's state for tests.
func newServer(cfg Config) (*server, http.Handler) {
	cfg.defaults()
	s := &server{cfg: cfg, metrics: newMetrics(cfg.Registry, cfg.Store), compiles: make(chan struct{}, cfg.MaxCompiles)}
	if cfg.RatePerMinute > 0 {
		s.limiter = newLimiter(cfg.RatePerMinute)
	}
	r := chi.NewRouter()
	r.Use(middleware.RequestID, s.instrument, s.recoverer)

	r.Get("/healthz", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusOK, map[string]string{"status": "ok"})
	})
	r.Get("/readyz", s.ready)
	r.Method(http.MethodGet, "/metrics", promhttp.HandlerFor(cfg.Registry, promhttp.HandlerOpts{}))
	r.Get("/openapi.json", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(openAPI)
	})

	r.Route("/v1", func(r chi.Router) {
		r.Use(s.bodyLimit)
		r.Group(func(r chi.Router) {
			r.Use(s.auth(false))
			r.Get("/validations", s.list)
			r.Get("/validations/{id}", s.get)
			r.Get("/validations/{id}/events", s.events)
			r.Get("/validations/{id}/conditions/{n}.smt2", s.smt2)
		})
		r.Group(func(r chi.Router) {
			r.Use(s.auth(true), s.rateLimit)
			r.Post("/validations", s.submit)
			r.Post("/validations/{id}/cancel", s.cancel)
			r.Delete("/validations/{id}", s.cancel)
			r.Post("/compile", s.compile)
			r.Post("/presburger", s.presburger)
		})
		r.NotFound(func(w http.ResponseWriter, r *http.Request) {
			problem(w, r, http.StatusNotFound, probNotFound, "no such endpoint; see /openapi.json")
		})
		r.MethodNotAllowed(func(w http.ResponseWriter, r *http.Request) {
			allow := allowed(r)
			w.Header().Set("Allow", strings.Join(allow, ", "))
			problem(w, r, http.StatusMethodNotAllowed, probBadRequest,
				"method "+r.Method+" not allowed here; allowed: "+strings.Join(allow, ", ")+"; see /openapi.json")
		})
	})
	switch {
	case cfg.Web != nil && s.protectsReads():
		r.Handle("/*", s.dashboardGate(s.dashboardAccess(cfg.Web)))
	case cfg.Web != nil && len(cfg.Tokens) > 0:
		r.Handle("/*", s.loginPages(s.dashboardAccess(cfg.Web)))
	case cfg.Web != nil:
		r.Handle("/*", s.dashboardAccess(cfg.Web))
	default:
		r.NotFound(func(w http.ResponseWriter, r *http.Request) {
			problem(w, r, http.StatusNotFound, probNotFound, "no such endpoint; see /openapi.json")
		})
	}
	return s, r
}

// allowed lists the methods the router serves at r's path.
func allowed(r *http.Request) []string {
	rctx := chi.RouteContext(r.Context())
	var out []string
	if rctx == nil || rctx.Routes == nil {
		return out
	}
	// Routes is the root router: it matches the whole path.
	for _, m := range []string{http.MethodGet, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete} {
		if rctx.Routes.Match(chi.NewRouteContext(), m, r.URL.Path) {
			out = append(out, m)
		}
	}
	return out
}

func (s *server) ready(w http.ResponseWriter, r *http.Request) {
	if err := s.cfg.Store.Ping(r.Context()); err != nil {
		zerolog.Ctx(r.Context()).Warn().Err(err).Msg("store not ready")
		problem(w, r, http.StatusServiceUnavailable, probUnavailable, "the store does not answer: "+err.Error())
		return
	}
	writeJSON(w, http.StatusOK, map[string]string{"status": "ready"})
}
