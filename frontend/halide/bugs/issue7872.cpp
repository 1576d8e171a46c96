// Halide issue 7872, "Wrong results when store_root and compute_at inner
// split" (https://github.com/halide/Halide/issues/7872), fixed by pull
// request 7875, "Consider all dimensions before deciding to slide over a
// new dimension". Adapted from the test Halide added for it,
// test/correctness/fuzz_schedule.cpp on Halide's main branch: the output's
// size left free instead of 32 x 32.
//
// With buggy=true (the issue's schedule) blurry's columns are split by 2
// with GuardWithIf and local_sum, stored per row of blurry, is computed per
// column of the split: sliding window slides local_sum over the inner
// loop although both of its dimensions depend on it. Halide 14's JIT,
// realizing blurry over 32 x 32: blurry(3, 0) = 0 where 6 is right, and
// blurry(1, 0) = 1310, an uninitialized value, where 2 is right (512 of
// the 1024 values wrong, every odd column).
//
// With buggy=false, the neighbour Halide 14 compiles right: local_sum
// computed per column of the outer loop of the split instead.
#include "Halide.h"

namespace {

using namespace Halide;

class Issue7872 : public Generator<Issue7872> {
public:
    GeneratorParam<bool> buggy{"buggy", true};

    Output<Buffer<int32_t>> blurry{"blurry", 2};

    void generate() {
        input(x, y) = 2 * x + 5 * y;
        RDom r(-2, 5, -2, 5, "r");
        local_sum(x, y) = 0;
        local_sum(x, y) += input(x + r.x, y + r.y);
        blurry(x, y) = local_sum(x, y) / 25;
    }

    void schedule() {
        blurry.split(x, xo, xi, 2, TailStrategy::GuardWithIf);
        local_sum.store_at(blurry, y).compute_at(blurry, buggy ? xi : xo);
    }

private:
    Var x{"x"}, y{"y"}, xo{"xo"}, xi{"xi"};
    Func input{"input"}, local_sum{"local_sum"};
};

}  // namespace

HALIDE_REGISTER_GENERATOR(Issue7872, issue7872)
