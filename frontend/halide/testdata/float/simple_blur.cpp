// simple_blur: the float 3x3 box blur of Halide's linear_blur app, with
// its hand schedule: strips of 8 rows in parallel, x vectorised by 8,
// blur_x stored per strip and computed per row. Without strict_float,
// Halide's simplifier rewrites each division by 3 as a product by
// 0.333333343f, the binary32 value nearest 1/3.
//
// From github.com/halide/Halide, branch release/14.x,
// apps/linear_blur/simple_blur_generator.cpp. Adapted: the Input<Func> and
// Output<Func> are 3-d float buffers, and the implicit variables `_` are
// an explicit Var c; the auto_schedule branch (estimates only) is dropped.
#include "Halide.h"

namespace {

using namespace Halide;

struct SimpleBlur : public Halide::Generator<SimpleBlur> {
    Input<Buffer<float, 3>> input{"input"};
    Input<int32_t> width{"width"};
    Input<int32_t> height{"height"};
    Output<Buffer<float, 3>> output{"output"};

    Var x{"x"}, y{"y"}, c{"c"};
    Func blur_x{"blur_x"};

    void generate() {
        // Since Input<Func> has no extent limits, we must specify explicit min-extent pairs
        Func in = Halide::BoundaryConditions::repeat_edge(input, {{0, width}, {0, height}});

        blur_x(x, y, c) = (in(x, y, c) + in(x + 1, y, c) + in(x + 2, y, c)) / 3;
        output(x, y, c) = (blur_x(x, y, c) + blur_x(x, y + 1, c) + blur_x(x, y + 2, c)) / 3;
    }

    void schedule() {
        Var xi("xi"), yi("yi");
        output.split(y, y, yi, 8).parallel(y).vectorize(x, 8);
        blur_x.store_at(output, y).compute_at(output, yi).vectorize(x, 8);
    }
};

}  // namespace

HALIDE_REGISTER_GENERATOR(SimpleBlur, simple_blur)
