// Halide issue 7871, "Wrong results when fusing a vectorized loop with a
// reduction loop on update stages" (https://github.com/halide/Halide/issues/7871),
// fixed by pull request 7877, "Validate for types when fusing Vars with
// RVars", which makes the schedule an error. Adapted from the issue's
// repro: the output's size left free instead of 128 x 128.
//
// With buggy=true (the issue's schedule) local_sum's update vectorizes y
// and fuses it with r.y: the fused loop inherits y's vectorization,
// although it runs over the reduction r.y, whose iterations depend on
// each other. Halide 14's JIT, realizing blurry over 32 x 32:
// blurry(2, 0) = 2 where 4 is right (1023 of the 1024 values wrong).
//
// With buggy=false, the neighbour Halide 14 compiles right: y vectorized,
// not fused with r.y.
#include "Halide.h"

namespace {

using namespace Halide;

class Issue7871 : public Generator<Issue7871> {
public:
    GeneratorParam<bool> buggy{"buggy", true};

    Output<Buffer<int32_t>> blurry{"blurry", 2};

    void generate() {
        input(x, y) = 2 * x + 5 * y;
        r = RDom(-2, 5, -2, 5, "r");
        local_sum(x, y) = 0;
        local_sum(x, y) += input(x + r.x, y + r.y);
        blurry(x, y) = local_sum(x, y) / 25;
    }

    void schedule() {
        if (buggy) {
            local_sum.update(0).vectorize(y).fuse(y, r.y, yryf);
        } else {
            local_sum.update(0).vectorize(y);
        }
    }

private:
    Var x{"x"}, y{"y"};
    RVar yryf{"yryf"};
    RDom r;
    Func input{"input"}, local_sum{"local_sum"};
};

}  // namespace

HALIDE_REGISTER_GENERATOR(Issue7871, issue7871)
