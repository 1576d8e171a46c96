// fast_inverse: Halide's reciprocal estimates, fast_inverse and
// fast_inverse_sqrt (rcpps and rsqrtps on x86, with no refinement in
// Halide 14), as apps/bgu's per-cell solve divides by its pivots: the
// formats' functions of the same names (docs/formats.md), vectorized as
// Halide's schedules use them.
#include "Halide.h"

using namespace Halide;

class FastInverse : public Generator<FastInverse> {
public:
    Input<Buffer<float, 1>> a{"a"};
    Input<Buffer<float, 1>> b{"b"};
    Output<Buffer<float, 1>> output{"output"};

    void generate() {
        Var x("x");
        output(x) = a(x) * fast_inverse(b(x) * b(x) + 1.0f) + fast_inverse_sqrt(a(x) * a(x) + 0.5f);
        output.vectorize(x, 8);
    }
};

HALIDE_REGISTER_GENERATOR(FastInverse, fast_inverse)
