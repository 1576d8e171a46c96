// Halide issue 7892, "Wrong results with PredicateStores and RoundUp
// combinations" (https://github.com/halide/Halide/issues/7892), fixed by
// pull request 7895, "Mutating if branches in isolation can break
// reachability analysis" (src/Simplify_Stmts.cpp). Adapted from the
// issue's repro (also test/correctness/fuzz_schedule.cpp on Halide's main
// branch): the same box sum, of an 8-bit input buffer instead of a computed
// input (2 * x + 5 * y, which Halide folds into local_sum's update; 8 bits
// so that no sum overflows, which would leave the algorithm's value
// undefined), the output's size left free instead of 128 x 128.
//
// With buggy=true (the issue's schedule) local_sum's pure definition is
// vectorized, split by 2 with TailStrategy::PredicateStores, the outer
// loop split by 4 with RoundUp and its inner loop unrolled. The unrolled
// copies' stores past the end are predicated; the simplifier after
// unroll_loops merges the copies' ifs, simplifies the merged branches in
// isolation, deduces from out-of-bounds stores that the code cannot be
// reached, and strips the whole pipeline: Halide's final statement stores
// nothing, blurry's included, and the output keeps whatever its buffer
// held. Halide 14's JIT, realizing blurry over 32 x 32 on a random input:
// blurry(0, 0) = -601049376 where 111 is right (every value wrong, read
// from memory never written: 1532875920 in another run). Before
// storage flattening the statement is still right.
//
// With buggy=false, the neighbour Halide 14 compiles right: the same
// splits without the unroll.
#include "Halide.h"

namespace {

using namespace Halide;

class Issue7892 : public Generator<Issue7892> {
public:
    GeneratorParam<bool> buggy{"buggy", true};

    Input<Buffer<uint8_t>> input{"input", 2};
    Output<Buffer<int32_t>> blurry{"blurry", 2};

    void generate() {
        RDom r(-2, 5, -2, 5, "r");
        local_sum(x, y) = 0;
        local_sum(x, y) += cast<int32_t>(input(x + r.x, y + r.y));
        blurry(x, y) = local_sum(x, y) / 25;
    }

    void schedule() {
        local_sum.vectorize(x)
            .split(x, xo, xi, 2, TailStrategy::PredicateStores)
            .split(xo, xoo, xoi, 4, TailStrategy::RoundUp);
        if (buggy) {
            local_sum.unroll(xoi);
        }
        local_sum.update(0).unscheduled();
    }

private:
    Var x{"x"}, y{"y"}, xo{"xo"}, xi{"xi"}, xoo{"xoo"}, xoi{"xoi"};
    Func local_sum{"local_sum"};
};

}  // namespace

HALIDE_REGISTER_GENERATOR(Issue7892, issue7892)
