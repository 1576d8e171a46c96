package validate

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/augur-verify/augur/smt/encode"
	"github.com/augur-verify/augur/syntax"
)

// accumulateSpec is a running sum S(k) over A, with its last element as
// the output.
const accumulateSpec = `param N
assume N >= 1
input A(i) : f32
tensor S(k) : f32
S(k) = 0 where k == -1
S(k) = S(k - 1) + A(k) where 0 <= k < N
tensor T() : f32
T() = S(N - 1)
output T
`

// nestedTrivial returns a kernel computing accumulateSpec with its one
// update nested in depth loops of extent 1 (kw is "for" or "par"), the
// shape that used to cost time exponential in the depth.
func nestedTrivial(depth int, kw string) string {
	var b strings.Builder
	b.WriteString("kernel acc(N)\nassume N >= 1\nin a[i] : f32[N] = A(i)\nout s[] : f32[] = T()\n{\n  s[] {S(-1)} := 0\n  for i < N {\n")
	for k := 1; k <= depth; k++ {
		fmt.Fprintf(&b, "%s l%d < 1 {\n", kw, k)
	}
	b.WriteString("s[] {S(i)} := s[] + a[i]\n")
	b.WriteString(strings.Repeat("}\n", depth))
	b.WriteString("  }\n}\n")
	return b.String()
}

// TestNestedTrivialLoops validates kernels whose update sits under many
// loops of extent 1: a loop of extent 1 is no reason to double any work,
// so 40 levels take about as long as a few.
func TestNestedTrivialLoops(t *testing.T) {
	spec := &syntax.Source{Name: "acc.sare", Text: accumulateSpec}
	for _, kw := range []string{"for", "par"} {
		for _, depth := range []int{1, 12, 40} {
			t.Run(fmt.Sprintf("%s%d", kw, depth), func(t *testing.T) {
				prog := &syntax.Source{Name: "acc.sched", Text: nestedTrivial(depth, kw)}
				// The engine's default step budget: an exponential
				// search runs out of it long before it would finish.
				rep, err := Validate(context.Background(), spec, prog, Options{Jobs: 1})
				if err != nil {
					t.Fatal(err)
				}
				if rep.Verdict != Valid {
					t.Fatalf("verdict %s (%s), want valid", rep.Verdict, rep.Reason)
				}
			})
		}
	}
}

// cancelDuringSymbolic validates a long kernel under a context that
// cancels itself when the evaluation looks at it for the hundredth time
// (the Presburger engine looks every 64 steps): deep in the work,
// whatever the speed of the machine, and between two looks. It returns
// Validate's report, the time Validate took to return after the
// cancellation, and Validate's error.
func cancelDuringSymbolic(tb testing.TB) (*Report, time.Duration, error) {
	tb.Helper()
	spec := &syntax.Source{Name: "acc.sare", Text: accumulateSpec}
	prog := &syntax.Source{Name: "acc.sched", Text: nestedTrivial(120, "for")}
	ctx := newCancelAtCtx(context.Background(), 100)
	defer ctx.cancel()
	rep, err := Validate(ctx, spec, prog, Options{Jobs: 1})
	cancelled := ctx.cancelledAt.Load()
	if cancelled == nil {
		tb.Fatalf("validation over (error %v) before it looked at its context 100 times; the kernel should take longer", err)
	}
	return rep, time.Since(*cancelled), err
}

// TestCancelFreesQuickly cancels a long validation during symbolic
// evaluation: Validate must return with the context's error and the
// report so far, UNKNOWN and cancelled. How soon it returns is
// BenchmarkCancelFreesQuickly's measure.
func TestCancelFreesQuickly(t *testing.T) {
	rep, _, err := cancelDuringSymbolic(t)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("error %v after cancellation, want the context's", err)
	}
	if rep == nil || rep.Verdict != Unknown || !strings.HasPrefix(rep.Reason, ReasonCancelled) {
		t.Fatalf("report %+v, want unknown, cancelled", rep)
	}
}

// BenchmarkCancelFreesQuickly reports how long Validate takes to return
// once its context is cancelled during the symbolic evaluation
// (cancelDuringSymbolic), in milliseconds: the time until the engine's
// next look at its context, which should be a few milliseconds, where
// the work left would take far longer.
func BenchmarkCancelFreesQuickly(b *testing.B) {
	var total time.Duration
	for b.Loop() {
		_, took, err := cancelDuringSymbolic(b)
		if !errors.Is(err, context.Canceled) {
			b.Fatalf("error %v after cancellation, want the context's", err)
		}
		total += took
	}
	b.ReportMetric(float64(total.Microseconds())/1e3/float64(b.N), "ms-after-cancel/op")
}

// cancelAtCtx is a context that cancels itself on the n-th call of its
// Err method, after answering that call (with nil).
type cancelAtCtx struct {
	context.Context
	cancel      context.CancelFunc
	left        atomic.Int64
	cancelledAt atomic.Pointer[time.Time]
}

func newCancelAtCtx(parent context.Context, n int64) *cancelAtCtx {
	ctx, cancel := context.WithCancel(parent)
	c := &cancelAtCtx{Context: ctx, cancel: cancel}
	c.left.Store(n)
	return c
}

// Err implements context.Context.
func (c *cancelAtCtx) Err() error {
	err := c.Context.Err()
	if c.left.Add(-1) == 0 {
		now := time.Now()
		c.cancelledAt.Store(&now)
		c.cancel()
	}
	return err
}

// TestPanicInSolverWorker makes the discharge of every value condition
// panic on its worker goroutine: the validation must survive, answer
// unknown (never valid) and report the internal error with the input's
// digest.
func TestPanicInSolverWorker(t *testing.T) {
	spec := source(t, "../examples/matmul/matmul.sare")
	prog := source(t, "../examples/matmul/matmul.sched")
	opts := Options{Jobs: 2, beforeDecide: func(id int) { panic(fmt.Sprintf("injected failure at C%d", id)) }}
	rep, err := Validate(context.Background(), spec, prog, opts)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Verdict != Unknown {
		t.Fatalf("verdict %s, want unknown", rep.Verdict)
	}
	if len(rep.InternalErrors) == 0 || !strings.Contains(rep.InternalErrors[0], "sha256:"+Digest(spec, prog)) ||
		!strings.Contains(rep.InternalErrors[0], "injected failure") {
		t.Fatalf("internal errors %q, want the injected panic with the input's digest", rep.InternalErrors)
	}
	undecided := 0
	for _, c := range rep.Conditions {
		if c.Status == "undecided" && strings.HasPrefix(c.Reason, "internal error: ") {
			undecided++
		}
	}
	if undecided == 0 {
		t.Error("no condition undecided for an internal error")
	}
}

// TestVacuous: assumptions that no parameter values satisfy give a valid
// verdict that says it is vacuous, in the report and its text; satisfiable
// ones do not.
func TestVacuous(t *testing.T) {
	spec := &syntax.Source{Name: "acc.sare", Text: accumulateSpec}
	for _, tc := range []struct {
		assume  string
		vacuous bool
	}{
		{"N >= 1 and N < 0", true},
		{"N >= 1 and N % 2 == 0 and N % 4 == 1", true},
		{"N >= 1 and N % 2 == 0", false},
	} {
		prog := &syntax.Source{Name: "acc.sched", Text: strings.Replace(nestedTrivial(1, "for"), "assume N >= 1", "assume "+tc.assume, 1)}
		rep, err := Validate(context.Background(), spec, prog, Options{Jobs: 1})
		if err != nil {
			t.Fatal(err)
		}
		var text strings.Builder
		if err := rep.WriteText(&text, false); err != nil {
			t.Fatal(err)
		}
		if rep.Verdict != Valid || rep.Vacuous != tc.vacuous || strings.Contains(text.String(), "VACUOUSLY") != tc.vacuous {
			t.Errorf("assume %s: verdict %s, vacuous %v, want valid, vacuous %v\n%s", tc.assume, rep.Verdict, rep.Vacuous, tc.vacuous, text.String())
		}
	}
}

// TestVerdicts pins the verdicts of kernels that used to be answered
// wrongly or not at all (testdata/verdicts): differences that rest on
// functions the real model leaves uninterpreted (never invalid there),
// float literals in the real model, integer round trips through floats,
// IEEE identities, an update unrolled three times, a recurrence through
// i / 2, bugs that need large parameters, and an assumption in which
// two copies of a min-max nest, their sums written in other orders,
// cancel (required_region: translated piece by piece, it has more than
// 4,096 pieces). Every invalid verdict's counterexample must be
// replayed by the interpreter.
func TestVerdicts(t *testing.T) {
	for _, tc := range []struct {
		spec, prog string
		model      encode.Model
		verdict    Verdict
		reason     string
	}{
		{"exp_product", "exp_product", encode.Real, Unknown, ""},
		{"exp_product", "exp_product", encode.IEEE, Invalid, "annotation mismatch"},
		{"sqrt_square", "sqrt_square", encode.Real, Valid, ""},
		{"sqrt_plus", "sqrt_plus_wrong", encode.Real, Invalid, "annotation mismatch"},
		{"tenth", "tenth_literal", encode.Real, Valid, ""},
		{"tenth", "tenth_literal", encode.IEEE, Invalid, "annotation mismatch"},
		{"int_roundtrip", "int_roundtrip", encode.Real, Valid, ""},
		{"int_roundtrip", "int_roundtrip", encode.IEEE, Invalid, "annotation mismatch"},
		{"uint_roundtrip", "uint_roundtrip_range", encode.Real, Invalid, "undefined value stored"},
		{"f64_identities", "f64_identities", encode.IEEE, Valid, ""},
		{"f64_identities", "f64_identities", encode.Real, Valid, ""},
		{"mulhi", "mulhi", encode.Real, Valid, ""},
		{"half", "half", encode.Real, Valid, ""},
		{"half", "half", encode.IEEE, Valid, ""},
		{"dot", "dot_unroll3", encode.Real, Valid, ""},
		{"dot", "dot_unroll3", encode.IEEE, Valid, ""},
		{"late", "late_bug_87", encode.Real, Invalid, "annotation mismatch"},
		{"late", "late_bug_5002", encode.Real, Invalid, "annotation mismatch"},
		{"required_region", "required_region", encode.Real, Valid, ""},
		{"required_region", "required_region_bug", encode.Real, Invalid, "annotation mismatch"},
	} {
		t.Run(tc.prog+"/"+tc.model.String(), func(t *testing.T) {
			t.Parallel()
			dir := filepath.Join("testdata", "verdicts")
			rep := validateFiles(t, filepath.Join(dir, tc.spec+".sare"), filepath.Join(dir, tc.prog+".sched"), Options{ValueModel: tc.model, Jobs: 1})
			if rep.Verdict != tc.verdict || (tc.verdict == Invalid && rep.Reason != tc.reason) {
				var buf strings.Builder
				_ = rep.WriteText(&buf, true)
				t.Fatalf("got %s (%s), want %s %s\n%s", rep.Verdict, rep.Reason, tc.verdict, tc.reason, buf.String())
			}
			if rep.Verdict == Invalid && !rep.Counterexample.Reproduced {
				t.Errorf("counterexample not replayed: %s", rep.Counterexample.Replay)
			}
		})
	}
}
