// hist: a histogram of 16 bins, each input byte's clamped bin
// incremented in turn (Clément 2022, section 9.6.3), the update of the
// histogram writing at a data-dependent index, as Halide's hist app
// builds its histogram; computed at root and copied to the output.
#include "Halide.h"

namespace {

using namespace Halide;

class Hist : public Generator<Hist> {
public:
    Input<Buffer<uint8_t>> in{"in", 1};
    Output<Buffer<int32_t>> out{"out", 1};

    void generate() {
        RDom r(0, in.width(), "r");
        hist(x) = 0;
        hist(clamp(cast<int>(in(r)) / 8, 0, 15)) += 1;
        out(x) = hist(clamp(x, 0, 15)) * 2;
        in.dim(0).set_min(0);
    }

    void schedule() {
        hist.compute_root();
    }

private:
    Var x{"x"};
    Func hist{"hist"};
};

}  // namespace

HALIDE_REGISTER_GENERATOR(Hist, hist)
