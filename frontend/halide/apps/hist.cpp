// hist: histogram equalisation of an RGB image. The luma of every pixel
// is counted into a histogram of 256 bins row by row (a write at a
// data-dependent index, Clément 2022, section 9.6.3), the rows'
// histograms summed, their cumulative sum (a scan) used as a lookup
// table to equalise the luma, and the colour put back. It follows
// Halide's apps/hist (hist_generator.cpp at tag v14.0.0): its algorithm
// and its CPU schedule. Adapted: the algorithm is in generate() and the
// schedule in schedule(); the GPU schedules and the autoscheduler's
// estimates are left out; the input's mins are pinned to 0.
#include "Halide.h"

namespace {

using namespace Halide;
using namespace Halide::ConciseCasts;

class Hist : public Generator<Hist> {
public:
    Input<Buffer<uint8_t, 3>> input{"input"};
    Output<Buffer<uint8_t, 3>> output{"output"};

    void generate() {
        Expr red_in = input(x, y, 0), green_in = input(x, y, 1), blue_in = input(x, y, 2);
        luma(x, y) = 0.299f * red_in + 0.587f * green_in + 0.114f * blue_in;
        chroma_r(x, y) = (red_in - luma(x, y)) * 0.713f + 128;
        chroma_b(x, y) = (blue_in - luma(x, y)) * 0.564f + 128;

        // The histogram of each row, then of the image.
        rx = RDom(0, input.width(), "rx");
        hist_rows(x, y) = 0;
        hist_rows(cast<int>(clamp(luma(rx, y), 0, 255)), y) += 1;
        ry = RDom(0, input.height(), "ry");
        hist(x) = 0;
        hist(x) += hist_rows(x, ry);

        // Its cumulative sum.
        RDom b(1, 255, "b");
        cdf(x) = hist(0);
        cdf(b.x) = cdf(b.x - 1) + hist(b.x);

        // The equalised luma, read from the cumulative sum at each
        // pixel's luma.
        Func luma_bin("luma_bin"), equalised("equalised");
        luma_bin(x, y) = u8(clamp(luma(x, y), 0, 255));
        equalised(x, y) = clamp(cdf(luma_bin(x, y)) * (255.0f / (input.height() * input.width())), 0, 255);

        Expr eq = equalised(x, y), cr = chroma_r(x, y) - 128, cb = chroma_b(x, y) - 128;
        Expr red = u8(clamp(eq + cr * 1.4f, 0, 255));
        Expr green = u8(clamp(eq - 0.343f * cb - 0.711f * cr, 0, 255));
        Expr blue = u8(clamp(eq + 1.765f * cb, 0, 255));
        output(x, y, c) = mux(c, {red, green, blue});

        for (int d = 0; d < 3; d++) {
            input.dim(d).set_min(0);
        }
    }

    void schedule() {
        cdf.bound(x, 0, 256);
        const int vec = natural_vector_size<float>();
        // A copy of the luma for the histogram, computed per row.
        luma.clone_in(hist_rows).compute_at(hist_rows.in(), y).vectorize(x, vec);
        hist_rows.in().compute_root().vectorize(x, vec).parallel(y, 4);
        hist_rows.compute_at(hist_rows.in(), y).vectorize(x, vec).update().reorder(y, rx).unroll(y);
        hist.compute_root().vectorize(x, vec).update().reorder(x, ry).vectorize(x, vec).unroll(x, 4).parallel(x).reorder(ry, x);
        cdf.compute_root();
        output.reorder(c, x, y).bound(c, 0, 3).unroll(c).parallel(y, 8).vectorize(x, vec * 2);
    }

private:
    Var x{"x"}, y{"y"}, c{"c"};
    RDom rx, ry;
    Func luma{"luma"}, chroma_r{"chroma_r"}, chroma_b{"chroma_b"}, hist_rows{"hist_rows"}, hist{"hist"}, cdf{"cdf"};
};

}  // namespace

HALIDE_REGISTER_GENERATOR(Hist, hist)
