package validate

import (
	"context"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/augur-verify/augur/symeval"
)

// aheadPairs are kernels with value conditions for the solver, valid and
// invalid.
var aheadPairs = [][2]string{
	{"matmul", "matmul.sched"},
	{"matmul", "matmul_tiled.sched"},
	{"matmul", "broken_tail_dropped.sched"},
	{"blur", "blur.sched"},
	{"blur", "broken_wrong_row.sched"},
}

func aheadPair(t *testing.T, p [2]string) (spec, prog string) {
	t.Helper()
	dir := filepath.Join("..", "examples", p[0])
	specs, _ := filepath.Glob(filepath.Join(dir, "*.sare"))
	if len(specs) != 1 {
		t.Fatalf("%s: %d specifications", dir, len(specs))
	}
	return specs[0], filepath.Join(dir, p[1])
}

// TestAheadSameReport checks that deciding the value conditions while the
// symbolic evaluation goes on (ahead.go) changes when they are decided,
// not what is decided: with ahead workers the report is the one that
// discharge alone gives, valid and invalid kernels alike (the
// counterexample included). How many outcomes the workers give depends
// on timing; TestAheadOutcomes checks them one by one. The Z3 resource
// units a condition used are not compared: a condition decided by an
// ahead worker's solver, after other queries, can count a few units more
// or fewer than in a fresh one (5,599 against 5,577 for
// broken_wrong_row's failed annotation), though every status, reason and
// counterexample is the same.
func TestAheadSameReport(t *testing.T) {
	for _, p := range aheadPairs {
		spec, prog := aheadPair(t, p)
		taken := -1
		ahead := validateFiles(t, spec, prog, Options{Jobs: 2, NoQuickTest: true, aheadTaken: func(n int) { taken = n }})
		alone := validateFiles(t, spec, prog, Options{Jobs: 1, NoQuickTest: true})
		if taken < 0 {
			t.Errorf("%s: no conditions decided ahead with 2 jobs", prog)
		}
		for _, r := range []*Report{ahead, alone} {
			r.Timings = nil
			for i := range r.Conditions {
				r.Conditions[i].Seconds = 0
				r.Conditions[i].Resources = 0
			}
		}
		if !reflect.DeepEqual(ahead, alone) {
			t.Errorf("%s: the report with conditions decided ahead differs:\n%+v\nwithout:\n%+v", prog, ahead, alone)
		}
	}
}

// aheadStartDeadline bounds TestAheadOutcomes' wait for the workers to
// start every job: far more than they need, even on a loaded machine.
const aheadStartDeadline = 5 * time.Minute

// TestAheadOutcomes decides every pending condition of the examples
// ahead, waits for the workers, and checks that discharge takes each
// outcome, equal to the one it would find itself, and that a condition
// the evaluation did not give is discharge's.
func TestAheadOutcomes(t *testing.T) {
	ctx := context.Background()
	for _, p := range aheadPairs {
		spec, prog := aheadPair(t, p)
		in, errs := loadInput(source(t, spec), source(t, prog))
		if len(errs) > 0 {
			t.Fatal(errs)
		}
		sh := &shared{ctx: ctx}
		sh.opts.defaults()
		v := newValidation(sh, analysed{in: in}, nil)
		a := v.startAhead(ctx, 2)
		an, err := symeval.Analyze(ctx, in.kernel, in.kinfo, in.spec, in.sinfo, symeval.AnalyzeOptions{Pending: a.add})
		if err != nil {
			t.Fatal(err)
		}
		// Let the workers start every job before finish; each job
		// takes well under a second.
		deadline := time.Now().Add(aheadStartDeadline)
		for {
			a.mu.Lock()
			idle := len(a.queue) == 0
			a.mu.Unlock()
			if idle {
				break
			}
			if time.Now().After(deadline) {
				a.close()
				t.Fatalf("%s: jobs still queued after %s", prog, aheadStartDeadline)
			}
			time.Sleep(time.Millisecond)
		}
		a.finish()
		pending := 0
		for _, c := range an.Conditions {
			if c.Status != symeval.Pending {
				if a.taken(c) != nil {
					t.Errorf("%s: C%d (%s) taken from ahead", prog, c.ID, c.Status)
				}
				continue
			}
			pending++
			got := a.taken(c)
			if _, first := a.jobs[c]; !first {
				continue // a duplicate: discharge copies its first's outcome
			}
			if got == nil {
				t.Errorf("%s: C%d not decided ahead", prog, c.ID)
				continue
			}
			s, err := newSolver(v)
			if err != nil {
				t.Fatal(err)
			}
			want := v.decideSafely(s, c)
			s.close()
			if got.status != want.status || got.reason != want.reason || got.resources != want.resources || got.solver != want.solver {
				t.Errorf("%s: C%d decided ahead: %s (%s, %d units), discharge: %s (%s, %d units)", prog, c.ID,
					got.status, got.reason, got.resources, want.status, want.reason, want.resources)
			}
		}
		if pending == 0 {
			t.Errorf("%s: no pending conditions", prog)
		}
		a.close()
	}
}

// TestAheadHalt checks what halt (the definedness probe's, before its
// replay) keeps: the outcome of a job that ended before it is taken, as
// discharge would decide it, and a job it interrupts, or that never
// started, is left to discharge. One worker; the second job halts ahead
// just before its solver starts (beforeDecide), so that its decision is
// cut short whatever the timing.
func TestAheadHalt(t *testing.T) {
	ctx := context.Background()
	spec, prog := aheadPair(t, aheadPairs[0])
	in, errs := loadInput(source(t, spec), source(t, prog))
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	sh := &shared{ctx: ctx}
	sh.opts.defaults()
	var a *ahead
	calls := 0 // one worker: no concurrent calls
	halted := make(chan struct{})
	sh.opts.beforeDecide = func(int) {
		if calls++; calls == 2 {
			a.halt()
			close(halted)
		}
	}
	v := newValidation(sh, analysed{in: in}, nil)
	a = v.startAhead(ctx, 1)
	an, err := symeval.Analyze(ctx, in.kernel, in.kinfo, in.spec, in.sinfo, symeval.AnalyzeOptions{Pending: a.add})
	if err != nil {
		t.Fatal(err)
	}
	select {
	case <-halted:
	case <-time.After(aheadStartDeadline):
		a.close()
		t.Fatalf("the worker did not start a second job within %s", aheadStartDeadline)
	}
	// Wait for the two jobs started (the second's interrupted).
	var started []*aheadJob
	for _, j := range a.jobs {
		a.mu.Lock()
		s := j.started
		a.mu.Unlock()
		if s {
			<-j.done
			started = append(started, j)
		}
	}
	if len(started) != 2 {
		a.close()
		t.Fatalf("%d jobs started, want 2 (the second halts ahead)", len(started))
	}
	taken := 0
	for _, c := range an.Conditions {
		if c.Status != symeval.Pending || a.jobs[c] == nil {
			continue
		}
		got := a.taken(c)
		if got == nil {
			continue
		}
		taken++
		s, err := newSolver(v)
		if err != nil {
			t.Fatal(err)
		}
		want := v.decideSafely(s, c)
		s.close()
		if got.status != want.status || got.reason != want.reason {
			t.Errorf("C%d taken after halt: %s (%s), discharge: %s (%s)", c.ID, got.status, got.reason, want.status, want.reason)
		}
	}
	a.close()
	if taken != 1 {
		t.Errorf("%d outcomes taken after halt, want 1 (the job that ended before it)", taken)
	}
}
