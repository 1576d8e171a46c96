// The classic 3x3 box blur of Halide's apps/blur, on uint16 images, with
// the app's schedule: blur_y split by 8 rows, the strips in parallel, x
// vectorised by 8; blur_x stored per strip and computed per row, which gives
// a sliding window over a 4-row storage fold.
#include "Halide.h"

namespace {

using namespace Halide;

class Blur : public Generator<Blur> {
public:
    GeneratorParam<bool> tiled{"tiled", true};  // false: everything at the root, serial

    Input<Buffer<uint16_t>> input{"input", 2};
    Output<Buffer<uint16_t>> blur_y{"blur_y", 2};

    void generate() {
        blur_x(x, y) = (input(x - 1, y) + input(x, y) + input(x + 1, y)) / 3;
        blur_y(x, y) = (blur_x(x, y - 1) + blur_x(x, y) + blur_x(x, y + 1)) / 3;
    }

    void schedule() {
        if (tiled) {
            blur_y.split(y, y, yi, 8).parallel(y).vectorize(x, 8);
            blur_x.store_at(blur_y, y).compute_at(blur_y, yi).vectorize(x, 8);
        } else {
            blur_x.compute_root();
        }
    }

private:
    Var x{"x"}, y{"y"}, yi{"yi"};
    Func blur_x{"blur_x"};
};

}  // namespace

HALIDE_REGISTER_GENERATOR(Blur, blur)
