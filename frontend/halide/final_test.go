package halide

import (
	"context"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/augur-verify/augur/frontend"
	"github.com/augur-verify/augur/internal/testtier"
	"github.com/augur-verify/augur/smt/encode"
	"github.com/augur-verify/augur/validate"
)

// finalTarget is the fixed target of the tests of the final stage (the
// suite's).
const finalTarget = "x86-64-linux-avx-avx2-f16c-fma-sse41"

// finalSizes are the output's extents of the JIT samples of
// testdata/final: wide enough for a vector of 8, neither extent a
// multiple of 8 or 4, so that the vectorised rows and the split loops
// have tails.
var finalSizes = map[string][]int{"out": {19, 10}}

// slidingSizes are the extents of sliding's JIT sample: its input half as
// high as the output, so that the repeated edge's clamps bite at both ends
// and partition_loops' prologue and epilogue of the rows are not empty
// (an input the bounds query sizes covers every row read: the steady state
// then starts at the loop's min).
var slidingSizes = map[string][]int{"out": {19, 10}, "input": {19, 5}}

// finalOptions are the options of schedule sched of testdata/final at
// --stage final, with the miscompilation plant planted (none if empty):
// strided is generator final_strided, the others final_stage's sched.
func finalOptions(sched, plant string) Options {
	o := Options{Generator: "final_stage", Target: finalTarget, Params: map[string]string{"sched": sched}, Stage: StageFinal, Plant: plant}
	if sched == "strided" {
		o.Generator, o.Params = "final_strided", nil
	}
	return o
}

// TestFinalStage translates testdata/final at --stage final, one
// schedule per lowering pass after storage flattening: flattening alone
// (scalar), vectorize_loops (vector: each vector store of a whole vector
// one store in a loop over its lanes), unroll_loops (unroll),
// partition_loops (partition: a guarded split's steady state and
// epilogue), a realization inside a parallel loop (inner), its loop
// rebased, tiles fused into one parallel loop with a realization of
// constant extents per tile that bound_small_allocations makes
// one-dimensional (tiles), a realization in each copy of an unrolled loop
// (unrolled: its loop variable recovered from the copy's ordinal), a
// realization per strip of a guarded split, realized once but allocated
// again in the epilogue partition_loops peels (epilogue: its regions
// carried by markers), a root realization split by 8 and specialized on
// the output's width W >= 16 (bounded: its allocation's extent max(W, 8)
// read as W under the specialization's if), an input with one stride
// fixed by a constraint and one free (strided, generator
// final_strided), an inline reduction inside a vectorized loop (lanes:
// its realization, widened by vectorize_loops to one copy per lane, read
// as the union of the lanes' regions), a func of two symbolic extents
// below the last whose row's extent reads, with a negative coefficient,
// the min of the last vector shifted inwards (borrow: polynomial division
// in an atom of the extent's max, not of that min, so that the vectorised
// tail's cells are in their own row), a func stored channel innermost
// whose three channels, unrolled inside its vectorised x, are one store
// interleaving three vectors (interleaved: one store in a loop over its
// 24 lanes, each lane's channel the lane's remainder by 3), a copy of the
// input's 8 x 8 tiles stored transposed, one store interleaving eight
// loads of the input's rows, input.stride.1 apart (rows: one store in a
// loop over its 64 lanes, each lane's row the lane's remainder by 8, a
// multiple of the stride the delinearisation splits off), a sliding
// window over the input's repeated edge whose rows' loop partition_loops
// splits into a prologue of a length the buffers' mins give, a steady
// state and an epilogue (sliding: each part's variable counted from its
// own min; its JIT sample's input shorter than the output). Each kernel
// agrees with Halide's JIT cell for cell; scalar, vector, lanes,
// interleaved and rows are validated here, VALID, the others but borrow
// and sliding in TestLongFinalStage.
func TestFinalStage(t *testing.T) {
	t.Parallel()
	tc := toolchain(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Minute)
	defer cancel()
	d := buildDriver(t, tc, filepath.Join("testdata", "final", "final.cpp"))
	for _, sched := range finalSchedules {
		t.Run(sched, func(t *testing.T) {
			o := finalOptions(sched, "")
			pair := translated(ctx, t, d, o)
			if sched == "vector" && !strings.Contains(pair.Kernel(frontend.Prog).Text, "for out_lane < 8 {") {
				t.Errorf("the vector stores to out are not one store in a loop over their lanes")
			}
			if sched == "interleaved" && !strings.Contains(pair.Kernel(frontend.Prog).Text, "for pair_lane < 24 {") {
				t.Errorf("the interleaved stores to pair are not one store in a loop over their lanes")
			}
			if sched == "rows" && !strings.Contains(pair.Kernel(frontend.Prog).Text, "for blur_x_lane < 64 {") {
				t.Errorf("the interleaved store to blur_x is not one store in a loop over its lanes")
			}
			sizes := finalSizes
			if sched == "sliding" {
				sizes = slidingSizes
			}
			jitAgrees(ctx, t, d, o, pair.Spec, pair.Kernel(frontend.Prog).Text, sizes, 1, 0)
			if testing.Short() || (sched != "scalar" && sched != "vector" && sched != "lanes" && sched != "interleaved" && sched != "rows") {
				return
			}
			finalValid(ctx, t, pair)
		})
	}
}

// finalSchedules are the schedules of testdata/final that TestFinalStage
// translates.
var finalSchedules = []string{"scalar", "vector", "unroll", "partition", "inner", "tiles", "predicate", "unrolled", "repeated", "transposed", "poly", "epilogue", "bounded", "strided", "lanes", "borrow", "interleaved", "rows", "sliding"}

// TestLongFinalStage validates the schedules of TestFinalStage that it
// only translates: each is VALID.
func TestLongFinalStage(t *testing.T) {
	testtier.Long(t)
	t.Parallel()
	tc := toolchain(t)
	ctx, cancel := context.WithTimeout(context.Background(), 45*time.Minute)
	defer cancel()
	d := buildDriver(t, tc, filepath.Join("testdata", "final", "final.cpp"))
	for _, sched := range finalSchedules[2:] {
		if sched == "borrow" {
			continue // its validation is not bounded yet: minutes of CPU without a verdict
		}
		if sched == "sliding" {
			continue // UNKNOWN: the annotations of the stores to out in the steady state and the epilogue exhaust their solver budget
		}
		t.Run(sched, func(t *testing.T) {
			finalValid(ctx, t, translated(ctx, t, d, finalOptions(sched, "")))
		})
	}
}

// finalValid validates pair in the real value model and wants VALID.
func finalValid(ctx context.Context, t *testing.T, pair *frontend.Pair) {
	t.Helper()
	rep, err := validatePair(ctx, pair, encode.Real, 1)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Verdict != validate.Valid {
		t.Errorf("verdict %s (%s), want valid", rep.Verdict, rep.Reason)
	}
}

// TestFinalStagePlanted plants miscompilations in Halide's final
// statement before it is translated: a flattened store's stride one too
// large, its offset one too far, a vectorised row's tail and a
// partitioned loop's epilogue dropped, that epilogue started one
// iteration late, a vector store's last lane duplicated or dropped, its
// lanes reading at a ramp of stride 2 instead of 1 (translated as one
// store in a loop over the lanes), a
// predicated tail storing one lane too many, a copy of an unrolled
// loop's body reading its input one column too far (the copy whose loop
// variable the translation recovers from its ordinal), the last
// allocation of a func realized once but allocated again in a
// partitioned epilogue reading its input one element too far (repeat on
// epilogue), the stride of the first store to an allocation of extent
// max(W, 8), under the if where it is read as W, one too large (astride
// on bounded), a load of that input at the innermost loop's stride one
// too large, 4 instead of the constrained 3 (lstride on strided). None
// may be VALID; nor may the first store to the per-tile allocation of
// constant extents one element too far (aoffset on tiles: its cells found
// by Euclidean division, a remainder dropped only where the loops' ranges
// prove it); nor may the sum, an inline reduction widened to one copy
// per lane, read by each lane of the output from another lane's copy
// (lane-copy on lanes, lane l reading lane 7 - l's); nor the first store
// to the allocation of two symbolic extents below the last whose row's
// extent reads a min (soffset on borrow);
// each is INVALID, for the reason planted.
func TestFinalStagePlanted(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("validates")
	}
	tc := toolchain(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Minute)
	defer cancel()
	d := buildDriver(t, tc, filepath.Join("testdata", "final", "final.cpp"))
	for _, c := range []struct{ sched, plant, reason string }{
		{"scalar", "stride", "annotation mismatch"},
		{"scalar", "offset", "out-of-bounds write"},
		{"vector", "epilogue", "output not written"},
		{"partition", "epilogue", "output not written"},
		{"partition", "late", "output not written"},
		{"vector", "lane-dup", "annotation mismatch"},
		{"vector", "lane-drop", "output not written"},
		{"vector", "lane-stride", "annotation mismatch"},
		{"predicate", "predicate", "out-of-bounds write"},
		{"unrolled", "copy", "annotation mismatch"},
		{"repeated", "repeat", "out-of-bounds read"},
		{"poly", "astride", "out-of-bounds write"},
		{"epilogue", "repeat", "out-of-bounds read"},
		{"bounded", "astride", "annotation mismatch"},
		{"strided", "lstride", "out-of-bounds read"},
		{"tiles", "aoffset", "annotation mismatch"},
		{"lanes", "lane-copy", "annotation mismatch"},
		{"borrow", "soffset", "annotation mismatch"},
	} {
		t.Run(c.sched+"/"+c.plant, func(t *testing.T) {
			o := finalOptions(c.sched, c.plant)
			pair := translated(ctx, t, d, o)
			if c.sched == "vector" && !strings.Contains(pair.Kernel(frontend.Prog).Text, "for out_lane < 8 {") {
				t.Errorf("the vector stores to out are not one store in a loop over their lanes")
			}
			rep, err := validatePair(ctx, pair, encode.Real, 1)
			if err != nil {
				t.Fatal(err)
			}
			if rep.Verdict != validate.Invalid || !strings.Contains(rep.Reason, c.reason) {
				t.Errorf("verdict %s (%s), want invalid (%s)", rep.Verdict, rep.Reason, c.reason)
			}
		})
	}
}

// TestFinalCapturedStmt compares the statement --stage final captures
// with the one Halide's own lowering prints under "Lowering after final
// simplification:", text for text, for every schedule of testdata/final
// and for the suite's blurs (tiled and not).
func TestFinalCapturedStmt(t *testing.T) {
	t.Parallel()
	tc := toolchain(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Minute)
	defer cancel()
	type run struct {
		name, driver string
		o            Options
	}
	var runs []run
	d := buildDriver(t, tc, filepath.Join("testdata", "final", "final.cpp"))
	for _, sched := range []string{"scalar", "vector", "unroll", "partition", "inner"} {
		runs = append(runs, run{sched, d, finalOptions(sched, "")})
	}
	for _, c := range suite {
		if c.app == "blur" {
			bd := buildDriver(t, tc, filepath.Join("apps", "blur.cpp"))
			runs = append(runs, run{name(c.app, c.params), bd, Options{Target: SuiteTarget, Params: c.params, Stage: StageFinal}})
		}
	}
	for _, r := range runs {
		t.Run(r.name, func(t *testing.T) {
			ours, err := CapturedStmt(ctx, r.driver, r.o)
			if err != nil {
				t.Fatal(err)
			}
			theirs, err := HalideFinalStmt(ctx, r.driver, r.o)
			if err != nil {
				t.Fatal(err)
			}
			if strings.TrimSpace(ours) != strings.TrimSpace(theirs) {
				t.Errorf("the captured statement differs from Halide's:\n--- captured\n%s\n--- Halide\n%s", ours, theirs)
			}
		})
	}
}

// TestFinalStageBlur translates the suite's tiled blur at --stage final:
// its sliding window, its rolling buffer of 4 rows (storage folding, whose
// coordinates the translation recovers from the statement before
// flattening), its parallel strips, its vectors and their partitioned
// tails. The kernel agrees with Halide's JIT cell for cell and is VALID.
func TestFinalStageBlur(t *testing.T) {
	t.Parallel()
	tc := toolchain(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Minute)
	defer cancel()
	d := buildDriver(t, tc, filepath.Join("apps", "blur.cpp"))
	o := Options{Target: finalTarget, Stage: StageFinal}
	pair := translated(ctx, t, d, o)
	for i, sizes := range []map[string][]int{{"blur_y": {24, 16}}, {"blur_y": {13, 11}}} {
		jitAgrees(ctx, t, d, o, pair.Spec, pair.Kernel(frontend.Prog).Text, sizes, uint64(i+1), 0)
	}
	if testing.Short() {
		return
	}
	rep, err := validatePair(ctx, pair, encode.Real, 1)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Verdict != validate.Valid {
		t.Errorf("verdict %s (%s), want valid", rep.Verdict, rep.Reason)
	}
}

// TestFinalStageSuite translates suite pipelines at --stage final whose
// final statement needs a coordinate recovered from the statement before
// flattening (harris: a folded coordinate of a compute_with-fused stage;
// conv: the variables of unrolled loops around an allocation, from the
// copy's ordinal; sgemm, sgemmTA, sgemv: the regions of funcs realized
// several times and the RVar coordinates of updates whose loops were
// unrolled or partitioned, from markers carried through a second
// lowering; dsc, bigsgemm: the regions of funcs realized once but
// allocated again in the epilogue of a partitioned loop, from markers;
// sqsgemm, bigsqsgemm: an allocation's extent max(E, 16) that the
// accesses read as E in a branch where E >= 256, refined by the branch's
// condition; sger, iir_blur: vector stores whose value loads the array
// they store to, under the store's predicate or at other cells, the
// latter a par loop over the lanes; nl_means: an inline reduction
// realized inside a vectorized loop, one copy per lane; interpolate3,
// sgemmTB: stores interleaving vectors whose indices step by a constant
// or by a buffer's stride, some only once the lets in scope are
// expanded, one store in a loop over their lanes) and checks each against Halide's JIT
// cell for cell, on the suite's first JIT sample; a pipeline without a
// JIT sample the interpreter can check (sizes of 512 and more) is only
// translated. Their validation takes minutes (docs/halide.md, "The suite
// at --stage final"): not run here. The pipelines whose interpreted JIT
// samples take minutes are checked in TestLongFinalStageSuite.
func TestFinalStageSuite(t *testing.T) {
	t.Parallel()
	finalStageSuite(t, map[string]bool{"harris": true, "sgemm": true, "unsharp": true, "bigsgemm": true,
		"bigsqsgemm": true, "sger": true, "iir_blur": true, "interpolate3": true})
}

// TestLongFinalStageSuite is TestFinalStageSuite on the pipelines whose
// JIT samples the interpreter takes minutes to run at --stage final.
func TestLongFinalStageSuite(t *testing.T) {
	testtier.Long(t)
	t.Parallel()
	finalStageSuite(t, map[string]bool{"conv": true, "sgemmTA": true, "sgemmTB": true, "sgemv": true, "dsc": true, "sqsgemm": true, "nl_means": true})
}

// lanesLoops are, by suite pipeline, a loop over a vector store's lanes
// that its kernel at --stage final has and how many times: interpolate3's stores to normalize whose values interleave loads
// of interpolated_1 (one of them steps by a constant only once the lets
// of the row's offset are expanded), sgemmTB's copies of B_'s rows
// transposed into Btmp (steps of B_.stride.1, through lets in the
// epilogue's copies).
var lanesLoops = map[string]struct {
	loop string
	n    int
}{
	"interpolate3": {"for normalize_lane < 8 {", 3},
	"sgemmTB":      {"for Btmp_lane < 64 {", 8},
}

// finalStageSuite translates the suite's pipelines named in want at
// --stage final and checks each against Halide's JIT (TestFinalStageSuite).
func finalStageSuite(t *testing.T, want map[string]bool) {
	tc := toolchain(t)
	s := loadSuite(t)
	translateOnly := map[string]bool{"bigsgemm": true, "bigsqsgemm": true}
	for _, p := range s.Pipelines {
		if !want[p.Name] {
			continue
		}
		p := p
		t.Run(p.Name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Minute)
			defer cancel()
			d := driver(t, tc, strings.TrimSuffix(p.File, ".cpp"))
			o := p.options(s.Target)
			o.Stage = StageFinal
			cases, why := jitPlan(p)
			if translateOnly[p.Name] {
				translated(ctx, t, d, o)
				t.Logf("translated, not checked against the JIT: %s", why)
				return
			}
			if len(cases) == 0 {
				t.Fatal(why)
			}
			o.Params = cases[0].params
			pair := translated(ctx, t, d, o)
			if want, ok := lanesLoops[p.Name]; ok {
				if n := strings.Count(pair.Kernel(frontend.Prog).Text, want.loop); n != want.n {
					t.Errorf("the kernel has %d loops %q, want %d", n, want.loop, want.n)
				}
			}
			jitAgrees(ctx, t, d, o, pair.Spec, pair.Kernel(frontend.Prog).Text, cases[0].sizes, 1, 1e-5)
		})
	}
}

// TestFinalStageLaneRace plants a race between the lanes of a vector
// store that reads the array it stores to, which --stage final
// translates as a par loop over the lanes: the suite's iir_blur with the
// scan's load of its own row one element further (--plant lane-race), so
// that each lane but the last reads the cell the next lane writes. The
// validator's race check must refute it: INVALID, a read-write race.
func TestFinalStageLaneRace(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("validates")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Minute)
	defer cancel()
	d, o := finalSuitePipeline(t, "iir_blur")
	o.Plant = "lane-race"
	pair := translated(ctx, t, d, o)
	if !strings.Contains(pair.Kernel(frontend.Prog).Text, "par blur_lane < 32 {") {
		t.Errorf("the vector stores to blur are not a par loop over their lanes")
	}
	rep, err := validatePair(ctx, pair, encode.Real, 1)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Verdict != validate.Invalid || !strings.Contains(rep.Reason, "read-write race") {
		t.Errorf("verdict %s (%s), want invalid (read-write race)", rep.Verdict, rep.Reason)
	}
}

// finalSuitePipeline builds the driver of the suite's pipeline name and
// returns it with the pipeline's options at --stage final.
func finalSuitePipeline(t *testing.T, name string) (string, Options) {
	t.Helper()
	tc := toolchain(t)
	s := loadSuite(t)
	for _, p := range s.Pipelines {
		if p.Name == name {
			o := p.options(s.Target)
			o.Stage = StageFinal
			return driver(t, tc, strings.TrimSuffix(p.File, ".cpp")), o
		}
	}
	t.Fatalf("no %s in suite.json", name)
	return "", Options{}
}

// TestFinalStageVectorizedRealization translates the suite's nl_means at
// --stage final: the inline reduction sum, realized inside d's
// vectorized loop at extents 1, 1, 1, 1 (its x min the vectorized
// variable plus a rest), is allocated 8 cells, one copy per lane
// (vectorize_loops), which the translation reads as the union of the
// lanes' regions: an array of extents 8, 1, 1, 1, lane l at x = rest + l,
// stored and read by loops over the lanes. TestLongFinalStageSuite checks
// the kernel against Halide's JIT.
func TestFinalStageVectorizedRealization(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Minute)
	defer cancel()
	d, o := finalSuitePipeline(t, "nl_means")
	prog := translated(ctx, t, d, o).Kernel(frontend.Prog).Text
	for _, want := range []string{"alloc buf_sum : f32[8, 1, 1, 1] {", "for sum_lane < 8 {"} {
		if !strings.Contains(prog, want) {
			t.Errorf("the kernel has no %q", want)
		}
	}
}

// TestLongFinalStageNlMeans validates the suite's nl_means at --stage
// final. Halide's check of the input's dimension 0 holds two copies of
// the required min, their sums written in other orders, which cancel
// before the check is split into pieces (more than 4,096 otherwise). The
// partitioned loop over x tiles has a range of 162 pieces (its prologue
// and epilogue, lets of many pieces) under facts of 8: coalesced where
// the assumptions hold, 19, so that its facts have 146 pieces, not the
// 1,274 past their bound. Within 2,000,000 steps the evaluation goes
// past that loop into its body: UNKNOWN, the step budget run out at a
// statement after the loop's line.
func TestLongFinalStageNlMeans(t *testing.T) {
	testtier.Long(t)
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Minute)
	defer cancel()
	d, o := finalSuitePipeline(t, "nl_means")
	pair := translated(ctx, t, d, o)
	prog := pair.Kernel(frontend.Prog)
	rep, err := validate.Validate(ctx, pair.SpecSource(), prog.Source(),
		validate.Options{ValueModel: encode.Real, Jobs: 1, SymbolicSteps: 2_000_000})
	if err != nil {
		t.Fatal(err)
	}
	loop := strings.Index(prog.Text, "for non_local_means_s0_x_tx_rebased <")
	if loop < 0 {
		t.Fatal("the kernel has no loop over x tiles")
	}
	loopLine := strings.Count(prog.Text[:loop], "\n") + 1
	m := regexp.MustCompile(`kernel nl_means: (\d+):\d+:`).FindStringSubmatch(rep.Reason)
	if rep.Verdict != validate.Unknown || !strings.Contains(rep.Reason, "step budget ran out") || m == nil {
		t.Fatalf("verdict %s (%s), want unknown at the step budget in the kernel", rep.Verdict, rep.Reason)
	}
	if line, _ := strconv.Atoi(m[1]); line <= loopLine {
		t.Errorf("the evaluation stopped at line %d, want past the loop over x tiles (line %d): %s", line, loopLine, rep.Reason)
	}
}

// TestLongFinalStageSgemmVariants validates the suite's bigsqsgemm and
// bigsgemm (their large-matrix branches only) at --stage final: VALID, as
// before flattening. bigsqsgemm's As is allocated with the extent
// max(A_.extent.0, 16), which its stores read as A_.extent.0 where
// 256 <= A_.extent.0; Atmp's boundary condition compares i32 coordinates
// with A_.min.1 + A_.extent.1, which the buffers' fields assumed in
// Int(32) keep from wrapping; bigsgemm's Atmp, realized once, is
// allocated in the epilogues of the partitioned As.s0.io loop.
// TestLongFinalStageSgemm validates sgemm and sqsgemm, all their
// branches.
func TestLongFinalStageSgemmVariants(t *testing.T) {
	testtier.Long(t)
	t.Parallel()
	for _, name := range []string{"bigsqsgemm", "bigsgemm"} {
		t.Run(name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Minute)
			defer cancel()
			d, o := finalSuitePipeline(t, name)
			finalValid(ctx, t, translated(ctx, t, d, o))
		})
	}
}

// TestLongFinalStageSgemm validates the suite's sgemm (M, N and K free),
// sqsgemm (M = N = K) and sgemmTA (A given transposed) at --stage final,
// every branch of their kernels: VALID, as their translations are before
// flattening, with no wall-clock guard deciding anything. sgemmTA's copy
// of Atmp's columns into As, one store whose value interleaves 16 loads
// of Atmp's rows, is one store in a loop over its 256 lanes: lane by
// lane, its 256 scalar stores ran the symbolic evaluation out of its
// steps. sgemm's update AB_s1(...) = AB_s1(...) + As(...) *
// B_(...) sent Z3 4.8.12's kernel into loops that heeded neither its
// resource limit nor the interruption on the quick checks of matching,
// which check the product of the two tensor elements uninterpreted.
func TestLongFinalStageSgemm(t *testing.T) {
	testtier.Long(t)
	t.Parallel()
	for _, name := range []string{"sgemm", "sqsgemm", "sgemmTA"} {
		t.Run(name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Minute)
			defer cancel()
			d, o := finalSuitePipeline(t, name)
			pair := translated(ctx, t, d, o)
			if name == "sgemmTA" && !strings.Contains(pair.Kernel(frontend.Prog).Text, "for As_lane < 256 {") {
				t.Errorf("the interleaved store to As is not one store in a loop over its lanes")
			}
			rep, err := validatePair(ctx, pair, encode.Real, 1)
			if err != nil {
				t.Fatal(err)
			}
			if rep.Verdict != validate.Valid || rep.TimeBound {
				t.Errorf("verdict %s (%s), time-bound %v; want valid, decided within counted work", rep.Verdict, rep.Reason, rep.TimeBound)
			}
		})
	}
}

// TestLongFinalStageSgemm1024 validates the suite's sgemm1024 at --stage
// final: VALID, as before flattening. Its allocations of constant extents
// (As, 16 x 1024 x 64, stored by vectors of 256 lanes) have cells the
// loops' ranges make simple (lane % 16, lane / 16 + 64 * jo + 16 * v3,
// io), not divisions of their flat index by 16 and 16384.
func TestLongFinalStageSgemm1024(t *testing.T) {
	testtier.Long(t)
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Minute)
	defer cancel()
	d, o := finalSuitePipeline(t, "sgemm1024")
	pair := translated(ctx, t, d, o)
	if !strings.Contains(pair.Kernel(frontend.Prog).Text, "buf_As[As_lane % 16, 16 * As_s0_j_jo_v3 + (As_lane / 16 + 64 * As_s0_j_jo_jo), As_s0_io]") {
		t.Errorf("the store to As is not at its simplified cells")
	}
	finalValid(ctx, t, pair)
}
