// Unsharp masking of a float RGB image, with the CPU schedule of Halide's
// unsharp app (Clément 2022, Table 6.1: unsharp). Build it with the target
// feature strict_float, as the thesis does.
//
// The luminance is blurred by a separable 7-tap Gaussian (sigma is a
// GeneratorParam, 1.5 by default), sharpened, and the ratio of sharpened to
// original luminance scales every channel. The input is extended by repeating
// its edge. Output rows are split by 32 (ShiftInwards): at least 32 rows.
#include "Halide.h"

#include <cmath>

namespace {

using namespace Halide;

class Unsharp : public Generator<Unsharp> {
public:
    GeneratorParam<float> sigma{"sigma", 1.5f};

    Input<Buffer<float, 3>> input{"input"};
    Output<Buffer<float, 3>> output{"output"};

    Var x{"x"}, y{"y"}, c{"c"};
    Func gray{"gray"}, blur_y{"blur_y"}, ratio{"ratio"};

    void generate() {
        const float pi = 3.14159265358979310000f;
        const float sg = sigma;
        Func kernel("kernel");
        kernel(x) = exp(-x * x / (2 * sg * sg)) / (std::sqrt(2 * pi) * sg);

        Func clamped = BoundaryConditions::repeat_edge(input);
        gray(x, y) = 0.299f * clamped(x, y, 0) + 0.587f * clamped(x, y, 1) + 0.114f * clamped(x, y, 2);

        blur_y(x, y) = kernel(0) * gray(x, y) +
                       kernel(1) * (gray(x, y - 1) + gray(x, y + 1)) +
                       kernel(2) * (gray(x, y - 2) + gray(x, y + 2)) +
                       kernel(3) * (gray(x, y - 3) + gray(x, y + 3));
        Func blur_x("blur_x");
        blur_x(x, y) = kernel(0) * blur_y(x, y) +
                       kernel(1) * (blur_y(x - 1, y) + blur_y(x + 1, y)) +
                       kernel(2) * (blur_y(x - 2, y) + blur_y(x + 2, y)) +
                       kernel(3) * (blur_y(x - 3, y) + blur_y(x + 3, y));

        Func sharpen("sharpen");
        sharpen(x, y) = 2 * gray(x, y) - blur_x(x, y);
        ratio(x, y) = sharpen(x, y) / gray(x, y);
        output(x, y, c) = ratio(x, y) * input(x, y, c);
    }

    void schedule() {
        const int vec = natural_vector_size<float>();
        Var yo{"yo"}, yi{"yi"};
        output.split(y, yo, yi, 32)
            .vectorize(x, vec)
            .parallel(yo)
            .reorder(x, c, yi, yo);
        gray.compute_at(output, yi)
            .store_at(output, yo)
            .vectorize(x, vec);
        blur_y.compute_at(output, yi)
            .store_at(output, yo)
            .vectorize(x, vec);
        ratio.compute_at(output, yi)
            .store_at(output, yo)
            .vectorize(x, vec);
    }
};

}  // namespace

HALIDE_REGISTER_GENERATOR(Unsharp, unsharp)
