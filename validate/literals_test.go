package validate

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/augur-verify/augur/sare"
	"github.com/augur-verify/augur/sched"
	"github.com/augur-verify/augur/smt/encode"
	"github.com/augur-verify/augur/syntax"
	"github.com/augur-verify/augur/value"
)

// foldSpec divides by constants; foldKernel multiplies by the binary32
// values Halide's simplifier folds the divisions into: x / 3 becomes
// x * 0.333333343 (the value nearest 1/3, here spelled exactly), and
// (x + 0.055) / 1.055 becomes x * k1 + k2 with k1 the value nearest
// 1 / 1.055 and k2 that of 0.055 * k1.
const foldSpec = `param N
assume N >= 1
input A(i) : f32
tensor B(i) : f32
B(i) = A(i) / 3.0
tensor C(i) : f32
C(i) = (A(i) + 0.055) / 1.055
output B, C
`

const (
	foldThird = "0.3333333432674407958984375"
	foldK1    = "0.947867333889007568359375"
	foldK2    = "0.052132703363895416259765625"
)

func foldKernel(b, c string) string {
	return `kernel fold(N)
assume N >= 1
in  a[i] : f32[N] = A(i)
out b[i] : f32[N] = B(i)
out c[i] : f32[N] = C(i)
{
  for i < N {
    b[i] {B(i)} := ` + b + `
    c[i] {C(i)} := ` + c + `
  }
}
`
}

// TestDerivedLiterals: in the real model, a kernel whose literals are
// the binary32 roundings of quotients of the specification's constants
// is valid, reading them as those quotients, and the report says so; a
// constant wrong by more than its rounding (0.33 for 1/3, a wrong k2) is
// invalid, with a counterexample that the interpreter replays beyond
// rounding (within a tolerance of 1e-6, which the correct kernel meets).
// In the ieee model no literal is read otherwise than as its value.
func TestDerivedLiterals(t *testing.T) {
	good := foldKernel("a[i] * "+foldThird, "a[i] * "+foldK1+" + "+foldK2)
	cases := []struct {
		name     string
		prog     string
		model    encode.Model
		verdict  Verdict
		readings []string // value as expression
	}{
		{"folded", good, encode.Real, Valid, []string{"0.052132703 as 0.055 / 1.055", "0.33333334 as 1 / 3", "0.94786733 as 1 / 1.055"}},
		{"negated", foldKernel("-(a[i] * -"+foldThird+")", "a[i] * "+foldK1+" - -"+foldK2), encode.Real, Valid, []string{"0.052132703 as 0.055 / 1.055", "0.33333334 as 1 / 3", "0.94786733 as 1 / 1.055"}},
		{"0.33 for 1/3", foldKernel("a[i] * 0.33", "(a[i] + 0.055) / 1.055"), encode.Real, Invalid, nil},
		{"0.33 for 1/3, folded beside", foldKernel("a[i] * 0.33", "a[i] * "+foldK1+" + "+foldK2), encode.Real, Invalid, []string{"0.052132703 as 0.055 / 1.055", "0.94786733 as 1 / 1.055"}},
		{"a wrong folded constant", foldKernel("a[i] * "+foldThird, "a[i] * "+foldK1+" + 0.0521"), encode.Real, Invalid, []string{"0.33333334 as 1 / 3", "0.94786733 as 1 / 1.055"}},
		{"ieee", good, encode.IEEE, Invalid, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rep, err := Validate(context.Background(), &syntax.Source{Name: "fold.sare", Text: foldSpec}, &syntax.Source{Name: "fold.sched", Text: c.prog}, Options{ValueModel: c.model, Jobs: 1})
			if err != nil {
				t.Fatal(err)
			}
			var buf bytes.Buffer
			rep.WriteText(&buf, false)
			if rep.Verdict != c.verdict || c.verdict == Invalid && rep.Reason != "annotation mismatch" {
				t.Fatalf("verdict %s (%s), want %s\n%s", rep.Verdict, rep.Reason, c.verdict, buf.String())
			}
			var got []string
			for _, r := range rep.Readings {
				got = append(got, r.Value+" as "+r.As)
			}
			if strings.Join(got, "; ") != strings.Join(c.readings, "; ") {
				t.Errorf("readings %q, want %q", got, c.readings)
			}
			if len(c.readings) > 0 && !strings.Contains(buf.String(), "literals read as the specification's constants they round (real model): "+strings.Join(c.readings, ", ")+"\n") {
				t.Errorf("the report does not list the readings:\n%s", buf.String())
			}
			if c.verdict != Invalid || c.model != encode.Real {
				return
			}
			cx := rep.Counterexample
			if cx == nil || !cx.Reproduced {
				t.Fatalf("counterexample not reproduced:\n%s", buf.String())
			}
			if f := runFold(t, c.prog, cx, 1e-6); f == nil || f.Kind != sched.WrongValue {
				t.Errorf("the planted kernel passes within 1e-6 at the counterexample: %v", f)
			}
			if f := runFold(t, good, cx, 1e-6); f != nil {
				t.Errorf("the folded kernel fails within 1e-6 at the counterexample: %v", f)
			}
		})
	}
}

// runFold runs the kernel prog of foldSpec at the parameters, inputs and
// seed of cx (as the replay does) with the given float tolerance, and
// returns its failure.
func runFold(t *testing.T, prog string, cx *Counterexample, tol float64) *sched.Failure {
	t.Helper()
	spec, sinfo, err := sare.Load(&syntax.Source{Name: "fold.sare", Text: foldSpec})
	if err != nil {
		t.Fatal(err)
	}
	k, kinfo, err := sched.Load(&syntax.Source{Name: "fold.sched", Text: prog}, spec)
	if err != nil {
		t.Fatal(err)
	}
	params := map[string]int64{}
	for _, p := range cx.Params {
		params[p.Name] = p.Value
	}
	fixed := map[string]value.Value{}
	for _, x := range cx.Inputs {
		fixed[inputKey(x.Tensor, x.Index)] = x.v
	}
	random := sare.RandomInputs(cx.Seed)
	inputs := sare.InputFunc(func(t *sare.Tensor, idx []int64) (value.Value, error) {
		if x, ok := fixed[inputKey(t.Name.Name, idx)]; ok {
			return x, nil
		}
		return random.Input(t, idx)
	})
	ev, err := sare.NewEvaluator(spec, sinfo, params, inputs)
	if err != nil {
		t.Fatal(err)
	}
	_, err = sched.Run(context.Background(), k, kinfo, ev, sched.Options{Tolerance: tol})
	if f, ok := err.(*sched.Failure); ok {
		return f
	}
	if err != nil {
		t.Fatal(err)
	}
	return nil
}

// TestDerivedLiteralsTested: the simplifier folds x * 41 / 41 into
// x * fold(41 * fl(1/41)), 0.99999994 in binary32, which the real model
// reads as (1 / 41) * 41, that is 1. On the interpreter's inputs (eighths)
// both sides are sometimes exact and differ (a = 1: 1 against
// 0.99999994): with derived literals, such a difference is no evidence,
// and the proof decides.
func TestDerivedLiteralsTested(t *testing.T) {
	const spec = `param N
assume N >= 1
input A(i) : f32
tensor B(i) : f32
B(i) = A(i) * 41.0 / 41.0
output B
`
	const prog = `kernel fold(N)
assume N >= 1
in  a[i] : f32[N] = A(i)
out b[i] : f32[N] = B(i)
{
  for i < N {
    b[i] {B(i)} := a[i] * 0.999999940395355224609375
  }
}
`
	rep, err := Validate(context.Background(), &syntax.Source{Name: "fold.sare", Text: spec}, &syntax.Source{Name: "fold.sched", Text: prog}, Options{Jobs: 1})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	rep.WriteText(&buf, false)
	if rep.Verdict != Valid || len(rep.Readings) != 1 || rep.Readings[0].Exact != "1" {
		t.Fatalf("verdict %s (%s), readings %v; want valid reading 0.99999994 as 1\n%s", rep.Verdict, rep.Reason, rep.Readings, buf.String())
	}
	if !hasPhase(rep, "test") {
		t.Errorf("no test ran")
	}
}
