// haar_x: the forward Haar wavelet along x. Each output column pair
// holds the average (c = 0) and the half difference (c = 1) of two
// neighbouring input columns, the input's edges repeated. It follows
// Halide's apps/wavelet (haar_x_generator.cpp at tag v14.0.0): its
// algorithm and its schedule. Adapted: the schedule is in schedule().
#include "Halide.h"

namespace {

using namespace Halide;

class HaarX : public Generator<HaarX> {
public:
    Input<Buffer<float, 2>> in_{"in"};
    Output<Buffer<float, 3>> out_{"out"};

    void generate() {
        Func in = BoundaryConditions::repeat_edge(in_);

        out_(x, y, c) = mux(c,
                            {(in(2 * x, y) + in(2 * x + 1, y)),
                             (in(2 * x, y) - in(2 * x + 1, y))}) /
                        2;
    }

    void schedule() {
        out_.unroll(c, 2);
    }

private:
    Var x{"x"}, y{"y"}, c{"c"};
};

}  // namespace

HALIDE_REGISTER_GENERATOR(HaarX, haar_x)
