package apitest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/augur-verify/augur/store"
)

// Store is an in-memory store.Store. The zero value is not usable; call
// NewStore.
type Store struct {
	mu    sync.Mutex
	seq   int
	byID  map[string]*entry
	order []*entry // in submission order
	// PingErr is what Ping returns.
	PingErr error
	// OnGet, when set, is called by Get before anything else (tests use
	// it to make a handler panic).
	OnGet func(id string)
}

type entry struct {
	seq    int
	v      store.Validation
	cancel context.CancelFunc // set while running
	// cacheable: the runner said its verdict may answer identical
	// submissions.
	cacheable bool
}

// NewStore returns an empty store.
func NewStore() *Store { return &Store{byID: map[string]*entry{}} }

var _ store.Store = (*Store)(nil)

func newID() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

func finished(s store.Status) bool {
	return s == store.Done || s == store.Cancelled || s == store.Failed
}

// Submit records v and queues it, or answers it at once from a Done
// validation with the same Key whose verdict was cacheable.
func (s *Store) Submit(ctx context.Context, v *store.Validation) (*store.Validation, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.seq++
	e := &entry{seq: s.seq, v: *v}
	e.v.ID = newID()
	e.v.CreatedAt = time.Now()
	e.v.Status = store.Queued
	e.v.Progress = store.Progress{}
	e.v.StartedAt, e.v.FinishedAt = nil, nil
	e.v.Verdict, e.v.Reason, e.v.Report, e.v.Error, e.v.CachedFrom = "", "", nil, "", ""
	e.v.Attempts = 0
	if e.v.Key != "" {
		for i := len(s.order) - 1; i >= 0; i-- {
			o := s.order[i]
			if o.v.Key == e.v.Key && o.v.Status == store.Done && o.v.Verdict != "" && o.cacheable {
				now := e.v.CreatedAt
				e.v.Status = store.Done
				e.v.Verdict, e.v.Reason, e.v.Report = o.v.Verdict, o.v.Reason, o.v.Report
				e.v.CachedFrom = o.v.ID
				if o.v.CachedFrom != "" {
					e.v.CachedFrom = o.v.CachedFrom
				}
				e.v.FinishedAt = &now
				break
			}
		}
	}
	s.byID[e.v.ID] = e
	s.order = append(s.order, e)
	out := e.v
	out.Kernel = store.KernelName(out.Program)
	return &out, nil
}

// Get returns a copy of the validation id.
func (s *Store) Get(ctx context.Context, id string) (*store.Validation, error) {
	if s.OnGet != nil {
		s.OnGet(id)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	e, ok := s.byID[id]
	if !ok {
		return nil, store.ErrNotFound
	}
	out := e.v
	return &out, nil
}

func matches(v *store.Validation, f store.Filter) bool {
	switch {
	case f.Repository != "" && v.Meta.Repository != f.Repository,
		f.Branch != "" && v.Meta.Branch != f.Branch,
		f.Commit != "" && v.Meta.Commit != f.Commit,
		f.Program != "" && v.ProgramName != f.Program,
		f.Verdict != "" && v.Verdict != f.Verdict,
		f.Status != "" && v.Status != f.Status,
		f.Name != "" && !strings.Contains(strings.ToLower(v.SpecName), strings.ToLower(f.Name)) &&
			!strings.Contains(strings.ToLower(v.ProgramName), strings.ToLower(f.Name)),
		!f.Since.IsZero() && v.CreatedAt.Before(f.Since),
		!f.Until.IsZero() && !v.CreatedAt.Before(f.Until):
		return false
	}
	if f.Label != "" {
		k, val, hasVal := strings.Cut(f.Label, "=")
		got, ok := v.Meta.Labels[k]
		if !ok || (hasVal && got != val) {
			return false
		}
	}
	return true
}

// List returns validations newest first; the cursor is the sequence
// number of the last one returned.
func (s *Store) List(ctx context.Context, f store.Filter) ([]*store.Validation, string, error) {
	limit := f.Limit
	if limit <= 0 {
		limit = 50
	}
	if limit > 500 {
		limit = 500
	}
	before := int(^uint(0) >> 1)
	if f.Cursor != "" {
		n, err := strconv.Atoi(f.Cursor)
		if err != nil || n < 0 {
			return nil, "", store.ErrInvalidCursor
		}
		before = n
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	var page []*store.Validation
	next, lastSeq := "", 0
	for i := len(s.order) - 1; i >= 0; i-- {
		e := s.order[i]
		if e.seq >= before || !matches(&e.v, f) {
			continue
		}
		if len(page) == limit {
			// More match: the cursor is the sequence number of the last
			// validation returned.
			next = strconv.Itoa(lastSeq)
			break
		}
		// As the real stores: no sources, no report.
		out := e.v
		out.Kernel = store.KernelName(out.Program)
		out.Spec, out.Program, out.Report = "", "", nil
		page = append(page, &out)
		lastSeq = e.seq
	}
	return page, next, nil
}

// Cancel cancels a queued or running validation.
func (s *Store) Cancel(ctx context.Context, id string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	e, ok := s.byID[id]
	if !ok {
		return store.ErrNotFound
	}
	if finished(e.v.Status) {
		return store.ErrFinished
	}
	now := time.Now()
	e.v.Status, e.v.FinishedAt = store.Cancelled, &now
	if e.cancel != nil {
		e.cancel()
	}
	return nil
}

// Prune deletes finished validations older than olderThan and the oldest
// finished ones beyond keep.
func (s *Store) Prune(ctx context.Context, olderThan time.Time, keep int) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	kept, n := 0, 0
	var order []*entry
	for i := len(s.order) - 1; i >= 0; i-- {
		e := s.order[i]
		if finished(e.v.Status) && e.v.FinishedAt != nil {
			if e.v.FinishedAt.Before(olderThan) || (keep > 0 && kept >= keep) {
				delete(s.byID, e.v.ID)
				n++
				continue
			}
			kept++
		}
		order = append(order, e)
	}
	for i, j := 0, len(order)-1; i < j; i, j = i+1, j-1 {
		order[i], order[j] = order[j], order[i]
	}
	s.order = order
	return n, nil
}

// take marks the oldest queued validation running and returns it.
func (s *Store) take(parent context.Context) (*entry, context.Context, store.Validation, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, e := range s.order {
		if e.v.Status == store.Queued {
			now := time.Now()
			e.v.Status, e.v.StartedAt = store.Running, &now
			e.v.Attempts++
			ctx, cancel := context.WithCancel(context.WithoutCancel(parent))
			e.cancel = cancel
			return e, ctx, e.v, true
		}
	}
	return nil, nil, store.Validation{}, false
}

// Work runs queued validations until ctx is done, then lets the running
// ones finish within grace and requeues the others.
func (s *Store) Work(ctx context.Context, concurrency int, grace time.Duration, run store.Runner) error {
	if concurrency <= 0 {
		concurrency = 1
	}
	var wg sync.WaitGroup
	slots := make(chan struct{}, concurrency)
	var (
		runMu   sync.Mutex
		running = map[*entry]bool{}
	)
	for ctx.Err() == nil {
		select {
		case slots <- struct{}{}:
		case <-ctx.Done():
			continue
		}
		e, jctx, v, ok := s.take(ctx)
		if !ok {
			<-slots
			select {
			case <-ctx.Done():
			case <-time.After(10 * time.Millisecond):
			}
			continue
		}
		runMu.Lock()
		running[e] = true
		runMu.Unlock()
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { <-slots }()
			res, err := run(jctx, &v, func(p store.Progress) {
				s.mu.Lock()
				if e.v.Status == store.Running {
					e.v.Progress = p
				}
				s.mu.Unlock()
			})
			runMu.Lock()
			delete(running, e)
			runMu.Unlock()
			s.mu.Lock()
			defer s.mu.Unlock()
			e.cancel()
			e.cancel = nil
			if e.v.Status != store.Running {
				return // cancelled or requeued meanwhile
			}
			now := time.Now()
			switch {
			case err != nil && ctx.Err() != nil:
				e.v.Status, e.v.StartedAt, e.v.Progress = store.Queued, nil, store.Progress{}
			case err != nil:
				e.v.Status, e.v.Error, e.v.FinishedAt = store.Failed, err.Error(), &now
			default:
				e.v.Status, e.v.FinishedAt = store.Done, &now
				e.v.Report, e.v.Verdict, e.v.Reason = res.Report, res.Verdict, res.Reason
				e.cacheable = res.Cacheable
			}
		}()
	}
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(grace):
		s.mu.Lock()
		runMu.Lock()
		for e := range running {
			if e.v.Status == store.Running {
				e.v.Status, e.v.StartedAt, e.v.Progress = store.Queued, nil, store.Progress{}
			}
			if e.cancel != nil {
				e.cancel()
			}
		}
		runMu.Unlock()
		s.mu.Unlock()
		<-done
	}
	return nil
}

// Ping returns PingErr.
func (s *Store) Ping(ctx context.Context) error { return s.PingErr }

// Close does nothing.
func (s *Store) Close() error { return nil }

// Set replaces a stored validation's fields (tests use it to put a
// validation into a given state); it reports whether id exists.
func (s *Store) Set(id string, f func(v *store.Validation)) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	e, ok := s.byID[id]
	if ok {
		f(&e.v)
	}
	return ok
}
