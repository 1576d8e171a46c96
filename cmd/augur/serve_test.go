package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/augur-verify/augur/api"
	"github.com/augur-verify/augur/api/apitest"
	"github.com/augur-verify/augur/store"
)

// syncBuffer is a buffer written by the server's goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
	// written is closed (and replaced) by every write.
	written chan struct{}
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.written != nil {
		close(s.written)
		s.written = nil
	}
	return s.b.Write(p)
}

// waitFor returns once the buffer contains sub, woken by each write; it
// fails the test if that does not happen within d.
func (s *syncBuffer) waitFor(t *testing.T, sub string, d time.Duration) {
	t.Helper()
	timeout := time.After(d)
	for {
		s.mu.Lock()
		if strings.Contains(s.b.String(), sub) {
			s.mu.Unlock()
			return
		}
		if s.written == nil {
			s.written = make(chan struct{})
		}
		written := s.written
		s.mu.Unlock()
		select {
		case <-written:
		case <-timeout:
			t.Fatalf("waited %s in vain for %q in:\n%s", d, sub, s.String())
		}
	}
}

// waitUntil polls cond (every 50 ms) until it holds, and fails the test
// if it does not hold within the given time.
func waitUntil(t *testing.T, within time.Duration, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(within); !cond(); time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("waited %s in vain for %s", within, what)
		}
	}
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// withStore makes openStore return st.
func withStore(t *testing.T, st store.Store) {
	old := openStore
	openStore = func(context.Context, string, ...store.Option) (store.Store, error) { return st, nil }
	t.Cleanup(func() { openStore = old })
}

func TestServeExamplesAndShutdown(t *testing.T) {
	st := apitest.NewStore()
	withStore(t, st)
	// The examples of three directories (TestExamplePairs checks the
	// list of all of them).
	examples := t.TempDir()
	for _, dir := range []string{"blur", "matmul", "outer"} {
		copyDir(t, filepath.Join("../../examples", dir), filepath.Join(examples, dir))
	}

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	addr := make(chan string, 1)
	var logs syncBuffer
	done := make(chan error, 1)
	go func() {
		done <- runServe(ctx, &logs, serveFlags{addr: "127.0.0.1:0", db: defaultDB, workers: 2, examples: true, examplesDir: examples,
			maxBody: 4 << 20, budget: time.Minute, grace: time.Second, logFormat: "json", onListen: func(a string) { addr <- a }})
	}()
	base := "http://" + <-addr
	// Every example is submitted and reaches a verdict.
	var list struct {
		Validations []struct {
			Status, Verdict string
			ProgramName     string `json:"program_name"`
		}
	}
	waitUntil(t, 3*time.Minute, "every example's verdict", func() bool {
		resp, err := http.Get(base + "/v1/validations?label=source=examples&limit=500")
		if err != nil {
			t.Fatal(err)
		}
		data, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		list.Validations = nil
		if err := json.Unmarshal(data, &list); err != nil {
			t.Fatalf("%v: %s", err, data)
		}
		pending := 0
		for _, v := range list.Validations {
			if v.Status != "done" {
				pending++
			}
		}
		return len(list.Validations) > 0 && pending == 0
	})
	if len(list.Validations) < 8 {
		t.Errorf("only %d examples", len(list.Validations))
	}
	for _, v := range list.Validations {
		broken := strings.Contains(v.ProgramName, "broken")
		if (broken && v.Verdict == "valid") || (!broken && v.Verdict != "valid") {
			t.Errorf("%s: %s", v.ProgramName, v.Verdict)
		}
	}
	resp, err := http.Get(base + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	data, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(data), `augur_validations_total{verdict="invalid"}`) {
		t.Errorf("metrics lack the workers' verdicts")
	}
	resp, err = http.Get(base + "/")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") {
		t.Errorf("dashboard at /: %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("serve: %v", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("serve did not stop")
	}
	for _, line := range strings.Split(strings.TrimSpace(logs.String()), "\n") {
		if strings.Contains(line, `"message":"request"`) && !strings.Contains(line, `"request_id"`) {
			t.Errorf("request log without id: %s", line)
		}
	}
	if !strings.Contains(logs.String(), "stopped") {
		t.Errorf("logs:\n%s", logs.String())
	}
	// The first run says what it does: the examples submitted, each
	// verdict as it comes.
	for _, want := range []string{"the workers validate them now", `"message":"validating"`, `"message":"validated"`} {
		if !strings.Contains(logs.String(), want) {
			t.Errorf("the log lacks %q", want)
		}
	}

	// A restart does not submit the examples again.
	n := len(list.Validations)
	ctx, cancel = context.WithCancel(context.Background())
	defer cancel()
	var logs2 syncBuffer
	go func() {
		done <- runServe(ctx, &logs2, serveFlags{addr: "127.0.0.1:0", db: defaultDB, workers: 0, examples: true, examplesDir: examples,
			maxBody: 4 << 20, budget: time.Minute, grace: time.Second, logFormat: "json", onListen: func(a string) { addr <- a }})
	}()
	<-addr
	logs2.waitFor(t, "submitted by an earlier run", time.Minute) // the restart found the examples
	cancel()
	<-done
	if vs, _, _ := st.List(context.Background(), store.Filter{Label: "source=examples", Limit: 500}); len(vs) != n {
		t.Errorf("%d validations of the examples after a restart, want %d", len(vs), n)
	}
}

// copyDir copies the files of the directory from into the new directory to.
func copyDir(t *testing.T, from, to string) {
	t.Helper()
	if err := os.CopyFS(to, os.DirFS(from)); err != nil {
		t.Fatal(err)
	}
}

func TestWorkerRunsTheQueue(t *testing.T) {
	st := apitest.NewStore()
	withStore(t, st)
	spec, _ := os.ReadFile("../../examples/blur/blur.sare")
	prog, _ := os.ReadFile("../../examples/blur/broken_wrong_row.sched")
	v, _ := st.Submit(context.Background(), &store.Validation{SpecName: "blur.sare", Spec: string(spec), ProgramName: "broken_wrong_row.sched", Program: string(prog)})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	var logs syncBuffer
	metrics := make(chan string, 1)
	go func() {
		done <- runWorker(ctx, &logs, workerFlags{db: "sqlite:x.db", concurrency: 1, budget: time.Minute, grace: time.Second, logFormat: "text",
			metricsAddr: "127.0.0.1:0", onMetrics: func(a string) { metrics <- a }})
	}()
	metricsURL := "http://" + <-metrics + "/metrics"
	var got *store.Validation
	waitUntil(t, time.Minute, "the worker's verdict", func() bool {
		got, _ = st.Get(context.Background(), v.ID)
		return got.Status == store.Done
	})
	if got.Verdict != "invalid" || !strings.Contains(string(got.Report), `"smt"`) {
		t.Errorf("verdict %s; report keeps SMT: %v", got.Verdict, strings.Contains(string(got.Report), `"smt"`))
	}
	// --metrics-addr serves the workers' metrics.
	resp, err := http.Get(metricsURL)
	if err != nil {
		t.Fatal(err)
	}
	data, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(data), `augur_validations_total{verdict="invalid"} 1`) || !strings.Contains(string(data), "go_goroutines") {
		t.Errorf("worker metrics:\n%.2000s", data)
	}
	cancel()
	if err := <-done; err != nil {
		t.Error(err)
	}
	if code, _, _ := augur("worker", "--concurrency", "0"); code != 3 {
		t.Errorf("--concurrency 0: exit %d", code)
	}
}

// TestServeSQLite runs the service on the real embedded store and
// validates through augur submit.
func TestServeSQLite(t *testing.T) {
	db := "sqlite:" + t.TempDir() + "/augur.db"
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	addr := make(chan string, 1)
	done := make(chan error, 1)
	var logs syncBuffer
	go func() {
		done <- runServe(ctx, &logs, serveFlags{addr: "127.0.0.1:0", db: db, workers: 1, tokens: []string{"t"},
			maxBody: 4 << 20, budget: time.Minute, grace: time.Second, logFormat: "text", onListen: func(a string) { addr <- a }})
	}()
	var base string
	select {
	case a := <-addr:
		base = "http://" + a
	case err := <-done:
		t.Fatalf("serve: %v\n%s", err, logs.String())
	}
	code, out, errOut := augur("submit", "--server", base, "--token", "t", "--wait", "2m",
		"../../examples/blur/blur.sare", "../../examples/blur/broken_wrong_row.sched")
	if code != 1 || !strings.HasPrefix(out, "INVALID") {
		t.Errorf("submit: exit %d\n%s%s", code, out, errOut)
	}
	// The identical submission is answered from the stored verdict, which
	// augur submit says: no worker ran it again.
	code, out, errOut = augur("submit", "--server", base, "--token", "t", "../../examples/blur/blur.sare", "../../examples/blur/broken_wrong_row.sched")
	if code != 1 || !strings.HasPrefix(out, "INVALID") || !strings.Contains(out, "cached: the verdict of validation ") {
		t.Errorf("cached: exit %d\n%s%s", code, out, errOut)
	}
	cancel()
	if err := <-done; err != nil {
		t.Errorf("serve: %v", err)
	}
}

// The examples submitted at start carry the verifier that submitted them:
// a restart of the same build does not submit them again, one of another
// build (an older database) submits them for that build to validate.
func TestSubmitExamplesPerVerifier(t *testing.T) {
	st := apitest.NewStore()
	examples := t.TempDir()
	copyDir(t, "../../examples/blur", filepath.Join(examples, "blur"))
	ctx := context.Background()
	for _, c := range []struct {
		verifier string
		n, known int
		total    int
		labelled string
	}{
		{"augur 1 (rev a); z3 4", 2, 0, 2, "augur 1 (rev a); z3 4"},
		{"augur 1 (rev a); z3 4", 0, 2, 2, "augur 1 (rev a); z3 4"},
		{"augur 1 (rev b); z3 4", 2, 0, 4, "augur 1 (rev b); z3 4"},
		{"augur 1 (" + strings.Repeat("x", 300) + "); z3 4", 2, 0, 6, "sha256 "},
	} {
		n, known, err := submitExamples(ctx, st, examples, c.verifier)
		if err != nil || n != c.n || known != c.known {
			t.Errorf("%.30s: %d submitted, %d known, %v; want %d, %d", c.verifier, n, known, err, c.n, c.known)
		}
		vs, _, _ := st.List(ctx, store.Filter{Label: "source=examples", Limit: 500})
		if len(vs) != c.total {
			t.Errorf("%.30s: %d examples in the store, want %d", c.verifier, len(vs), c.total)
		}
		if got := vs[0].Meta.Labels[verifierLabel]; !strings.HasPrefix(got, c.labelled) || len(got) > api.MaxLabelValueBytes {
			t.Errorf("%.30s: the newest example is labelled %q", c.verifier, got)
		}
	}
}
