package integration

import (
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/augur-verify/augur/store"
)

// startServe starts augur serve on a free port with args and waits until
// it is ready; it returns the process and the base URL.
func startServe(t *testing.T, name, bin string, args ...string) (*proc, string) {
	t.Helper()
	port := strconv.Itoa(freePort(t))
	p := startProc(t, name, bin, append([]string{"serve", "--addr", "127.0.0.1:" + port}, args...)...)
	base := "http://127.0.0.1:" + port
	client := &http.Client{Timeout: 5 * time.Second}
	waitUntil(t, 30*time.Second, 100*time.Millisecond, name+" ready", func() bool {
		if !p.alive() {
			t.Fatalf("%s exited before it was ready: %v", name, p.err)
		}
		resp, err := client.Get(base + "/readyz")
		if err != nil {
			return false
		}
		resp.Body.Close()
		return resp.StatusCode == http.StatusOK
	})
	return p, base
}

// countStatus counts the validations at base by status.
func countStatus(t *testing.T, client *http.Client, base string) map[store.Status]int {
	t.Helper()
	all, err := listAll(client, base, "")
	if err != nil {
		t.Fatal(err)
	}
	n := map[store.Status]int{}
	for _, v := range all {
		n[v.Status]++
	}
	return n
}

// interrupt sends sig to p once the list at base shows more than done
// validations done (the solver has run) and one running, and checks that
// p exits 0 within a minute without a crash.
func interrupt(t *testing.T, p *proc, base string, done int, sig syscall.Signal) {
	t.Helper()
	client := &http.Client{Timeout: 10 * time.Second}
	waitUntil(t, 2*time.Minute, 50*time.Millisecond, "a validation running", func() bool {
		n := countStatus(t, client, base)
		return n[store.Done] > done && n[store.Running] > 0
	})
	if err := p.cmd.Process.Signal(sig); err != nil {
		t.Fatal(err)
	}
	select {
	case <-p.done:
	case <-time.After(time.Minute):
		t.Fatalf("%s still running a minute after %s", p.name, sig)
	}
	log, _ := os.ReadFile(p.log)
	if p.err != nil || strings.Contains(string(log), "SIGSEGV") || strings.Contains(string(log), "goroutine ") {
		t.Fatalf("%s after %s: %v (want exit status 0 and no crash)", p.name, sig, p.err)
	}
	if !strings.Contains(string(log), "stopped") {
		t.Errorf("%s after %s: no \"stopped\" in its log", p.name, sig)
	}
}

// SIGINT and SIGTERM stop augur serve and augur worker cleanly while
// validations run in them (the solver has run on several threads by
// then): exit status 0, no crash, and the interrupted validations queued
// again, then finished by the next worker.
func TestSignalsStopCleanly(t *testing.T) {
	if testing.Short() {
		t.Skip("builds augur and runs real validations")
	}
	// The examples validate in milliseconds: three Halide pairs of a few
	// seconds each, of different lengths, keep validations running while
	// others are done, whatever the machine's speed, so that each signal
	// reaches a process in the middle of its work.
	pairs := append(loadPairs(t), loadBenchPairs(t, "sqsgemm", "sc4", "sc8")...)
	bin := buildAugur(t)
	db := "sqlite:" + filepath.Join(t.TempDir(), "augur.db")
	client := &http.Client{Timeout: time.Minute}
	short := []string{"--db", db, "--grace", "100ms", "--log-format", "json"}

	// Ctrl-C on augur serve with its workers busy.
	serve, base := startServe(t, "serve", bin, append(short, "--workers", "2")...)
	for _, p := range pairs {
		sub := p.submission(store.Meta{})
		if _, _, err := submit(client, base, "", sub); err != nil {
			t.Fatal(err)
		}
	}
	interrupt(t, serve, base, 0, syscall.SIGINT)

	// Nothing is left marked running: what ran is queued again.
	serve, base = startServe(t, "serve-readonly", bin, append(short, "--workers", "0")...)
	all, err := listAll(client, base, "")
	if err != nil {
		t.Fatal(err)
	}
	queued := 0
	for _, v := range all {
		switch v.Status {
		case store.Running:
			t.Errorf("%s still running after the shutdown", v.ID)
		case store.Queued:
			queued++
		}
	}
	if queued == 0 {
		t.Fatalf("no validation queued after the shutdown: %+v", all)
	}

	// Ctrl-C on augur worker with validations in flight, then SIGTERM on
	// a second one once every validation is done.
	worker := startProc(t, "worker", bin, append([]string{"worker", "--concurrency", "2"}, short...)...)
	interrupt(t, worker, base, countStatus(t, client, base)[store.Done], syscall.SIGINT)
	worker = startProc(t, "worker2", bin, append([]string{"worker", "--concurrency", "2"}, short...)...)
	waitUntil(t, 3*time.Minute, 200*time.Millisecond, "every validation done", func() bool {
		var err error
		if all, err = listAll(client, base, ""); err != nil {
			t.Fatal(err)
		}
		done := 0
		for _, v := range all {
			if v.Status == store.Done {
				done++
			}
		}
		return done == len(pairs)
	})
	for _, v := range all {
		if v.Verdict == "" || v.Verdict == "unknown" {
			t.Errorf("%s: verdict %q after being requeued", v.ID, v.Verdict)
		}
	}
	worker.stop(t, time.Minute)
	serve.stop(t, time.Minute)
}

// loadBenchPairs reads the checked-in Halide pairs bench/halide/NAME, all
// valid.
func loadBenchPairs(t *testing.T, names ...string) []pair {
	t.Helper()
	var ps []pair
	for _, n := range names {
		ps = append(ps, pair{spec: "bench/halide/" + n + "/spec.sare", program: "bench/halide/" + n + "/prog.sched", verdict: "valid"})
	}
	return readPairs(t, ps)
}
