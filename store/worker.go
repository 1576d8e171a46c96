package store

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"
)

// Work implements Store: it runs a River client with a worker for the
// "validate" kind until ctx is done, then stops it softly (running
// validations may finish within grace) and, after grace, cancels the
// remaining runs, whose jobs River retries later (on this or another
// worker).
func (s *store[TTx]) Work(ctx context.Context, concurrency int, grace time.Duration, run Runner) error {
	if concurrency < 1 {
		return fmt.Errorf("store: work: concurrency %d < 1", concurrency)
	}
	workers := river.NewWorkers()
	if err := river.AddWorkerSafely(workers, &validateWorker[TTx]{s: s, run: run}); err != nil {
		return fmt.Errorf("store: work: %w", err)
	}
	client, err := river.NewClient(s.db.driver(), &river.Config{
		Logger:                 s.cfg.logger,
		Queues:                 map[string]river.QueueConfig{river.QueueDefault: {MaxWorkers: concurrency}},
		Workers:                workers,
		MaxAttempts:            MaxAttempts,
		JobTimeout:             s.cfg.jobTimeout,
		RescueStuckJobsAfter:   s.cfg.rescueAfter,
		FetchPollInterval:      s.cfg.fetchPollInterval,
		FetchCooldown:          min(s.cfg.fetchPollInterval, river.FetchCooldownDefault),
		RetryPolicy:            retryPolicy{s.cfg.retryDelay},
		LeaderElectionDisabled: s.cfg.noLeader,
	})
	if err != nil {
		return fmt.Errorf("store: work: %w", err)
	}
	// The client outlives ctx: stopping is ours to do, softly first.
	if err := client.Start(context.WithoutCancel(ctx)); err != nil {
		return fmt.Errorf("store: work: start: %w", err)
	}
	<-ctx.Done()
	soft, cancel := context.WithTimeout(context.WithoutCancel(ctx), grace)
	defer cancel()
	err = client.Stop(soft)
	if err == nil {
		return nil
	}
	if !errors.Is(err, context.DeadlineExceeded) {
		return fmt.Errorf("store: work: stop: %w", err)
	}
	// Cancel what still runs; give the runners a moment to notice and the
	// client to record the attempts (as errors, to be retried).
	hard, cancel2 := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
	defer cancel2()
	if err := client.StopAndCancel(hard); err != nil {
		return fmt.Errorf("store: work: stop and cancel: %w", err)
	}
	return nil
}

// retryPolicy retries after delay, 2·delay, 4·delay, ...
type retryPolicy struct{ delay time.Duration }

func (p retryPolicy) NextRetry(job *rivertype.JobRow) time.Time {
	n := max(len(job.Errors), 1) - 1
	return time.Now().Add(p.delay << min(n, 16))
}

// validateWorker runs the "validate" jobs of a store.
type validateWorker[TTx any] struct {
	river.WorkerDefaults[validateArgs]
	s   *store[TTx]
	run Runner
}

// errCancelled is the cause of a runner's context cancelled by Cancel.
var errCancelled = errors.New("validation cancelled")

// Work runs one attempt of one validation. The row's status makes it
// idempotent: a validation no longer queued or running (done by an earlier
// attempt, cancelled, failed) is left alone, and the verdict is written
// only over a running row, so at most once.
func (w *validateWorker[TTx]) Work(ctx context.Context, job *river.Job[validateArgs]) error {
	s, id := w.s, job.Args.ValidationID
	q := s.db.pool()
	now := time.Now()
	n, err := q.exec(ctx, `UPDATE augur_validation SET status = $1, started_at = $2,
		attempts = attempts + 1, error = '' WHERE id = $3 AND status IN ($4, $5)`,
		string(Running), micros(now), id, string(Queued), string(Running))
	if err != nil {
		return fmt.Errorf("mark %s running: %w", id, err)
	}
	if n == 0 {
		return nil // finished, cancelled or pruned meanwhile: nothing to do
	}
	v, err := s.get(ctx, q, id)
	if err != nil {
		return fmt.Errorf("load %s: %w", id, err)
	}

	runCtx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	watchDone := make(chan struct{})
	defer close(watchDone)
	go w.watch(runCtx, id, cancel, watchDone)

	p := startProgress(runCtx, s.cfg.progressEvery, func(ctx context.Context, pr Progress) {
		// Best effort: a lost progress event is harmless.
		q.exec(ctx, `UPDATE augur_validation SET progress = $1
			WHERE id = $2 AND status = $3`, mustJSON(pr), id, string(Running))
	})
	res, runErr := w.safeRun(runCtx, v, p.update)
	p.close()

	// The bookkeeping must happen even if the job's context just ended.
	bg, cancelBG := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
	defer cancelBG()
	if errors.Is(context.Cause(runCtx), errCancelled) {
		return river.JobCancel(errCancelled)
	}
	if runErr != nil && errors.Is(ctx.Err(), context.Canceled) {
		// The job's own context was cancelled: River cancelled the job
		// (Cancel from another process) or the client is shutting down.
		var status string
		if err := q.queryRow(bg, `SELECT status FROM augur_validation WHERE id = $1`, id).
			Scan(&status); err == nil && Status(status) == Cancelled {
			return river.JobCancel(errCancelled)
		}
		// Shutdown: requeue without spending an attempt of River's.
		if _, err := q.exec(bg, `UPDATE augur_validation SET status = $1, error = $2
			WHERE id = $3 AND status = $4`, string(Queued), "interrupted: "+runErr.Error(),
			id, string(Running)); err != nil {
			return fmt.Errorf("requeue %s: %w (after %w)", id, err, runErr)
		}
		return river.JobSnooze(0)
	}
	if runErr != nil {
		final := job.Attempt >= job.MaxAttempts
		status, ended := Queued, int64(0)
		if final {
			status, ended = Failed, micros(time.Now())
		}
		if _, err := q.exec(bg, `UPDATE augur_validation SET status = $1, error = $2,
			finished_at = $3 WHERE id = $4 AND status = $5`,
			string(status), runErr.Error(), ended, id, string(Running)); err != nil {
			return fmt.Errorf("record failure of %s: %w (after %w)", id, err, runErr)
		}
		return runErr
	}
	last := p.latest()
	return s.db.inTx(bg, func(q querier, _ TTx) error {
		n, err := q.exec(bg, `UPDATE augur_validation SET status = $1, verdict = $2, reason = $3,
			report = $4, progress = $5, finished_at = $6, error = ''
			WHERE id = $7 AND status = $8`,
			string(Done), res.Verdict, res.Reason, string(res.Report), mustJSON(last), micros(time.Now()),
			id, string(Running))
		if err != nil {
			return fmt.Errorf("record verdict of %s: %w", id, err)
		}
		if n == 0 || !res.Cacheable {
			return nil
		}
		if _, err := q.exec(bg, `INSERT INTO augur_cache (cache_key, validation_id) VALUES ($1, $2)
			ON CONFLICT (cache_key) DO UPDATE SET validation_id = excluded.validation_id`,
			CacheKey(s.cfg.verifier, v.Spec, v.Program, v.Options), id); err != nil {
			return fmt.Errorf("cache verdict of %s: %w", id, err)
		}
		return nil
	})
}

// safeRun calls the runner, turning a panic into an error.
func (w *validateWorker[TTx]) safeRun(ctx context.Context, v *Validation, progress func(Progress)) (res Result, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("runner panicked: %v", r)
		}
	}()
	return w.run(ctx, v, progress)
}

// watch cancels the run when the validation's row says Cancelled (or is
// gone), polling every cancelPoll: this works across processes on both
// databases.
func (w *validateWorker[TTx]) watch(ctx context.Context, id string, cancel context.CancelCauseFunc, done <-chan struct{}) {
	t := time.NewTicker(w.s.cfg.cancelPoll)
	defer t.Stop()
	for {
		select {
		case <-done:
			return
		case <-ctx.Done():
			return
		case <-t.C:
		}
		var status string
		err := w.s.db.pool().queryRow(ctx, `SELECT status FROM augur_validation WHERE id = $1`, id).Scan(&status)
		if errors.Is(err, errNoRows) || (err == nil && Status(status) == Cancelled) {
			cancel(errCancelled)
			return
		}
	}
}

// progressWriter persists a run's progress: the first event at once, then
// at most one write per interval, and always, after the interval, the
// latest event (a trailing write): a phase that lasts is shown even when
// it began within an interval of the previous one. Writes come from one
// goroutine, in order; the last event is also written with the verdict.
type progressWriter struct {
	write func(context.Context, Progress)
	every time.Duration
	mu    sync.Mutex
	last  Progress
	// kick wakes the writer when an event comes (capacity 1).
	kick chan struct{}
	stop context.CancelFunc
	done chan struct{}
}

// startProgress starts a progressWriter whose writes use ctx; stop ends
// it.
func startProgress(ctx context.Context, every time.Duration, write func(context.Context, Progress)) *progressWriter {
	ctx, cancel := context.WithCancel(ctx)
	p := &progressWriter{write: write, every: every, kick: make(chan struct{}, 1), stop: cancel, done: make(chan struct{})}
	go p.run(ctx)
	return p
}

// update records an event; the writer persists it, or a later one.
func (p *progressWriter) update(pr Progress) {
	p.mu.Lock()
	p.last = pr
	p.mu.Unlock()
	select {
	case p.kick <- struct{}{}:
	default: // a write is due already; it takes the latest event
	}
}

// latest returns the last event recorded.
func (p *progressWriter) latest() Progress {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.last
}

// close stops the writer and waits for it: no write happens after.
func (p *progressWriter) close() {
	p.stop()
	<-p.done
}

func (p *progressWriter) run(ctx context.Context) {
	defer close(p.done)
	t := time.NewTimer(p.every)
	t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-p.kick:
		}
		p.write(ctx, p.latest())
		// Then wait out the interval; events meanwhile only update
		// last, written once it is over.
		t.Reset(p.every)
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}
