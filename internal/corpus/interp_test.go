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

	"github.com/augur-verify/augur/sare"
	"github.com/augur-verify/augur/sched"
	"github.com/augur-verify/augur/syntax"
)

// seeds are the seeds of the random inputs of every run line, as
// augur run --trials 3 uses them.
var seeds = []uint64{1, 2, 3}

// TestInterpreterAgrees runs every case of the corpus with the reference
// interpreter (sched.Run against sare's evaluator, exact float comparison)
// on each of its run lines and seeds:
//
//   - a valid or unknown case never fails;
//   - an invalid case fails with its reason's kind on at least one run
//     line, and with no other kind on any;
//   - a case whose reason is IllDefined makes Run return, on at least one
//     run line, an error that is not a *sched.Failure and that mentions
//     "ill-defined specification" (augur run exits with status 3); it
//     never returns a failure of the kernel.
func TestInterpreterAgrees(t *testing.T) {
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
			seen := map[string]int{} // outcome -> number of (run, seed) pairs
			for _, params := range c.Runs {
				for _, seed := range seeds {
					got := runOnce(ctx, t, ls, k, kinfo, params, seed, c.GarbageWrites)
					seen[got]++
					where := fmt.Sprintf("run %s seed %d", formatRun(params), seed)
					switch {
					case c.Expect != Invalid && got != "":
						t.Errorf("%s: expected %s, the interpreter reports %s", where, c.Expect, got)
					case c.Expect == Invalid && got != "" && got != c.Reason:
						t.Errorf("%s: expected invalid %s, the interpreter reports %s", where, c.Reason, got)
					}
				}
			}
			if c.Expect == Invalid && seen[c.Reason] == 0 {
				t.Errorf("expected invalid %s, but no run line exhibits it (the interpreter matched on every run line and seed)", c.Reason)
			}
		})
	}
}

type loadedSpec struct {
	spec *sare.Spec
	info *sare.Info
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

// runOnce runs the kernel once, with garbage writes if garbage is set,
// and names the outcome: "" when everything matched, the failure's kind
// ("undefined read" for an out cell holding the undefined value of a
// garbage write), or IllDefined. Any other error (parameters
// violating an assumption, an exhausted budget) fails the test: the run
// line is wrong, not the kernel.
func runOnce(ctx context.Context, t *testing.T, ls *loadedSpec, k *sched.Kernel, kinfo *sched.Info, params map[string]int64, seed uint64, garbage bool) string {
	t.Helper()
	ev, err := sare.NewEvaluator(ls.spec, ls.info, params, sare.RandomInputs(seed))
	if err != nil {
		t.Fatalf("run %s: %v", formatRun(params), err)
	}
	_, err = sched.Run(ctx, k, kinfo, ev, sched.Options{GarbageWrites: garbage})
	var fail *sched.Failure
	switch {
	case err == nil:
		return ""
	case errors.As(err, &fail) && fail.Garbage != nil:
		// An out cell holding the undefined value of a garbage write
		// (Case.GarbageWrites).
		return sched.UndefinedRead.String()
	case errors.As(err, &fail):
		return fail.Kind.String()
	case errors.As(err, new(*sched.AssumptionError)), errors.Is(err, sched.ErrBudget), ctx.Err() != nil:
		t.Fatalf("run %s seed %d: %v", formatRun(params), seed, err)
	case strings.Contains(err.Error(), IllDefined):
		return IllDefined
	}
	t.Fatalf("run %s seed %d: unexpected error %v", formatRun(params), seed, err)
	return ""
}

func formatRun(params map[string]int64) string {
	parts := make([]string, 0, len(params))
	for name, v := range params {
		parts = append(parts, fmt.Sprintf("%s=%d", name, v))
	}
	sort.Strings(parts)
	return strings.Join(parts, " ")
}
