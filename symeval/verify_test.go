package symeval

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/augur-verify/augur/presburger"
	"github.com/augur-verify/augur/sched"
)

func analyzeFiles(t *testing.T, specPath, kernelPath string) *Analysis {
	t.Helper()
	return analyzeFilesWith(t, specPath, kernelPath, AnalyzeOptions{})
}

// analyzeFilesWith is analyzeFiles with the analysis's options.
func analyzeFilesWith(t *testing.T, specPath, kernelPath string, opts AnalyzeOptions) *Analysis {
	t.Helper()
	st, err := os.ReadFile(specPath)
	if err != nil {
		t.Fatal(err)
	}
	kt, err := os.ReadFile(kernelPath)
	if err != nil {
		t.Fatal(err)
	}
	p := loadPair(t, specPath, string(st), kernelPath, string(kt))
	a, err := Analyze(context.Background(), p.kernel, p.kinfo, p.spec, p.sinfo, opts)
	if err != nil {
		t.Fatalf("%s: %v", kernelPath, err)
	}
	return a
}

// TestAnalyzeExamples checks the Presburger verdicts of the conditions of
// every example: valid kernels fail none, each broken one fails the
// condition of its bug (when that bug is not a wrong value, which is the
// solver's business).
func TestAnalyzeExamples(t *testing.T) {
	want := map[string]sched.Kind{
		"broken_par_reduction":  sched.ReadWriteRace,
		"broken_tail_dropped":   sched.OutputNotWritten,
		"broken_unshifted_tail": sched.OutOfBoundsWrite,
	}
	for _, pk := range examplePairs(t) {
		name := strings.TrimSuffix(filepath.Base(pk[1]), ".sched")
		t.Run(name, func(t *testing.T) {
			a := analyzeFiles(t, pk[0], pk[1])
			var failed []sched.Kind
			for _, c := range a.Conditions {
				t.Logf("C%d %s %s %s: %v %v", c.ID, c.Kind, c.Pos, c.Text, c.Status, c.Obligation)
				if c.Status == Failed {
					failed = append(failed, c.Kind)
				}
				if c.Status == Undecided {
					t.Errorf("C%d undecided: %s", c.ID, c.Reason)
				}
			}
			k, broken := want[name]
			switch {
			case broken && (len(failed) == 0 || failed[0] != k):
				t.Errorf("failed conditions %v, want first %v", failed, k)
			case !broken && len(failed) > 0:
				t.Errorf("failed conditions %v, want none", failed)
			}
		})
	}
}

// TestFig55 checks that the value conditions of the matrix product are
// those of Clément 2022, Fig. 5.5 (up to naming), as --verbose prints them.
func TestFig55(t *testing.T) {
	a := analyzeFiles(t, "../examples/matmul/matmul.sare", "../examples/matmul/matmul.sched")
	var got []string
	for _, c := range a.Conditions {
		if c.Obligation != nil {
			for _, l := range c.Obligation.Pretty(context.Background()) {
				got = append(got, c.Kind.String()+": "+l)
			}
		}
	}
	want := []string{
		"annotation mismatch: 0 = R(i, j, -1)  for N >= i + 1 and M >= j + 1 and P >= 0 and i >= 0 and j >= 0",
		"annotation mismatch: R(i, j, k - 1) + A(i, k) * B(k, j) = R(i, j, k)  for N >= i + 1 and M >= j + 1 and P >= k + 1 and i >= 0 and j >= 0 and k >= 0",
		"output wrong value: R(s1, s2, P - 1) = C(s1, s2)  for N >= 1 and N >= s1 + 1 and M >= 1 and M >= s2 + 1 and P >= 0 and s1 >= 0 and s2 >= 0",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("conditions:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestPrettyManyPieces checks that an obligation whose points have many
// pieces prints as String, without looking for the holes as functions
// (which took minutes on a 240-piece condition of a Halide pipeline).
func TestPrettyManyPieces(t *testing.T) {
	a := analyzeFiles(t, "../examples/matmul/matmul.sare", "../examples/matmul/matmul.sched")
	var ob *Obligation
	for _, c := range a.Conditions {
		if c.Obligation != nil {
			ob = c.Obligation
			break
		}
	}
	if ob == nil {
		t.Fatal("no value condition")
	}
	if got := ob.Pretty(context.Background()); len(got) != 1 || got[0] == ob.String() {
		t.Fatalf("one piece: got %q, want the notation of Fig. 5.5", got)
	}
	var many []*presburger.BasicMap
	for range 40 {
		many = append(many, ob.Points.Basics()...)
	}
	big := *ob
	big.Points = presburger.NewMap(ob.Points.Space(), many...)
	if got := big.Pretty(context.Background()); len(got) != 1 || got[0] != big.String() {
		t.Errorf("40 pieces: got %q, want String", got)
	}
}

// TestInBindingUndefinedCells checks that an in binding loading undefined
// elements of a computed tensor is proved, its undefined cells holding no
// value: a kernel that never reads them has no failed or undecided
// condition, one that reads one fails an undefined read there (B(N), the
// cell b[N]), and nothing else.
func TestInBindingUndefinedCells(t *testing.T) {
	spec := `param N
assume N >= 1
input A(i) : f32
tensor B(i) : f32
B(i) = A(i) * 2  where 0 <= i < N
tensor C(i) : f32
C(i) = B(i) + 1
output C
`
	kernel := func(read string) string {
		return `kernel k(N)
assume N >= 1
in  b[i] : f32[N + 1] = B(i)
out c[i] : f32[N] = C(i)
{
  for i < N {
    c[i] {C(i)} := ` + read + `
  }
}
`
	}
	for _, tc := range []struct {
		name, read string
		failed     []sched.Kind
	}{
		{"unread", "b[i] + 1", nil},
		{"read", "b[i] + 1 + b[N] * 0", []sched.Kind{sched.UndefinedRead}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := loadPair(t, "partial.sare", spec, "k.sched", kernel(tc.read))
			a, err := Analyze(context.Background(), p.kernel, p.kinfo, p.spec, p.sinfo, AnalyzeOptions{Options: Options{NoGarbageWrites: true}})
			if err != nil {
				t.Fatal(err)
			}
			var failed []sched.Kind
			for _, c := range a.Conditions {
				switch c.Status {
				case Undecided:
					t.Errorf("C%d %s %s undecided: %s", c.ID, c.Kind, c.Text, c.Reason)
				case Failed:
					failed = append(failed, c.Kind)
				}
			}
			if !slices.Equal(failed, tc.failed) {
				t.Errorf("failed conditions %v, want %v", failed, tc.failed)
			}
		})
	}
}

// TestStatusString checks the names of the statuses, and that a value out
// of range, negative included, prints as a number rather than panicking.
func TestStatusString(t *testing.T) {
	for s, want := range map[Status]string{Pending: "pending", Proved: "proved", Failed: "failed", Undecided: "undecided",
		Status(7): "Status(7)", Status(-1): "Status(-1)"} {
		if got := s.String(); got != want {
			t.Errorf("Status(%d).String() = %q, want %q", int(s), got, want)
		}
	}
}
