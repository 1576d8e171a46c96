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
		Logger:      s.cfg.logger,
		Queues:      map[string]river.QueueConfig{river.QueueDefault: {MaxWorkers: concurrency}},
		Workers:     workers,
		MaxAttempts: MaxAttempts,
		JobTimeout:  s.cfg.jobTimeout,
		// A backstop: the heartbeats (rescueLoop) rescue the validations
		// of dead workers; River's rescuer, past the job timeout, a job
		// whose worker died before marking its validation running.
		RescueStuckJobsAfter:   s.cfg.jobTimeout + s.cfg.rescueAfter,
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
	rescuing := make(chan struct{})
	go func() {
		defer close(rescuing)
		s.rescueLoop(ctx)
	}()
	<-ctx.Done()
	<-rescuing
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
	now := s.cfg.now()
	n, err := q.exec(ctx, `UPDATE augur_validation SET status = $1, started_at = $2, alive_until = $3,
		attempts = attempts + 1, error = '' WHERE id = $4 AND status IN ($5, $6) AND cached_from = ''`,
		string(Running), micros(now), micros(now.Add(s.cfg.rescueAfter)), id, string(Queued), string(Running))
	if err != nil {
		return fmt.Errorf("mark %s running: %w", id, err)
	}
	if n == 0 {
		// Finished, cancelled or pruned meanwhile, or waiting for an
		// identical validation's run: nothing to do.
		return nil
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
		if err := s.db.inTx(bg, func(q querier, _ TTx) error {
			n, err := q.exec(bg, `UPDATE augur_validation SET status = $1, error = $2,
				finished_at = $3 WHERE id = $4 AND status = $5`,
				string(status), runErr.Error(), ended, id, string(Running))
			if err != nil || n == 0 || !final {
				return err
			}
			return settleWaiting(bg, q, id, outcome{status: Failed, err: runErr.Error()})
		}); err != nil {
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
		if n == 0 {
			return nil
		}
		// The identical submissions that waited for this run share its
		// verdict, whether or not it is cacheable: it is the one they
		// asked for.
		if err := settleWaiting(bg, q, id, outcome{status: Done, verdict: res.Verdict, reason: res.Reason,
			report: string(res.Report), progress: mustJSON(last)}); err != nil {
			return fmt.Errorf("record verdict of %s: %w", id, err)
		}
		if !res.Cacheable {
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
// databases. It also beats the run's heartbeat (see rescue) while ctx,
// the run's context bounded by the job timeout, lasts: a run hung beyond
// its time limit stops beating and is rescued.
func (w *validateWorker[TTx]) watch(ctx context.Context, id string, cancel context.CancelCauseFunc, done <-chan struct{}) {
	t := time.NewTicker(w.s.cfg.cancelPoll)
	defer t.Stop()
	beat := time.NewTicker(w.s.cfg.beat())
	defer beat.Stop()
	for {
		select {
		case <-done:
			return
		case <-ctx.Done():
			return
		case <-beat.C:
			// Best effort: a lost beat is made up by the next ones.
			w.s.db.pool().exec(ctx, `UPDATE augur_validation SET alive_until = $1
				WHERE id = $2 AND status = $3`, micros(w.s.cfg.now().Add(w.s.cfg.rescueAfter)), id, string(Running))
			continue
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

// outcome is how a run ended, for the validations waiting for it.
type outcome struct {
	status                            Status
	verdict, reason, report, progress string
	err                               string
}

// settleWaiting ends the validations waiting for the run of validation
// leader (identical submissions made while it was queued or running)
// with that run's outcome.
func settleWaiting(ctx context.Context, q querier, leader string, o outcome) error {
	now := micros(time.Now())
	progress := cmpOr(o.progress, "{}")
	_, err := q.exec(ctx, `UPDATE augur_validation SET status = $1, verdict = $2, reason = $3,
		report = $4, progress = $5, error = $6, started_at = $7, finished_at = $7
		WHERE status = $8 AND cached_from = $9`,
		string(o.status), o.verdict, o.reason, o.report, progress, o.err, now, string(Queued), leader)
	if err != nil {
		return fmt.Errorf("settle the validations waiting for %s: %w", leader, err)
	}
	return nil
}

// rescueLoop rescues the validations of dead workers (see rescue) every
// heartbeat interval, from the start, until ctx is done. Every working
// process does, so that one surviving worker is enough.
func (s *store[TTx]) rescueLoop(ctx context.Context) {
	t := time.NewTicker(s.cfg.beat())
	defer t.Stop()
	for {
		now := s.cfg.now()
		if _, err := s.rescue(ctx, now); err != nil && ctx.Err() == nil {
			s.cfg.logger.Warn("store: rescuing the validations of dead workers", "error", err)
		}
		if _, err := s.releaseOrphanJobs(ctx, now); err != nil && ctx.Err() == nil {
			s.cfg.logger.Warn("store: releasing the jobs of finished validations", "error", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// releaseOrphanJobs makes available again every running River job whose
// validation finished at least a rescue delay before now. River records a
// job completed a moment after its worker wrote the verdict, in a batch:
// a worker that dies in between leaves the job running although its
// validation is finished, and River's own rescuer would take it back
// only after the job timeout. A worker that takes the job again finds
// the validation finished and completes the job without running
// anything. It returns how many jobs it released.
func (s *store[TTx]) releaseOrphanJobs(ctx context.Context, now time.Time) (int, error) {
	before := micros(now) - s.cfg.rescueAfter.Microseconds()
	n, err := s.db.pool().exec(ctx, `UPDATE river_job SET state = 'available'
		WHERE state = 'running' AND kind = 'validate' AND EXISTS (SELECT 1 FROM augur_validation v
			WHERE v.river_job_id = river_job.id AND v.status IN ($1, $2, $3)
			AND v.finished_at > 0 AND v.finished_at < $4)`,
		string(Done), string(Failed), string(Cancelled), before)
	if err != nil {
		return 0, fmt.Errorf("store: releasing the jobs of finished validations: %w", err)
	}
	return int(n), nil
}

// rescue queues again, as of now, every running validation whose worker
// has not beaten for its rescue delay (the worker's own, see
// WithRescueAfter: each beat says "alive until now plus the delay", so
// that processes with different delays share a database safely): the
// worker died, or its run hung beyond its time limit. Its River job is
// made available again, for any worker; a validation that has used its
// attempts fails instead. A row of a worker that never beat (an earlier
// version) counts from its start, with this process's delay. It returns
// how many validations it rescued.
func (s *store[TTx]) rescue(ctx context.Context, now time.Time) (int, error) {
	const aliveUntil = `CASE WHEN alive_until > 0 THEN alive_until ELSE started_at + $1 END`
	late := micros(now)
	delay := s.cfg.rescueAfter.Microseconds()
	type stale struct {
		id       string
		job      int64
		attempts int64
		until    int64
	}
	var found []stale
	rs, err := s.db.pool().query(ctx, `SELECT id, river_job_id, attempts, `+aliveUntil+`
		FROM augur_validation WHERE status = $2 AND `+aliveUntil+` < $3`, delay, string(Running), late)
	if err != nil {
		return 0, fmt.Errorf("store: rescue: %w", err)
	}
	for rs.Next() {
		var v stale
		if err := rs.Scan(&v.id, &v.job, &v.attempts, &v.until); err != nil {
			rs.close()
			return 0, fmt.Errorf("store: rescue: %w", err)
		}
		found = append(found, v)
	}
	rs.close()
	if err := rs.Err(); err != nil {
		return 0, fmt.Errorf("store: rescue: %w", err)
	}
	n := 0
	for _, v := range found {
		overdue := now.Sub(time.UnixMicro(v.until)).Round(time.Millisecond)
		msg := fmt.Sprintf("its worker went silent: no heartbeat for its rescue delay and %s more (attempt %d of %d)", overdue, v.attempts, MaxAttempts)
		status, ended := Queued, int64(0)
		if v.attempts >= MaxAttempts {
			status, ended = Failed, micros(now)
		}
		rescued := false
		err := s.db.inTx(ctx, func(q querier, _ TTx) error {
			// Only if it is still silent: the worker may have beaten
			// since the query above.
			m, err := q.exec(ctx, `UPDATE augur_validation SET status = $2, error = $3, finished_at = $4
				WHERE id = $5 AND status = $6 AND `+aliveUntil+` < $7`,
				delay, string(status), msg, ended, v.id, string(Running), late)
			if err != nil || m == 0 {
				return err
			}
			rescued = true
			if status == Failed {
				if err := settleWaiting(ctx, q, v.id, outcome{status: Failed, err: msg}); err != nil {
					return err
				}
			}
			// The job becomes available again: another worker takes it,
			// runs it (queued), or finds it finished and drops it.
			_, err = q.exec(ctx, `UPDATE river_job SET state = 'available' WHERE id = $1 AND state = 'running'`, v.job)
			return err
		})
		if err != nil {
			return n, fmt.Errorf("store: rescue %s: %w", v.id, err)
		}
		if !rescued {
			continue
		}
		n++
		s.cfg.logger.Warn("store: rescued a validation whose worker went silent", "validation", v.id,
			"overdue", overdue.String(), "attempts", v.attempts, "status", string(status))
	}
	return n, nil
}
