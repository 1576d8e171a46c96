// Halide issue 4396, "Incorrect usage of sliding window?"
// (https://github.com/halide/Halide/issues/4396, open): the schedule the
// issue gives for the Sobel filter of Halide's apps/hexagon_benchmarks
// (sobel_generator.cpp at tag v14.0.0). Changed: the two absolute
// differences absd(a, b) of the app are sums a + b (the translator has no
// absd), and their sum is divided by 16 instead of clamped to 255 (on
// random inputs the clamp hides most differences); the bug stays. The
// output's size is left free.
//
// With buggy=true (the issue's schedule) the output is computed at the
// root, input_16 split by 16 over x, computed per column and stored per
// row of the output, and bounded_input computed per column: sliding
// window slides input_16 over the output's columns while its split rounds
// each slice to 16 columns, which clobbers values still needed. Halide
// 14's JIT, realizing the output over 32 x 32 on a 64 x 64 input of
// random values (the JIT sample of seed 1): output(0, 0) = 47 where 144 is
// right (a value computed from uninitialized memory: 87 in another run).
//
// With buggy=false, the neighbour Halide 14 compiles right: input_16
// without the split.
#include "Halide.h"

namespace {

using namespace Halide;

class Issue4396 : public Generator<Issue4396> {
public:
    GeneratorParam<bool> buggy{"buggy", true};

    Input<Buffer<uint8_t>> input{"input", 2};
    Output<Buffer<uint8_t>> output{"output", 2};

    void generate() {
        bounded_input(x, y) = BoundaryConditions::repeat_edge(input)(x, y);
        input_16(x, y) = cast<uint16_t>(bounded_input(x, y));
        sobel_x_avg(x, y) = input_16(x - 1, y) + 2 * input_16(x, y) + input_16(x + 1, y);
        sobel_x(x, y) = sobel_x_avg(x, y - 1) + sobel_x_avg(x, y + 1);
        sobel_y_avg(x, y) = input_16(x, y - 1) + 2 * input_16(x, y) + input_16(x, y + 1);
        sobel_y(x, y) = sobel_y_avg(x - 1, y) + sobel_y_avg(x + 1, y);
        output(x, y) = cast<uint8_t>((sobel_x(x, y) + sobel_y(x, y)) / 16);
    }

    void schedule() {
        output.compute_root();
        if (buggy) {
            input_16.split(x, x, xi, 16);
        }
        input_16.compute_at(output, x).store_at(output, y);
        bounded_input.compute_at(output, x);
    }

private:
    Var x{"x"}, y{"y"}, xi{"xi"};
    Func bounded_input{"bounded_input"}, input_16{"input_16"};
    Func sobel_x_avg{"sobel_x_avg"}, sobel_x{"sobel_x"}, sobel_y_avg{"sobel_y_avg"}, sobel_y{"sobel_y"};
};

}  // namespace

HALIDE_REGISTER_GENERATOR(Issue4396, issue4396)
