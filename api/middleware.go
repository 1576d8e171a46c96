package api

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net"
	"net/http"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/go-chi/chi/v5/middleware"
	"github.com/rs/zerolog"
)

// instrument gives every request a logger carrying its request id (in the
// context, for zerolog.Ctx), echoes the id in X-Request-Id, and after the
// handler logs one access line and records the request's metrics by route
// and status.
func (s *server) instrument(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		id := middleware.GetReqID(r.Context())
		log := s.cfg.Logger.With().Str("request_id", id).Logger()
		r = r.WithContext(log.WithContext(r.Context()))
		w.Header().Set("X-Request-Id", id)
		ww := middleware.NewWrapResponseWriter(w, r.ProtoMajor)
		defer func() {
			status := ww.Status()
			if status == 0 {
				status = http.StatusOK
			}
			route := "unmatched"
			if rc := chi.RouteContext(r.Context()); rc != nil && rc.RoutePattern() != "" {
				route = rc.RoutePattern()
			}
			d := time.Since(start)
			s.metrics.request(r.Method, route, status, d)
			ev := log.Info()
			if route == "/healthz" || route == "/readyz" || route == "/metrics" {
				ev = log.Debug() // probes and scrapes
			}
			ev.Str("method", r.Method).Str("path", r.URL.Path).Str("route", route).
				Int("status", status).Int("bytes", ww.BytesWritten()).Str("duration", LogDuration(d)).
				Str("remote", r.RemoteAddr).Msg("request")
		}()
		next.ServeHTTP(ww, r)
	})
}

// recoverer turns a panic into a 500 problem carrying the request id, and
// logs it with its stack; a client never sees the server crash.
func (s *server) recoverer(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() {
			v := recover()
			if v == nil {
				return
			}
			if v == http.ErrAbortHandler {
				panic(v)
			}
			zerolog.Ctx(r.Context()).Error().Str("panic", fmt.Sprint(v)).Bytes("stack", debug.Stack()).Msg("handler panicked")
			if ww, ok := w.(middleware.WrapResponseWriter); ok && ww.Status() != 0 {
				return // the answer has begun; nothing more can be said
			}
			problem(w, r, http.StatusInternalServerError, probInternal,
				"an internal error occurred; quote the request id "+middleware.GetReqID(r.Context())+" when reporting it")
		}()
		next.ServeHTTP(w, r)
	})
}

// bodyLimit answers 413 to a declared body over MaxBody and cuts longer
// undeclared ones (the handlers answer 413 when reading fails so).
func (s *server) bodyLimit(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.ContentLength > s.cfg.MaxBody {
			s.tooLarge(w, r)
			return
		}
		if r.Body != nil {
			r.Body = http.MaxBytesReader(w, r.Body, s.cfg.MaxBody)
		}
		next.ServeHTTP(w, r)
	})
}

func (s *server) tooLarge(w http.ResponseWriter, r *http.Request) {
	problem(w, r, http.StatusRequestEntityTooLarge, probTooLarge,
		fmt.Sprintf("the request body exceeds the limit of %d bytes", s.cfg.MaxBody))
}

// readFailed answers a failure to read the request body: 413 when it was
// too large, 400 otherwise.
func (s *server) readFailed(w http.ResponseWriter, r *http.Request, err error) {
	var mbe *http.MaxBytesError
	if errors.As(err, &mbe) {
		s.tooLarge(w, r)
		return
	}
	problem(w, r, http.StatusBadRequest, probBadRequest, "reading the request: "+err.Error())
}

type tokenKey struct{}

// bearer returns the request's bearer token, if any.
func bearer(r *http.Request) (string, bool) {
	h := r.Header.Get("Authorization")
	scheme, tok, ok := strings.Cut(h, " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") || strings.TrimSpace(tok) == "" {
		return "", false
	}
	return strings.TrimSpace(tok), true
}

// auth checks the bearer token: on writing endpoints whenever tokens are
// configured, on reading ones when ReadToken is set too, where the
// dashboard's login cookie (TokenCookie) does as well. A missing token is
// answered 401, an unknown one 403.
func (s *server) auth(write bool) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			tok, has := bearer(r)
			if !has && !write {
				tok, has = cookieToken(r)
			}
			if has {
				r = r.WithContext(context.WithValue(r.Context(), tokenKey{}, tok))
			}
			if len(s.cfg.Tokens) == 0 || (!write && !s.cfg.ReadToken) {
				next.ServeHTTP(w, r)
				return
			}
			if !has {
				w.Header().Set("WWW-Authenticate", `Bearer realm="augur"`)
				problem(w, r, http.StatusUnauthorized, probUnauthorized, "this endpoint needs a bearer token: Authorization: Bearer TOKEN")
				return
			}
			if s.validToken(tok) {
				next.ServeHTTP(w, r)
				return
			}
			w.Header().Set("WWW-Authenticate", `Bearer realm="augur", error="invalid_token"`)
			problem(w, r, http.StatusForbidden, probForbidden, "the bearer token is not accepted")
		})
	}
}

// rateLimit applies the per-token (or per-address) token bucket.
func (s *server) rateLimit(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if s.limiter == nil {
			next.ServeHTTP(w, r)
			return
		}
		key, _ := r.Context().Value(tokenKey{}).(string)
		if key == "" {
			host, _, err := net.SplitHostPort(r.RemoteAddr)
			if err != nil {
				host = r.RemoteAddr
			}
			key = "addr:" + host
		} else {
			key = "token:" + key
		}
		if wait, ok := s.limiter.allow(key, time.Now()); !ok {
			w.Header().Set("Retry-After", strconv.Itoa(int(math.Ceil(wait.Seconds()))))
			problem(w, r, http.StatusTooManyRequests, probRateLimited,
				fmt.Sprintf("more than %d writing requests per minute; retry in %s", s.cfg.RatePerMinute, wait.Round(time.Second)))
			return
		}
		next.ServeHTTP(w, r)
	})
}

// limiter is a set of token buckets of capacity perMinute, refilled at
// perMinute per minute.
type limiter struct {
	mu        sync.Mutex
	perMinute float64
	buckets   map[string]*bucket
}

type bucket struct {
	tokens float64
	last   time.Time
}

func newLimiter(perMinute int) *limiter {
	return &limiter{perMinute: float64(perMinute), buckets: map[string]*bucket{}}
}

// allow takes a token from key's bucket, or says how long until one is
// there.
func (l *limiter) allow(key string, now time.Time) (time.Duration, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	rate := l.perMinute / 60 // tokens per second
	b, ok := l.buckets[key]
	if !ok {
		if len(l.buckets) > 10000 {
			for k, o := range l.buckets { // forget the full buckets
				if o.tokens+now.Sub(o.last).Seconds()*rate >= l.perMinute {
					delete(l.buckets, k)
				}
			}
		}
		b = &bucket{tokens: l.perMinute, last: now}
		l.buckets[key] = b
	}
	b.tokens = math.Min(l.perMinute, b.tokens+now.Sub(b.last).Seconds()*rate)
	b.last = now
	if b.tokens >= 1 {
		b.tokens--
		return 0, true
	}
	return time.Duration((1 - b.tokens) / rate * float64(time.Second)), false
}
