// Halide pull request 9186, "Detect illegal reorderings in Stage::fuse"
// (https://github.com/halide/Halide/pull/9186), which makes this schedule
// an error. Adapted from the test it added,
// test/error/rvar_fuse_reorder.cpp on Halide's main branch: the output's
// size left free.
//
// With buggy=true (the test's schedule) the update, not commutative
// (f = 2 f + 5 r.x + r.y), splits r.x by 2 and fuses the inner half with
// r.y, which are not adjacent loops: Halide 14 accepts it and runs the
// reduction in another order. Halide 14's JIT, realizing f over 4:
// f(0) = 12721 where 19381 is right (every value).
//
// With buggy=false, the neighbour Halide 14 compiles right: the two halves
// of r.x fused back, in their order.
#include "Halide.h"

namespace {

using namespace Halide;

class PR9186 : public Generator<PR9186> {
public:
    GeneratorParam<bool> buggy{"buggy", true};

    Output<Buffer<int32_t>> f{"f", 1};

    void generate() {
        r = RDom(0, 4, 0, 3, "r");
        f(x) = 1;
        f(x) = f(x) * 2 + r.x * 5 + r.y;
    }

    void schedule() {
        if (buggy) {
            f.update().split(r.x, rxo, rxi, 2).fuse(rxi, r.y, fused);
        } else {
            f.update().split(r.x, rxo, rxi, 2).fuse(rxi, rxo, fused);
        }
    }

private:
    Var x{"x"};
    RDom r;
    RVar rxo{"rxo"}, rxi{"rxi"}, fused{"fused"};
};

}  // namespace

HALIDE_REGISTER_GENERATOR(PR9186, pr9186)
