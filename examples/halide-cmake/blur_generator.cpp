// A 3x3 box blur, separable: blur_x is computed per row of each strip of
// the output, sliding down the strip, and vectorised.
#include "Halide.h"
#include "stencil.h"

namespace {

using namespace Halide;

class Blur : public Generator<Blur> {
public:
    GeneratorParam<int> strip{"strip", 4};
    Input<Buffer<uint16_t>> input{"input", 2};
    Output<Buffer<uint16_t>> blur_y{"blur_y", 2};

    void generate() {
        blur_x(x, y) = (input(x - 1, y) + input(x, y) + input(x + 1, y)) / 3;
        blur_y(x, y) = filters::vertical_mean(blur_x, x, y);
    }

    void schedule() {
        blur_y.split(y, y, yi, strip).parallel(y).vectorize(x, FILTERS_VECTOR_WIDTH);
        blur_x.store_at(blur_y, y).compute_at(blur_y, yi).vectorize(x, FILTERS_VECTOR_WIDTH);
    }

private:
    Var x{"x"}, y{"y"}, yi{"yi"};
    Func blur_x{"blur_x"};
};

}  // namespace

HALIDE_REGISTER_GENERATOR(Blur, blur)
