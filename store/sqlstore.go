package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"
)

// store implements Store over one database; TTx is its driver's
// transaction type.
type store[TTx any] struct {
	db     db[TTx]
	cfg    config
	client *river.Client[TTx] // insert-only
	name   string
	ids    idGen
}

// validateArgs are the arguments of the "validate" job.
type validateArgs struct {
	ValidationID string `json:"validation_id"`
}

// Kind is the River job kind of a validation.
func (validateArgs) Kind() string { return "validate" }

// columns are the validation's columns, in the order scanValidation reads.
const columns = `id, content_key, spec_name, spec, program_name, program, options,
	repository, branch, commit_id, pipeline, job, labels, status, progress,
	verdict, reason, report, error, cached_from, attempts, created_at,
	started_at, finished_at`

// listColumns are columns for List, in the same order: the sources and
// the report, the bulk of a row, are left out (an empty string each), but
// for the beginning of the kernel, where its name is.
const listColumns = `id, content_key, spec_name, '', program_name, substr(program, 1, 4096),
	options, repository, branch, commit_id, pipeline, job, labels, status, progress,
	verdict, reason, '', error, cached_from, attempts, created_at, started_at,
	finished_at`

func micros(t time.Time) int64 { return t.UnixMicro() }

func fromMicros(us int64) *time.Time {
	if us == 0 {
		return nil
	}
	t := time.UnixMicro(us).UTC()
	return &t
}

func scanValidation(r row) (*Validation, error) {
	var (
		v                                 Validation
		options, labels, progress, report string
		status                            string
		attempts, created, started, ended int64
	)
	err := r.Scan(&v.ID, &v.Key, &v.SpecName, &v.Spec, &v.ProgramName, &v.Program, &options,
		&v.Meta.Repository, &v.Meta.Branch, &v.Meta.Commit, &v.Meta.Pipeline, &v.Meta.Job,
		&labels, &status, &progress, &v.Verdict, &v.Reason, &report, &v.Error,
		&v.CachedFrom, &attempts, &created, &started, &ended)
	if err != nil {
		return nil, err
	}
	v.Status = Status(status)
	v.Kernel = KernelName(v.Program)
	v.Attempts = int(attempts)
	v.CreatedAt = *fromMicros(created)
	v.StartedAt = fromMicros(started)
	v.FinishedAt = fromMicros(ended)
	if report != "" {
		v.Report = json.RawMessage(report)
	}
	if err := json.Unmarshal([]byte(options), &v.Options); err != nil {
		return nil, fmt.Errorf("options of %s: %w", v.ID, err)
	}
	if err := json.Unmarshal([]byte(labels), &v.Meta.Labels); err != nil {
		return nil, fmt.Errorf("labels of %s: %w", v.ID, err)
	}
	if err := json.Unmarshal([]byte(progress), &v.Progress); err != nil {
		return nil, fmt.Errorf("progress of %s: %w", v.ID, err)
	}
	return &v, nil
}

func mustJSON(x any) string {
	b, err := json.Marshal(x)
	if err != nil {
		panic(err) // Options, labels and Progress always marshal
	}
	return string(b)
}

// Submit implements Store.
func (s *store[TTx]) Submit(ctx context.Context, in *Validation) (*Validation, error) {
	v := *in
	v.Meta.Labels = maps.Clone(in.Meta.Labels)
	if v.Meta.Labels == nil {
		v.Meta.Labels = map[string]string{}
	}
	v.Key = Key(v.Spec, v.Program, v.Options)
	id, now, err := s.ids.next(time.Now())
	if err != nil {
		return nil, err
	}
	v.ID, v.CreatedAt = id, now.UTC()
	v.Status, v.Progress, v.Attempts = Queued, Progress{}, 0
	v.Verdict, v.Reason, v.Report, v.Error, v.CachedFrom = "", "", nil, "", ""
	v.StartedAt, v.FinishedAt = nil, nil

	err = s.db.inTx(ctx, func(q querier, tx TTx) error {
		// An identical submission's verdict, or its run in flight: at
		// most a few rounds, when a run finishes between the looks.
		for range 3 {
			ok, err := s.submitCached(ctx, q, &v)
			if err != nil || ok {
				return err
			}
			ok, err = s.submitRun(ctx, q, tx, &v)
			if err != nil || ok {
				return err
			}
			ok, err = s.submitWaiting(ctx, q, &v)
			if err != nil || ok {
				return err
			}
		}
		return errors.New("identical submissions kept finishing and starting: try again")
	})
	if err != nil {
		return nil, fmt.Errorf("store: submit: %w", err)
	}
	if len(v.Meta.Labels) == 0 {
		v.Meta.Labels = nil
	}
	return &v, nil
}

// submitCached records v answered with the verdict of an identical
// submission, a cacheable verdict of the same verifier, if there is one.
func (s *store[TTx]) submitCached(ctx context.Context, q querier, v *Validation) (bool, error) {
	var from, cachedFrom, verdict, reason, report string
	err := q.queryRow(ctx, `SELECT v.id, v.cached_from, v.verdict, v.reason, v.report
		FROM augur_cache c JOIN augur_validation v ON v.id = c.validation_id
		WHERE c.cache_key = $1 AND v.status = $2`,
		CacheKey(s.cfg.verifier, v.Spec, v.Program, v.Options), string(Done)).
		Scan(&from, &cachedFrom, &verdict, &reason, &report)
	if errors.Is(err, errNoRows) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("look up cache: %w", err)
	}
	v.Status, v.Verdict, v.Reason = Done, verdict, reason
	if report != "" {
		v.Report = json.RawMessage(report)
	}
	v.CachedFrom = cmpOr(cachedFrom, from)
	v.StartedAt, v.FinishedAt = &v.CreatedAt, &v.CreatedAt
	if _, err := s.insert(ctx, q, v, ""); err != nil {
		return false, err
	}
	return true, nil
}

// submitRun records v queued with a job of its own, unless an identical
// validation is queued or running already (the unique index
// augur_validation_in_flight says so, also between concurrent
// transactions of PostgreSQL, where this one then waits for the other's
// end).
func (s *store[TTx]) submitRun(ctx context.Context, q querier, tx TTx, v *Validation) (bool, error) {
	v.Status, v.CachedFrom = Queued, ""
	n, err := s.insert(ctx, q, v, ` ON CONFLICT (content_key) WHERE status IN ('queued', 'running') AND cached_from = '' DO NOTHING`)
	if err != nil || n == 0 {
		return false, err
	}
	return true, s.queueJob(ctx, q, tx, v.ID)
}

// submitWaiting records v queued waiting for the run of the identical
// validation in flight, if there still is one: v ends with its outcome
// (see settleWaiting).
func (s *store[TTx]) submitWaiting(ctx context.Context, q querier, v *Validation) (bool, error) {
	var leader string
	err := q.queryRow(ctx, `SELECT id FROM augur_validation WHERE content_key = $1
		AND status IN ('queued', 'running') AND cached_from = ''`, v.Key).Scan(&leader)
	if errors.Is(err, errNoRows) {
		return false, nil // finished meanwhile
	}
	if err != nil {
		return false, fmt.Errorf("look up a run in flight: %w", err)
	}
	v.Status, v.CachedFrom = Queued, leader
	if _, err := s.insert(ctx, q, v, ""); err != nil {
		return false, err
	}
	return true, nil
}

// queueJob inserts the River job of validation id.
func (s *store[TTx]) queueJob(ctx context.Context, q querier, tx TTx, id string) error {
	res, err := s.client.InsertTx(ctx, tx, validateArgs{ValidationID: id},
		&river.InsertOpts{MaxAttempts: MaxAttempts})
	if err != nil {
		return fmt.Errorf("queue: %w", err)
	}
	if _, err := q.exec(ctx, `UPDATE augur_validation SET river_job_id = $1 WHERE id = $2`, res.Job.ID, id); err != nil {
		return fmt.Errorf("queue: %w", err)
	}
	return nil
}

// insert inserts v's row and its labels, the row's INSERT ending with
// conflict; it returns how many rows it inserted (0 or 1).
func (s *store[TTx]) insert(ctx context.Context, q querier, v *Validation, conflict string) (int64, error) {
	var finished int64
	if v.FinishedAt != nil {
		finished = micros(*v.FinishedAt)
	}
	n, err := q.exec(ctx, `INSERT INTO augur_validation (id, content_key,
		spec_name, spec, program_name, program, options, repository, branch,
		commit_id, pipeline, job, labels, status, verdict, reason, report,
		cached_from, created_at, started_at, finished_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14,
		$15, $16, $17, $18, $19, $20, $21)`+conflict,
		v.ID, v.Key, v.SpecName, v.Spec, v.ProgramName, v.Program, mustJSON(v.Options),
		v.Meta.Repository, v.Meta.Branch, v.Meta.Commit, v.Meta.Pipeline, v.Meta.Job,
		mustJSON(v.Meta.Labels), string(v.Status), v.Verdict, v.Reason, string(v.Report),
		v.CachedFrom, micros(v.CreatedAt), finished, finished)
	if err != nil || n == 0 {
		if err != nil {
			err = fmt.Errorf("insert: %w", err)
		}
		return 0, err
	}
	for _, k := range slices.Sorted(maps.Keys(v.Meta.Labels)) {
		if _, err := q.exec(ctx, `INSERT INTO augur_validation_label
			(validation_id, name, value) VALUES ($1, $2, $3)`,
			v.ID, k, v.Meta.Labels[k]); err != nil {
			return 0, fmt.Errorf("insert label: %w", err)
		}
	}
	return n, nil
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// Get implements Store.
func (s *store[TTx]) Get(ctx context.Context, id string) (*Validation, error) {
	v, err := s.get(ctx, s.db.pool(), id)
	if err != nil {
		return nil, fmt.Errorf("store: get %s: %w", id, err)
	}
	return v, nil
}

func (s *store[TTx]) get(ctx context.Context, q querier, id string) (*Validation, error) {
	v, err := scanValidation(q.queryRow(ctx, `SELECT `+columns+` FROM augur_validation WHERE id = $1`, id))
	if errors.Is(err, errNoRows) {
		return nil, ErrNotFound
	}
	return v, err
}

// likeEscaper escapes LIKE's wildcards (with the escape character \).
var likeEscaper = strings.NewReplacer(`\`, `\\`, "%", `\%`, "_", `\_`)

// Limits of List.
const (
	DefaultListLimit = 50
	MaxListLimit     = 500
)

// List implements Store. The cursor is the ID of the last validation of the
// page: IDs are time-ordered, so "older than the cursor" is the next page,
// stable under insertions.
func (s *store[TTx]) List(ctx context.Context, f Filter) ([]*Validation, string, error) {
	if f.Cursor != "" && !validID(f.Cursor) {
		return nil, "", fmt.Errorf("store: list: %w", ErrInvalidCursor)
	}
	limit := f.Limit
	if limit <= 0 {
		limit = DefaultListLimit
	}
	limit = min(limit, MaxListLimit)
	var (
		where []string
		args  []any
	)
	add := func(cond string, vals ...any) {
		for _, v := range vals {
			args = append(args, v)
			cond = strings.Replace(cond, "?", fmt.Sprintf("$%d", len(args)), 1)
		}
		where = append(where, cond)
	}
	if f.Repository != "" {
		add("repository = ?", f.Repository)
	}
	if f.Branch != "" {
		add("branch = ?", f.Branch)
	}
	if f.Commit != "" {
		add("commit_id = ?", f.Commit)
	}
	if f.Program != "" {
		add("program_name = ?", f.Program)
	}
	if f.Verdict != "" {
		add("verdict = ?", f.Verdict)
	}
	if f.Status != "" {
		add("status = ?", string(f.Status))
	}
	if f.Label != "" {
		if k, val, ok := strings.Cut(f.Label, "="); ok {
			add(`EXISTS (SELECT 1 FROM augur_validation_label l WHERE
				l.validation_id = augur_validation.id AND l.name = ? AND l.value = ?)`, k, val)
		} else {
			add(`EXISTS (SELECT 1 FROM augur_validation_label l WHERE
				l.validation_id = augur_validation.id AND l.name = ?)`, f.Label)
		}
	}
	if f.Name != "" {
		pat := "%" + likeEscaper.Replace(strings.ToLower(f.Name)) + "%"
		add(`(LOWER(spec_name) LIKE ? ESCAPE '\' OR LOWER(program_name) LIKE ? ESCAPE '\')`, pat, pat)
	}
	if !f.Since.IsZero() {
		add("created_at >= ?", micros(f.Since))
	}
	if !f.Until.IsZero() {
		add("created_at < ?", micros(f.Until))
	}
	if f.Cursor != "" {
		add("id < ?", f.Cursor)
	}
	q := `SELECT ` + listColumns + ` FROM augur_validation`
	if len(where) > 0 {
		q += " WHERE " + strings.Join(where, " AND ")
	}
	q += fmt.Sprintf(" ORDER BY id DESC LIMIT %d", limit+1)
	rs, err := s.db.pool().query(ctx, q, args...)
	if err != nil {
		return nil, "", fmt.Errorf("store: list: %w", err)
	}
	defer rs.close()
	var out []*Validation
	for rs.Next() {
		v, err := scanValidation(rs)
		if err != nil {
			return nil, "", fmt.Errorf("store: list: %w", err)
		}
		v.Program = ""
		out = append(out, v)
	}
	if err := rs.Err(); err != nil {
		return nil, "", fmt.Errorf("store: list: %w", err)
	}
	next := ""
	if len(out) > limit {
		out = out[:limit]
		next = out[limit-1].ID
	}
	return out, next, nil
}

// Cancel implements Store. A queued validation's job is cancelled in
// River; a running one's worker sees the status and cancels its runner.
// The identical submissions waiting for its run are not cancelled: the
// first of them gets a run of its own, which the others then wait for.
func (s *store[TTx]) Cancel(ctx context.Context, id string) error {
	var jobID int64
	err := s.db.inTx(ctx, func(q querier, tx TTx) error {
		var status, leader string
		err := q.queryRow(ctx, `SELECT status, river_job_id, cached_from FROM augur_validation WHERE id = $1`, id).
			Scan(&status, &jobID, &leader)
		if errors.Is(err, errNoRows) {
			return ErrNotFound
		}
		if err != nil {
			return err
		}
		switch Status(status) {
		case Cancelled:
			jobID = 0
			return nil
		case Done, Failed:
			return ErrFinished
		}
		_, err = q.exec(ctx, `UPDATE augur_validation SET status = $1, finished_at = $2
			WHERE id = $3`, string(Cancelled), micros(time.Now()), id)
		if err != nil || leader != "" {
			return err
		}
		return s.handOver(ctx, q, tx, id)
	})
	if err != nil {
		return fmt.Errorf("store: cancel %s: %w", id, err)
	}
	if jobID != 0 {
		_, err := s.client.JobCancel(ctx, jobID)
		if err != nil && !errors.Is(err, rivertype.ErrNotFound) {
			return fmt.Errorf("store: cancel %s: job %d: %w", id, jobID, err)
		}
	}
	return nil
}

// handOver gives the run of cancelled validation id to the first of the
// identical submissions waiting for it, if any: it gets a job of its
// own, and the others wait for it.
func (s *store[TTx]) handOver(ctx context.Context, q querier, tx TTx, id string) error {
	var next string
	err := q.queryRow(ctx, `SELECT COALESCE(MIN(id), '') FROM augur_validation
		WHERE status = $1 AND cached_from = $2`, string(Queued), id).Scan(&next)
	if err != nil || next == "" {
		return err
	}
	if _, err := q.exec(ctx, `UPDATE augur_validation SET cached_from = '' WHERE id = $1`, next); err != nil {
		return err
	}
	if _, err := q.exec(ctx, `UPDATE augur_validation SET cached_from = $1
		WHERE status = $2 AND cached_from = $3`, next, string(Queued), id); err != nil {
		return err
	}
	return s.queueJob(ctx, q, tx, next)
}

// Prune implements Store.
func (s *store[TTx]) Prune(ctx context.Context, olderThan time.Time, keep int) (int, error) {
	finished := `status IN ('done', 'failed', 'cancelled')`
	var n int64
	err := s.db.inTx(ctx, func(q querier, _ TTx) error {
		// The side table first, in case foreign keys are not enforced.
		del := func(where string, args ...any) error {
			if _, err := q.exec(ctx, `DELETE FROM augur_validation_label WHERE validation_id IN
				(SELECT id FROM augur_validation WHERE `+where+`)`, args...); err != nil {
				return err
			}
			m, err := q.exec(ctx, `DELETE FROM augur_validation WHERE `+where, args...)
			n += m
			return err
		}
		if err := del(finished+` AND finished_at < $1`, micros(olderThan)); err != nil {
			return err
		}
		if keep > 0 {
			return del(finished+` AND id < (SELECT id FROM augur_validation WHERE `+finished+`
				ORDER BY id DESC LIMIT 1 OFFSET $1)`, int64(keep-1))
		}
		return nil
	})
	if err != nil {
		return 0, fmt.Errorf("store: prune: %w", err)
	}
	return int(n), nil
}

// Ping implements Store.
func (s *store[TTx]) Ping(ctx context.Context) error {
	if err := s.db.ping(ctx); err != nil {
		return fmt.Errorf("store: ping %s: %w", s.name, err)
	}
	return nil
}

// Close implements Store.
func (s *store[TTx]) Close() error {
	if err := s.db.close(); err != nil {
		return fmt.Errorf("store: close %s: %w", s.name, err)
	}
	return nil
}
