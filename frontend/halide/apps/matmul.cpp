// A small matrix product C = A B with a tiled schedule: C is computed in
// 8x8 tiles (guarded tails), the tiles in parallel; each tile accumulates
// into prod, computed at the tile, whose update runs the reduction loop
// outside the vectorised i loop (guarded: a tile may be narrower than 8).
#include "Halide.h"

namespace {

using namespace Halide;

class MatMul : public Generator<MatMul> {
public:
    GeneratorParam<int> tile{"tile", 8};  // 0: everything at the root, serial

    Input<Buffer<float>> A{"A", 2};
    Input<Buffer<float>> B{"B", 2};
    Output<Buffer<float>> C{"C", 2};

    void generate() {
        k = RDom(0, A.dim(0).extent(), "k");
        prod(i, j) = 0.0f;
        prod(i, j) += A(k, j) * B(i, k);
        C(i, j) = prod(i, j);
    }

    void schedule() {
        if (tile > 0) {
            C.tile(i, j, io, jo, ii, ji, tile, tile, TailStrategy::GuardWithIf).parallel(jo);
            prod.compute_at(C, io).vectorize(i, 8, TailStrategy::GuardWithIf);
            prod.update().reorder(i, k, j).vectorize(i, 8, TailStrategy::GuardWithIf);
        }
    }

private:
    Var i{"i"}, j{"j"}, io{"io"}, jo{"jo"}, ii{"ii"}, ji{"ji"};
    Func prod{"prod"};
    RDom k;
};

}  // namespace

HALIDE_REGISTER_GENERATOR(MatMul, matmul)
