package validate

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// TestTranslationStepBudget: testdata/steps/expand.sched tiles a loop
// whose range, over two chains of clamps, translates into a product of
// many pieces, work of the translation of index expressions, which
// counts against the symbolic evaluation's step budget as the
// Presburger engine's work does. The kernel is VALID within the default
// budget; within 1,000 steps the budget runs out while the loop's range
// is translated, and the verdict is UNKNOWN with the reason that says so.
func TestTranslationStepBudget(t *testing.T) {
	dir := filepath.Join("testdata", "steps")
	spec, prog := filepath.Join(dir, "expand.sare"), filepath.Join(dir, "expand.sched")
	rep := validateFiles(t, spec, prog, Options{Jobs: 1, NoQuickTest: true})
	if rep.Verdict != Valid {
		t.Fatalf("verdict %s (%s), want valid", rep.Verdict, rep.Reason)
	}
	const steps = 1000
	rep = validateFiles(t, spec, prog, Options{Jobs: 1, NoQuickTest: true, SymbolicSteps: steps})
	want := fmt.Sprintf("the symbolic evaluation's step budget ran out (%d Presburger steps; --symbolic-steps raises it): symbolic evaluation: kernel expand: 15:5: par tx < (x3 - y3 + 3) / 4: translation of index expressions: ", steps)
	if rep.Verdict != Unknown || !strings.HasPrefix(rep.Reason, want) {
		t.Fatalf("within %d steps: verdict %s (%s), want unknown (%s...)", steps, rep.Verdict, rep.Reason, want)
	}
}
