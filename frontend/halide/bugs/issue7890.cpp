// Halide issue 7890, "Wrong results with rfactor"
// (https://github.com/halide/Halide/issues/7890). Adapted from the issue's
// repro (also in test/correctness/fuzz_schedule.cpp on Halide's main
// branch): the output's size left free instead of 128 x 128.
//
// With buggy=true (the issue's schedule) local_sum's update is split by 1
// over x and rfactor'd over r.x into an intermediate over u, after its pure
// definition was split by 4. Halide 14's JIT, realizing blurry over
// 32 x 32: blurry(1, 0) = 64 where 2 is right (1023 of the 1024 values
// wrong).
//
// With buggy=false, the neighbour Halide 14 compiles right: the same
// rfactor without the splits of x.
#include "Halide.h"

namespace {

using namespace Halide;

class Issue7890 : public Generator<Issue7890> {
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
        blurry.split(y, yo, yi, 2, TailStrategy::Auto);
        if (buggy) {
            local_sum.split(x, xo, xi, 4, TailStrategy::Auto);
            local_sum.update(0).split(x, xo, xi, 1, TailStrategy::Auto);
        }
        local_sum.update(0).rfactor(r.x, u);
        local_sum.compute_root();
    }

private:
    Var x{"x"}, y{"y"}, xo{"xo"}, xi{"xi"}, yo{"yo"}, yi{"yi"}, u{"u"};
    RDom r;
    Func input{"input"}, local_sum{"local_sum"};
};

}  // namespace

HALIDE_REGISTER_GENERATOR(Issue7890, issue7890)
