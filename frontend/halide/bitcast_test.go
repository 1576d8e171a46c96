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

// TestBitCast translates testdata/bitcast: Halide's reinterpret, both
// ways, becomes the formats' bit casts and its constant shifts their
// shifts; the interpreter agrees with Halide's JIT on two samples. The
// kernel is VALID in the real model (the same bit casts of equal values
// on both sides, Halide's shifts rewritten as products) and INVALID in
// ieee: the bits of a NaN input are undefined (NaN payloads are not
// modelled), and so is the specification's value there.
func TestBitCast(t *testing.T) {
	t.Parallel()
	tc := toolchain(t)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	d := buildDriver(t, tc, filepath.Join("testdata", "bitcast", "bitcast.cpp"))
	// strict_float, as nl_means: Halide would otherwise rewrite
	// fast_exp's float arithmetic, which the interpreter runs exactly.
	o := Options{Target: "host-strict_float"}
	pair := translated(ctx, t, d, o)
	spec, prog := pair.Spec, pair.Kernel(frontend.Prog).Text
	for _, want := range []string{"reinterpret_u32(in_im(x))", "reinterpret_f32(", " << u32(23)", " << i32(23)"} {
		if !strings.Contains(spec, want) {
			t.Errorf("the specification lacks %q:\n%s", want, spec)
		}
	}
	for i, sizes := range []map[string][]int{{"in": {37}, "k": {37}, "out": {37}}, {"in": {8}, "k": {8}, "out": {8}}} {
		s, err := JIT(ctx, d, o, sizes, uint64(i+1))
		if err != nil {
			t.Fatal(err)
		}
		res, err := s.Check(ctx, spec, prog, 1e-6)
		if err != nil {
			t.Fatalf("sample %d (%v): %v", i+1, sizes, err)
		}
		if res.HalideCells == 0 || res.KernelCells != int64(res.HalideCells) {
			t.Errorf("sample %d: %d cells from Halide, %d checked in the kernel", i+1, res.HalideCells, res.KernelCells)
		}
	}
	rep, err := validatePair(ctx, pair, encode.Real, 1)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Verdict != validate.Valid {
		t.Errorf("real: verdict %s (%s), want valid", rep.Verdict, rep.Reason)
	}
	rep, err = validatePair(ctx, pair, encode.IEEE, 1)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Verdict != validate.Invalid || !strings.Contains(rep.Reason, "undefined") {
		t.Errorf("ieee: verdict %s (%s), want invalid (undefined: the bits of a NaN)", rep.Verdict, rep.Reason)
	}
}
