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

// TestResizeStridesPacked translates testdata/strides/packed.cpp, whose
// schedule specializes on packed colour channels as apps/resize does: the
// strides its condition reads are parameters of both sides, the
// interpreter agrees with Halide's JIT in both branches (a planar sample,
// a packed one), and the kernel is VALID. Planted: a wrong value stored
// in one branch only, the packed one, then the general one, is INVALID,
// a counterexample the interpreter replays, whose strides select that
// branch.
func TestResizeStridesPacked(t *testing.T) {
	t.Parallel()
	tc := toolchain(t)
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Minute)
	defer cancel()
	d := buildDriver(t, tc, filepath.Join("testdata", "strides", "packed.cpp"))
	pair, err := Translate(ctx, d, Options{})
	if err != nil {
		t.Fatal(err)
	}
	spec, prog := pair.Spec, pair.Kernel(frontend.Prog).Text
	packed := []int{2, 0, 1}
	for i, c := range []struct {
		sizes  map[string][]int
		stride int64
	}{
		{map[string][]int{"output": {5, 4, 3}}, 1},
		{map[string][]int{"output": {5, 4, 3}, "output.order": packed, "input.order": packed}, 3},
	} {
		smp, err := JIT(ctx, d, Options{}, c.sizes, uint64(i+1))
		if err != nil {
			t.Fatal(err)
		}
		if got := smp.Params["input_stride_0"]; got != c.stride {
			t.Errorf("sample %d: input_stride_0 = %d, want %d", i, got, c.stride)
		}
		if _, err := smp.Check(ctx, spec, prog, 0); err != nil {
			t.Errorf("sample %d (%v): %v", i, c.sizes, err)
		}
	}
	rep, err := validatePair(ctx, pair, encode.Real, 1)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Verdict != validate.Valid {
		t.Fatalf("verdict %s (%s), want valid", rep.Verdict, rep.Reason)
	}
	for _, branch := range []struct {
		name string
		nth  int // the store planted: the packed branch's first, the general one's (the last)
	}{{"packed", 0}, {"general", -1}} {
		wrong, ok := plantNthStore(prog, branch.nth)
		if !ok {
			t.Fatalf("%s: no store %d to plant in:\n%s", branch.name, branch.nth, prog)
		}
		wantInvalidReplayed(ctx, t, pair.SpecSource(), wrong, branch.name+" branch planted")
	}
}

// plantNthStore adds one to the uint8 value of the kernel's nth store (its
// nth line "a[...] {annotation} := value", counted from 0; the last for
// nth < 0), so that the store computes another value than its annotation
// claims.
func plantNthStore(prog string, nth int) (string, bool) {
	lines := strings.Split(prog, "\n")
	var stores []int
	for i, l := range lines {
		if strings.Contains(l, "} := ") {
			stores = append(stores, i)
		}
	}
	if nth < 0 {
		nth += len(stores)
	}
	if nth < 0 || nth >= len(stores) {
		return "", false
	}
	l := lines[stores[nth]]
	eq := strings.Index(l, "} := ")
	lines[stores[nth]] = l[:eq] + "} := (" + l[eq+5:] + ") + u8(1)"
	return strings.Join(lines, "\n"), true
}
