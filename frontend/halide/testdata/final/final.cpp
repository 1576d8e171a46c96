// The generator of the tests of --stage final (final_test.go): the 3x3
// blur of Halide's tutorials and apps (apps/blur in Halide's repository),
// written anew, with schedules that exercise one lowering pass after
// storage flattening each (final_stage), and a variant whose input has
// one stride fixed by a constraint and one free (final_strided), and a
// pointwise pipeline whose buffers' mins are constrained to 0, or not
// (final_index).
#include "Halide.h"

namespace {

using namespace Halide;

class Final : public Generator<Final> {
public:
    // sched: scalar, everything at the root, serial (flattening only);
    // vector: both stages vectorised by 8 (vectorize_loops);
    // unroll: the output's x split by 4 and unrolled (unroll_loops);
    // partition: the output's y split by 4, guarded (partition_loops);
    // inner: blur_x stored and computed per row of the output, in a
    // parallel loop (a realization inside a loop);
    // predicate: the output's x vectorised by 8 with its tail stored by
    // predicated lanes (TailStrategy::PredicateStores);
    // unrolled: the output's x split by 4 and unrolled, blur_x computed
    // per column of it (a realization inside each copy of an unrolled
    // loop, its region reading the unrolled variable);
    // repeated: the output's y split by 4, guarded, and specialized on
    // the input's width, blur_x computed per strip of 4 rows (a
    // realization in each branch of the specialization, whose region's
    // variable partition_loops substitutes in the guarded last strip);
    // epilogue: the output's y split by 4, guarded, blur_x computed per
    // strip of 4 rows (realized once, allocated again in the epilogue
    // that partition_loops peels from the strips' loop);
    // bounded: blur_x at the root, its x split by 8 and unrolled,
    // specialized on the output's width W being at least 16 (its
    // allocation's extent max(W, 8), read as W under the
    // specialization's if);
    // tiles: the output in tiles of 8 x 4 fused into one parallel loop,
    // blur_x computed per tile (a fused loop whose inner extent only the
    // buffer's bounds check shows positive; an allocation of constant
    // extents that bound_small_allocations makes one-dimensional);
    // transposed: blur_x at the root, its storage reordered (y, x), so
    // that its strides follow the storage order, not the dimensions';
    // poly: blur_x's three taps a func pair(x, y, c) at the root, of
    // extents W, H + 2 and 3 (two symbolic extents below the last: its
    // strides products of symbols);
    // lanes: the output's rows a sum over 3 rows of blur_x, an inline
    // reduction, the output vectorised by 8 (the reduction realized
    // inside the vectorized loop, which vectorize_loops widens to one
    // copy per lane);
    // borrow: the output upsampled 2x in x and 4x in y from a func
    // pair(x, y, c) of the input's three taps, computed per strip of 4
    // output rows, both vectorised by 8 (its row's extent reads the min of
    // the last vector shifted inwards, (min(W, 14) + m) / 2, with a
    // negative coefficient; its rows' extent the strip's min modulo 4: two
    // symbolic extents below the last, and cells that read the min's atom
    // alone).
    // interleaved: poly's pair stored channel innermost (its extent 3, the
    // stride of x), its channels unrolled inside x vectorised by 8: the
    // three stores of stride 3 that rewrite_interleavings makes one store
    // of 24 lanes whose value interleaves the three channels' vectors;
    // rows: the output (half the input, plus 1) in tiles of 8 x 8, the
    // input copied per tile into blur_x stored transposed (y innermost),
    // its x vectorised by 8 and its y unrolled: the eight stores of stride
    // 8 that rewrite_interleavings makes one store of 64 lanes whose value
    // interleaves eight loads of the input's rows, input.stride.1 apart
    // (the suite's sgemmTB's Btmp);
    // sliding: a vertical blur of the input's repeated edge, the output in
    // tiles of 8 x 4 fused into one parallel loop, the edge stored per
    // tile and computed per row of it (a sliding window over the tile's
    // rows, its storage folded): partition_loops splits the rows' loop where
    // the edge's clamps bite into a prologue of a length the buffers'
    // mins give, a steady state and an epilogue, each rebased to 0 from
    // its own min (the suite's sc1).
    GeneratorParam<std::string> sched{"sched", "scalar"};

    Input<Buffer<uint16_t, 2>> input{"input"};
    Output<Buffer<uint16_t, 2>> out{"out"};

    void generate() {
        if (std::string(sched) == "poly" || std::string(sched) == "interleaved") {
            pair(x, y, c) = input(x + c - 1, y);
            blur_x(x, y) = (pair(x, y, 0) + pair(x, y, 1) + pair(x, y, 2)) / 3;
        } else if (std::string(sched) == "rows") {
            blur_x(x, y) = input(x, y);
            out(x, y) = blur_x(x, y) / 2 + 1;
            return;
        } else if (std::string(sched) == "sliding") {
            clamped = BoundaryConditions::repeat_edge(input);
            out(x, y) = (clamped(x, y - 1) + clamped(x, y) + clamped(x, y + 1)) / 3;
            return;
        } else if (std::string(sched) == "borrow") {
            pair(x, y, c) = input(x + c - 1, y);
            out(x, y) = (pair(x / 2, y / 4, 0) + pair((x + 1) / 2, y / 4, 1) + pair(x / 2, (y + 2) / 4, 2)) / 3;
            return;
        } else {
            blur_x(x, y) = (input(x - 1, y) + input(x, y) + input(x + 1, y)) / 3;
        }
        if (std::string(sched) == "lanes") {
            RDom r(-1, 3, "r");
            out(x, y) = sum(blur_x(x, y + r)) / 3;
        } else {
            out(x, y) = (blur_x(x, y - 1) + blur_x(x, y) + blur_x(x, y + 1)) / 3;
        }
    }

    void schedule() {
        const std::string s = sched;
        if (s == "scalar") {
            blur_x.compute_root();
        } else if (s == "vector") {
            out.vectorize(x, 8);
            blur_x.compute_root().vectorize(x, 8);
        } else if (s == "unroll") {
            out.split(x, x, xi, 4).unroll(xi);
            blur_x.compute_root();
        } else if (s == "unrolled") {
            out.split(x, x, xi, 4).unroll(xi);
            blur_x.compute_at(out, xi);
        } else if (s == "partition") {
            out.split(y, y, yi, 4, TailStrategy::GuardWithIf);
            blur_x.compute_root();
        } else if (s == "inner") {
            out.parallel(y);
            blur_x.compute_at(out, y);
        } else if (s == "predicate") {
            out.vectorize(x, 8, TailStrategy::PredicateStores);
            blur_x.compute_root();
        } else if (s == "repeated") {
            out.split(y, y, yi, 4, TailStrategy::GuardWithIf);
            out.specialize(input.width() >= 16).vectorize(x, 8);
            blur_x.compute_at(out, y);
        } else if (s == "epilogue") {
            out.split(y, y, yi, 4, TailStrategy::GuardWithIf);
            blur_x.compute_at(out, y);
        } else if (s == "bounded") {
            out.dim(0).set_min(0);
            blur_x.compute_root().split(x, xo, xi, 8).unroll(xi);
            blur_x.specialize(out.width() >= 16).parallel(y);
        } else if (s == "tiles") {
            out.tile(x, y, xo, yo, xi, yi, 8, 4).fuse(xo, yo, t).parallel(t);
            blur_x.compute_at(out, t);
        } else if (s == "transposed") {
            blur_x.compute_root().reorder_storage(y, x);
        } else if (s == "lanes") {
            out.vectorize(x, 8);
            blur_x.compute_root();
        } else if (s == "poly") {
            pair.compute_root();
            blur_x.compute_root();
        } else if (s == "interleaved") {
            pair.compute_root().bound(c, 0, 3).reorder_storage(c, x, y).reorder(c, x, y).unroll(c).vectorize(x, 8);
            blur_x.compute_root();
        } else if (s == "rows") {
            out.tile(x, y, xi, yi, 8, 8).vectorize(xi).unroll(yi);
            blur_x.reorder_storage(y, x).compute_at(out, x).vectorize(x).unroll(y);
        } else if (s == "borrow") {
            out.split(y, yo, yi, 4).vectorize(x, 8);
            pair.compute_at(out, yo).vectorize(x, 8);
        } else if (s == "sliding") {
            out.tile(x, y, xo, yo, xi, yi, 8, 4).fuse(xo, yo, t).parallel(t);
            clamped.store_at(out, t).compute_at(out, yi);
        } else {
            throw std::invalid_argument("unknown sched " + s);
        }
    }

private:
    Var x{"x"}, y{"y"}, xi{"xi"}, yi{"yi"}, xo{"xo"}, yo{"yo"}, t{"t"}, c{"c"};
    Func blur_x{"blur_x"}, pair{"pair"}, clamped{"clamped"};
};

// Strided is the same blur over the mean of three channels stored
// innermost: input [3, W, H], its dimension 1's stride fixed to 3 by a
// constraint, dimension 2's free (a buffer with some strides fixed by
// constraints and the others not, as depthwise_separable_conv's filter).
class Strided : public Generator<Strided> {
public:
    Input<Buffer<uint16_t, 3>> input{"input"};
    Output<Buffer<uint16_t, 2>> out{"out"};

    void generate() {
        input.dim(0).set_bounds(0, 3);
        input.dim(1).set_stride(3);
        gray(x, y) = (input(0, x, y) + input(1, x, y) + input(2, x, y)) / 3;
        out(x, y) = (gray(x - 1, y) + gray(x, y) + gray(x + 1, y)) / 3;
    }

    void schedule() {
        gray.compute_root();
    }

private:
    Var x{"x"}, y{"y"};
    Func gray{"gray"};
};

// Indexed is a pointwise brightening whose buffers start at 0 (their
// mins constrained), so that Halide's int32 flat indices stay within
// int32 under its own checks on the buffers (the tests of index overflow,
// overflow_test.go); free_min leaves the mins free, as Halide's checks
// allow: far from 0, the output's index's out.min.1 * out.stride.1
// overflows. (The input's mins alone are not enough: its region must hold
// the output's, from 0, which bounds them by its extents.)
class Indexed : public Generator<Indexed> {
public:
    GeneratorParam<bool> free_min{"free_min", false};
    Input<Buffer<uint16_t, 2>> input{"input"};
    Output<Buffer<uint16_t, 2>> out{"out"};

    void generate() {
        out(x, y) = input(x, y) / 2 + 1;
        if (!free_min) {
            out.dim(0).set_min(0);
            out.dim(1).set_min(0);
            input.dim(0).set_min(0);
            input.dim(1).set_min(0);
        }
    }

    void schedule() {
    }

private:
    Var x{"x"}, y{"y"};
};

}  // namespace

HALIDE_REGISTER_GENERATOR(Final, final_stage)
HALIDE_REGISTER_GENERATOR(Strided, final_strided)
HALIDE_REGISTER_GENERATOR(Indexed, final_index)
