package api

import (
	"bytes"
	"strconv"

	"context"
	"encoding/json"
	"github.com/rs/zerolog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/augur-verify/augur/api/apitest"
	"github.com/augur-verify/augur/sched"
	"github.com/augur-verify/augur/store"
	"github.com/augur-verify/augur/validate"
)

// harness is a service over an in-memory store, with workers running a
// runner until the test ends.
type harness struct {
	t   *testing.T
	st  *apitest.Store
	srv *httptest.Server
}

func newHarness(t *testing.T, cfg Config, run store.Runner) *harness {
	t.Helper()
	st := apitest.NewStore()
	cfg.Store = st
	if cfg.Poll == 0 {
		cfg.Poll = 10 * time.Millisecond
	}
	// The service's wall-clock bounds on a compilation and on a Presburger
	// calculation protect it from one request holding a handler; the tests
	// check what the requests produce, on machines of any load, and those
	// that test the bounds set their own.
	if cfg.CompileTimeout == 0 {
		cfg.CompileTimeout = 15 * time.Minute
	}
	if cfg.PresburgerTimeout == 0 {
		cfg.PresburgerTimeout = 5 * time.Minute
	}
	h := &harness{t: t, st: st, srv: httptest.NewServer(New(cfg))}
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	if run != nil {
		wg.Add(1)
		go func() { defer wg.Done(); _ = st.Work(ctx, 2, time.Second, run) }()
	}
	t.Cleanup(func() { h.srv.Close(); cancel(); wg.Wait() })
	return h
}

// gate is a fake runner that reports progress and waits for release (or
// its context) before answering: invalid for a kernel named broken*,
// valid otherwise.
type gate struct {
	release chan struct{}
	started chan string
}

func newGate() *gate { return &gate{release: make(chan struct{}), started: make(chan string, 16)} }

func (g *gate) run(ctx context.Context, v *store.Validation, progress func(store.Progress)) (store.Result, error) {
	progress(store.Progress{Phase: "solve", Done: 1, Total: 3})
	g.started <- v.ID
	select {
	case <-ctx.Done():
		return store.Result{}, ctx.Err()
	case <-g.release:
	}
	verdict := validate.Valid
	if strings.Contains(v.ProgramName, "broken") {
		verdict = validate.Invalid
	}
	rep := validate.Report{Verdict: verdict, Spec: v.SpecName, Program: v.ProgramName, ValueModel: "real",
		Conditions: []validate.ConditionResult{
			{ID: 1, Kind: sched.WrongValue, File: v.ProgramName, Line: 3, Col: 5, Text: "a[i] := 1", Status: validate.Proved, SMT: "(check-sat)\n"},
			{ID: 2, Kind: sched.OutOfBoundsWrite, File: v.ProgramName, Line: 4, Col: 5, Text: "b[i] := 2", Status: validate.Proved},
		}}
	if verdict == validate.Invalid {
		rep.Reason = sched.WrongValue.String()
		rep.Conditions[0].Status = validate.Failed
		rep.Counterexample = &validate.Counterexample{Kind: sched.WrongValue, Condition: 1, File: v.ProgramName, Line: 3, Col: 5,
			Stmt: "a[i] := 1", Params: []validate.Binding{{Name: "N", Value: 1}}, Seed: 1}
	}
	data, _ := json.Marshal(rep)
	return store.Result{Report: data, Verdict: string(rep.Verdict), Reason: rep.Reason, Cacheable: true}, nil
}

// example reads a file of examples/.
func example(t *testing.T, path string) string {
	data, err := os.ReadFile(filepath.Join("..", "examples", path))
	if err != nil {
		if t == nil {
			panic(err)
		}
		t.Fatal(err)
	}
	return string(data)
}

// do sends a request and returns the response with its body read.
func (h *harness) do(method, path, ctype, body string, hdr ...string) (*http.Response, string) {
	h.t.Helper()
	req, err := http.NewRequest(method, h.srv.URL+path, strings.NewReader(body))
	if err != nil {
		h.t.Fatal(err)
	}
	if ctype != "" {
		req.Header.Set("Content-Type", ctype)
	}
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		h.t.Fatal(err)
	}
	defer resp.Body.Close()
	var b strings.Builder
	buf := make([]byte, 32<<10)
	for {
		n, err := resp.Body.Read(buf)
		b.Write(buf[:n])
		if err != nil {
			break
		}
	}
	checkConformance(h.t, method, path, resp, b.String())
	return resp, b.String()
}

// submitJSON posts a JSON submission.
func (h *harness) submitJSON(query string, sub Submission, hdr ...string) (*http.Response, string) {
	h.t.Helper()
	data, _ := json.Marshal(sub)
	return h.do("POST", "/v1/validations"+query, "application/json", string(data), hdr...)
}

func decode[T any](t *testing.T, body string) T {
	t.Helper()
	var v T
	if err := json.Unmarshal([]byte(body), &v); err != nil {
		t.Fatalf("decoding %q: %v", body, err)
	}
	return v
}

func newTestLogger(w *bytes.Buffer) zerolog.Logger { return zerolog.New(&syncWriter{w: w}) }

type syncWriter struct {
	mu sync.Mutex
	w  *bytes.Buffer
}

func (s *syncWriter) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.w.Write(p)
}

func newTestServer(cfg Config) *httptest.Server { return httptest.NewServer(New(cfg)) }

func itoa(n int) string { return strconv.Itoa(n) }
