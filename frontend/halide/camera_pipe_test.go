package halide

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/augur-verify/augur/frontend"
)

// TestCameraPipe translates apps/camera_pipe.cpp, Halide's camera_pipe
// app with its CPU schedule: the tone curve read at a data-dependent
// index (the colour-corrected value, clamped), the raw image prefetched
// (a hint, translated as its body) and the deinterleaved channels folded
// by 4 rows with Halide's dynamic fold checks (dropped: checks only).
// No JIT sample: the sample draws float parameters in [-1, 1], and a
// colour temperature there overflows the colour matrix's cast to int16,
// which is undefined (the interpreter says so at f26's store).
func TestCameraPipe(t *testing.T) {
	t.Parallel()
	tc := toolchain(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Minute)
	defer cancel()
	d := buildDriver(t, tc, filepath.Join("apps", "camera_pipe.cpp"))
	o := Options{Target: SuiteTarget}
	pair := translated(ctx, t, d, o)
	spec, prog := pair.Spec, pair.Kernel(frontend.Prog).Text
	for _, want := range []string{
		"tensor curve(v0) : u8",
		"= curve(i32(max(min(",
	} {
		if !strings.Contains(spec, want) {
			t.Errorf("the specification lacks %q:\n%s", want, spec)
		}
	}
	if !strings.Contains(prog, "buf_curve[i32(max(min(buf_") {
		t.Errorf("the kernel lacks the tone curve's lookup:\n%s", prog)
	}
	if strings.Contains(prog, "head") || strings.Contains(prog, "halide_error_bad_fold") {
		t.Errorf("the kernel keeps the fold's counters or checks:\n%s", prog)
	}
}
