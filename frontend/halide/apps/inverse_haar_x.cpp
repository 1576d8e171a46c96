// inverse_haar_x: the inverse Haar wavelet along x. Even output
// columns are the sum, odd ones the difference, of the average and the
// half difference at half the column, the input's edges repeated. It
// follows Halide's apps/wavelet (inverse_haar_x_generator.cpp at tag
// v14.0.0): its algorithm and its schedule. Adapted: the schedule is
// in schedule().
#include "Halide.h"

namespace {

using namespace Halide;

class InverseHaarX : public Generator<InverseHaarX> {
public:
    Input<Buffer<float, 3>> in_{"in"};
    Output<Buffer<float, 2>> out_{"out"};

    void generate() {
        Func in = BoundaryConditions::repeat_edge(in_);

        out_(x, y) = select(x % 2 == 0,
                            in(x / 2, y, 0) + in(x / 2, y, 1),
                            in(x / 2, y, 0) - in(x / 2, y, 1));
    }

    void schedule() {
        out_.unroll(x, 2);
    }

private:
    Var x{"x"}, y{"y"};
};

}  // namespace

HALIDE_REGISTER_GENERATOR(InverseHaarX, inverse_haar_x)
