package corpus

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/augur-verify/augur/expr"
	"github.com/augur-verify/augur/sare"
	"github.com/augur-verify/augur/sched"
	"github.com/augur-verify/augur/syntax"
	"github.com/augur-verify/augur/value"
)

// seeds are the seeds of the random inputs of every run line, as
// augur run --trials 3 uses them.
var seeds = []uint64{1, 2, 3}

// TestInterpreterAgrees runs every case of the corpus with the reference
// interpreter (sched.Run against sare's evaluator, floats compared exactly
// in the real model's equality, without garbage writes) on each of its
// run lines and seeds, against its verdict without garbage writes
// (Case.ExpectWithoutGarbage):
//
//   - a valid or unknown case never fails;
//   - an invalid case fails with its reason's kind on at least one run
//     line, and with no other kind on any;
//   - a case whose reason is sched.IllDefinedSpec makes Run return, on at least one
//     run line, an error that is not a *sched.Failure and that mentions
//     "ill-defined specification" (augur run exits with status 3); it
//     never returns a failure of the kernel.
//
// A case valid in both value models also passes runs that compare floats
// bit for bit (the ieee model's equality): none depends on the sign of a
// zero without an ieee header saying so.
func TestInterpreterAgrees(t *testing.T) {
	forEachCase(t, func(t *testing.T, c Case, r *runner) {
		want := c.ExpectWithoutGarbage()
		r.agree(t, want, sched.Options{Equality: value.RealEqual}, func(kind sched.Kind) bool { return kind == want.Reason })
		if ieee := c.ExpectFor("ieee"); c.NoGarbage == nil && ieee.Verdict == Valid {
			r.agree(t, ieee, sched.Options{}, nil)
		}
	})
}

// TestInterpreterGarbageWrites replays every case of the corpus with the
// interpreter in garbage-writes mode (augur run --garbage-writes, in the
// real model's equality) against its verdict with garbage writes, the
// default of augur validate (Case.Expect): a valid or unknown case never
// fails, and an invalid one fails as the verifier reports it on at least
// one run line, with no other kind on any. The verifier reports garbage
// that reaches an out cell, or conflicts with a value in a par loop, as
// the undefined read where it starts; the interpreter, where it ends: an
// invalid undefined read is an output not written or a write-write
// conflict here.
func TestInterpreterGarbageWrites(t *testing.T) {
	forEachCase(t, func(t *testing.T, c Case, r *runner) {
		want := c.ExpectFor("real")
		r.agree(t, want, sched.Options{GarbageWrites: true, Equality: value.RealEqual}, func(kind sched.Kind) bool {
			if want.Reason == sched.UndefinedRead {
				return kind == sched.OutputNotWritten || kind == sched.WriteWriteConflict
			}
			return kind == want.Reason
		})
	})
}

// forEachCase loads the corpus and calls f on every case, in a subtest,
// with a runner of its kernel.
func forEachCase(t *testing.T, f func(*testing.T, Case, *runner)) {
	cases, err := Load(corpusDir)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	specs := map[string]*loadedSpec{}
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			ls, ok := specs[c.SpecFile]
			if !ok {
				ls = loadSpec(c.SpecFile)
				specs[c.SpecFile] = ls
			}
			if ls.err != nil {
				t.Fatal(ls.err)
			}
			src, err := readSource(c.ProgFile)
			if err != nil {
				t.Fatal(err)
			}
			k, kinfo, err := sched.Load(src, ls.spec)
			if err != nil {
				t.Fatalf("%s does not check: %v", c.ProgFile, err)
			}
			f(t, c, &runner{ctx: ctx, ls: ls, k: k, kinfo: kinfo, runs: c.Runs})
		})
	}
}

// runner runs one kernel of the corpus on its run lines.
type runner struct {
	ctx   context.Context
	ls    *loadedSpec
	k     *sched.Kernel
	kinfo *sched.Info
	runs  []map[string]int64
}

// agree runs the kernel with opts on every run line and seed and checks
// the outcomes against want: a valid or unknown case never fails; an
// invalid one fails on at least one run line with a kind that shows its
// reason (shows; nil: only the reason itself), and with no other kind on
// any.
func (r *runner) agree(t *testing.T, want Expectation, opts sched.Options, shows func(kind sched.Kind) bool) {
	t.Helper()
	if shows == nil {
		shows = func(kind sched.Kind) bool { return kind == want.Reason }
	}
	shown := false
	for _, params := range r.runs {
		for _, seed := range seeds {
			got := runOnce(r.ctx, t, r.ls, r.k, r.kinfo, params, seed, opts)
			where := fmt.Sprintf("run %s seed %d (%s)", formatRun(params), seed, describeOptions(opts))
			switch {
			case want.Verdict != Invalid && got != 0:
				t.Errorf("%s: expected %s, the interpreter reports %s", where, want, got)
			case want.Verdict == Invalid && got != 0 && !shows(got):
				t.Errorf("%s: expected %s, the interpreter reports %s", where, want, got)
			case got != 0:
				shown = true
			}
		}
	}
	if want.Verdict == Invalid && !shown {
		t.Errorf("expected %s, but no run line and seed exhibits it (%s)", want, describeOptions(opts))
	}
}

// describeOptions names the interpreter's mode in a failure message.
func describeOptions(opts sched.Options) string {
	s := "bit-exact"
	if opts.Equality == value.RealEqual {
		s = "real equality"
	}
	if opts.GarbageWrites {
		s += ", garbage writes"
	}
	return s
}

type loadedSpec struct {
	spec *sare.Spec
	info *expr.Info
	err  error
}

func loadSpec(path string) *loadedSpec {
	src, err := readSource(path)
	if err != nil {
		return &loadedSpec{err: err}
	}
	spec, info, err := sare.Load(src)
	if err != nil {
		return &loadedSpec{err: fmt.Errorf("%s does not check: %w", path, err)}
	}
	return &loadedSpec{spec: spec, info: info}
}

func readSource(path string) (*syntax.Source, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return &syntax.Source{Name: path, Text: string(data)}, nil
}

// runOnce runs the kernel once and classifies the outcome: 0 when
// everything matched, the failure's kind, or sched.IllDefinedSpec. Any other error (parameters
// violating an assumption, an exhausted budget) fails the test: the run
// line is wrong, not the kernel.
func runOnce(ctx context.Context, t *testing.T, ls *loadedSpec, k *sched.Kernel, kinfo *sched.Info, params map[string]int64, seed uint64, opts sched.Options) sched.Kind {
	t.Helper()
	ev, err := sare.NewEvaluator(ls.spec, ls.info, params, sare.RandomInputs(seed))
	if err != nil {
		t.Fatalf("run %s: %v", formatRun(params), err)
	}
	_, err = sched.Run(ctx, k, kinfo, ev, opts)
	var fail *sched.Failure
	switch {
	case err == nil:
		return 0
	case errors.As(err, &fail):
		return fail.Kind
	case errors.As(err, new(*sched.AssumptionError)), errors.Is(err, sched.ErrBudget), ctx.Err() != nil:
		t.Fatalf("run %s seed %d: %v", formatRun(params), seed, err)
	case strings.Contains(err.Error(), sched.IllDefinedSpec.String()):
		return sched.IllDefinedSpec
	}
	t.Fatalf("run %s seed %d: unexpected error %v", formatRun(params), seed, err)
	return 0
}

func formatRun(params map[string]int64) string {
	parts := make([]string, 0, len(params))
	for name, v := range params {
		parts = append(parts, fmt.Sprintf("%s=%d", name, v))
	}
	sort.Strings(parts)
	return strings.Join(parts, " ")
}
