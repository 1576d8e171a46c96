package halide

import (
	"context"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/augur-verify/augur/frontend"
	"github.com/augur-verify/augur/smt/encode"
	"github.com/augur-verify/augur/validate"
)

// TestDerivedTaps translates testdata/float/taps.cpp, a sum over
// int32(ceil(2 / scale)) taps: the count is the derived parameter
// scale_int of both sides, which TranslateResult returns with its
// computation, and JIT samples carry; the interpreter agrees with Halide's
// JIT with the count computed from the sample's scale, and the kernel is
// VALID. Planted: the kernel's loop over the taps one short, then one
// long (the derived parameter used wrongly by the kernel) is INVALID, a
// counterexample the interpreter replays.
func TestDerivedTaps(t *testing.T) {
	t.Parallel()
	tc := toolchain(t)
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Minute)
	defer cancel()
	d := buildDriver(t, tc, filepath.Join("testdata", "float", "taps.cpp"))
	res, err := TranslateResult(ctx, d, Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := []DerivedParam{{Name: "scale_int", Def: derivedTapsDef}}
	if !reflect.DeepEqual(res.Derived, want) {
		t.Fatalf("derived parameters %q, want %q", res.Derived, want)
	}
	spec, prog := res.Spec, res.Kernel(frontend.Prog).Text
	for i, sizes := range []map[string][]int{{"output": {9}, "scale": {1}}, {"output": {5}}} {
		seed := uint64(i + 1)
		smp, err := JIT(ctx, d, Options{}, sizes, seed)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(smp.Derived, want) {
			t.Errorf("the sample's derived parameters %q, want %q", smp.Derived, want)
		}
		jitAgrees(ctx, t, d, Options{}, spec, prog, sizes, seed, 1e-5)
	}
	rep, err := validatePair(ctx, &res.Pair, encode.Real, 1)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Verdict != validate.Valid {
		t.Fatalf("verdict %s (%s), want valid", rep.Verdict, rep.Reason)
	}
	for _, plant := range []struct{ name, from, to string }{
		{"one tap short", derivedTapsLoop, derivedTapsShort},
		{"one tap long", derivedTapsLoop, derivedTapsLong},
	} {
		wrong := strings.Replace(prog, plant.from, plant.to, 1)
		if wrong == prog {
			t.Fatalf("%s: no %q in the kernel:\n%s", plant.name, plant.from, prog)
		}
		wantInvalidReplayed(ctx, t, res.SpecSource(), wrong, plant.name)
	}
}

// The computation of taps.cpp's count of taps, its kernel's loop over
// them, and that loop planted one short and one long.
const (
	derivedTapsDef   = "i32(ceil(f32(2.0) / scale()))"
	derivedTapsLoop  = "for acc_s1_r_x < acc_s1_r_x_max_1_s {"
	derivedTapsShort = "for acc_s1_r_x < acc_s1_r_x_max_1_s - 1 {"
	derivedTapsLong  = "for acc_s1_r_x < acc_s1_r_x_max_1_s + 1 {"
)
