// Halide issue 7909, "wrong results with a sliding window chain"
// (https://github.com/halide/Halide/issues/7909), fixed by pull request
// 7910, "Fix read-after-write hazard analysis in storage folding".
// Adapted from the test Halide added for it, test/correctness/fuzz_schedule.cpp
// on Halide's main branch: the same box sum of a computed input, the
// output's size left free instead of 32 x 32.
//
// With buggy=true (the issue's schedule) local_sum is stored at the root
// and computed per row of blurry, input stored at the root and computed per
// column of local_sum: sliding window slides input over both loops and
// storage folding then folds input's rows although the values slid from
// one row of blurry to the next are needed. Halide 14's JIT, realizing
// blurry over 32 x 32: blurry(0, 0) = 48 where 0 is right (896 of the 1024
// values wrong).
//
// With buggy=false, the neighbour Halide 14 compiles right: input computed
// per row of blurry instead, stored at the root (a sliding window over the
// rows, folded).
#include "Halide.h"

namespace {

using namespace Halide;

class Issue7909 : public Generator<Issue7909> {
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
        blurry.split(y, yo, yi, 1, TailStrategy::Auto);
        local_sum.compute_at(blurry, yo).store_root();
        if (buggy) {
            input.compute_at(local_sum, x).store_root();
        } else {
            input.compute_at(blurry, yo).store_root();
        }
    }

private:
    Var x{"x"}, y{"y"}, yo{"yo"}, yi{"yi"};
    Func input{"input"}, local_sum{"local_sum"};
};

}  // namespace

HALIDE_REGISTER_GENERATOR(Issue7909, issue7909)
