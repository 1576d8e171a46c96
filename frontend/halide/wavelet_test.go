package halide

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/augur-verify/augur/frontend"
	"github.com/augur-verify/augur/smt/encode"
	"github.com/augur-verify/augur/validate"
)

// TestWavelet translates the four generators of Halide's apps/wavelet
// (apps/haar_x.cpp, daubechies_x.cpp, inverse_haar_x.cpp,
// inverse_daubechies_x.cpp), each with its schedule (the channel or the
// column's parity unrolled by 2): the interpreter agrees with Halide's
// JIT on two samples, and each kernel is VALID. Planted
// miscompilations are INVALID with a counterexample the interpreter
// replays: daubechies_x's low-pass filter with D0 for D2, inverse_haar_x's
// odd columns the sum instead of the difference.
func TestWavelet(t *testing.T) {
	t.Parallel()
	tc := toolchain(t)
	for _, c := range []struct {
		app   string
		sizes [2]map[string][]int
		want  string    // in the kernel
		plant [2]string // a miscompilation: its first occurrence replaced; none when empty
	}{
		{"haar_x", [2]map[string][]int{{"out": {7, 5, 2}, "in": {14, 5}}, {"out": {3, 2, 2}, "in": {5, 1}}}, "buf_in[max(min(2 * out_s0_x + 1, in_extent_0 + in_min_0 + -1), in_min_0) - in_min_0, ",
			[2]string{}},
		{"daubechies_x", [2]map[string][]int{{"out": {7, 5, 2}, "in": {14, 5}}, {"out": {3, 2, 2}, "in": {5, 1}}}, "f32(-0.1294095218181610107421875)",
			[2]string{"f32(0.22414386272430419921875)", "f32(0.482962906360626220703125)"}},
		{"inverse_haar_x", [2]map[string][]int{{"out": {14, 5}, "in": {7, 5, 2}}, {"out": {6, 2}, "in": {2, 1, 1}}}, "for out_s0_x_v0 < 2 {",
			[2]string{"f32(0.0) - buf_in", "f32(0.0) + buf_in"}},
		{"inverse_daubechies_x", [2]map[string][]int{{"out": {14, 5}, "in": {7, 5, 2}}, {"out": {6, 2}, "in": {2, 1, 1}}}, "f32(0.836516320705413818359375)",
			[2]string{}},
	} {
		t.Run(c.app, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Minute)
			defer cancel()
			d := buildDriver(t, tc, filepath.Join("apps", c.app+".cpp"))
			o := Options{Target: SuiteTarget}
			pair := translated(ctx, t, d, o)
			spec, prog := pair.Spec, pair.Kernel(frontend.Prog).Text
			if !strings.Contains(prog, c.want) {
				t.Errorf("the kernel lacks %q:\n%s", c.want, prog)
			}
			for i, sizes := range c.sizes {
				jitAgrees(ctx, t, d, o, spec, prog, sizes, uint64(i+1), 1e-5)
			}
			rep, err := validatePair(ctx, pair, encode.Real, 1)
			if err != nil {
				t.Fatal(err)
			}
			if rep.Verdict != validate.Valid {
				t.Errorf("verdict %s (%s), want valid", rep.Verdict, rep.Reason)
			}
			if c.plant[0] == "" {
				return
			}
			bad := strings.Replace(prog, c.plant[0], c.plant[1], 1)
			if bad == prog {
				t.Fatalf("nothing planted in:\n%s", prog)
			}
			wantInvalidReplayed(ctx, t, pair.SpecSource(), bad, fmt.Sprintf("planted %q", c.plant[1]))
		})
	}
}
