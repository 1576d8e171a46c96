package compiler

import (
	"context"
	"strings"
	"testing"

	"github.com/augur-verify/augur/frontend/compiler/alg"
	"github.com/augur-verify/augur/syntax"
)

// scheduledExamples lists the scheduled example algorithms of
// examples/alg/ with two parameter sets each; the second is never a
// multiple of the schedule's split factors, so that every guarded, shifted
// or rounded tail runs.
var scheduledExamples = []struct {
	name   string
	params [2]map[string]int64
}{
	// tile 8x8 on both stages
	{"matmul_tiled", [2]map[string]int64{{"N": 3, "M": 4, "K": 5}, {"N": 10, "M": 17, "K": 3}}},
	// tiled, parallel jo, vectorised ii, r.k outside the tile's pure loops
	{"matmul_vec_par", [2]map[string]int64{{"N": 1, "M": 1, "K": 1}, {"N": 9, "M": 18, "K": 4}}},
	// BH.compute_root(), Out.vectorize(x, 4)
	{"blur_root", [2]map[string]int64{{"W": 1, "H": 1}, {"W": 6, "H": 3}}},
	// Out.split(y, yo, yi, 4), BH.compute_at(Out, yi)
	{"blur_at", [2]map[string]int64{{"W": 1, "H": 1}, {"W": 5, "H": 7}}},
	// BH.compute_at(Out, y).store_root().fold_storage(y, 4)
	{"blur_fold", [2]map[string]int64{{"W": 1, "H": 1}, {"W": 5, "H": 6}}},
	// tile 4x4 with the shift tail, BH.compute_at(Out, xo); the first set
	// is narrower than a tile
	{"blur_shift", [2]map[string]int64{{"W": 2, "H": 3}, {"W": 9, "H": 6}}},
	// S1.compute_inline()
	{"stencils_inline", [2]map[string]int64{{"N": 2}, {"N": 9}}},
	// S2.split(x, xo, xi, 4).unroll(xi), S1.compute_at(S2, xo).unroll(x, 2)
	{"stencils_at", [2]map[string]int64{{"N": 2}, {"N": 11}}},
	// round tail on the pure stage, guard on the update, r.k split, xi vectorised
	{"conv1d_split", [2]map[string]int64{{"N": 1, "K": 1}, {"N": 6, "K": 3}}},
	// Hz.compute_at(Vt, y), a fused tile, Vt.update(0) specialised on W >= 8
	// (the first set runs the generic branch, the second the specialised one)
	{"separable_at", [2]map[string]int64{{"W": 1, "H": 1, "R": 1}, {"W": 11, "H": 5, "R": 3}}},
}

// TestScheduleSeparate compiles matmul.alg with the schedule block of
// matmul_tiled.alg given apart (augur compile --schedule FILE): the kernel
// is the one compiled from matmul_tiled.alg.
func TestScheduleSeparate(t *testing.T) {
	want := compileFile(t, "matmul_tiled")
	p := loadExample(t, "matmul")
	src := &syntax.Source{Name: "tiled.schedule", Text: "C.tile(i, j, io, jo, ii, ji, 8, 8)\nC.update(0).tile(i, j, io, jo, ii, ji, 8, 8)\n"}
	s, errs := alg.ParseSchedule(src)
	if len(errs) > 0 {
		t.Fatal(errs.Detail())
	}
	r, err := Compile(context.Background(), p, "matmul_tiled", Options{Schedule: s, ScheduleSrc: src})
	if err != nil {
		t.Fatal(detail(err))
	}
	body := func(k string) string { return k[strings.Index(k, "\n")+1:] } // past the header comment
	if body(r.Kernels[0].Text) != body(want.Kernels[0].Text) || body(r.Spec) != body(want.Spec) {
		t.Errorf("separate schedule: kernel\n%s\nwant\n%s", r.Kernels[0].Text, want.Kernels[0].Text)
	}

	// errors are positioned in the schedule's own source
	bad := &syntax.Source{Name: "bad.schedule", Text: "C.update(0).tile(i, j, io, jo, ii, ji, 8, 8)\nC.update(0).parallel(r.k)\n"}
	if s, errs = alg.ParseSchedule(bad); len(errs) > 0 {
		t.Fatal(errs.Detail())
	}
	_, err = Compile(context.Background(), p, "matmul", Options{Schedule: s, ScheduleSrc: bad})
	const msg = "bad.schedule:2:13: C.update(0).parallel(r.k): r.k is a reduction loop: only pure loops may run in parallel"
	if el, ok := err.(syntax.ErrorList); !ok || !strings.HasPrefix(el[0].Error(), msg) {
		t.Errorf("got %v, want %s", err, msg)
	}
}

// Small algorithms for TestScheduleErrors, each followed by the opening of
// its schedule block: the directive of a case is on the next line.
const (
	// F read by G at x and x + 2 (directives on line 7)
	errPair = `param N
input A(x) : f32
func F(x) : f32 = A(x) + A(x + 1)
func G(x) : f32 = F(x) + F(x + 2)
output G over x in 0 .. N
schedule {`
	// updates over a two-variable RDom r and a one-variable RDom s
	// (directives on line 11)
	errRDoms = `param N
input A(x) : f32
func F(x) : f32 = 0
rdom r(i in 0 .. 3, j in 0 .. 2)
F(x) += A(x + r.i + r.j)
rdom s(k in 0 .. N)
func G(x) : f32 = F(x) + 1
G(x) += A(x + s.k)
output G over x in 0 .. N
schedule {`
	// F read by two consumers G and H (directives on line 9)
	errTwoUses = `param N
input A(x) : f32
func F(x) : f32 = A(x)
func G(x) : f32 = F(x) + 1
func H(x) : f32 = F(x) * 2
func O(x) : f32 = G(x) + H(x)
output O over x in 0 .. N
schedule {`
	// the blur (directives on line 7)
	errBlur = `param W, H
input In(x, y) : f32
func BH(x, y) : f32 = In(x - 1, y) + In(x, y) + In(x + 1, y)
func Out(x, y) : f32 = (BH(x, y - 1) + BH(x, y) + BH(x, y + 1)) / 9
output Out over x in 0 .. W, y in 0 .. H
schedule {`
)

// TestScheduleErrors checks that illegal schedules are rejected with an
// error positioned at the directive and naming the rule broken (the
// wording is the point: it is the rule), of code schedule but where a
// case's name is in unsupported.
func TestScheduleErrors(t *testing.T) {
	unsupported := map[string]bool{"vectorize without constant extent": true, "split of a nested fuse": true, "unroll of a nested fuse": true}
	for _, tc := range []struct{ name, head, dirs, want string }{
		{"unknown loop", errPair, "G.split(z, zo, zi, 4)",
			"t.alg:7:5: G.split(z, zo, zi, 4): G has no loop z (its loops, outermost first: x)"},
		{"unknown compute_at loop", errPair, "F.compute_at(G, y)",
			"t.alg:7:5: F.compute_at(G, y): G has no loop y (in the loops of its stages as scheduled)"},
		{"reorder RDom loops", errRDoms, "F.update(0).reorder(r.j, r.i)",
			"t.alg:11:15: F.update(0).reorder(r.j, r.i): this would reorder the reduction loops r.i and r.j: the order of a reduction's iterations is part of its meaning"},
		{"parallel RDom loop", errRDoms, "G.update(0).parallel(s.k)",
			"t.alg:11:15: G.update(0).parallel(s.k): s.k is a reduction loop: only pure loops may run in parallel"},
		{"vectorize RDom loop", errRDoms, "F.update(0).vectorize(r.i)",
			"t.alg:11:15: F.update(0).vectorize(r.i): r.i is a reduction loop: only pure loops may run in parallel"},
		{"shift tail on an update", errRDoms, "G.update(0).split(x, xo, xi, 4, shift)",
			"t.alg:11:15: G.update(0).split(x, xo, xi, 4, shift): the shift tail strategy recomputes or overcomputes points: only pure stages may use it, update stages need guard"},
		{"round tail on an RDom loop", errRDoms, "F.update(0).split(r.j, jo, ji, 2, round)",
			"t.alg:11:15: F.update(0).split(r.j, jo, ji, 2, round): the round tail strategy recomputes or overcomputes points: only pure stages may use it, update stages need guard"},
		{"unknown tail", errBlur, "Out.split(y, yo, yi, 4, sideways)",
			"t.alg:7:7: Out.split(y, yo, yi, 4, sideways): the tail strategy is guard, shift or round"},
		{"fuse not adjacent", errPair, "G.split(x, xo, xi, 4).fuse(xo, xi, t)",
			"t.alg:7:25: G.fuse(xo, xi, t): xi must be the loop immediately outside xo (reorder first)"},
		{"vectorize without constant extent", errPair, "G.vectorize(x)",
			"t.alg:7:5: vectorize of x in G: the loop's extent N has no constant upper bound over its context (N >= 1): it is unbounded (split it first, or give a factor: vectorize(x, 8))"},
		{"inline with updates", errRDoms, "F.compute_inline()",
			"t.alg:11:5: F.compute_inline(): F has update definitions: only funcs with a pure definition alone can be inlined"},
		{"compute_at not dominating two uses", errTwoUses, "F.compute_at(G, x)",
			"t.alg:9:5: F.compute_at(G, x): F is also used by H outside that loop: the computation of a func must dominate all its uses"},
		{"compute_at a func that does not read it", errTwoUses, "F.compute_at(O, x)",
			"t.alg:9:5: F.compute_at(O, x): F is also used by G outside that loop: the computation of a func must dominate all its uses"},
		{"compute_at of an output", errPair, "G.compute_at(F, x)",
			"t.alg:7:5: G.compute_at(F, x): G is an output: outputs are computed and stored at the root"},
		{"fold factor too small", errBlur, "BH.compute_at(Out, y).store_root().fold_storage(y, 2)",
			"t.alg:7:38: fold_storage(y, 2) of BH: one computation of BH spans 3 points of y, more than the fold factor: a folded buffer must hold every value until its last read"},
		{"fold at the root", errBlur, "BH.fold_storage(y, 4)",
			"t.alg:7:6: fold_storage(y, 4) of BH: one computation of BH spans H + 2 points of y, not a constant: fold a func computed inside a loop (compute_at)"},
		// positioned at F's definition, not at the directive
		{"bound too small", errPair, "F.bound(x, 0, N)",
			"t.alg:7:5: F.bound(x, 0, N) does not cover the region 0 .. N + 2 of x that its consumers need"},
		{"bound_extent too small", errBlur, "BH.compute_at(Out, y).bound_extent(y, 2)",
			"t.alg:7:25: BH.bound_extent(y, 2) does not cover the region y - 1 .. y + 2 of y that its consumers need: its extent exceeds 2"},
		{"bound_extent of an output", errBlur, "Out.bound_extent(y, 8)",
			"t.alg:7:7: Out.bound_extent(y, 8): Out is an output: its region is the declared one"},
		{"bound and bound_extent", errBlur, "BH.bound(y, -1, H + 2).bound_extent(y, 4)",
			"t.alg:7:26: BH.bound_extent(y, 4): BH already has bound(y, ...): a dimension takes one of bound and bound_extent"},
		{"bound_extent not positive", errBlur, "BH.bound_extent(y, 0)",
			"t.alg:7:6: BH.bound_extent(y, 0): the extent must be a positive integer constant"},
		{"split of a nested fuse", errBlur, "Out.fuse(x, y, f).split(f, fo, fi, 2)",
			"t.alg:7:21: split of the fused loop f in Out: the extent of its inner loop is not constant, so it is two nested loops (fuse after splitting)"},
		{"unroll of a nested fuse", errBlur, "Out.fuse(x, y, f).unroll(f)",
			"t.alg:7:21: unroll of the fused loop f in Out: the extent of its inner loop is not constant, so it is two nested loops (fuse after splitting)"},
		{"store_at inside compute_at", errPair, "G.split(x, xo, xi, 4)\n  F.compute_at(G, xo).store_at(G, xi)",
			"t.alg:8:23: F is stored at loop xi of G, inside the loop where it is computed: store_at must be at or outside compute_at"},
		{"store_at of an inlined func", errBlur, "BH.compute_inline().store_at(Out, y)",
			"t.alg:7:23: BH is computed inline: it has no storage to place"},
		{"name of the algorithm", errPair, "G.split(x, N, xi, 4)",
			"t.alg:7:5: G.split(x, N, xi, 4): N is already a name of the algorithm: new loop names must be new"},
		{"name of a loop of the stage", errPair, "G.split(x, xo, xi, 4).split(xi, xo, xii, 2)",
			"t.alg:7:25: G.split(xi, xo, xii, 2): xo already names a loop of this stage"},
		{"specialize on a variable", errBlur, "Out.specialize(x >= 8).vectorize(x, 8)",
			"t.alg:7:7: Out.specialize(x >= 8): the condition must be a quasi-affine constraint on the parameters"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := tc.head + "\n  " + tc.dirs + "\n}\n"
			p, err := alg.Load(&syntax.Source{Name: "t.alg", Text: src})
			if err != nil {
				t.Fatalf("%s: %v", src, detail(err))
			}
			_, err = Compile(context.Background(), p, "t", Options{})
			if err == nil {
				t.Fatalf("no error for\n%s", src)
			}
			el, ok := err.(syntax.ErrorList)
			if !ok || len(el) == 0 || !strings.HasPrefix(el[0].Error(), tc.want) {
				t.Fatalf("for\n%s\ngot  %v\nwant %s", src, err, tc.want)
			}
			code := syntax.CodeSchedule
			if unsupported[tc.name] {
				code = syntax.CodeUnsupported
			}
			if el[0].Code != code {
				t.Errorf("code %q, want %q", el[0].Code, code)
			}
		})
	}
}
