package symeval

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/augur-verify/augur/sched"
)

func analyzeFiles(t *testing.T, specPath, kernelPath string) *Analysis {
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
	a, err := Analyze(context.Background(), p.kernel, p.kinfo, p.spec, p.sinfo, AnalyzeOptions{})
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
