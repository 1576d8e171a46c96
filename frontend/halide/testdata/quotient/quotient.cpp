// quotient: reads a table at the floor of float32(x) / float32(2 *
// factor), for a factor computed in float from two extents, as apps/bgu
// reads its fitted grid at int32(floor(float32(y) / float32(big_sigma)))
// with big_sigma = s_sigma * upsample_factor: a coordinate that converts a
// float computed from a variable is a data-dependent index (docs/halide.md,
// "Quotients computed in float").
#include "Halide.h"

using namespace Halide;
using Halide::ConciseCasts::f32;
using Halide::ConciseCasts::i32;

class Quotient : public Generator<Quotient> {
public:
    Input<Buffer<float, 1>> table{"table"};
    Input<Buffer<float, 1>> fine{"fine"};
    Output<Buffer<float, 1>> output{"output"};

    void generate() {
        Var x("x");
        table.dim(0).set_min(0);
        Expr factor = i32(ceil(f32(fine.width()) / table.width()));
        Expr q = i32(floor(f32(x) / (2 * factor)));
        output(x) = table(clamp(q, 0, table.width() - 1)) * 2.0f + fine(x);
    }
};

HALIDE_REGISTER_GENERATOR(Quotient, quotient)
