// Depthwise separable convolution (depthwise convolution, then a pointwise
// 1 x 1 convolution with bias, then a ReLU), with the CPU schedule of
// Halide's depthwise_separable_conv app (Clément 2022, Table 6.1: dsc).
//
// The app reads the channel multiplier off the depthwise filter's extent,
// which puts a division by a run-time value into the indices. The thesis
// fixes this grouping factor to 3 so that the index d / 3 is affine after
// all; the channel_multiplier GeneratorParam does the same (0 restores the
// app's run-time multiplier).
//
// Shapes, following the app: input [CI, W, H, N]; depthwise_filter
// [multiplier, channels, fw, fh] indexed by the intermediate channel
// d < CI * multiplier; pointwise_filter [CO, CI * multiplier]; bias [CO];
// output [CO, W, H, N]. The input is padded with zeros.
#include "Halide.h"

namespace {

using namespace Halide;

class DepthwiseSeparableConv : public Generator<DepthwiseSeparableConv> {
public:
    GeneratorParam<int> channel_multiplier{"channel_multiplier", 3};

    Input<Buffer<float, 4>> input{"input"};
    Input<Buffer<float, 4>> depthwise_filter{"depthwise_filter"};
    Input<Buffer<float, 2>> pointwise_filter{"pointwise_filter"};
    Input<Buffer<float, 1>> bias{"bias"};
    Output<Buffer<float, 4>> output{"output"};

    Var x{"x"}, y{"y"}, d{"d"}, b{"b"};
    Func input_bounded{"input_bounded"};
    Func depthwise_convolved{"depthwise_convolved"};
    Func pointwise_convolved{"pointwise_convolved"};
    RDom dw, rc;
    Expr multiplier;

    void generate() {
        // Zero padding written out by hand, as the app does, rather than with
        // a BoundaryConditions helper.
        Expr inside = x >= 0 && x < input.dim(1).extent() &&
                      y >= 0 && y < input.dim(2).extent();
        input_bounded(d, x, y, b) =
            select(inside,
                   input(d, clamp(x, 0, input.dim(1).max()), clamp(y, 0, input.dim(2).max()), b),
                   0.0f);

        if ((int)channel_multiplier > 0) {
            depthwise_filter.dim(0).set_bounds(0, (int)channel_multiplier);
            multiplier = Expr((int)channel_multiplier);
        } else {
            multiplier = depthwise_filter.dim(0).extent();
        }

        // Depthwise: the reduction runs over the multiplier index and the
        // filter window, exactly as in the app.
        Expr half_w = depthwise_filter.dim(2).extent() / 2;
        Expr half_h = depthwise_filter.dim(3).extent() / 2;
        dw = RDom(0, depthwise_filter.dim(0).extent(),
                  0, depthwise_filter.dim(2).extent(),
                  0, depthwise_filter.dim(3).extent(), "dw");
        depthwise_convolved(d, x, y, b) +=
            depthwise_filter(dw[0], d, dw[1], dw[2]) *
            input_bounded(d / multiplier, x + dw[1] - half_w, y + dw[2] - half_h, b);

        // Pointwise: mix the intermediate channels.
        rc = RDom(0, pointwise_filter.dim(1).extent(), "rc");
        pointwise_convolved(d, x, y, b) = bias(d);
        pointwise_convolved(d, x, y, b) += pointwise_filter(d, rc) * depthwise_convolved(rc, x, y, b);

        output(d, x, y, b) = max(pointwise_convolved(d, x, y, b), 0.0f);
    }

    void schedule() {
        const Target t = get_target();
        const int vec = natural_vector_size<float>();
        const int regs = (t.has_feature(Target::AVX512_Skylake) ||
                          (t.arch == Target::ARM && t.bits == 64)) ?
                             32 :
                             16;
        // Accumulator tile (in vectors along d, pixels along x and y).
        int tile_d, tile_w, tile_h;
        if (regs == 32 && vec == 16) {
            tile_d = 1, tile_w = 6, tile_h = 4;
        } else if (regs == 32 && vec == 4) {
            tile_d = 4, tile_w = 3, tile_h = 2;
        } else if (regs == 16 && vec == 8) {
            tile_d = 2, tile_w = 3, tile_h = 2;
        } else {
            tile_d = 4, tile_w = 2, tile_h = 1;
        }
        tile_d *= vec;

        // The depthwise stage is computed inside each slice of the pointwise
        // reduction over channels.
        Var di{"di"}, xi{"xi"}, yi{"yi"};
        RVar ro{"ro"}, ri{"ri"};
        Func(output)
            .tile({d, x, y}, {di, xi, yi}, {tile_d, tile_w, tile_h})
            .vectorize(di)
            .unroll(xi)
            .unroll(yi)
            .fuse(y, b, b)
            .parallel(b);

        pointwise_convolved.compute_at(output, d)
            .vectorize(d)
            .unroll(x)
            .unroll(y)
            .update()
            .reorder(d, x, y, rc, b)
            .vectorize(d)
            .unroll(x)
            .unroll(y)
            .split(rc, ro, ri, tile_d);

        depthwise_convolved
            .store_in(MemoryType::Stack)
            .bound_extent(d, tile_d)
            .compute_at(pointwise_convolved, ro)
            .vectorize(d)
            .reorder(x, y, d)
            .unroll(x)
            .unroll(y)
            .update()
            .vectorize(d)
            .reorder(x, y, d, dw[0], dw[1], dw[2], b)
            .unroll(x)
            .unroll(y);

        input_bounded
            .store_in(MemoryType::Stack)
            .compute_at(pointwise_convolved, ro)
            .tile(d, x, di, xi, vec, 4, TailStrategy::RoundUp)
            .vectorize(di)
            .unroll(xi);

        // The depthwise filter is dense along its channel dimension; the app
        // also specialises for a multiplier of 1, a multiple-of-32 channel
        // count and a 3 x 3 window (with a multiplier of 3 the condition is
        // false and the specialisation disappears).
        depthwise_filter.dim(1).set_stride(multiplier);
        Expr channels = pointwise_filter.dim(1).extent();
        output.specialize(multiplier == 1 &&
                          channels == (channels / 32) * 32 &&
                          depthwise_filter.dim(2).extent() == 3 &&
                          depthwise_filter.dim(3).extent() == 3);
    }
};

}  // namespace

HALIDE_REGISTER_GENERATOR(DepthwiseSeparableConv, depthwise_separable_conv)
