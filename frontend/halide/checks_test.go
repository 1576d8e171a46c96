package halide

import (
	"context"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/augur-verify/augur/value"
)

// TestDroppedCheck checks which of Halide's run-time errors name a check
// the translation leaves out, and the confirmation each gives: a stop at
// storage folding's checks is CheckLeftOut (the verdict is then UNKNOWN),
// any other error of Halide's on the counterexample's parameters stays a
// suspect translation.
func TestDroppedCheck(t *testing.T) {
	t.Parallel()
	cases := []struct {
		msg, check string
		cause      Cause
	}{
		{"Error: The fold factor (2) of dimension y of f2 is too small to store the required region accessed by loop f3.s0.x (8).",
			"halide_error_fold_factor_too_small", CheckLeftOut},
		{"Error: The folded storage dimension y of f2 was accessed out of order by loop f3.s0.y.",
			"halide_error_bad_fold", CheckLeftOut},
		{"Error: Input buffer in0 is accessed at -1, which is before the min (0) in dimension 0",
			"", Translation},
		{"Error: Bounds given for f3 in x (from 0 to 3) do not cover required region (from 0 to 7)",
			"", Translation},
	}
	for _, c := range cases {
		if got := DroppedCheck(c.msg); got != c.check {
			t.Errorf("DroppedCheck(%q) = %q, want %q", c.msg, got, c.check)
		}
		conf := stopped(c.msg)
		if conf.Outcome != NotReproduced || conf.Cause != c.cause || conf.Check != c.check {
			t.Errorf("stopped(%q) = %v, %v, check %q; want not reproduced, %v, check %q", c.msg, conf.Outcome, conf.Cause, conf.Check, c.cause, c.check)
		}
	}
	want := "the counterexample stops Halide's code at its check halide_error_bad_fold, which the translation leaves out; Augur's invalid verdict on the kernel shows no wrong output of Halide's"
	if got := DroppedCheckReason("halide_error_bad_fold"); got != want {
		t.Errorf("DroppedCheckReason = %q, want %q", got, want)
	}
}

// TestNeedsOverflow checks NeedsOverflow on a kernel whose i32 product
// overflows where its specification's value is defined (a / 2 computed
// as (a * 2) / 4, as Halide's simplifier rewrites min(a, b) - b to
// min(a - b, 0)): its counterexample needs the overflow. Wrong kernels
// that fail where nothing overflows too (a / 4, and (a * 2) / 8, of the
// same shape) do not; a right kernel's replay passes, which needs
// nothing.
func TestNeedsOverflow(t *testing.T) {
	const spec = `overflow unconstrained
param N
assume N >= 1
input A(i) : i32
tensor D(i) : i32
D(i) = A(i) / 2
output D
`
	kernel := func(value string) string {
		return `kernel k(N)
assume N >= 1
in  a[i] : i32[N] = A(i)
out d[i] : i32[N] = D(i)
{
  par i < N {
    d[i] {D(i)} := ` + value + `
  }
}
`
	}
	w := Witness{Params: map[string]int64{"N": 16}, Seed: 1}
	cases := []struct {
		value string
		want  bool
	}{
		{"(a[i] * 2) / 4", true},
		{"a[i] / 4", false},
		{"(a[i] * 2) / 8", false},
		{"a[i] / 2", false},
	}
	for _, c := range cases {
		got, err := NeedsOverflow(context.Background(), spec, kernel(c.value), w, value.RealEqual, 0)
		if err != nil || got != c.want {
			t.Errorf("NeedsOverflow(%s) = %v, %v; want %v", c.value, got, err, c.want)
		}
	}
}

// TestExtentsTooLarge checks ExtentsTooLarge against Halide's check
// halide_error_buffer_extents_too_large: every product of a buffer's
// first extents at most 2^31 - 1 (2^63 - 1 with large_buffers), the
// extents read up to the first dimension the parameters lack.
func TestExtentsTooLarge(t *testing.T) {
	t.Parallel()
	buf := func(name string, extents ...int64) map[string]int64 {
		p := map[string]int64{}
		for k, e := range extents {
			p[fmt.Sprintf("%s_min_%d", name, k)] = -1 << 31
			p[fmt.Sprintf("%s_extent_%d", name, k)] = e
		}
		return p
	}
	with := func(ps ...map[string]int64) map[string]int64 {
		out := map[string]int64{"n": 1 << 40}
		for _, p := range ps {
			maps.Copy(out, p)
		}
		return out
	}
	const too = "Product of extents for buffer output is 549755813632, which exceeds the maximum size of 2147483647"
	cases := []struct {
		params map[string]int64
		target string
		want   string
	}{
		{with(buf("input", 1<<31-1), buf("output", 46340, 46340)), "x86-64-linux", ""},
		// max_filter's counterexample: 256 x (2^31 - 1) x 1.
		{with(buf("output", 256, 1<<31-1, 1)), "x86-64-linux-avx", too},
		{with(buf("output", 256, 1<<31-1, 1)), "x86-64-linux-large_buffers", ""},
		{with(buf("output", 256, 1<<31-1, 1), buf("a", 2, 2)), "x86-64-linux", too},
		// The first two extents pass; the third's product does not.
		{with(buf("output", 1<<16, 1<<14, 4)), "host", "Product of extents for buffer output is 4294967296, which exceeds the maximum size of 2147483647"},
		// A negative extent fails another check of Halide's first.
		{with(buf("output", 1<<20, -1, 1<<20)), "host", ""},
		// Without its min, an extent is no buffer's field.
		{with(map[string]int64{"output_extent_0": 1 << 20, "output_extent_1": 1 << 20}), "host", ""},
	}
	for i, c := range cases {
		if got := ExtentsTooLarge(c.params, c.target); got != c.want {
			t.Errorf("case %d: ExtentsTooLarge = %q, want %q", i, got, c.want)
		}
	}
	if got := DroppedCheck(too); got != "halide_error_buffer_extents_too_large" {
		t.Errorf("DroppedCheck(%q) = %q", too, got)
	}
}

// overflowPair returns the translation of testdata/overflow, whose output
// cell i is read from an input at the index i32(i + m) + s[0] - m - 1,
// s[0] = 1 (the shape of max_filter's i32(y + t) + ... near 2^31): an
// out-of-bounds read where the kernel's i32 sum wraps (i + m + 1 = 2^31),
// in bounds where it does not. cmd/augur's tests read it too.
func overflowPair(t *testing.T) (spec, kernel string) {
	t.Helper()
	dir := filepath.Join("testdata", "overflow")
	sp, err := os.ReadFile(filepath.Join(dir, "spec.sare"))
	if err != nil {
		t.Fatal(err)
	}
	k, err := os.ReadFile(filepath.Join(dir, "prog.sched"))
	if err != nil {
		t.Fatal(err)
	}
	return string(sp), string(k)
}

// TestConfirmExtentsTooLarge checks that Confirm does not run Halide's
// pipeline on a counterexample whose extents Halide's check
// halide_error_buffer_extents_too_large rejects: the confirmation is then
// CheckLeftOut, and the driver (missing here) is never started.
func TestConfirmExtentsTooLarge(t *testing.T) {
	t.Parallel()
	overflowSpec, overflowKernel := overflowPair(t)
	w := Witness{Params: map[string]int64{"n": 5_000_000, "m": 0,
		"output_min_0": 0, "output_extent_0": 1 << 16, "output_min_1": 0, "output_extent_1": 1 << 16}, Seed: 1}
	c, err := Confirm(context.Background(), "/nonexistent/driver", Options{Target: "x86-64-linux"}, overflowSpec, overflowKernel, w, 0)
	if err != nil {
		t.Fatal(err)
	}
	if c.Outcome != NotReproduced || c.Cause != CheckLeftOut || c.Check != "halide_error_buffer_extents_too_large" {
		t.Fatalf("Confirm = %+v, want not reproduced at halide_error_buffer_extents_too_large", c)
	}
	want := "Halide's compiled pipeline stops at its check halide_error_buffer_extents_too_large, which the translation leaves out of the kernel: " +
		"Product of extents for buffer output is 4294967296, which exceeds the maximum size of 2147483647 (Halide's check computed on the counterexample's extents; the pipeline was not run)"
	if c.Reason != want {
		t.Errorf("reason %q, want %q", c.Reason, want)
	}
	// Within Halide's checks, Confirm goes on to write the inputs: more
	// than it writes.
	w.Params["output_extent_1"] = 1
	if _, err := Confirm(context.Background(), "/nonexistent/driver", Options{Target: "x86-64-linux"}, overflowSpec, overflowKernel, w, 0); err == nil ||
		!strings.Contains(err.Error(), "more than 4194304 elements") {
		t.Errorf("Confirm within the checks: %v, want the inputs' limit", err)
	}
}

// TestOverflowReplay checks OverflowReplay on the shape of max_filter's
// counterexample: a kernel that reads in bounds wherever its i32 index
// arithmetic does not overflow passes the replay where it does not (no
// failure to explain), and where its i32 sum i32(i + m) + s[0] reaches
// 2^31 its out-of-bounds read needs the overflow (a read at an index
// computed from an unconstrained overflow reads any value); a wrong kernel that reads out of bounds without wrapping
// does not need an overflow; a counterexample whose input is too large
// for the interpreter's cells (5,000,000, too many to confirm on
// Halide's code too) is undecided, with its reason.
func TestOverflowReplay(t *testing.T) {
	t.Parallel()
	overflowSpec, overflowKernel := overflowPair(t)
	w := Witness{Params: map[string]int64{"n": 4, "m": 1000}, Inputs: []Cell{{Tensor: "S", Index: []int64{0}, Value: "1"}}, Seed: 1}
	needs, undecided, err := OverflowReplay(context.Background(), overflowSpec, overflowKernel, w, value.RealEqual, 0)
	if err != nil || needs || undecided != "" {
		t.Errorf("OverflowReplay(no wrap) = %v, %q, %v; want false, decided", needs, undecided, err)
	}
	w.Params["n"], w.Params["m"] = 3, 2147483645
	needs, undecided, err = OverflowReplay(context.Background(), overflowSpec, overflowKernel, w, value.RealEqual, 0)
	if err != nil || !needs || undecided != "" {
		t.Errorf("OverflowReplay(i32(i + m) + s[0] = 2^31) = %v, %q, %v; want true", needs, undecided, err)
	}
	wrong := strings.Replace(overflowKernel, "a[i64(i32(i + m) + s[0]) - i64(m) - i64(1)]", "a[i + 1]", 1)
	needs, undecided, err = OverflowReplay(context.Background(), overflowSpec, wrong, w, value.RealEqual, 0)
	if err != nil || needs || undecided != "" {
		t.Errorf("OverflowReplay(wrong) = %v, %q, %v; want false, decided", needs, undecided, err)
	}
	w.Params = map[string]int64{"n": 5_000_000, "m": 2147483647 - 5_000_000}
	needs, undecided, err = OverflowReplay(context.Background(), overflowSpec, overflowKernel, w, value.RealEqual, 0)
	want := "the reference interpreter's replay (wraps) did not finish: array a[5000000] needs 5000000 cells, more than the 4194304 allowed"
	if err != nil || needs || !strings.HasPrefix(undecided, want) {
		t.Errorf("OverflowReplay(5,000,000 cells) = %v, %q, %v; want undecided: %s", needs, undecided, err, want)
	}
}
