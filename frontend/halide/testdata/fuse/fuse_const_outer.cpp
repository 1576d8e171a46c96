// fuse_const_outer: a func of a channel bounded to 2 whose rows (of the
// output's symbolic height) and channels are fused into one parallel loop,
// as lens_blur's cost_pyramid_pull[1] fuses its slices and its 2 channels:
// the fused loop's extent is the height times the constant 2.
#include "Halide.h"

namespace {

using namespace Halide;

class FuseConstOuter : public Generator<FuseConstOuter> {
public:
    Input<Buffer<int32_t>> in{"in", 3};
    Output<Buffer<int32_t>> out{"out", 3};

    void generate() {
        f(x, y, c) = in(x, y, c) * 2 + c;
        out(x, y, c) = f(x, y, c) + 1;
    }

    void schedule() {
        Var t{"t"};
        f.compute_root().bound(c, 0, 2).fuse(y, c, t).parallel(t);
        out.bound(c, 0, 2);
    }

private:
    Var x{"x"}, y{"y"}, c{"c"};
    Func f{"f"};
};

}  // namespace

HALIDE_REGISTER_GENERATOR(FuseConstOuter, fuse_const_outer)
