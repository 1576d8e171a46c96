// Harris corner response on a float RGB image, with the CPU schedule of
// Halide's harris app (Clément 2022, Table 6.1: harris). Build it with the
// target feature strict_float, as the thesis does, so that Halide does not
// fold or reassociate float arithmetic.
//
// There is no boundary condition: the output at (x, y) reads the input in
// [x - 2, x + 2] x [y - 2, y + 2], so the input must extend two pixels beyond
// the output on every side. The output rows are split by 32 (ShiftInwards),
// so the output needs at least 32 rows and one vector of columns.
#include "Halide.h"

namespace {

using namespace Halide;

class Harris : public Generator<Harris> {
public:
    Input<Buffer<float, 3>> input{"input"};
    Output<Buffer<float, 2>> output{"output"};

    Var x{"x"}, y{"y"};
    Func gray{"gray"}, Ix{"Ix"}, Iy{"Iy"};

    static Expr box3(Func f, Var x, Var y) {
        Expr e;
        for (int dx = -1; dx <= 1; dx++) {
            for (int dy = -1; dy <= 1; dy++) {
                Expr v = f(x + dx, y + dy);
                e = e.defined() ? e + v : v;
            }
        }
        return e;
    }

    void generate() {
        gray(x, y) = 0.299f * input(x, y, 0) + 0.587f * input(x, y, 1) + 0.114f * input(x, y, 2);

        // Sobel derivatives, scaled by 1/12.
        Iy(x, y) = gray(x - 1, y - 1) * (-1.0f / 12) + gray(x - 1, y + 1) * (1.0f / 12) +
                   gray(x, y - 1) * (-2.0f / 12) + gray(x, y + 1) * (2.0f / 12) +
                   gray(x + 1, y - 1) * (-1.0f / 12) + gray(x + 1, y + 1) * (1.0f / 12);
        Ix(x, y) = gray(x - 1, y - 1) * (-1.0f / 12) + gray(x + 1, y - 1) * (1.0f / 12) +
                   gray(x - 1, y) * (-2.0f / 12) + gray(x + 1, y) * (2.0f / 12) +
                   gray(x - 1, y + 1) * (-1.0f / 12) + gray(x + 1, y + 1) * (1.0f / 12);

        Func Ixx("Ixx"), Iyy("Iyy"), Ixy("Ixy");
        Ixx(x, y) = Ix(x, y) * Ix(x, y);
        Iyy(x, y) = Iy(x, y) * Iy(x, y);
        Ixy(x, y) = Ix(x, y) * Iy(x, y);

        // Structure tensor summed over a 3 x 3 window.
        Func Sxx("Sxx"), Syy("Syy"), Sxy("Sxy");
        Sxx(x, y) = box3(Ixx, x, y);
        Syy(x, y) = box3(Iyy, x, y);
        Sxy(x, y) = box3(Ixy, x, y);

        Func det("det"), trace("trace");
        det(x, y) = Sxx(x, y) * Syy(x, y) - Sxy(x, y) * Sxy(x, y);
        trace(x, y) = Sxx(x, y) + Syy(x, y);

        output(x, y) = det(x, y) - 0.04f * trace(x, y) * trace(x, y);
    }

    void schedule() {
        const int vec = natural_vector_size<float>();
        Var yi{"yi"};
        output.split(y, y, yi, 32)
            .parallel(y)
            .vectorize(x, vec);
        gray.store_at(output, y)
            .compute_at(output, yi)
            .vectorize(x, vec);
        Ix.store_at(output, y)
            .compute_at(output, yi)
            .vectorize(x, vec);
        Iy.store_at(output, y)
            .compute_at(output, yi)
            .vectorize(x, vec);
        Ix.compute_with(Iy, x);
    }
};

}  // namespace

HALIDE_REGISTER_GENERATOR(Harris, harris)
