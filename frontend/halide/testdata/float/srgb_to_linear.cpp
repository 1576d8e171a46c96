// srgb_to_linear: the sRGB transfer function inverted, of Halide's
// linear_blur app, with its hand schedule: strips of 8 rows in parallel,
// x vectorised by 8. Without strict_float, Halide's simplifier rewrites
// the divisions by 12.92f and by 1.0f + .055f (1.05499995f) as products by
// the binary32 values nearest their reciprocals.
//
// From github.com/halide/Halide, branch release/14.x,
// apps/linear_blur/srgb_to_linear_generator.cpp. Adapted: the Input<Func>
// and Output<Func> are 3-d float buffers, and the implicit variables `_`
// are an explicit Var c; the auto_schedule branch (estimates only) is
// dropped.
#include "Halide.h"

namespace {

using namespace Halide;

struct sRGBToLinear : public Halide::Generator<sRGBToLinear> {
    Input<Buffer<float, 3>> srgb{"srgb"};
    Output<Buffer<float, 3>> linear{"linear"};

    Var x{"x"}, y{"y"}, c{"c"};

    void generate() {
        linear(x, y, c) = select(srgb(x, y, c) <= 0.04045f,
                                 srgb(x, y, c) / 12.92f,
                                 pow(((srgb(x, y, c) + .055f) / (1.0f + .055f)), 2.4f));
    }

    void schedule() {
        Var yi("yi");
        linear.split(y, y, yi, 8).parallel(y).vectorize(x, 8);
    }
};

}  // namespace

HALIDE_REGISTER_GENERATOR(sRGBToLinear, srgb_to_linear)
