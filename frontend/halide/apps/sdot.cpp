// sdot: the dot product of two float vectors, a reduction over an RDom
// (Halide's apps/linear_algebra, level 1 BLAS).
#include "Halide.h"

namespace {

using namespace Halide;

class Sdot : public Generator<Sdot> {
public:
    Input<Buffer<float>> x_{"x", 1};
    Input<Buffer<float>> y_{"y", 1};
    Output<Buffer<float>> result{"result", 0};

    void generate() {
        RDom k(0, x_.dim(0).extent(), "k");
        result() = 0.0f;
        result() += x_(k) * y_(k);
    }

    void schedule() {
    }
};

}  // namespace

HALIDE_REGISTER_GENERATOR(Sdot, sdot)
