// sdot_rfactor: the float dot product of sdot.cpp, scheduled with rfactor:
// the reduction split by 8, its inner loop factored out into eight partial
// sums computed in parallel, then merged (Halide's tutorial lesson 18).
#include "Halide.h"

namespace {

using namespace Halide;

class SdotRfactor : public Generator<SdotRfactor> {
public:
    Input<Buffer<float>> x_{"x", 1};
    Input<Buffer<float>> y_{"y", 1};
    Output<Buffer<float>> result{"result", 0};

    void generate() {
        k = RDom(0, x_.dim(0).extent(), "k");
        result() = 0.0f;
        result() += x_(k) * y_(k);
    }

    void schedule() {
        RVar ko("ko"), ki("ki");
        Var u("u");
        Func intm = result.update(0).split(k, ko, ki, 8).rfactor(ki, u);
        intm.compute_root();
        intm.update(0).parallel(u);
    }

private:
    RDom k;
};

}  // namespace

HALIDE_REGISTER_GENERATOR(SdotRfactor, sdot_rfactor)
