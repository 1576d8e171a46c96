package halide

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/augur-verify/augur/validate"
)

// TestFinalStageIndexChecks decides the index overflow obligations the
// driver writes at --stage final. testdata/final's scalar blur: one per
// access (3 loads of input, 3 of blur_x, a store to each), those of
// blur_x, allocated from 0, proved, those of the input and the output,
// whose mins Halide's checks leave free, refuted. final_index, a pointwise
// pipeline whose buffers' mins are constrained to 0: both accesses proved.
// The same pipeline with its mins free (free_min): the store to out
// overflows in out.stride.1 times a coordinate, dimension 1, at a witness
// replayed exactly.
func TestFinalStageIndexChecks(t *testing.T) {
	t.Parallel()
	tc := toolchain(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Minute)
	defer cancel()
	d := buildDriver(t, tc, filepath.Join("testdata", "final", "final.cpp"))
	checks := func(o Options) []validate.IndexCheck {
		t.Helper()
		r, err := TranslateResult(ctx, d, o)
		if err != nil {
			t.Fatal(err)
		}
		cs, err := validate.CheckIndexes(ctx, r.IndexChecks, 0)
		if err != nil {
			t.Fatal(err)
		}
		return cs
	}
	index := func(freeMin string) Options {
		return Options{Generator: "final_index", Target: finalTarget, Params: map[string]string{"free_min": freeMin}, Stage: StageFinal}
	}
	blur := checks(finalOptions("scalar", ""))
	if len(blur) != 8 {
		t.Errorf("scalar: %d checks, want 8", len(blur))
	}
	for _, c := range blur {
		want := validate.IndexOverflows
		if c.Buffer == "blur_x" {
			want = validate.IndexProved
		}
		if c.Result != want {
			t.Errorf("scalar: %s; want %s", c, want)
		}
	}
	for _, c := range checks(index("false")) {
		if c.Result != validate.IndexProved {
			t.Errorf("mins 0: %s; want proved", c)
		}
	}
	cs := checks(index("true"))
	found := false
	for _, c := range cs {
		if c.Access != "store" || c.Buffer != "out" {
			continue
		}
		found = true
		if c.Result != validate.IndexOverflows || c.Dimension != 1 || c.Approximate || !strings.Contains(c.Term, "out.stride.1*") {
			t.Errorf("mins free: %s (dimension %d); want an overflow of out.stride.1 times a coordinate, dimension 1, not approximate", c, c.Dimension)
		}
		w := map[string]bool{}
		for _, v := range c.Witness {
			w[v.Name] = true
		}
		for _, name := range []string{"out.min.1", "out.stride.1", "out.extent.1", "out.s0.y.rebased"} {
			if !w[name] {
				t.Errorf("mins free: the witness %v has no %s", c.Witness, name)
			}
		}
	}
	if !found {
		t.Errorf("mins free: no check of the store to out in %v", cs)
	}
}
