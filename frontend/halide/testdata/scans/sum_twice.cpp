// A 0-d func of two definitions without RVars: result() = sum(in(r)),
// then result() += sum(2 * in(t)) over the tail t. Its two stores have
// no coordinate to tell their stages apart; their order in the produce
// node does.
#include "Halide.h"

namespace {

using namespace Halide;

class SumTwice : public Generator<SumTwice> {
public:
    Input<Buffer<int32_t, 1>> in{"in"};
    Output<Buffer<int32_t, 0>> result{"result"};

    void generate() {
        Expr half = in.width() / 2;
        RDom r(0, half, "r"), t(half, in.width() - half, "t");
        result() = sum(in(r));
        result() += sum(2 * in(t));
        in.dim(0).set_min(0);
    }

    void schedule() {
    }
};

}  // namespace

HALIDE_REGISTER_GENERATOR(SumTwice, sum_twice)
