// daubechies_x: the forward Daubechies D4 wavelet along x. Each output
// column pair holds the low-pass (c = 0) and the high-pass (c = 1)
// filter of four neighbouring input columns, the input's edges
// repeated. It follows Halide's apps/wavelet (daubechies_x_generator.cpp
// at tag v14.0.0): its algorithm and its schedule. Adapted: the
// schedule is in schedule(); the constants of daubechies_constants.h
// are written here.
#include "Halide.h"

namespace {

using namespace Halide;

const float D0 = 0.4829629131445341f;
const float D1 = 0.83651630373780772f;
const float D2 = 0.22414386804201339f;
const float D3 = -0.12940952255126034f;

class DaubechiesX : public Generator<DaubechiesX> {
public:
    Input<Buffer<float, 2>> in_{"in"};
    Output<Buffer<float, 3>> out_{"out"};

    void generate() {
        Func in = BoundaryConditions::repeat_edge(in_);

        out_(x, y, c) = mux(c,
                            {D0 * in(2 * x - 1, y) + D1 * in(2 * x, y) + D2 * in(2 * x + 1, y) + D3 * in(2 * x + 2, y),
                             D3 * in(2 * x - 1, y) - D2 * in(2 * x, y) + D1 * in(2 * x + 1, y) - D0 * in(2 * x + 2, y)});
    }

    void schedule() {
        out_.unroll(c, 2);
    }

private:
    Var x{"x"}, y{"y"}, c{"c"};
};

}  // namespace

HALIDE_REGISTER_GENERATOR(DaubechiesX, daubechies_x)
