package validate

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/augur-verify/augur/smt"
	"github.com/augur-verify/augur/smt/encode"
	"github.com/augur-verify/augur/syntax"
)

// binsSources reads testdata/truncation: bins.sare and bins.sched, a grid
// read at the bin i32(x · (1 / R) + 0.5) of a float x clamped to [0, 1],
// the grid's bounds K3 and K4 computed from R (bilateral_grid's reads of
// its histogram, reduced).
func binsSources(t *testing.T) (spec, prog *syntax.Source) {
	t.Helper()
	read := func(name string) *syntax.Source {
		b, err := os.ReadFile(filepath.Join("testdata", "truncation", name))
		if err != nil {
			t.Fatal(err)
		}
		return &syntax.Source{Name: name, Text: string(b)}
	}
	return read("bins.sare"), read("bins.sched")
}

// binsDerived are the computations of bins.sare's K3 and K4 from R.
func binsDerived(t *testing.T) []Derived {
	t.Helper()
	var ds []Derived
	for _, d := range [][2]string{
		{"K3", "i32(max(f32(1.0) / R(), f32(0.0)) + f32(0.5))"},
		{"K4", "i32(min(f32(1.0) / R(), f32(0.0)) + f32(0.5))"},
	} {
		h, err := ParseDerived(d[0], d[1])
		if err != nil {
			t.Fatal(err)
		}
		ds = append(ds, h)
	}
	return ds
}

// TestCheckTermsTruncatedProduct: a counterexample search of
// bilateral_grid's (smt/testdata/truncated_product.smt2), which truncates
// a product of reals, stops within its resource limit, sat or out of
// resources: on it Z3 4.8.12's default arithmetic solver ran past the
// limit until the guard (Options.Timeout) stopped it, so that checkTerms
// gives such queries to the legacy one (legacyArith), and the default one
// only after it, within defaultRetryLimit (retryDefault).
func TestCheckTermsTruncatedProduct(t *testing.T) {
	t.Parallel()
	s, z := testSolver(t)
	spec, prog := binsSources(t)
	in, errs := loadInput(spec, prog)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	s.v.in = in
	ts := smtTestdata(t, z, "truncated_product.smt2")
	res, sol, err := s.checkTerms(ts, 10_000_000, true)
	if sol != nil {
		defer sol.Close()
	}
	if s.guard.Load() || res == smt.Unsat || res == smt.Unknown && !errors.Is(err, errResources) {
		t.Fatalf("check: %s (%v), guard reached %v; want sat or the resource limit", res, err, s.guard.Load())
	}
}

// TestBinsVerdict validates bins.sched with its derived parameters: at
// R = 0 the bin's conversion is undefined (1 / R has no value), an
// undefined value stored that the interpreter replays; INVALID within the
// default budgets, no check stopped by the wall-clock guard.
func TestBinsVerdict(t *testing.T) {
	t.Parallel()
	spec, prog := binsSources(t)
	rep, err := Validate(context.Background(), spec, prog, Options{ValueModel: encode.Real, Jobs: 1, Timeout: time.Hour, Derived: binsDerived(t)})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Verdict != Invalid || rep.Reason != "undefined value stored" || rep.Counterexample == nil || !rep.Counterexample.Reproduced || rep.TimeBound {
		t.Fatalf("%s (%s), time-bound %v; want invalid, an undefined value stored, replayed", rep.Verdict, rep.Reason, rep.TimeBound)
	}
}

// TestRetryDefaultStopsAtItsLimit: the default arithmetic solver's try at
// a query the legacy one gave up on (retryDefault) stops at its resource
// limit well within the CPU-time guard, on bilateral_grid's counterexample
// search (smt/testdata/truncated_product.smt2), on which Z3 4.8.12's
// default solver spends ever more time on each unit: at a condition's
// limit of 100,000,000 units it ran to the guard.
func TestRetryDefaultStopsAtItsLimit(t *testing.T) {
	t.Parallel()
	s, z := testSolver(t)
	s.v.opts.Timeout = time.Minute
	ts := smtTestdata(t, z, "truncated_product.smt2")
	res, sol, err := s.retryDefault(ts, 100_000_000)
	if sol != nil {
		defer sol.Close()
	}
	if s.guard.Load() || res == smt.Unknown && !errors.Is(err, errResources) {
		t.Fatalf("check: %s (%v), guard reached %v; want an answer or the resource limit", res, err, s.guard.Load())
	}
	if s.used > defaultRetryLimit+defaultRetryLimit/10 {
		t.Errorf("the check used %d units, want at most about %d", s.used, defaultRetryLimit)
	}
}

// TestRetryDefaultBoundedNonlinear: the default solver's try leaves out
// Z3's complete procedure for nonlinear reals (smt.Solver.
// UseBoundedNonlinear), in which, on nl_means's definedness probe
// (smt/testdata/probe_nonlinear.smt2), it ran past its resource limit
// and its interruption: the try ends at once, with an answer or
// incomplete. Without it the check reaches the guard.
func TestRetryDefaultBoundedNonlinear(t *testing.T) {
	t.Parallel()
	s, z := testSolver(t)
	s.v.opts.Timeout = 20 * time.Second
	ts := smtTestdata(t, z, "probe_nonlinear.smt2")
	res, sol, err := s.retryDefault(ts, 100_000_000)
	if sol != nil {
		defer sol.Close()
	}
	if s.guard.Load() {
		t.Fatalf("check: %s (%v) at the guard, %d units used", res, err, s.used)
	}
	if s.used > defaultRetryLimit {
		t.Errorf("the check used %d units, want at most %d", s.used, defaultRetryLimit)
	}
}

// smtTestdata parses the SMT-LIB script of the smt package's testdata
// named name in z.
func smtTestdata(t *testing.T, z *smt.Context, name string) []*smt.Term {
	t.Helper()
	script, err := os.ReadFile(filepath.Join("..", "smt", "testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	ts, err := z.ParseSMTLIB2(string(script))
	if err != nil {
		t.Fatal(err)
	}
	return ts
}
