// packed: a per-channel shift of a halved 3-d uint8 image whose schedule specializes
// on its buffers' strides, as apps/resize does: packed colour channels
// (stride 3 along x, 1 along c) reorder the loops and unroll the
// channels; any other layout runs the general loop nest.
#include "Halide.h"

using namespace Halide;

class Packed : public Generator<Packed> {
public:
    Input<Buffer<uint8_t, 3>> input{"input"};
    Output<Buffer<uint8_t, 3>> output{"output"};

    void generate() {
        Var x("x"), y("y"), c("c");
        output(x, y, c) = input(x, y, c) / 2 + cast<uint8_t>(c * 10);

        input.dim(0).set_stride(Expr());
        output.dim(0).set_stride(Expr());
        Expr packed = input.dim(0).stride() == 3 && input.dim(2).stride() == 1 &&
                      input.dim(2).min() == 0 && input.dim(2).extent() == 3 &&
                      output.dim(0).stride() == 3 && output.dim(2).stride() == 1 &&
                      output.dim(2).min() == 0 && output.dim(2).extent() == 3;
        output.specialize(packed).reorder(c, x, y).unroll(c);
    }
};

HALIDE_REGISTER_GENERATOR(Packed, packed)
