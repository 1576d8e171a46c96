// Non-local means denoising of a float RGB image, with the CPU schedule of
// Halide's nl_means app (Clément 2022, Table 6.1: nl_means). Build it with
// the target feature strict_float, as the thesis does.
//
// For every offset (dx, dy) of the search window, the squared colour
// difference between the image and its shifted copy is box-filtered over a
// patch; the weights exp(-distance / (sigma^2 patch^2)) average the shifted
// pixels, with an alpha channel of ones carrying the normalisation. The input
// is extended by repeating its edge. patch_size, search_area and sigma are
// run-time parameters. The output has exactly 3 channels and is tiled 16 x 8
// (ShiftInwards), so it must be at least 16 x 8.
#include "Halide.h"

namespace {

using namespace Halide;

class NlMeans : public Generator<NlMeans> {
public:
    Input<Buffer<float, 3>> input{"input"};
    Input<int> patch_size{"patch_size"};
    Input<int> search_area{"search_area"};
    Input<float> sigma{"sigma"};
    Output<Buffer<float, 3>> non_local_means{"non_local_means"};

    Var x{"x"}, y{"y"}, c{"c"}, dx{"dx"}, dy{"dy"};
    Func d{"d"}, blur_d_y{"blur_d_y"}, blur_d{"blur_d"}, nl_sum{"non_local_means_sum"};
    RDom search;

    void generate() {
        Expr inv_sigma_sq = -1.0f / (sigma * sigma * patch_size * patch_size);
        Func clamped = BoundaryConditions::repeat_edge(input);

        // Squared difference with the shifted image, summed over the colours.
        Func diff("diff");
        diff(x, y, dx, dy, c) = pow(clamped(x, y, c) - clamped(x + dx, y + dy, c), 2);
        RDom colours(0, 3, "colours");
        d(x, y, dx, dy) = sum(diff(x, y, dx, dy, colours));

        // Box filter over the patch, first vertically then horizontally.
        RDom patch(-(patch_size / 2), patch_size, "patch");
        blur_d_y(x, y, dx, dy) = sum(d(x, y + patch, dx, dy));
        blur_d(x, y, dx, dy) = sum(blur_d_y(x + patch, y, dx, dy));

        Func w("w");
        w(x, y, dx, dy) = fast_exp(blur_d(x, y, dx, dy) * inv_sigma_sq);

        // Colour plus a constant alpha channel that accumulates the weights.
        Func with_alpha("clamped_with_alpha");
        with_alpha(x, y, c) = mux(c, {clamped(x, y, 0), clamped(x, y, 1), clamped(x, y, 2), 1.0f});

        search = RDom(-(search_area / 2), search_area, -(search_area / 2), search_area, "search");
        nl_sum(x, y, c) += w(x, y, search.x, search.y) * with_alpha(x + search.x, y + search.y, c);

        non_local_means(x, y, c) = clamp(nl_sum(x, y, c) / nl_sum(x, y, 3), 0.0f, 1.0f);
        non_local_means.dim(2).set_bounds(0, 3);
    }

    void schedule() {
        const int vec = natural_vector_size<float>();
        Var tx{"tx"}, ty{"ty"};
        non_local_means.compute_root()
            .reorder(c, x, y)
            .tile(x, y, tx, ty, x, y, 16, 8)
            .parallel(ty)
            .vectorize(x, vec);
        blur_d_y.compute_at(non_local_means, tx)
            .reorder(y, x)
            .vectorize(x, vec);
        d.compute_at(non_local_means, tx)
            .vectorize(x, vec);
        nl_sum.compute_at(non_local_means, x)
            .reorder(c, x, y)
            .bound(c, 0, 4)
            .unroll(c)
            .vectorize(x, vec);
        nl_sum.update(0)
            .reorder(c, x, y, search.x, search.y)
            .unroll(c)
            .vectorize(x, vec);
        blur_d.compute_at(nl_sum, x)
            .vectorize(x, vec);
    }
};

}  // namespace

HALIDE_REGISTER_GENERATOR(NlMeans, nl_means)
