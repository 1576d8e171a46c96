// fsum_atomic: the sum of a float vector with atomic(), its reduction loop
// in parallel: a re-ordered float sum (VALID over the reals, INVALID in
// IEEE arithmetic).
#include "Halide.h"

namespace {

using namespace Halide;

class FsumAtomic : public Generator<FsumAtomic> {
public:
    Input<Buffer<float>> in{"in", 1};
    Output<Buffer<float>> total{"total", 0};

    void generate() {
        r = RDom(0, in.dim(0).extent(), "r");
        total() = 0.0f;
        total() += in(r);
    }

    void schedule() {
        total.update(0).atomic().parallel(r);
    }

private:
    RDom r;
};

}  // namespace

HALIDE_REGISTER_GENERATOR(FsumAtomic, fsum_atomic)
