// A 3 x 3 convolution layer followed by a ReLU, with the CPU schedule of
// Halide's conv_layer app (Clément 2022, Table 6.1: conv).
//
//   relu(c, x, y, n) = max(0, bias(c) + sum_{ci, dx, dy} filter(c, dx, dy, ci) * input(ci, x + dx, y + dy, n))
//
// Like the app, the layer is compiled for fixed sizes (channels innermost,
// dense): the GeneratorParams default to the app's N = 5, CI = CO = 128,
// W = 100, H = 80. The register tile depends on the target: 4 x 5 vectors
// with AVX-512 (or 64-bit ARM), 3 x 4 on other x86 targets, 2 x 4 elsewhere;
// CO must be a multiple of the vector width times the tile width.
#include "Halide.h"

namespace {

using namespace Halide;

class ConvLayer : public Generator<ConvLayer> {
public:
    GeneratorParam<int> N{"N", 5};
    GeneratorParam<int> CI{"CI", 128};
    GeneratorParam<int> CO{"CO", 128};
    GeneratorParam<int> W{"W", 100};
    GeneratorParam<int> H{"H", 80};

    Input<Buffer<float, 4>> input{"input"};
    Input<Buffer<float, 4>> filter{"filter"};
    Input<Buffer<float, 1>> bias{"bias"};
    Output<Buffer<float, 4>> relu{"relu"};

    Var x{"x"}, y{"y"}, c{"c"}, n{"n"};
    Func conv{"conv"};
    RDom r;

    void generate() {
        r = RDom(0, CI, 0, 3, 0, 3, "r");
        conv(c, x, y, n) = bias(c);
        conv(c, x, y, n) += filter(c, r.y, r.z, r.x) * input(r.x, x + r.y, y + r.z, n);
        relu(c, x, y, n) = max(0, conv(c, x, y, n));

        const int ci = CI, co = CO, w = W, h = H, nb = N;
        relu.dim(0).set_bounds(0, co).set_stride(1);
        relu.dim(1).set_bounds(0, w).set_stride(co);
        relu.dim(2).set_bounds(0, h).set_stride(co * w);
        relu.dim(3).set_bounds(0, nb).set_stride(co * h * w);

        input.dim(0).set_bounds(0, ci).set_stride(1);
        input.dim(1).set_bounds(0, w + 2).set_stride(ci);
        input.dim(2).set_bounds(0, h + 2).set_stride(ci * (w + 2));
        input.dim(3).set_bounds(0, nb).set_stride(ci * (w + 2) * (h + 2));

        filter.dim(0).set_bounds(0, co).set_stride(1);
        filter.dim(1).set_bounds(0, 3).set_stride(co);
        filter.dim(2).set_bounds(0, 3).set_stride(co * 3);
        filter.dim(3).set_bounds(0, ci).set_stride(co * 3 * 3);

        bias.dim(0).set_bounds(0, co).set_stride(1);
    }

    void schedule() {
        const Target t = get_target();
        const int vec = natural_vector_size<float>();
        int tile_w, tile_h;
        if (t.has_feature(Target::AVX512_Skylake) || (t.arch == Target::ARM && t.bits == 64)) {
            // 32 vector registers: 20 accumulators.
            tile_w = 4;
            tile_h = 5;
        } else if (t.arch == Target::X86) {
            // 16 vector registers: 12 accumulators.
            tile_w = 3;
            tile_h = 4;
        } else {
            tile_w = 2;
            tile_h = 4;
        }

        Var co{"co"}, ci{"ci"}, xo{"xo"}, xi{"xi"};
        relu.split(c, co, ci, vec * tile_w)
            .split(x, xo, xi, tile_h)
            .reorder(ci, xi, xo, y, n, co)
            .vectorize(ci, vec)
            .unroll(ci)
            .unroll(xi)
            .parallel(y)
            .parallel(n)
            .parallel(co);
        conv.compute_at(relu, xo)
            .vectorize(c, vec)
            .unroll(c)
            .unroll(x)
            .unroll(y)
            .update()
            .reorder(c, x, y, r.x, r.y, r.z, n)
            .vectorize(c, vec)
            .unroll(c)
            .unroll(x)
            .unroll(y)
            .unroll(r.x, 2);
        filter.in()
            .compute_at(conv, r.x)
            .vectorize(_0, vec)
            .unroll(_0)
            .unroll(_3);
        input.in()
            .compute_at(conv, x)
            .unroll(_0);
    }
};

}  // namespace

HALIDE_REGISTER_GENERATOR(ConvLayer, conv_layer)
