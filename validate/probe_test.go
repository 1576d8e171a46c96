package validate

import (
	"context"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/augur-verify/augur/smt"
	"github.com/augur-verify/augur/syntax"
)

// probeSpec scales A by -1/S² and converts it to i32 (as Halide's
// fast_exp does with its exponent) under exp, a builtin the real value
// model leaves uninterpreted: the conversion is undefined when S is small
// against A, which random inputs (multiples of 1/8 in [-4, 4]) never make
// it.
func probeSpec(conv string) string {
	return `param N
assume N >= 1
input S() : f32
input A(i) : f32
tensor W(i) : f32
W(i) = exp(f32(` + conv + `))
output W
`
}

func probeKernel(conv string) string {
	return `kernel k(N)
assume N >= 1
in  s[] : f32[] = S()
in  a[i] : f32[N] = A(i)
out w[i] : f32[N] = W(i)
{
  for i < N {
    w[i] {W(i)} := exp(f32(` + conv + `))
  }
}
`
}

func validateProbe(t *testing.T, specConv, kernelConv string) *Report {
	t.Helper()
	rep, err := Validate(context.Background(), &syntax.Source{Name: "p.sare", Text: probeSpec(specConv)},
		&syntax.Source{Name: "p.sched", Text: probeKernel(kernelConv)}, Options{Jobs: 1})
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// TestProbeConversion: the definedness probe refutes a kernel whose
// conversion leaves i32's range on the solver's inputs, with a
// counterexample on which the operand is out of range in exact
// arithmetic (no division by zero, which the real model leaves
// unspecified) and which the interpreter reproduces.
func TestProbeConversion(t *testing.T) {
	rep := validateProbe(t, "i32(A(i) * (f32(-1.0) / (S() * S())))", "i32(a[i] * (f32(-1.0) / (s[] * s[])))")
	if rep.Verdict != Invalid || rep.Reason != "undefined value stored" {
		t.Fatalf("verdict %s (%s), want invalid (undefined value stored)\n%s", rep.Verdict, rep.Reason, reportText(rep))
	}
	cx := rep.Counterexample
	if !cx.Reproduced {
		t.Fatalf("counterexample not reproduced: %s\n%s", cx.Replay, reportText(rep))
	}
	found := false
	for _, r := range rep.Conditions {
		if r.Counterexample == cx {
			found = r.Solver == probeSolver
		}
	}
	if !found {
		t.Errorf("the failure was not found by the definedness probe\n%s", reportText(rep))
	}
	// The operand at the counterexample's inputs, in exact arithmetic.
	vals := map[string]*big.Rat{}
	for _, x := range cx.Inputs {
		r := new(big.Rat).SetFloat64(x.v.Float64())
		if r == nil {
			t.Fatalf("input %s: not finite", x)
		}
		vals[x.Tensor] = r
	}
	a, s := vals["A"], vals["S"]
	if a == nil || s == nil {
		t.Fatalf("inputs %v: want the solver's values of A and S", cx.Inputs)
	}
	if s.Sign() == 0 {
		t.Fatalf("S() = 0: a division by zero is no evidence in the real model")
	}
	x := new(big.Rat).Quo(new(big.Rat).Neg(a), new(big.Rat).Mul(s, s))
	lo, hi := new(big.Rat).SetInt64(-1<<31), new(big.Rat).SetInt64(1<<31-1)
	// Truncation toward zero keeps x in range iff -2^31 - 1 < x < 2^31.
	if x.Cmp(new(big.Rat).Sub(lo, big.NewRat(1, 1))) > 0 && x.Cmp(new(big.Rat).Add(hi, big.NewRat(1, 1))) < 0 {
		t.Errorf("operand %s is within i32's range", x.RatString())
	}
	if !strings.Contains(cx.Command, "--input") {
		t.Errorf("command %q does not give the solver's inputs", cx.Command)
	}
}

// TestProbeDefined: a conversion clamped into i32's range is defined
// whatever S is (a division by zero included), and the probe refutes
// nothing: the pair is valid.
func TestProbeDefined(t *testing.T) {
	conv := func(a, s string) string {
		return "i32(max(min(" + a + " * (f32(-1.0) / (" + s + " * " + s + ")), f32(1000.0)), f32(-1000.0)))"
	}
	rep := validateProbe(t, conv("A(i)", "S()"), conv("a[i]", "s[]"))
	if rep.Verdict != Valid {
		t.Fatalf("verdict %s (%s), want valid\n%s", rep.Verdict, rep.Reason, reportText(rep))
	}
}

// TestProbeClampedConversions: a query of the definedness probe of hist's
// output (testdata/probe/clamped_conversions.smt2: are its two u8
// conversions of clamped float sums out of range?) is unsatisfiable, and
// Z3's plain SMT kernel proves it within a few thousand resource units,
// before the query's abstraction over bit-vectors (checkAbstracted),
// which keeps nothing of the clamps, answers sat after some 180,000 of
// bit-blasting: checkTerms asks the kernel first.
func TestProbeClampedConversions(t *testing.T) {
	t.Parallel()
	s, z := testSolver(t)
	spec, prog := binsSources(t) // a pair with floats, as hist's
	in, errs := loadInput(spec, prog)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	s.v.in = in
	script, err := os.ReadFile(filepath.Join("testdata", "probe", "clamped_conversions.smt2"))
	if err != nil {
		t.Fatal(err)
	}
	ts, err := z.ParseSMTLIB2(string(script))
	if err != nil {
		t.Fatal(err)
	}
	res, sol, err := s.checkTerms(ts, lookResources, true)
	if sol != nil {
		defer sol.Close()
	}
	if res != smt.Unsat || s.used > simpleFirstLimit {
		t.Fatalf("check: %s (%v) in %d resource units; want unsat within %d", res, err, s.used, simpleFirstLimit)
	}
}

// TestProbeNonlinearScale: nl_means's fast_exp, reduced (the suite's
// nl_means, docs/halide.md): the patch distance D, a computed tensor the
// probe leaves uninterpreted, scaled by -1 / (S² N²) and converted to i32.
// Z3 leaves the probe's query undecided (its procedure for nonlinear
// reals is off, smt.Solver.UseBoundedNonlinear); with N fixed at the
// quick tests' points and S at one of probeScales it is linear, and the
// model found is confirmed on random inputs with S from the solver.
func TestProbeNonlinearScale(t *testing.T) {
	const conv = "floor(D(i) * (f32(-1.0) / (S() * S() * f32(N) * f32(N))) / f32(0.693147182464599609375))"
	spec := `param N
assume 1 <= N <= 64
input S() : f32
input A(i) : f32
tensor D(i) : f32
tensor W(i) : f32
D(i) = A(i) * A(i) + f32(1.0)
W(i) = exp(f32(i32(` + conv + `)))
output W
`
	prog := `kernel k(N)
assume 1 <= N <= 64
in  s[] : f32[] = S()
in  a[i] : f32[N] = A(i)
out w[i] : f32[N] = W(i)
{
  for i < N {
    w[i] {W(i)} := exp(f32(i32(floor((a[i] * a[i] + f32(1.0)) * (f32(-1.0) / (s[] * s[] * f32(N) * f32(N))) / f32(0.693147182464599609375)))))
  }
}
`
	rep, err := Validate(context.Background(), &syntax.Source{Name: "p.sare", Text: spec},
		&syntax.Source{Name: "p.sched", Text: prog}, Options{Jobs: 1})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Verdict != Invalid || rep.Reason != "undefined value stored" {
		t.Fatalf("verdict %s (%s), want invalid (undefined value stored)\n%s", rep.Verdict, rep.Reason, reportText(rep))
	}
	if !rep.Counterexample.Reproduced {
		t.Fatalf("counterexample not reproduced: %s\n%s", rep.Counterexample.Replay, reportText(rep))
	}
	found := false
	for _, r := range rep.Conditions {
		if r.Counterexample == rep.Counterexample {
			found = r.Solver == probeSolver
		}
	}
	if !found {
		t.Errorf("the failure was not found by the definedness probe\n%s", reportText(rep))
	}
}
