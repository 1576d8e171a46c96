package integration

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/augur-verify/augur/store"
)

// buildAugur builds the augur binary into a temporary directory.
func buildAugur(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "augur")
	start := time.Now()
	cmd := exec.Command("go", "build", "-o", bin, "./cmd/augur")
	cmd.Dir = moduleRoot(t)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build ./cmd/augur: %v\n%s", err, out)
	}
	t.Logf("built augur in %s", time.Since(start).Round(time.Millisecond))
	return bin
}

// proc is a child process of the test, its output in a log file.
type proc struct {
	name string
	cmd  *exec.Cmd
	log  string
	done chan struct{}
	err  error // valid once done is closed
}

// startProc starts bin with args; the cleanup kills it if it still runs
// and, when the test failed, prints the end of its log.
func startProc(t *testing.T, name, bin string, args ...string) *proc {
	t.Helper()
	logPath := filepath.Join(t.TempDir(), name+".log")
	f, err := os.Create(logPath)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, args...)
	cmd.Dir = t.TempDir() // no examples/, no augur.db where they do not belong
	cmd.Stdout, cmd.Stderr = f, f
	if err := cmd.Start(); err != nil {
		f.Close()
		t.Fatalf("starting %s: %v", name, err)
	}
	p := &proc{name: name, cmd: cmd, log: logPath, done: make(chan struct{})}
	go func() {
		p.err = cmd.Wait()
		f.Close()
		close(p.done)
	}()
	t.Cleanup(func() {
		select {
		case <-p.done:
		default:
			cmd.Process.Kill()
			<-p.done
		}
		if t.Failed() {
			data, _ := os.ReadFile(logPath)
			if len(data) > 4000 {
				data = data[len(data)-4000:]
			}
			t.Logf("--- end of %s's log (pid %d) ---\n%s", name, cmd.Process.Pid, data)
		}
	})
	return p
}

// alive reports whether the process still runs.
func (p *proc) alive() bool {
	select {
	case <-p.done:
		return false
	default:
		return true
	}
}

// stop sends SIGTERM and waits for a clean exit.
func (p *proc) stop(t *testing.T, within time.Duration) {
	t.Helper()
	p.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-p.done:
		if p.err != nil {
			t.Errorf("%s after SIGTERM: %v (want a clean exit)", p.name, p.err)
		}
	case <-time.After(within):
		t.Errorf("%s still running %s after SIGTERM", p.name, within)
	}
}

func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// verdictLog records, with a trigger, every write of a verdict to a
// validation row: an insert of a done row (a cached answer) or an update
// that makes a row done or changes a done row's verdict or finish time.
const verdictLog = `
CREATE TABLE itest_verdict_write (id TEXT NOT NULL, verdict TEXT NOT NULL, op TEXT NOT NULL);
CREATE FUNCTION itest_log_verdict() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF NEW.status = 'done' THEN
		IF TG_OP = 'INSERT' THEN
			INSERT INTO itest_verdict_write VALUES (NEW.id, NEW.verdict, TG_OP);
		ELSIF OLD.status <> 'done' OR OLD.verdict <> NEW.verdict OR OLD.finished_at <> NEW.finished_at THEN
			INSERT INTO itest_verdict_write VALUES (NEW.id, NEW.verdict, TG_OP);
		END IF;
	END IF;
	RETURN NEW;
END $$;
CREATE TRIGGER itest_log_verdict AFTER INSERT OR UPDATE ON augur_validation
	FOR EACH ROW EXECUTE FUNCTION itest_log_verdict();
`

// TestDistributed runs the service as it is deployed at scale: PostgreSQL
// on loopback, one augur serve without workers and two augur worker
// processes. It submits four slower validations, then 200 at once, through the API (valid
// and invalid examples, half of them made distinct by a comment, the
// others identical), kills one worker with SIGKILL while it runs
// validations, and checks that every validation reaches the verdict of its
// pair exactly once: the killed worker's validations are rescued and
// finished by the other worker.
func TestDistributed(t *testing.T) {
	if testing.Short() {
		t.Skip("the distributed test is not short")
	}
	const (
		n          = 200
		slow       = 4     // one per worker slot
		jobTimeout = "20s" // also the rescue delay: a dead worker's jobs run again after 20-50 s
		limit      = 150 * time.Second
	)
	dsn := postgresDSN(t)
	pairs := loadPairs(t)
	bin := buildAugur(t)
	ctx := context.Background()

	serve, base := startServe(t, "serve", bin, "--db", dsn, "--workers", "0", "--examples=false", "--log-format", "json")
	client := &http.Client{Timeout: 30 * time.Second}

	// The schema exists now: count the verdict writes.
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, verdictLog); err != nil {
		t.Fatalf("installing the trigger: %v", err)
	}

	workerArgs := []string{"worker", "--db", dsn, "--concurrency", "2", "--budget", "15s",
		"--job-timeout", jobTimeout, "--rescue-after", jobTimeout, "--grace", "5s", "--log-format", "json"}
	workers := []*proc{
		startProc(t, "worker1", bin, workerArgs...),
		startProc(t, "worker2", bin, workerArgs...),
	}

	// Each pair validated once first, so that identical submissions are
	// answered from its verdict.
	repo := "integration/distributed"
	for _, p := range pairs {
		sub := p.submission(store.Meta{Repository: repo + "/first"})
		v, code, err := submit(client, base, "?wait=60s", sub)
		if err != nil {
			t.Fatal(err)
		}
		if code != http.StatusOK || v.Status != store.Done || v.Verdict != p.verdict {
			t.Fatalf("validating %s first: %d, status %s, verdict %q (%s), want 200, done, %s", p.program, code, v.Status, v.Verdict, v.Reason, p.verdict)
		}
	}

	// 200 submissions at once: pair i%7; even ones made distinct by a
	// comment line (validated anew), odd ones identical to the pair's
	// first validation (answered from its verdict).
	want := map[string]string{} // id -> expected verdict
	var mu sync.Mutex
	var wg sync.WaitGroup
	errs := make(chan error, n+slow)
	submitted := time.Now()
	// First, distinct copies of a pair that takes long enough to be seen
	// running on both workers at once (the examples take milliseconds,
	// and identical submissions in flight share one run): the kill below
	// waits for them.
	slowPair := readPairs(t, []pair{{spec: "bench/halide/unsharp/spec.sare", program: "bench/halide/unsharp/prog.sched", verdict: "valid"}})[0]
	for i := range slow {
		v, _, err := submit(client, base, "", submission{
			Spec: slowPair.specText, SpecName: slowPair.spec, ProgramName: slowPair.program,
			Program: fmt.Sprintf("# integration slow copy %d\n%s", i, slowPair.programText),
			Meta:    store.Meta{Repository: repo, Labels: map[string]string{"slow": strconv.Itoa(i)}},
		})
		if err != nil {
			t.Fatalf("slow submission %d: %v", i, err)
		}
		want[v.ID] = slowPair.verdict
	}
	for i := range n {
		wg.Go(func() {
			p := pairs[i%len(pairs)]
			prog := p.programText
			if i%2 == 0 {
				prog = fmt.Sprintf("# integration copy %d\n%s", i, prog)
			}
			sub := submission{
				Spec: p.specText, SpecName: p.spec, Program: prog, ProgramName: p.program,
				Meta: store.Meta{Repository: repo, Labels: map[string]string{"n": strconv.Itoa(i)}},
			}
			v, _, err := submit(client, base, "", sub)
			if err != nil {
				errs <- fmt.Errorf("submission %d: %w", i, err)
				return
			}
			mu.Lock()
			defer mu.Unlock()
			if _, dup := want[v.ID]; dup {
				errs <- fmt.Errorf("submission %d: duplicate id %s", i, v.ID)
			}
			want[v.ID] = p.verdict
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if t.Failed() {
		t.FailNow()
	}
	t.Logf("submitted %d validations in %s", n+slow, time.Since(submitted).Round(time.Millisecond))

	// Kill a worker while both run validations: three or more running
	// out of the four slots means each worker runs at least one.
	var running []validation
	waitUntil(t, time.Minute, 20*time.Millisecond, "3 validations running at once", func() bool {
		var err error
		if running, err = listAll(client, base, "status=running&limit=500&repository="+repo); err != nil {
			t.Fatal(err)
		}
		return len(running) >= 3
	})
	if err := workers[0].cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	<-workers[0].done
	// Those running just before the kill, and those the killed worker
	// marked running since: their rows stay running until the rescue.
	after, err := listAll(client, base, "status=running&limit=500&repository="+repo)
	if err != nil {
		t.Fatal(err)
	}
	runningAtKill := map[string]bool{}
	for _, v := range append(running, after...) {
		runningAtKill[v.ID] = true
	}
	t.Logf("SIGKILLed worker1 (pid %d) after %s with %d validations running",
		workers[0].cmd.Process.Pid, time.Since(submitted).Round(time.Millisecond), len(running))

	// Every validation reaches a verdict within the limit.
	var all []validation
	waitUntil(t, limit-time.Since(submitted), 500*time.Millisecond, fmt.Sprintf("every validation's verdict within %s of submission", limit), func() bool {
		if all, err = listAll(client, base, "limit=100&repository="+repo); err != nil {
			t.Fatal(err)
		}
		if !workers[1].alive() {
			t.Fatalf("the surviving worker died: %v", workers[1].err)
		}
		for _, v := range all {
			if v.Status == store.Queued || v.Status == store.Running {
				return false
			}
		}
		return true
	})
	t.Logf("all %d validations finished %s after submission", len(all), time.Since(submitted).Round(time.Millisecond))

	// The list: exactly the 200 submitted, each once.
	if len(all) != n+slow {
		t.Errorf("the list has %d validations, want %d", len(all), n+slow)
	}
	seen := map[string]bool{}
	for _, v := range all {
		if seen[v.ID] {
			t.Errorf("%s listed twice", v.ID)
		}
		seen[v.ID] = true
		if _, ok := want[v.ID]; !ok {
			t.Errorf("%s listed but never submitted", v.ID)
		}
	}

	// Each validation: done, with its pair's verdict, in at most three
	// attempts; the killed worker's ones retried.
	retried, cached := 0, 0
	for id, verdict := range want {
		var v validation
		if err := getJSON(client, base+"/v1/validations/"+id, &v); err != nil {
			t.Error(err)
			continue
		}
		if v.Status != store.Done || v.Verdict != verdict {
			t.Errorf("%s (%s): status %s, verdict %q (%s; error %q), want done, %s", id, v.Meta.Labels["n"], v.Status, v.Verdict, v.Reason, v.Error, verdict)
		}
		if v.FinishedAt == nil {
			t.Errorf("%s: done without a finish time", id)
		}
		switch {
		case v.CachedFrom != "":
			cached++
			if v.Meta.Labels["n"] == "" || mustAtoi(v.Meta.Labels["n"])%2 == 0 {
				t.Errorf("%s: distinct submission %s answered from %s", id, v.Meta.Labels["n"], v.CachedFrom)
			}
			if v.Attempts != 0 {
				t.Errorf("%s: answered from %s's verdict after %d attempts", id, v.CachedFrom, v.Attempts)
			}
		case v.Attempts < 1 || v.Attempts > store.MaxAttempts:
			t.Errorf("%s: %d attempts, want 1 to %d", id, v.Attempts, store.MaxAttempts)
		case v.Attempts > 1:
			retried++
			if !runningAtKill[id] {
				t.Errorf("%s: %d attempts but it was not running when the worker was killed (%d were)", id, v.Attempts, len(runningAtKill))
			}
		}
	}
	if retried == 0 {
		t.Errorf("no validation needed a second attempt: the killed worker ran none of the %d running", len(runningAtKill))
	}
	if cached != n/2 {
		t.Errorf("%d validations answered from the cache, want the %d identical ones", cached, n/2)
	}
	t.Logf("%d validations answered from the cache, %d retried after the kill", cached, retried)

	// Exactly once in the database: one verdict write per validation, and
	// one River job per validation that was not answered from the cache,
	// completed.
	writes := map[string]int{}
	rows, err := conn.Query(ctx, `SELECT id, count(*) FROM itest_verdict_write GROUP BY id`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var id string
		var c int
		if err := rows.Scan(&id, &c); err != nil {
			t.Fatal(err)
		}
		writes[id] = c
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	for id := range want {
		if writes[id] != 1 {
			t.Errorf("%s: its verdict was written %d times, want once", id, writes[id])
		}
	}
	type job struct {
		count, attempt int
		completed      bool
	}
	// River marks a job completed just after its worker has written the
	// verdict: wait for the queue to settle before reading it.
	readJobs := func() map[string]job {
		jobs := map[string]job{}
		rows, err := conn.Query(ctx, `SELECT args->>'validation_id', count(*), max(attempt), bool_and(state = 'completed')
		FROM river_job WHERE kind = 'validate' GROUP BY 1`)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		for rows.Next() {
			var id string
			var j job
			if err := rows.Scan(&id, &j.count, &j.attempt, &j.completed); err != nil {
				t.Fatal(err)
			}
			jobs[id] = j
		}
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
		return jobs
	}
	var jobs map[string]job
	waitUntil(t, 30*time.Second, 200*time.Millisecond, "every job recorded completed", func() bool {
		jobs = readJobs()
		for _, j := range jobs {
			if !j.completed {
				return false
			}
		}
		return true
	})
	for _, v := range all {
		j, ok := jobs[v.ID]
		switch {
		case v.CachedFrom != "" && ok:
			t.Errorf("%s: answered from the cache but has %d jobs", v.ID, j.count)
		case v.CachedFrom == "" && (j.count != 1 || !j.completed || j.attempt > store.MaxAttempts):
			t.Errorf("%s: %d jobs (want 1), completed %v, attempt %d", v.ID, j.count, j.completed, j.attempt)
		}
	}

	// Identical submissions are answered from the stored verdicts: done in
	// the response to the submission itself, with no job queued.
	for _, p := range pairs {
		sub := p.submission(store.Meta{Repository: repo + "/cached"})
		v, code, err := submit(client, base, "?wait=10s", sub)
		if err != nil {
			t.Error(err)
			continue
		}
		if code != http.StatusOK || v.Status != store.Done || v.CachedFrom == "" || v.Verdict != p.verdict {
			t.Errorf("resubmitting %s: %d, status %s, cached from %q, verdict %q (want 200, done, cached, %s)",
				p.program, code, v.Status, v.CachedFrom, v.Verdict, p.verdict)
		}
	}

	// The survivors shut down cleanly.
	workers[1].stop(t, 30*time.Second)
	serve.stop(t, 30*time.Second)
	if err := workers[0].err; err == nil || !errors.As(err, new(*exec.ExitError)) {
		t.Errorf("the killed worker: %v, want killed", err)
	}
}

func mustAtoi(s string) int {
	n, err := strconv.Atoi(s)
	if err != nil {
		panic(err)
	}
	return n
}
