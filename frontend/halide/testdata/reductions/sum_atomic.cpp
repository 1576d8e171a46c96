// sum_atomic: the sum of an int32 vector with atomic(): the reduction loop
// itself runs in parallel, every accumulation an atomic update.
#include "Halide.h"

namespace {

using namespace Halide;

class SumAtomic : public Generator<SumAtomic> {
public:
    Input<Buffer<int32_t>> in{"in", 1};
    Output<Buffer<int32_t>> total{"total", 0};

    void generate() {
        r = RDom(0, in.dim(0).extent(), "r");
        total() = 0;
        total() += in(r);
    }

    void schedule() {
        total.update(0).atomic().parallel(r);
    }

private:
    RDom r;
};

}  // namespace

HALIDE_REGISTER_GENERATOR(SumAtomic, sum_atomic)
