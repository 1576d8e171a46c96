package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// The suite runs on SQLite always and on PostgreSQL when there is one.
func TestSQLite(t *testing.T) {
	runSuite(t, func(t *testing.T) string {
		return "sqlite:" + filepath.Join(t.TempDir(), "augur.db")
	})
}

func TestPostgres(t *testing.T) { runSuite(t, postgresDSN) }

// TestMemory: an in-memory database works end to end (its one connection
// keeps it alive).
func TestMemory(t *testing.T) {
	s := openT(t, "sqlite::memory:")
	s.work(2, okRunner("w"))
	v := s.submit("spec", Meta{})
	if d := s.waitFor(v.ID, "done", hasStatus(Done)); reportRunner(t, d) != "w" {
		t.Fatalf("done: %+v", d)
	}
}

func runSuite(t *testing.T, dsn func(*testing.T) string) {
	cases := []struct {
		name string
		fn   func(*testing.T, string)
	}{
		{"SubmitWorkCache", testSubmitWorkCache},
		{"CacheOnlyDeterministic", testCacheOnlyDeterministic},
		{"ListPagination", testListPagination},
		{"ListLeavesOutSources", testListLeavesOutSources},
		{"CancelQueued", testCancelQueued},
		{"CancelRunning", testCancelRunning},
		{"Prune", testPrune},
		{"Progress", testProgress},
		{"RetryThenFail", testRetryThenFail},
		{"Concurrency", testConcurrency},
		{"StaleWorkerNoSecondDone", testStaleWorker},
		{"CrashRecovery", testCrashRecovery},
		{"Heartbeat", testHeartbeat},
		{"OrphanJob", testOrphanJob},
		{"InFlightShared", testInFlightShared},
		{"InFlightCancelHandsOver", testInFlightCancelHandsOver},
		{"Upgrade", testUpgrade},
		{"ShutdownRequeues", testShutdownRequeues},
		{"Reopen", testReopen},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			c.fn(t, dsn(t))
		})
	}
}

// testOptions make the tests quick.
var testOptions = []Option{WithFetchPollInterval(50 * time.Millisecond), WithRetryDelay(50 * time.Millisecond)}

func openT(t *testing.T, dsn string, opts ...Option) *storeHandle {
	t.Helper()
	s, err := Open(context.Background(), dsn, append(append([]Option{}, testOptions...), opts...)...)
	if err != nil {
		t.Fatalf("Open(%s): %v", dsn, err)
	}
	t.Cleanup(func() { s.Close() })
	return &storeHandle{s, t}
}

// storeHandle is a Store whose calls fail the test on error.
type storeHandle struct {
	Store
	t *testing.T
}

func (h *storeHandle) submit(spec string, meta Meta) *Validation {
	h.t.Helper()
	v, err := h.Submit(context.Background(), &Validation{
		SpecName: "s.sare", Spec: spec, ProgramName: "p.sched", Program: "program of " + spec, Meta: meta,
	})
	if err != nil {
		h.t.Fatalf("Submit: %v", err)
	}
	return v
}

func (h *storeHandle) get(id string) *Validation {
	h.t.Helper()
	v, err := h.Get(context.Background(), id)
	if err != nil {
		h.t.Fatalf("Get(%s): %v", id, err)
	}
	return v
}

// work runs Work in the background until the test ends.
func (h *storeHandle) work(concurrency int, run Runner, opts ...func(*workRun)) *workRun {
	w := &workRun{grace: 2 * time.Second, done: make(chan error, 1)}
	for _, o := range opts {
		o(w)
	}
	var ctx context.Context
	ctx, w.cancel = context.WithCancel(context.Background())
	go func() { w.done <- h.Work(ctx, concurrency, w.grace, run) }()
	h.t.Cleanup(func() { w.stop(h.t) })
	return w
}

type workRun struct {
	cancel  context.CancelFunc
	grace   time.Duration
	done    chan error
	stopped bool
}

func (w *workRun) stop(t *testing.T) {
	t.Helper()
	if w.stopped {
		return
	}
	w.stopped = true
	w.cancel()
	select {
	case err := <-w.done:
		if err != nil {
			t.Errorf("Work: %v", err)
		}
	case <-time.After(45 * time.Second):
		t.Errorf("Work did not stop")
	}
}

// waitFor polls the validation until cond holds.
func (h *storeHandle) waitFor(id string, what string, cond func(*Validation) bool) *Validation {
	h.t.Helper()
	deadline := time.Now().Add(40 * time.Second)
	for {
		v := h.get(id)
		if cond(v) {
			return v
		}
		if time.Now().After(deadline) {
			h.t.Fatalf("%s: waited in vain for %s: status %s, error %q", id, what, v.Status, v.Error)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func hasStatus(s Status) func(*Validation) bool {
	return func(v *Validation) bool { return v.Status == s }
}

// testPool is the store's pool, for the tests' own queries.
func (s *store[TTx]) testPool() querier { return s.db.pool() }

// aliveUntil returns until when validation id's worker is known alive.
func (h *storeHandle) aliveUntil(id string) time.Time {
	h.t.Helper()
	var us int64
	q := h.Store.(interface{ testPool() querier }).testPool()
	if err := q.queryRow(context.Background(), `SELECT alive_until FROM augur_validation WHERE id = $1`, id).Scan(&us); err != nil {
		h.t.Fatalf("alive_until of %s: %v", id, err)
	}
	return time.UnixMicro(us)
}

// rescueAt runs one pass of the rescuer with its clock at now.
func (h *storeHandle) rescueAt(now time.Time) int {
	h.t.Helper()
	n, err := h.Store.(interface {
		rescue(context.Context, time.Time) (int, error)
	}).rescue(context.Background(), now)
	if err != nil {
		h.t.Fatalf("rescue: %v", err)
	}
	return n
}

// setRunning marks validation id running, as a worker that made its
// attempts and died would have left it, its last heartbeat saying it
// alive for a minute: the rescuer of a running Work leaves it alone
// meanwhile, so that the test's own rescue pass (rescueAt) is the one
// that finds it, however loaded the machine.
func (h *storeHandle) setRunning(id string, attempts int) {
	h.t.Helper()
	q := h.Store.(interface{ testPool() querier }).testPool()
	now := time.Now()
	if _, err := q.exec(context.Background(), `UPDATE augur_validation SET status = $1, attempts = $2,
		started_at = $3, alive_until = $4 WHERE id = $5`, string(Running), attempts, micros(now), micros(now.Add(time.Minute)), id); err != nil {
		h.t.Fatal(err)
	}
}

// okRunner answers with a report naming the runner and the spec.
func okRunner(name string) Runner {
	return func(ctx context.Context, v *Validation, progress func(Progress)) (Result, error) {
		progress(Progress{Phase: "solve", Done: 1, Total: 1})
		rep, _ := json.Marshal(map[string]string{"runner": name, "spec": v.Spec})
		return Result{Report: rep, Verdict: "valid", Reason: "all conditions proved", Cacheable: true}, nil
	}
}

// countRuns returns run, counting its calls in calls.
func countRuns(calls *atomic.Int32, run Runner) Runner {
	return func(ctx context.Context, v *Validation, progress func(Progress)) (Result, error) {
		calls.Add(1)
		return run(ctx, v, progress)
	}
}

func reportRunner(t *testing.T, v *Validation) string {
	t.Helper()
	var r map[string]string
	if err := json.Unmarshal(v.Report, &r); err != nil {
		t.Fatalf("report %q: %v", v.Report, err)
	}
	return r["runner"]
}

func testSubmitWorkCache(t *testing.T, dsn string) {
	s := openT(t, dsn)
	meta := Meta{Repository: "r", Branch: "main", Commit: "c1", Labels: map[string]string{"arch": "x86"}}
	v := s.submit("spec A", meta)
	if v.Status != Queued || v.ID == "" || v.Key != Key("spec A", "program of spec A", Options{}) {
		t.Fatalf("submitted: %+v", v)
	}
	s.work(2, okRunner("w1"))
	done := s.waitFor(v.ID, "done", hasStatus(Done))
	if done.Verdict != "valid" || done.Reason != "all conditions proved" || reportRunner(t, done) != "w1" ||
		done.Attempts != 1 || done.StartedAt == nil || done.FinishedAt == nil || done.CachedFrom != "" ||
		done.Meta.Labels["arch"] != "x86" || done.Progress.Phase != "solve" {
		t.Fatalf("done: %+v", done)
	}

	// Identical content, other metadata: answered from the cache at once.
	c := s.submit("spec A", Meta{Repository: "other"})
	if c.Status != Done || c.CachedFrom != v.ID || c.Verdict != "valid" || string(c.Report) != string(done.Report) {
		t.Fatalf("cached: %+v", c)
	}
	if g := s.get(c.ID); g.Status != Done || g.CachedFrom != v.ID || g.Meta.Repository != "other" {
		t.Fatalf("cached, stored: %+v", g)
	}
	// A cached answer of a cached answer names the original.
	if c2 := s.submit("spec A", Meta{}); c2.CachedFrom != v.ID {
		t.Fatalf("second cache: %+v", c2)
	}
	// Other options: another key, a real run.
	o, err := s.Submit(context.Background(), &Validation{Spec: "spec A", Program: "program of spec A",
		Options: Options{ValueModel: "ieee"}})
	if err != nil || o.Status != Queued || o.Key == v.Key {
		t.Fatalf("other options: %+v, %v", o, err)
	}
	s.waitFor(o.ID, "done", hasStatus(Done))

	page, _, err := s.List(context.Background(), Filter{Verdict: "valid", Repository: "r"})
	if err != nil || len(page) != 1 || page[0].ID != v.ID {
		t.Fatalf("List by verdict: %d, %v", len(page), err)
	}
	if _, err := s.Get(context.Background(), "nope"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("Get(nope): %v", err)
	}
}

// Only cacheable verdicts answer identical submissions, and only for the
// verifier that gave them: another Augur or Z3 version validates again.
func testCacheOnlyDeterministic(t *testing.T, dsn string) {
	s := openT(t, dsn, WithVerifier("augur 1; z3 4.8.12.0"))
	var cacheable atomic.Bool
	run := func(ctx context.Context, v *Validation, p func(Progress)) (Result, error) {
		res, err := okRunner("w")(ctx, v, p)
		if !cacheable.Load() {
			res.Verdict, res.Reason, res.Cacheable = "unknown", "the time budget ran out", false
		}
		return res, err
	}
	w := s.work(1, run)
	v := s.submit("spec T", Meta{})
	if d := s.waitFor(v.ID, "done", hasStatus(Done)); d.Verdict != "unknown" {
		t.Fatalf("done: %+v", d)
	}
	// A verdict that is not deterministic is never reused.
	again := s.submit("spec T", Meta{})
	if again.Status != Queued || again.CachedFrom != "" {
		t.Fatalf("a time-bound verdict was reused: %+v", again)
	}
	cacheable.Store(true)
	if d := s.waitFor(again.ID, "done", hasStatus(Done)); d.Verdict != "valid" {
		t.Fatalf("done: %+v", d)
	}
	if c := s.submit("spec T", Meta{}); c.Status != Done || c.CachedFrom != again.ID {
		t.Fatalf("a deterministic verdict was not reused: %+v", c)
	}
	w.stop(t)

	// The same database seen by another verifier: nothing cached.
	other := openT(t, dsn, WithVerifier("augur 2; z3 4.8.12.0"))
	if c := other.submit("spec T", Meta{}); c.Status != Queued || c.CachedFrom != "" {
		t.Fatalf("a verdict of another verifier was reused: %+v", c)
	}
}

func testListPagination(t *testing.T, dsn string) {
	s := openT(t, dsn)
	ctx := context.Background()
	const n = 120
	want := map[string]bool{}
	for i := range n {
		meta := Meta{
			Repository: fmt.Sprintf("repo%d", i%3),
			Branch:     fmt.Sprintf("b%d", i%2),
			Commit:     fmt.Sprintf("c%d", i),
			Labels:     map[string]string{"arch": []string{"x86", "arm"}[i%2]},
		}
		if i%5 == 0 {
			meta.Labels["nightly"] = ""
		}
		want[s.submit(fmt.Sprintf("spec %d", i), meta).ID] = true
	}
	seen := map[string]bool{}
	cursor, last, pages := "", "", 0
	for {
		page, next, err := s.List(ctx, Filter{Limit: 7, Cursor: cursor})
		if err != nil {
			t.Fatal(err)
		}
		pages++
		for _, v := range page {
			if seen[v.ID] {
				t.Fatalf("duplicate %s", v.ID)
			}
			if last != "" && v.ID >= last {
				t.Fatalf("order: %s after %s", v.ID, last)
			}
			if last != "" && v.CreatedAt.After(s.get(last).CreatedAt) {
				t.Fatalf("not newest first")
			}
			seen[v.ID], last = true, v.ID
		}
		if next == "" {
			break
		}
		cursor = next
	}
	if len(seen) != n || pages != (n+6)/7 {
		t.Fatalf("paged %d validations in %d pages", len(seen), pages)
	}
	// Searching file names (ignoring case, wildcards literal) and
	// bounding the submission time.
	countAll := func(f Filter) int {
		f.Limit = MaxListLimit
		vs, _, err := s.List(ctx, f)
		if err != nil {
			t.Fatalf("List(%+v): %v", f, err)
		}
		return len(vs)
	}
	future := time.Now().Add(time.Hour)
	for _, c := range []struct {
		f    Filter
		want int
	}{
		{Filter{Name: "P.SCHED"}, n}, {Filter{Name: "s.sa"}, n}, {Filter{Name: "nope"}, 0}, {Filter{Name: "%"}, 0}, {Filter{Name: "_"}, 0},
		{Filter{Since: future}, 0}, {Filter{Until: future}, n}, {Filter{Until: time.Now().Add(-time.Hour)}, 0},
		{Filter{Name: "p.sched", Repository: "repo1", Since: time.Now().Add(-time.Hour)}, n / 3},
	} {
		if got := countAll(c.f); got != c.want {
			t.Errorf("List(%+v): %d, want %d", c.f, got, c.want)
		}
	}
	// A cursor the list did not give is an error, not an empty page.
	for _, c := range []string{"zz", "01M81WA400HBRE2AYE63D26F8", "01m81wa400hbre2aye63d26f8d", "' OR 1=1 --"} {
		if _, _, err := s.List(ctx, Filter{Cursor: c}); !errors.Is(err, ErrInvalidCursor) {
			t.Errorf("cursor %q: %v, want ErrInvalidCursor", c, err)
		}
	}
	for id := range want {
		if !seen[id] {
			t.Fatalf("missing %s", id)
		}
	}
	count := func(f Filter) int {
		t.Helper()
		f.Limit = 500
		page, next, err := s.List(ctx, f)
		if err != nil || next != "" {
			t.Fatalf("List(%+v): %v, next %q", f, err, next)
		}
		return len(page)
	}
	checks := []struct {
		f    Filter
		want int
	}{
		{Filter{Repository: "repo1"}, 40},
		{Filter{Branch: "b0"}, 60},
		{Filter{Repository: "repo0", Branch: "b0"}, 20},
		{Filter{Commit: "c17"}, 1},
		{Filter{Label: "arch=arm"}, 60},
		{Filter{Label: "nightly"}, 24},
		{Filter{Label: "nightly", Branch: "b1"}, 12},
		{Filter{Label: "arch=mips"}, 0},
		{Filter{Status: Queued}, 120},
		{Filter{Status: Done}, 0},
		{Filter{Verdict: "valid"}, 0},
	}
	for _, c := range checks {
		if got := count(c.f); got != c.want {
			t.Errorf("List(%+v): %d, want %d", c.f, got, c.want)
		}
	}
	page, next, err := s.List(ctx, Filter{})
	if err != nil || len(page) != DefaultListLimit || next == "" {
		t.Fatalf("default limit: %d, %q, %v", len(page), next, err)
	}
}

func testCancelQueued(t *testing.T, dsn string) {
	s := openT(t, dsn)
	ctx := context.Background()
	v := s.submit("spec", Meta{})
	if err := s.Cancel(ctx, v.ID); err != nil {
		t.Fatal(err)
	}
	if err := s.Cancel(ctx, v.ID); err != nil {
		t.Fatalf("second Cancel: %v", err)
	}
	var calls atomic.Int32
	s.work(1, countRuns(&calls, okRunner("w")))
	// A later validation runs, so the cancelled one had its chance.
	w := s.submit("other", Meta{})
	s.waitFor(w.ID, "done", hasStatus(Done))
	if g := s.get(v.ID); g.Status != Cancelled || g.FinishedAt == nil {
		t.Fatalf("cancelled: %+v", g)
	}
	if calls.Load() != 1 {
		t.Fatalf("runner called %d times, want 1", calls.Load())
	}
	if err := s.Cancel(ctx, w.ID); !errors.Is(err, ErrFinished) {
		t.Fatalf("Cancel(done): %v", err)
	}
	if err := s.Cancel(ctx, "nope"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("Cancel(unknown): %v", err)
	}
}

func testCancelRunning(t *testing.T, dsn string) {
	s := openT(t, dsn)
	observed := make(chan error, 1)
	w := s.work(1, func(ctx context.Context, v *Validation, p func(Progress)) (Result, error) {
		p(Progress{Phase: "solve"})
		<-ctx.Done()
		observed <- ctx.Err()
		return Result{}, ctx.Err()
	})
	v := s.submit("spec", Meta{})
	s.waitFor(v.ID, "running", hasStatus(Running))
	if err := s.Cancel(context.Background(), v.ID); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-observed:
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("runner saw %v", err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("runner's context not cancelled")
	}
	w.stop(t) // returns once the worker has recorded the cancelled attempt
	if g := s.get(v.ID); g.Status != Cancelled || g.Attempts != 1 {
		t.Fatalf("after cancel: %+v", g)
	}
	if err := s.Cancel(context.Background(), v.ID); err != nil {
		t.Fatalf("Cancel(cancelled): %v", err)
	}
}

func testPrune(t *testing.T, dsn string) {
	s := openT(t, dsn)
	ctx := context.Background()
	s.work(2, okRunner("w"))
	var ids []string
	for i := range 6 {
		v := s.submit(fmt.Sprintf("spec %d", i), Meta{Labels: map[string]string{"k": "v"}})
		s.waitFor(v.ID, "done", hasStatus(Done))
		ids = append(ids, v.ID)
	}
	// The cutoff falls after the last of ids finished (a microsecond, the
	// resolution of the stored times) and before the late one did: it is
	// submitted after that last one is seen done.
	cutoff := s.get(ids[len(ids)-1]).FinishedAt.Add(time.Microsecond)
	late := s.submit("spec late", Meta{})
	if d := s.waitFor(late.ID, "done", hasStatus(Done)); !d.FinishedAt.After(cutoff) {
		t.Fatalf("late validation finished at %v, before the cutoff %v", d.FinishedAt, cutoff)
	}
	// Keep the 5 newest finished: deletes ids[0] and ids[1].
	n, err := s.Prune(ctx, time.Time{}, 5)
	if err != nil || n != 2 {
		t.Fatalf("Prune(keep 5): %d, %v", n, err)
	}
	for i, id := range ids {
		_, err := s.Get(ctx, id)
		if (i < 2) != errors.Is(err, ErrNotFound) {
			t.Fatalf("after keep 5, %d: %v", i, err)
		}
	}
	// Age: deletes ids[2..5], keeps the late one.
	n, err = s.Prune(ctx, cutoff, 0)
	if err != nil || n != 4 {
		t.Fatalf("Prune(age): %d, %v", n, err)
	}
	page, _, err := s.List(ctx, Filter{Label: "k"})
	if err != nil || len(page) != 0 {
		t.Fatalf("labels after prune: %d, %v", len(page), err)
	}
	s.get(late.ID)
}

// testProgress: the stored progress follows the run, however close its
// events come: a phase that begins right after another (within the write
// interval) is stored while it lasts, and the last event is stored with
// the verdict.
func testProgress(t *testing.T, dsn string) {
	s := openT(t, dsn)
	release := make(chan struct{})
	symbolic := make(chan struct{})
	s.work(1, func(ctx context.Context, v *Validation, p func(Progress)) (Result, error) {
		p(Progress{Phase: "parse"})
		p(Progress{Phase: "symbolic"}) // at once: a long phase after a short one
		select {
		case <-symbolic:
		case <-ctx.Done():
			return Result{}, ctx.Err()
		}
		p(Progress{Phase: "solve", Done: 3, Total: 10})
		for i := range 1000 { // many more events than are written
			p(Progress{Phase: "solve", Done: 4 + i%5, Total: 10})
		}
		p(Progress{Phase: "solve", Done: 9, Total: 10})
		select {
		case <-release:
		case <-ctx.Done():
			return Result{}, ctx.Err()
		}
		return okRunner("w")(ctx, v, func(Progress) {})
	})
	v := s.submit("spec", Meta{})
	s.waitFor(v.ID, "the symbolic phase", func(v *Validation) bool { return v.Progress.Phase == "symbolic" })
	close(symbolic)
	got := s.waitFor(v.ID, "progress", func(v *Validation) bool { return v.Progress.Done == 9 })
	if got.Status != Running || got.Progress.Phase != "solve" {
		t.Fatalf("while running: %+v", got)
	}
	close(release)
	done := s.waitFor(v.ID, "done", hasStatus(Done))
	if done.Progress != (Progress{Phase: "solve", Done: 9, Total: 10}) {
		t.Fatalf("final progress %+v", done.Progress)
	}
}

func testRetryThenFail(t *testing.T, dsn string) {
	s := openT(t, dsn)
	var mu sync.Mutex
	calls := map[string]int{}
	s.work(2, func(ctx context.Context, v *Validation, p func(Progress)) (Result, error) {
		mu.Lock()
		calls[v.Spec]++
		n := calls[v.Spec]
		mu.Unlock()
		if v.Spec == "always fails" || n == 1 {
			return Result{}, fmt.Errorf("solver crashed (attempt %d)", n)
		}
		return okRunner("w")(ctx, v, p)
	})
	bad := s.submit("always fails", Meta{})
	flaky := s.submit("fails once", Meta{})
	f := s.waitFor(bad.ID, "failed", hasStatus(Failed))
	if f.Attempts != MaxAttempts || f.Error != "solver crashed (attempt 3)" || f.FinishedAt == nil {
		t.Fatalf("failed: %+v", f)
	}
	d := s.waitFor(flaky.ID, "done", hasStatus(Done))
	if d.Attempts != 2 || d.Error != "" {
		t.Fatalf("flaky: %+v", d)
	}
	mu.Lock()
	defer mu.Unlock()
	if calls["always fails"] != MaxAttempts {
		t.Fatalf("calls %v", calls)
	}
}

// testConcurrency: a worker runs as many validations at once as its
// concurrency allows, and no more. Every run is held until the test
// releases it, one at a time, once the bound is reached: the peak is
// observed while the runs overlap, without timing them.
func testConcurrency(t *testing.T, dsn string) {
	s := openT(t, dsn)
	const bound, n = 2, 7
	var running, peak atomic.Int32
	entered := make(chan struct{}, n)
	release := make(chan struct{}, n)
	s.work(bound, func(ctx context.Context, v *Validation, p func(Progress)) (Result, error) {
		k := running.Add(1)
		defer running.Add(-1)
		for {
			old := peak.Load()
			if k <= old || peak.CompareAndSwap(old, k) {
				break
			}
		}
		entered <- struct{}{}
		select {
		case <-release:
		case <-ctx.Done():
			return Result{}, ctx.Err()
		}
		return okRunner("w")(ctx, v, p)
	})
	var ids []string
	for i := range n {
		ids = append(ids, s.submit(fmt.Sprintf("spec %d", i), Meta{}).ID)
	}
	// Before each release, wait until as many runs as the bound allows
	// (or as remain) are in progress.
	inFlight := 0
	for released := 0; released < n; released++ {
		for inFlight < min(bound, n-released) {
			select {
			case <-entered:
				inFlight++
			case <-time.After(30 * time.Second):
				t.Fatalf("%d runs in progress after %d released, want %d", inFlight, released, min(bound, n-released))
			}
		}
		inFlight--
		release <- struct{}{}
	}
	for _, id := range ids {
		s.waitFor(id, "done", hasStatus(Done))
	}
	if p := peak.Load(); p != bound {
		t.Fatalf("peak concurrency %d, want the bound %d", p, bound)
	}
}

// testStaleWorker: a worker stuck in a run (alive, but hung past the
// run's time limit, so that it stops beating) loses its job to another,
// whose verdict stands: the stuck run's late result writes nothing.
func testStaleWorker(t *testing.T, dsn string) {
	stuck := openT(t, dsn, func(c *config) { c.noLeader = true },
		WithJobTimeout(300*time.Millisecond), WithRescueAfter(400*time.Millisecond))
	release := make(chan struct{})
	started := make(chan struct{}, 1)
	w1 := stuck.work(1, func(ctx context.Context, v *Validation, p func(Progress)) (Result, error) {
		started <- struct{}{}
		<-release // ignores its context, as a hung solver would
		return okRunner("stuck")(ctx, v, p)
	})
	v := stuck.submit("spec", Meta{})
	select {
	case <-started:
	case <-time.After(30 * time.Second):
		t.Fatal("first run did not start")
	}
	// Past its time limit the stuck run no longer beats, and the rescuer
	// takes it over once the stuck worker's rescue delay is over.
	rescuer := openT(t, dsn, WithJobTimeout(time.Second), WithRescueAfter(time.Second))
	rescuer.work(1, okRunner("rescuer"))
	done := rescuer.waitFor(v.ID, "done", hasStatus(Done))
	if reportRunner(t, done) != "rescuer" || done.Attempts != 2 {
		t.Fatalf("rescued: %+v", done)
	}
	close(release)
	w1.stop(t) // waits for the stuck run to return and be recorded
	final := rescuer.get(v.ID)
	if reportRunner(t, final) != "rescuer" || final.FinishedAt == nil || !final.FinishedAt.Equal(*done.FinishedAt) {
		t.Fatalf("second Done write: %+v", final)
	}
}

const helperEnv = "AUGUR_STORE_HELPER_DSN"

// TestHelperWorker is not a test: it is the worker process that
// testCrashRecovery starts and kills.
func TestHelperWorker(t *testing.T) {
	dsn := os.Getenv(helperEnv)
	if dsn == "" {
		t.Skip("helper process of the crash test")
	}
	s, err := Open(context.Background(), dsn, append(testOptions, func(c *config) { c.noLeader = true })...)
	if err != nil {
		t.Fatal(err)
	}
	s.Work(context.Background(), 1, 0, func(ctx context.Context, v *Validation, p func(Progress)) (Result, error) {
		p(Progress{Phase: "helper"})
		select {} // until killed
	})
}

// testCrashRecovery kills a worker process running a validation: its
// heartbeat stops, and the validation is rescued once the worker's rescue
// delay has passed since the last beat, not before, then run by another
// worker, once.
func testCrashRecovery(t *testing.T, dsn string) {
	s := openT(t, dsn)
	v := s.submit("spec", Meta{})
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperWorker$")
	cmd.Env = append(os.Environ(), helperEnv+"="+dsn)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	s.waitFor(v.ID, "running in the helper", func(v *Validation) bool { return v.Progress.Phase == "helper" })
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()
	if g := s.get(v.ID); g.Status != Running || g.Attempts != 1 {
		t.Fatalf("after the crash: %+v", g)
	}
	// The clock of the rescue is set just before, then just after, the
	// end of the dead worker's last heartbeat's rescue delay.
	until := s.aliveUntil(v.ID)
	if n := s.rescueAt(until.Add(-time.Microsecond)); n != 0 {
		t.Fatalf("rescued %d validations before the rescue delay was over", n)
	}
	if n := s.rescueAt(until.Add(time.Microsecond)); n != 1 {
		t.Fatalf("rescued %d validations after the rescue delay, want 1", n)
	}
	if g := s.get(v.ID); g.Status != Queued || !strings.Contains(g.Error, "went silent") {
		t.Fatalf("after the rescue: %+v", g)
	}
	if n := s.rescueAt(until.Add(time.Hour)); n != 0 {
		t.Fatalf("rescued a queued validation")
	}
	var calls atomic.Int32
	w := s.work(1, countRuns(&calls, okRunner("survivor")))
	done := s.waitFor(v.ID, "done", hasStatus(Done))
	if reportRunner(t, done) != "survivor" || done.Attempts != 2 {
		t.Fatalf("after rescue: %+v", done)
	}
	w.stop(t) // no run starts after this: a second one would have been counted
	if calls.Load() != 1 {
		t.Fatalf("survivor ran %d times", calls.Load())
	}
}

// testHeartbeat: a live run beats, pushing back the time it would be
// rescued at, so that a run longer than the rescue delay is never taken
// over; a validation whose worker went silent after its last attempt
// fails.
func testHeartbeat(t *testing.T, dsn string) {
	const delay = 400 * time.Millisecond
	s := openT(t, dsn, WithRescueAfter(delay))
	release := make(chan struct{})
	s.work(1, func(ctx context.Context, v *Validation, p func(Progress)) (Result, error) {
		select {
		case <-release:
		case <-ctx.Done():
			return Result{}, ctx.Err()
		}
		return okRunner("w")(ctx, v, p)
	})
	v := s.submit("spec", Meta{})
	started := *s.waitFor(v.ID, "running", hasStatus(Running)).StartedAt
	// Beats extend the time to live beyond the first rescue delay.
	deadline := time.Now().Add(40 * time.Second)
	for until := s.aliveUntil(v.ID); !until.After(started.Add(delay)); until = s.aliveUntil(v.ID) {
		if time.Now().After(deadline) {
			t.Fatalf("no heartbeat: alive until %v, started %v", until, started)
		}
		time.Sleep(20 * time.Millisecond)
	}
	close(release)
	if d := s.waitFor(v.ID, "done", hasStatus(Done)); d.Attempts != 1 {
		t.Fatalf("a live run was taken over: %+v", d)
	}

	// Out of attempts: failed, not queued again.
	v2 := s.submit("spec 2", Meta{})
	s.setRunning(v2.ID, MaxAttempts)
	if n := s.rescueAt(time.Now().Add(time.Hour)); n != 1 {
		t.Fatalf("rescued %d", n)
	}
	if g := s.get(v2.ID); g.Status != Failed || !strings.Contains(g.Error, "went silent") || g.FinishedAt == nil {
		t.Fatalf("silent on its last attempt: %+v", g)
	}
}

// testOrphanJob: a worker that died after writing a verdict, before
// River recorded its job completed, left the job running. Once a rescue
// delay has passed since the verdict, the job is made available again,
// and a worker completes it without running the validation again.
func testOrphanJob(t *testing.T, dsn string) {
	const delay = 400 * time.Millisecond
	s := openT(t, dsn, WithRescueAfter(delay))
	v := s.submit("spec", Meta{})
	q := s.Store.(interface{ testPool() querier }).testPool()
	ctx := context.Background()
	finished := time.Now()
	if _, err := q.exec(ctx, `UPDATE augur_validation SET status = $1, verdict = 'valid', attempts = 1,
		finished_at = $2 WHERE id = $3`, string(Done), micros(finished), v.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := q.exec(ctx, `UPDATE river_job SET state = 'running', attempt = 1
		WHERE id = (SELECT river_job_id FROM augur_validation WHERE id = $1)`, v.ID); err != nil {
		t.Fatal(err)
	}
	jobState := func() string {
		t.Helper()
		var st string
		if err := q.queryRow(ctx, `SELECT CAST(state AS TEXT) FROM river_job
			WHERE id = (SELECT river_job_id FROM augur_validation WHERE id = $1)`, v.ID).Scan(&st); err != nil {
			t.Fatal(err)
		}
		return st
	}
	release := func(now time.Time) int {
		t.Helper()
		n, err := s.Store.(interface {
			releaseOrphanJobs(context.Context, time.Time) (int, error)
		}).releaseOrphanJobs(ctx, now)
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	if n := release(finished.Add(delay - time.Microsecond)); n != 0 || jobState() != "running" {
		t.Fatalf("released %d jobs within the rescue delay (state %s)", n, jobState())
	}
	if n := release(finished.Add(delay + time.Microsecond)); n != 1 || jobState() != "available" {
		t.Fatalf("released %d jobs after the rescue delay, want 1 (state %s)", n, jobState())
	}
	var calls atomic.Int32
	w := s.work(1, countRuns(&calls, okRunner("again")))
	deadline := time.Now().Add(40 * time.Second)
	for jobState() != "completed" {
		if time.Now().After(deadline) {
			t.Fatalf("the released job was never completed: %s", jobState())
		}
		time.Sleep(20 * time.Millisecond)
	}
	w.stop(t)
	if calls.Load() != 0 {
		t.Fatalf("the finished validation ran again %d times", calls.Load())
	}
	if g := s.get(v.ID); g.Status != Done || g.Attempts != 1 {
		t.Fatalf("after the release: %+v", g)
	}
}

// testReopen: Open is idempotent and the data survives it.
func testReopen(t *testing.T, dsn string) {
	s := openT(t, dsn)
	v := s.submit("spec", Meta{Labels: map[string]string{"a": "b"}})
	s.Close()
	s2 := openT(t, dsn)
	s3 := openT(t, dsn)
	if g := s2.get(v.ID); g.Status != Queued || g.Meta.Labels["a"] != "b" {
		t.Fatalf("after reopen: %+v", g)
	}
	if err := s3.Ping(context.Background()); err != nil {
		t.Fatal(err)
	}
}

// testShutdownRequeues stops a worker past its grace period while it runs
// a validation: the validation goes back to the queue, without spending
// one of its attempts, and the next worker finishes it.
func testShutdownRequeues(t *testing.T, dsn string) {
	s := openT(t, dsn)
	v := s.submit("spec", Meta{})
	for round := 0; round < MaxAttempts; round++ {
		w := s.work(1, func(ctx context.Context, v *Validation, p func(Progress)) (Result, error) {
			<-ctx.Done()
			return Result{}, ctx.Err()
		}, func(w *workRun) { w.grace = 50 * time.Millisecond })
		s.waitFor(v.ID, "running", hasStatus(Running))
		w.stop(t)
		if g := s.get(v.ID); g.Status != Queued || g.Attempts != round+1 {
			t.Fatalf("after shutdown %d: %+v", round, g)
		}
	}
	s.work(1, okRunner("next"))
	done := s.waitFor(v.ID, "done", hasStatus(Done))
	if reportRunner(t, done) != "next" || done.Error != "" {
		t.Fatalf("after restart: %+v", done)
	}
}

// testListLeavesOutSources: a list carries the kernel's name but neither
// the sources nor the report (the bulk of a row); Get has them all. The
// Program filter matches the kernel file's name exactly.
func testListLeavesOutSources(t *testing.T, dsn string) {
	s := openT(t, dsn)
	ctx := context.Background()
	prog := "# a kernel\nkernel blur_x(W)\n  a[x] {A(x)} := 1\n"
	sub, err := s.Submit(ctx, &Validation{SpecName: "s.sare", Spec: "spec", ProgramName: "k/blur.sched", Program: prog})
	if err != nil {
		t.Fatal(err)
	}
	s.submit("other", Meta{})
	w := s.work(1, okRunner("w"))
	s.waitFor(sub.ID, "done", hasStatus(Done))
	w.stop(t)
	vs, _, err := s.List(ctx, Filter{Program: "k/blur.sched"})
	if err != nil {
		t.Fatal(err)
	}
	if len(vs) != 1 || vs[0].ID != sub.ID {
		t.Fatalf("List(Program: k/blur.sched) = %d validations, want %s alone", len(vs), sub.ID)
	}
	v := vs[0]
	if v.Kernel != "blur_x" || v.Spec != "" || v.Program != "" || v.Report != nil {
		t.Errorf("listed: kernel %q, spec %q, program %q, report %q; want blur_x and no sources nor report", v.Kernel, v.Spec, v.Program, v.Report)
	}
	if v.Verdict != "valid" || v.SpecName != "s.sare" || v.ProgramName != "k/blur.sched" || v.FinishedAt == nil {
		t.Errorf("listed: %+v, want the verdict, names and times", v)
	}
	if vs, _, _ := s.List(ctx, Filter{Program: "blur.sched"}); len(vs) != 0 {
		t.Errorf("List(Program: blur.sched) = %d validations, want none (exact names only)", len(vs))
	}
	g := s.get(sub.ID)
	if g.Kernel != "blur_x" || g.Program != prog || g.Spec != "spec" || len(g.Report) == 0 {
		t.Errorf("Get: kernel %q, program %q, spec %q, report %q; want them all", g.Kernel, g.Program, g.Spec, g.Report)
	}
}

// testInFlightShared: identical submissions made at once share one run:
// the first is queued with a job, the others wait for it, and all end
// with its verdict, each with its own metadata.
func testInFlightShared(t *testing.T, dsn string) {
	s := openT(t, dsn)
	var calls atomic.Int32
	release := make(chan struct{})
	w := s.work(2, func(ctx context.Context, v *Validation, p func(Progress)) (Result, error) {
		calls.Add(1)
		select {
		case <-release:
		case <-ctx.Done():
			return Result{}, ctx.Err()
		}
		return okRunner("w")(ctx, v, p)
	})
	const n = 50
	subs := make([]*Validation, n)
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for i := range n {
		wg.Go(func() {
			v, err := s.Submit(context.Background(), &Validation{SpecName: "s.sare", Spec: "spec",
				ProgramName: "p.sched", Program: "program", Meta: Meta{Commit: fmt.Sprint(i)}})
			if err != nil {
				errs <- err
				return
			}
			subs[i] = v
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatalf("Submit: %v", err)
	}
	leader := ""
	for _, v := range subs {
		if v.Status != Queued {
			t.Fatalf("submitted: %+v", v)
		}
		if v.CachedFrom == "" {
			if leader != "" {
				t.Fatalf("two runs queued: %s and %s", leader, v.ID)
			}
			leader = v.ID
		}
	}
	for _, v := range subs {
		if v.ID != leader && v.CachedFrom != leader {
			t.Fatalf("%s waits for %q, want %s", v.ID, v.CachedFrom, leader)
		}
	}
	close(release)
	for i, v := range subs {
		d := s.waitFor(v.ID, "done", hasStatus(Done))
		if d.Verdict != "valid" || reportRunner(t, d) != "w" || d.Meta.Commit != fmt.Sprint(i) || d.FinishedAt == nil {
			t.Fatalf("done: %+v", d)
		}
	}
	w.stop(t) // no run starts after this
	if c := calls.Load(); c != 1 {
		t.Fatalf("%d identical submissions made at once ran %d times, want once", n, c)
	}
	if c := s.submit("spec", Meta{}); c.Status != Queued && c.Status != Done {
		t.Fatalf("after: %+v", c)
	}
}

// testInFlightCancelHandsOver: cancelling the validation whose run others
// wait for cancels it alone: the first of those waiting gets the run, and
// the others wait for it.
func testInFlightCancelHandsOver(t *testing.T, dsn string) {
	s := openT(t, dsn)
	ctx := context.Background()
	a := s.submit("spec", Meta{Commit: "a"})
	b := s.submit("spec", Meta{Commit: "b"})
	c := s.submit("spec", Meta{Commit: "c"})
	d := s.submit("spec", Meta{Commit: "d"})
	if a.CachedFrom != "" || b.CachedFrom != a.ID || c.CachedFrom != a.ID || d.CachedFrom != a.ID {
		t.Fatalf("submitted: %s; %s waits for %s, %s for %s", a.ID, b.ID, b.CachedFrom, c.ID, c.CachedFrom)
	}
	// A waiting one cancelled: the others are untouched.
	if err := s.Cancel(ctx, d.ID); err != nil {
		t.Fatal(err)
	}
	if err := s.Cancel(ctx, a.ID); err != nil {
		t.Fatal(err)
	}
	if g := s.get(b.ID); g.Status != Queued || g.CachedFrom != "" {
		t.Fatalf("the first waiting after a cancel: %+v", g)
	}
	if g := s.get(c.ID); g.Status != Queued || g.CachedFrom != b.ID {
		t.Fatalf("the second waiting after a cancel: %+v", g)
	}
	var calls atomic.Int32
	w := s.work(1, countRuns(&calls, okRunner("w")))
	s.waitFor(b.ID, "done", hasStatus(Done))
	if g := s.waitFor(c.ID, "done", hasStatus(Done)); g.CachedFrom != b.ID || g.Verdict != "valid" {
		t.Fatalf("waiting for the new run: %+v", g)
	}
	w.stop(t)
	for _, id := range []string{a.ID, d.ID} {
		if g := s.get(id); g.Status != Cancelled {
			t.Fatalf("cancelled: %+v", g)
		}
	}
	if calls.Load() != 1 {
		t.Fatalf("%d runs, want 1", calls.Load())
	}
}

// testUpgrade: a database of the earlier version (no alive_until, no
// unique index on the validations in flight, identical ones queued with a
// job each) opens: the column and the index are added, and the later
// identical validations wait for the first's run.
func testUpgrade(t *testing.T, dsn string) {
	s := openT(t, dsn)
	ctx := context.Background()
	a := s.submit("spec", Meta{Commit: "a"})
	b := s.submit("spec", Meta{Commit: "b"})
	q := s.Store.(interface{ testPool() querier }).testPool()
	for _, stmt := range []string{
		`DROP INDEX augur_validation_in_flight`,
		`DROP INDEX augur_validation_running`,
		`ALTER TABLE augur_validation DROP COLUMN alive_until`,
		`UPDATE augur_validation SET cached_from = ''`, // as the earlier version queued them
	} {
		if _, err := q.exec(ctx, stmt); err != nil {
			t.Fatalf("%s: %v", stmt, err)
		}
	}
	s.Close()
	s2 := openT(t, dsn)
	if g := s2.get(b.ID); g.Status != Queued || g.CachedFrom != a.ID {
		t.Fatalf("after the upgrade, the later identical validation: %+v", g)
	}
	if c := s2.submit("spec", Meta{Commit: "c"}); c.CachedFrom != a.ID {
		t.Fatalf("after the upgrade, a new identical submission: %+v", c)
	}
	var calls atomic.Int32
	w := s2.work(1, countRuns(&calls, okRunner("w")))
	s2.waitFor(b.ID, "done", hasStatus(Done))
	if s2.aliveUntil(a.ID).Unix() <= 0 {
		t.Errorf("the run wrote no alive_until")
	}
	w.stop(t)
	if calls.Load() != 1 {
		t.Fatalf("%d runs, want 1", calls.Load())
	}
}
