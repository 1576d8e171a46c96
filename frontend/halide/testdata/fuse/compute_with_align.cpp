// Two funcs computed at the root and fused by compute_with, their loops
// aligned at their starts: f is needed over [min + 1, max + 1] and g over
// [min - 1, max - 1], so Halide runs g's iterations two behind the fused
// loop's variable (ScheduleFunctions' ShiftLoopNest), and g's store is at
// the fused variable minus 2. Written for Augur's tests.
#include "Halide.h"

namespace {

using namespace Halide;

class ComputeWithAlign : public Generator<ComputeWithAlign> {
public:
    Input<Buffer<int32_t>> in{"in", 1};
    Output<Buffer<int32_t>> out{"out", 1};

    void generate() {
        f(x) = in(x) + 1;
        g(x) = in(x) * 2;
        out(x) = f(x + 1) + g(x - 1);
    }

    void schedule() {
        f.compute_root();
        g.compute_root().compute_with(f, x, {{x, LoopAlignStrategy::AlignStart}});
    }

private:
    Var x{"x"};
    Func f{"f"}, g{"g"};
};

}  // namespace

HALIDE_REGISTER_GENERATOR(ComputeWithAlign, compute_with_align)
