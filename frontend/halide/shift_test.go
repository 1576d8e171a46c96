package halide

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/augur-verify/augur/frontend"
	"github.com/augur-verify/augur/smt/encode"
	"github.com/augur-verify/augur/validate"
)

// TestShiftIndices translates testdata/shifts/doubling.cpp: a scan that
// reads its previous slice at 1 << (t - 1) cells to the right (t an RVar
// of constant bounds [1, 2]), an update that reads at 1 << q (q in [0,
// 3)), the reads' shifts clamped, and an output that adds 1 << clamp(c(x),
// 0, 3), a shift by a data-dependent amount; each shift is a select over
// its amount's values on both sides. The interpreter agrees with Halide's
// JIT, the kernel is VALID, and the kernel with a shift off (1 << t
// instead of 1 << (t - 1), 1 << (q + 1) instead of 1 << q, 1 << 3 instead
// of 1 << 2) is INVALID, replayed.
func TestShiftIndices(t *testing.T) {
	t.Parallel()
	tc := toolchain(t)
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Minute)
	defer cancel()
	d := buildDriver(t, tc, filepath.Join("testdata", "shifts", "doubling.cpp"))
	o := Options{Target: SuiteTarget}
	pair := translated(ctx, t, d, o)
	spec, prog := pair.Spec, pair.Kernel(frontend.Prog).Text
	for _, w := range shiftSpec {
		if !strings.Contains(spec, w) {
			t.Errorf("the specification lacks %q:\n%s", w, spec)
		}
	}
	for i, sizes := range []map[string][]int{{"in": {13}, "out": {13}}, {"in": {3}, "out": {3}}} {
		jitAgrees(ctx, t, d, o, spec, prog, sizes, uint64(i+1), 0)
	}
	rep, err := validatePair(ctx, pair, encode.Real, 2)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Verdict != validate.Valid {
		t.Errorf("verdict %s (%s), want valid", rep.Verdict, rep.Reason)
	}
	for _, p := range shiftPlants {
		checkPlant(ctx, t, spec, prog, p, encode.Real)
	}
}

// shiftSpec is what doubling's specification must contain: the shifts
// as selects over their amounts' values.
var shiftSpec = []string{
	"f_s1(x, t) = max(f_s1(x, t + -1), f_s1(max(min(select(t + -1 == 0, 1, 2), 2), 0) + x, t + -1)) where (1 <= t and t < 3 and 0 <= x and x < in_extent_0)",
	"g_s1(x, r14_x) = g_s1(x, r14_x - 1) + c_1(x + max(min(select(r14_x == 0, 1, select(r14_x == 1, 2, 4)), 4), 0)) where 0 <= r14_x < 3",
	"select(max(min(c_1(x), i32(3)), i32(0)) == i32(2), i32(1) << i32(2), i32(1) << i32(3))",
}

// shiftPlants are doubling's kernel with a shift index off.
var shiftPlants = [][2]string{
	// The scan reads 1 << t cells to the right instead of 1 << (t - 1).
	{"select(f_s1_r8_y + -1 == 0, 1, 2)", "select(f_s1_r8_y + -1 == 0, 2, 4)"},
	// The update reads at 1 << (q + 1) instead of 1 << q.
	{"select(g_s1_r14_x == 0, 1, select(g_s1_r14_x == 1, 2, 4))", "select(g_s1_r14_x == 0, 2, select(g_s1_r14_x == 1, 4, 8))"},
	// The output adds 1 << 3 instead of 1 << 2 where the input is 2.
	{"i32(1) << i32(2), i32(1) << i32(3)", "i32(1) << i32(3), i32(1) << i32(3)"},
}
