// Square matrix product of fixed size, from Halide's cuda_mat_mul app
// (Clément 2022, Table 6.1: cmm1024, verified at 1024 x 1024 only).
//
// The app only has a GPU schedule. This is its CPU transcription: the same
// tiles (64 x 16 blocks of 4 x 8 unrolled micro-tiles), the same staging of
// the accumulator and of the A and B wrappers, with the block loop over y
// made parallel and the thread loops run serially.
#include "Halide.h"

namespace {

using namespace Halide;

class Cmm : public Generator<Cmm> {
public:
    GeneratorParam<int> size{"size", 1024};

    Input<Buffer<float, 2>> A{"A"};
    Input<Buffer<float, 2>> B{"B"};
    Output<Buffer<float, 2>> out{"out"};

    Var x{"x"}, y{"y"}, xi{"xi"}, yi{"yi"}, xii{"xii"}, yii{"yii"};
    Func prod{"prod"};
    RDom r;

    void generate() {
        r = RDom(0, size, "r");
        prod(x, y) += A(x, r) * B(r, y);
        out(x, y) = prod(x, y);

        // Dense, aligned, fixed-size operands.
        for (OutputImageParam p : {(OutputImageParam)A, (OutputImageParam)B, (OutputImageParam)out}) {
            p.set_host_alignment(16);
            p.dim(0).set_bounds(0, size);
            p.dim(1).set_stride(size);
        }
    }

    void schedule() {
        out.bound(x, 0, size)
            .bound(y, 0, size)
            .tile(x, y, xi, yi, 64, 16)
            .tile(xi, yi, xii, yii, 4, 8)
            .parallel(y)
            .unroll(xii)
            .unroll(yii);
        prod.compute_at(out, xi)
            .vectorize(x)
            .unroll(y)
            .update()
            .reorder(x, y, r)
            .vectorize(x)
            .unroll(y)
            .unroll(r, 8);
        A.in().compute_at(prod, r).vectorize(_0).unroll(_1);
        B.in().compute_at(prod, r).vectorize(_0).unroll(_1);
    }
};

}  // namespace

HALIDE_REGISTER_GENERATOR(Cmm, cmm)
