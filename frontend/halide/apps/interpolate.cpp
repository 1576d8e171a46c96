// interpolate: fills in the transparent pixels of an RGBA image by pushing
// and pulling through a pyramid of `levels` levels: premultiplied
// downsampling by a [1 2 1] / 4 kernel in x then y, then upsampling by
// averaging the two nearest coarser pixels in x then y, blended with each
// level's alpha, and a final division by alpha. It follows Halide's
// apps/interpolate (interpolate_generator.cpp of release 14), its algorithm
// and its CPU schedule; the GPU schedule and the autoscheduler branch are
// left out, and the schedule is in schedule() as in the other files here.
//
// The schedule computes every downsampled level but the first and last at
// the root, in strips of 8 rows in parallel, and the interpolated levels
// per 32-row strip of the output, vectorised: a vector of 8 lanes runs past
// the end of a level whose width is not a multiple of 8 (Halide's default
// RoundUp tail for vectorised pure stages computed inside another), so the
// upsampling computes values from cells of the coarser level that were never
// written, values that no output pixel uses (garbage writes,
// docs/validate.md).
#include "Halide.h"

namespace {

using namespace Halide;

class Interpolate : public Generator<Interpolate> {
public:
    // The number of pyramid levels (the app's default is 10; the tests use
    // 3 and 5, the smallest with and without the middle boundary condition
    // at level 4).
    GeneratorParam<int> levels{"levels", 10};

    Input<Buffer<float, 3>> input{"input"};
    Output<Buffer<float, 3>> output{"output"};

    Var x{"x"}, y{"y"}, c{"c"};
    std::vector<Func> downsampled, downx, interpolated, upsampled, upsampledx;
    Func normalize{"normalize"};

    static std::vector<Func> funcs(const std::string &name, int n) {
        std::vector<Func> fs;
        for (int i = 0; i < n; i++) {
            fs.emplace_back(name + "_" + std::to_string(i));
        }
        return fs;
    }

    void generate() {
        // Four channels: RGBA.
        input.dim(2).set_bounds(0, 4);
        downsampled = funcs("downsampled", levels);
        downx = funcs("downx", levels);
        interpolated = funcs("interpolated", levels);
        upsampled = funcs("upsampled", levels);
        upsampledx = funcs("upsampledx", levels);

        Func clamped = BoundaryConditions::repeat_edge(input);
        // Colour premultiplied by alpha; alpha itself.
        downsampled[0](x, y, c) = select(c < 3, clamped(x, y, c) * clamped(x, y, 3), clamped(x, y, 3));
        for (int l = 1; l < levels; ++l) {
            Func prev = downsampled[l - 1];
            if (l == 4) {
                // The app bounds the footprint of the coarse levels with a
                // clamp at this level.
                Expr w = input.width() / (1 << (l - 1));
                Expr h = input.height() / (1 << (l - 1));
                prev = lambda(x, y, c, prev(clamp(x, 0, w), clamp(y, 0, h), c));
            }
            downx[l](x, y, c) = (prev(x * 2 - 1, y, c) + 2.0f * prev(x * 2, y, c) + prev(x * 2 + 1, y, c)) * 0.25f;
            downsampled[l](x, y, c) = (downx[l](x, y * 2 - 1, c) + 2.0f * downx[l](x, y * 2, c) + downx[l](x, y * 2 + 1, c)) * 0.25f;
        }
        interpolated[levels - 1](x, y, c) = downsampled[levels - 1](x, y, c);
        for (int l = levels - 2; l >= 0; --l) {
            upsampledx[l](x, y, c) = (interpolated[l + 1](x / 2, y, c) + interpolated[l + 1]((x + 1) / 2, y, c)) / 2.0f;
            upsampled[l](x, y, c) = (upsampledx[l](x, y / 2, c) + upsampledx[l](x, (y + 1) / 2, c)) / 2.0f;
            Expr alpha = 1.0f - downsampled[l](x, y, 3);
            interpolated[l](x, y, c) = downsampled[l](x, y, c) + alpha * upsampled[l](x, y, c);
        }
        normalize(x, y, c) = interpolated[0](x, y, c) / interpolated[0](x, y, 3);
        output = normalize;
    }

    void schedule() {
        Var xo{"xo"}, xi{"xi"}, yo{"yo"}, yi{"yi"};
        const int vec = natural_vector_size<float>();
        for (int l = 1; l < levels - 1; ++l) {
            // The upsampling reads the downsampled levels, so they are
            // computed at the root.
            downsampled[l]
                .compute_root()
                .reorder(x, c, y)
                .split(y, yo, yi, 8)
                .parallel(yo)
                .vectorize(x, vec);
        }
        // A copy of the first level, recomputed per strip of the second.
        downsampled[0]
            .clone_in(downx[1])
            .store_at(downsampled[1], yo)
            .compute_at(downsampled[1], yi)
            .reorder(c, x, y)
            .unroll(c)
            .vectorize(x, vec);
        normalize
            .bound(x, 0, input.width())
            .bound(y, 0, input.height())
            .bound(c, 0, 3)
            .split(x, xo, xi, vec)
            .split(y, yo, yi, 32)
            .reorder(xi, c, xo, yi, yo)
            .unroll(c)
            .vectorize(xi)
            .parallel(yo);
        for (int l = 1; l < levels; l++) {
            interpolated[l]
                .store_at(normalize, yo)
                .compute_at(normalize, yi)
                .vectorize(x, vec);
        }
    }
};

}  // namespace

HALIDE_REGISTER_GENERATOR(Interpolate, interpolate)
