// inverse_daubechies_x: the inverse Daubechies D4 wavelet along x.
// Each output column combines the low- and high-pass values at half
// the column and the next, with the filter's coefficients in the order
// of the column's parity, the input's edges repeated. It follows
// Halide's apps/wavelet (inverse_daubechies_x_generator.cpp at tag
// v14.0.0): its algorithm and its schedule. Adapted: the schedule is
// in schedule(); the constants of daubechies_constants.h are written
// here.
#include "Halide.h"

namespace {

using namespace Halide;

const float D0 = 0.4829629131445341f;
const float D1 = 0.83651630373780772f;
const float D2 = 0.22414386804201339f;
const float D3 = -0.12940952255126034f;

class InverseDaubechiesX : public Generator<InverseDaubechiesX> {
public:
    Input<Buffer<float, 3>> in_{"in"};
    Output<Buffer<float, 2>> out_{"out"};

    void generate() {
        Func in = BoundaryConditions::repeat_edge(in_);

        out_(x, y) = select(x % 2 == 0,
                            D2 * in(x / 2, y, 0) + D1 * in(x / 2, y, 1) + D0 * in(x / 2 + 1, y, 0) + D3 * in(x / 2 + 1, y, 1),
                            D3 * in(x / 2, y, 0) - D0 * in(x / 2, y, 1) + D1 * in(x / 2 + 1, y, 0) - D2 * in(x / 2 + 1, y, 1));
    }

    void schedule() {
        out_.unroll(x, 2);
    }

private:
    Var x{"x"}, y{"y"};
};

}  // namespace

HALIDE_REGISTER_GENERATOR(InverseDaubechiesX, inverse_daubechies_x)
