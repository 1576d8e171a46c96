package symeval

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/augur-verify/augur/presburger"
	"github.com/augur-verify/augur/sched"
	"github.com/augur-verify/augur/syntax"
)

// BenchmarkAnalyze runs the symbolic evaluation of kernels whose garbage
// writes take a fixpoint of several rounds: the round-up tails of
// validate/testdata/garbage and two of Halide's apps as augur halide
// translates them (testdata/halide: interpolate with 3 levels, whose
// pyramid of levels computes garbage from garbage, and sgemv, whose
// vectorised sums accumulate garbage lanes). Besides the time, it reports
// the Presburger steps of one evaluation (steps/op), the unit of the
// step budget (AnalyzeOptions.Steps), which does not depend on the
// machine or its load. Each evaluation runs within the default step
// budget (DefaultSteps); one that runs out of it counts the whole budget,
// and out-of-steps/op says how many did (interpolate: its fixpoint of
// garbage writes takes more). The Halide pairs take minutes of CPU each:
// run them with -benchtime=1x, or skip them with -short.
func BenchmarkAnalyze(b *testing.B) {
	garbage := filepath.Join("..", "validate", "testdata", "garbage")
	type pair struct{ name, spec, kernel string }
	pairs := []pair{
		{"tail_chain", filepath.Join(garbage, "tail.sare"), filepath.Join(garbage, "tail_chain.sched")},
		{"tail_chain_grow", filepath.Join(garbage, "tail.sare"), filepath.Join(garbage, "tail_chain_grow.sched")},
		{"tail_widen", filepath.Join(garbage, "tail.sare"), filepath.Join(garbage, "tail_widen.sched")},
	}
	if !testing.Short() {
		halide := filepath.Join("testdata", "halide")
		for _, n := range []string{"interpolate3", "sgemv"} {
			pairs = append(pairs, pair{n, filepath.Join(halide, n+".sare"), filepath.Join(halide, n+".sched")})
		}
	}
	for _, p := range pairs {
		b.Run(p.name, func(b *testing.B) {
			st, err := os.ReadFile(p.spec)
			if err != nil {
				b.Fatal(err)
			}
			kt, err := os.ReadFile(p.kernel)
			if err != nil {
				b.Fatal(err)
			}
			lp := loadPair(b, p.spec, string(st), p.kernel, string(kt))
			var steps, out int64
			for b.Loop() {
				n, ran, err := analyzeSteps(lp)
				if err != nil {
					b.Fatal(err)
				}
				steps += n
				if ran {
					out++
				}
			}
			b.ReportMetric(float64(steps)/float64(b.N), "steps/op")
			b.ReportMetric(float64(out)/float64(b.N), "out-of-steps/op")
		})
	}
}

// analyzeSteps runs the symbolic evaluation of lp within the default
// step budget and returns the steps it took, and whether it ran out of
// them (then the steps are the whole budget).
func analyzeSteps(lp *pair) (steps int64, ranOut bool, err error) {
	a, err := Analyze(context.Background(), lp.kernel, lp.kinfo, lp.spec, lp.sinfo, AnalyzeOptions{})
	if errors.Is(err, presburger.ErrAllowance) {
		return DefaultSteps, true, nil
	}
	if err != nil {
		return 0, false, err
	}
	return a.Steps, false, nil
}

// BenchmarkSharedReads evaluates the value of diffKernel's output, the
// sum of two absolute differences (twelve reads of three cells, each
// cell's content in three pieces), and fuses its holes, as the value
// obligations of an assignment do. Besides the time, it reports the
// Presburger steps of one evaluation (steps/op) and the alternatives of
// the value (alternatives/op).
func BenchmarkSharedReads(b *testing.B) {
	p := loadPair(b, "diff.sare", diffSpec, "diff.sched", diffKernel)
	pr, err := Prophesy(context.Background(), p.kernel, p.kinfo, p.spec, Options{})
	if err != nil {
		b.Fatal(err)
	}
	text := diffHeap
	for _, c := range pr.Contexts.All() {
		text = strings.ReplaceAll(text, "«"+c.String()+"»", c.Name)
	}
	u, err := presburger.ParseUnionMap(text)
	if err != nil {
		b.Fatal(err)
	}
	var e syntax.Expr
	sched.Walk(p.kernel.Body, func(s sched.Stmt) bool {
		if a, ok := s.(*sched.Assign); ok && a.Array.Name == "output" {
			e = a.Value
		}
		return true
	})
	s, _ := NewScope([]string{"N"}).With("i")
	var steps, alts int64
	for b.Loop() {
		allow := presburger.NewAllowance(0)
		ctx := presburger.WithAllowance(context.Background(), allow)
		v, err := evalInHeap(ctx, pr.Contexts, p.kinfo.Types, s, NewHeap(u), e)
		if err != nil {
			b.Fatal(err)
		}
		steps += allow.Used()
		alts += int64(len(v.Maps()))
	}
	b.ReportMetric(float64(steps)/float64(b.N), "steps/op")
	b.ReportMetric(float64(alts)/float64(b.N), "alternatives/op")
}
