package halide

import (
	"context"
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/augur-verify/augur/frontend"
	"github.com/augur-verify/augur/sched"
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
	checks := func(o Options) []validate.IndexCheck { return indexChecks(ctx, t, d, o) }
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

// TestFinalStageIndexChecksIIRBlur decides the index overflow
// obligations of the suite's iir_blur at --stage final, whose facts need
// Halide's checks read piece by piece: AddImageChecks' total extents
// (Int(64) lets, the product of the previous total extent and an extent,
// equal to their exact value where it is within Int(64)), and the
// conjuncts of a check under a let. 18 of the 20 accesses are proved; the
// two left, a load of the input and the store of the output at the rows'
// products y * stride.1, overflow at witnesses whose buffers pass every
// product-of-extents check (before, a witness had an input of 33 x 33 x
// 1,073,741,823 elements) but span more than 2^31 elements, which
// Halide's checks, each dimension's |extent * stride| apart, allow.
func TestFinalStageIndexChecksIIRBlur(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Minute)
	defer cancel()
	d, o := finalSuitePipeline(t, "iir_blur")
	cs := indexChecks(ctx, t, d, o)
	proved := 0
	overflows := map[string]bool{}
	for _, c := range cs {
		switch c.Result {
		case validate.IndexProved:
			proved++
		case validate.IndexOverflows:
			overflows[c.Access+" "+c.Buffer] = true
			if c.Dimension != 1 {
				t.Errorf("%s: dimension %d, want 1", c, c.Dimension)
			}
			w := map[string]int64{}
			for _, v := range c.Witness {
				w[v.Name] = v.Value
			}
			for _, b := range []string{"input", "output"} {
				product := int64(1)
				for k := range 3 {
					product *= w[fmt.Sprintf("%s.extent.%d", b, k)]
					if product > math.MaxInt32 {
						t.Errorf("%s: the witness's %s has more elements than Halide's check allows: %v", c, b, c.Witness)
						break
					}
				}
			}
		default:
			t.Errorf("%s: want proved or overflows", c)
		}
	}
	if len(cs) != 20 || proved != 18 || !overflows["load input"] || !overflows["store output"] {
		t.Errorf("%d checks, %d proved, overflows %v; want 20, 18 proved, a load of input and a store of output overflowing", len(cs), proved, overflows)
	}
}

// TestHarrisLargeMin runs the suite's harris, compiled by Halide 14, on
// buffers whose every coordinate is within Int(32) and that pass every
// check of Halide's, at input rows from m - 2 on (output rows m to
// m + 31, 32 x 32 outputs, an input of 36 x 36 x 3 elements, its row
// stride 36): right at m = 59,000,000, while at m = 60,000,000, where
// input.min.1 * input.stride.1 passes 2^31 - 1, Halide's compiled code
// crashes (in its parallel loop over the output's rows): the overflow of
// Halide's flat index that harris's index checks witness at
// --stage final, a real limit of Halide 14's code, which its checks do
// not exclude.
func TestHarrisLargeMin(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	d, o := finalSuitePipeline(t, "harris")
	o.Stage = ""
	pair := translated(ctx, t, d, o)
	at := func(m int64) Witness {
		return Witness{Params: map[string]int64{
			"output_min_0": 0, "output_extent_0": 32, "output_min_1": m, "output_extent_1": 32,
			"input_min_0": -2, "input_extent_0": 36, "input_min_1": m - 2, "input_extent_1": 36, "input_min_2": 0, "input_extent_2": 3,
		}, Seed: 1, Kind: sched.WrongValue}
	}
	c, err := Confirm(ctx, d, o, pair.Spec, pair.Kernel(frontend.Prog).Text, at(59_000_000), 1e-5)
	if err != nil || c.Outcome != NotReproduced || c.Compared != 1024 {
		t.Errorf("m = 59,000,000: %+v, %v; want every output cell right", c, err)
	}
	_, err = Confirm(ctx, d, o, pair.Spec, pair.Kernel(frontend.Prog).Text, at(60_000_000), 1e-5)
	if err == nil || !strings.Contains(err.Error(), "segmentation fault") {
		t.Errorf("m = 60,000,000: %v; want Halide's code to crash", err)
	}
}

// indexChecks translates the generator of driver d with o and checks its
// index overflow obligations at the default resource limit.
func indexChecks(ctx context.Context, t *testing.T, d string, o Options) []validate.IndexCheck {
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
