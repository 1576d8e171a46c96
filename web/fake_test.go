package web

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/augur-verify/augur/store"
	"github.com/augur-verify/augur/validate"
)

// fakeStore is an in-memory store.Store that records what the dashboard
// asks of it.
type fakeStore struct {
	mu      sync.Mutex
	vs      []*store.Validation // newest first
	err     error               // returned by every call when set
	filters []store.Filter      // every List call's filter
	gets    []string            // every Get call's id
}

func (s *fakeStore) put(v *store.Validation) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i, w := range s.vs {
		if w.ID == v.ID {
			s.vs[i] = v
			return
		}
	}
	s.vs = append([]*store.Validation{v}, s.vs...)
}

func (s *fakeStore) Get(ctx context.Context, id string) (*store.Validation, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.gets = append(s.gets, id)
	if s.err != nil {
		return nil, s.err
	}
	for _, v := range s.vs {
		if v.ID == id {
			c := *v
			c.Kernel = store.KernelName(c.Program)
			return &c, nil
		}
	}
	return nil, store.ErrNotFound
}

func (s *fakeStore) List(ctx context.Context, f store.Filter) ([]*store.Validation, string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.filters = append(s.filters, f)
	if s.err != nil {
		return nil, "", s.err
	}
	var match []*store.Validation
	for _, v := range s.vs {
		if f.Repository != "" && v.Meta.Repository != f.Repository ||
			f.Branch != "" && v.Meta.Branch != f.Branch ||
			f.Commit != "" && v.Meta.Commit != f.Commit ||
			f.Program != "" && v.ProgramName != f.Program ||
			f.Verdict != "" && v.Verdict != f.Verdict ||
			f.Status != "" && v.Status != f.Status ||
			f.Name != "" && !strings.Contains(strings.ToLower(v.SpecName), strings.ToLower(f.Name)) &&
				!strings.Contains(strings.ToLower(v.ProgramName), strings.ToLower(f.Name)) ||
			!f.Since.IsZero() && v.CreatedAt.Before(f.Since) ||
			!f.Until.IsZero() && !v.CreatedAt.Before(f.Until) {
			continue
		}
		if f.Label != "" {
			k, val, hasVal := strings.Cut(f.Label, "=")
			got, ok := v.Meta.Labels[k]
			if !ok || hasVal && got != val {
				continue
			}
		}
		// As the store does: no sources, no report.
		c := *v
		c.Kernel = store.KernelName(c.Program)
		c.Spec, c.Program, c.Report = "", "", nil
		match = append(match, &c)
	}
	start := 0
	if f.Cursor != "" {
		n, err := strconv.Atoi(f.Cursor)
		if err != nil {
			return nil, "", err
		}
		start = min(n, len(match))
	}
	limit := f.Limit
	if limit == 0 {
		limit = 50
	}
	end := min(start+limit, len(match))
	next := ""
	if end < len(match) {
		next = strconv.Itoa(end)
	}
	return match[start:end], next, nil
}

// Submit queues v under a new ID (when it has none).
func (s *fakeStore) Submit(ctx context.Context, v *store.Validation) (*store.Validation, error) {
	c := *v
	if c.ID == "" {
		s.mu.Lock()
		c.ID = fmt.Sprintf("v-new%d", len(s.vs))
		s.mu.Unlock()
		c.Status, c.CreatedAt = store.Queued, now
	}
	s.put(&c)
	return &c, nil
}

// Cancel cancels a queued or running validation.
func (s *fakeStore) Cancel(ctx context.Context, id string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i, v := range s.vs {
		if v.ID != id {
			continue
		}
		if v.Status != store.Queued && v.Status != store.Running {
			return store.ErrFinished
		}
		c := *v
		c.Status = store.Cancelled
		s.vs[i] = &c
		return nil
	}
	return store.ErrNotFound
}
func (s *fakeStore) Prune(ctx context.Context, olderThan time.Time, keep int) (int, error) {
	return 0, nil
}
func (s *fakeStore) Work(ctx context.Context, concurrency int, grace time.Duration, run store.Runner) error {
	return nil
}
func (s *fakeStore) Ping(ctx context.Context) error { return nil }
func (s *fakeStore) Close() error                   { return nil }

// now is the clock of the tests.
var now = time.Date(2026, 11, 22, 15, 0, 0, 0, time.UTC)

// The failing statement of examples/blur/broken_wrong_row.sched, line 17.
const failingStmt = "output[x, y] {Out(x, y)} := (bh[x, 0] + bh[x, 1] + bh[x, 1]) / 9"

// fixture is a store holding validations in every state, the two done
// ones from the reports augur validate --json wrote in testdata:
//
//	v-invalid  blur/broken_wrong_row.sched, invalid (annotation mismatch)
//	v-valid    matmul/matmul.sched, valid
//	v-unknown  matmul/matmul.sched with condition 11 undecided
//	v-error    an internal failure
//	v-running  solving, 3 of 12
//	v-queued   waiting
func fixture(t testing.TB) *fakeStore {
	t.Helper()
	read := func(name string) string {
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	at := func(minutes int) *time.Time {
		x := now.Add(-time.Duration(minutes) * time.Minute)
		return &x
	}
	blurSpec, blurProg := read("../examples/blur/blur.sare"), read("../examples/blur/broken_wrong_row.sched")
	mmSpec, mmProg := read("../examples/matmul/matmul.sare"), read("../examples/matmul/matmul.sched")
	invalidReport := withScripts(t, read("testdata/blur_broken_wrong_row.json"))
	validReport := read("testdata/matmul.json")

	var rep validate.Report
	if err := json.Unmarshal([]byte(validReport), &rep); err != nil {
		t.Fatal(err)
	}
	rep.Verdict, rep.Reason = validate.Unknown, "solver timeout"
	rep.Conditions[10].Status, rep.Conditions[10].Reason = validate.Undecided, "timeout after 20s"
	unknownReport, err := json.Marshal(&rep)
	if err != nil {
		t.Fatal(err)
	}

	s := &fakeStore{}
	add := func(v *store.Validation) { s.vs = append(s.vs, v) }
	add(&store.Validation{
		ID: "v-queued", SpecName: "examples/matmul/matmul.sare", Spec: mmSpec,
		ProgramName: "examples/matmul/matmul.sched", Program: mmProg,
		Meta:   store.Meta{Repository: "github.com/acme/kernels", Branch: "main", Commit: "0123456789abcdef0123"},
		Status: store.Queued, CreatedAt: *at(0),
	})
	add(&store.Validation{
		ID: "v-running", SpecName: "examples/matmul/matmul.sare", Spec: mmSpec,
		ProgramName: "examples/matmul/matmul.sched", Program: mmProg,
		Meta:      store.Meta{Repository: "github.com/acme/kernels", Branch: "main", Commit: "0123456789abcdef0123"},
		Status:    store.Running,
		Progress:  store.Progress{Phase: "solve", Done: 3, Total: 12},
		CreatedAt: *at(1), StartedAt: at(1),
	})
	add(&store.Validation{
		ID: "v-invalid", SpecName: "examples/blur/blur.sare", Spec: blurSpec,
		ProgramName: "examples/blur/broken_wrong_row.sched", Program: blurProg,
		Meta: store.Meta{Repository: "github.com/acme/kernels", Branch: "main", Commit: "0123456789abcdef0123",
			Pipeline: "1234", Job: "validate", Labels: map[string]string{"team": "imaging", "target": "x86"}},
		Status: store.Done, Verdict: "invalid", Reason: "annotation mismatch", Report: []byte(invalidReport),
		Attempts: 1, CreatedAt: *at(5), StartedAt: at(5), FinishedAt: at(4),
	})
	add(&store.Validation{
		ID: "v-valid", SpecName: "matmul.sare", Spec: mmSpec,
		// A cached verdict: the report names the files of the submission
		// validated first, the page this one's.
		ProgramName: "matmul.sched", Program: mmProg, CachedFrom: "v-origin",
		Meta:   store.Meta{Repository: "github.com/acme/kernels", Branch: "feature/tiling", Commit: "fedcba9876543210", Labels: map[string]string{"team": "linalg"}},
		Status: store.Done, Verdict: "valid", Report: []byte(validReport),
		Attempts: 1, CreatedAt: *at(90), StartedAt: at(90), FinishedAt: at(89),
	})
	add(&store.Validation{
		ID: "v-unknown", SpecName: "examples/matmul/matmul.sare", Spec: mmSpec,
		ProgramName: "examples/matmul/matmul.sched", Program: mmProg,
		Meta:   store.Meta{Repository: "github.com/acme/other", Branch: "main"},
		Status: store.Done, Verdict: "unknown", Reason: "solver timeout", Report: unknownReport,
		CreatedAt: *at(60 * 30), StartedAt: at(60 * 30), FinishedAt: at(60*30 - 1),
	})
	add(&store.Validation{
		ID: "v-error", SpecName: "examples/matmul/matmul.sare", Spec: mmSpec,
		ProgramName: "examples/matmul/matmul.sched", Program: mmProg,
		Status: store.Failed, Error: "worker ran out of memory",
		CreatedAt: *at(60 * 24 * 40),
	})
	return s
}

// readReport reads the report augur validate --json wrote to the file
// name.
func readReport(t testing.TB, name string) validate.Report {
	t.Helper()
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	var rep validate.Report
	if err := json.Unmarshal(data, &rep); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return rep
}

// withScripts gives the conditions of report that reached the solver an
// SMT-LIB2 script, as the workers keep them (the conditions decided
// without the solver have none).
func withScripts(t testing.TB, report string) string {
	t.Helper()
	var rep validate.Report
	if err := json.Unmarshal([]byte(report), &rep); err != nil {
		t.Fatal(err)
	}
	for i := range rep.Conditions {
		if c := &rep.Conditions[i]; strings.HasPrefix(c.Solver, "z3") {
			c.SMT = fmt.Sprintf("(set-option :produce-models true)\n(declare-const c%d Int)\n(check-sat)\n", c.ID)
		}
	}
	b, err := json.Marshal(&rep)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
