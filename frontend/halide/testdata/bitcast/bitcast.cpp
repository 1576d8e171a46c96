// bitcast: Halide's reinterpret in both directions, vectorised: the sign
// and fraction of in(x) (its bits as uint32, masked) get the exponent
// clamp(k(x), 1, 200) shifted into place, and the float with those bits is
// scaled by 2^(k(x) mod 8), built from its bits the way fast_exp builds
// 2^n (nl_means's weights).
#include "Halide.h"

namespace {

using namespace Halide;

class Bitcast : public Generator<Bitcast> {
public:
    Input<Buffer<float>> in{"in", 1};
    Input<Buffer<int32_t>> k{"k", 1};
    Output<Buffer<float>> out{"out", 1};

    void generate() {
        Expr bits = reinterpret<uint32_t>(in(x)) & Expr((uint32_t)0x807fffffu);
        Expr exponent = cast<uint32_t>(clamp(k(x), 1, 200)) << 23;
        Expr two_to_the_n = reinterpret<float>(((k(x) & 7) + 127) << 23);
        out(x) = reinterpret<float>(bits | exponent) * two_to_the_n;
    }

    void schedule() {
        out.vectorize(x, 8);
    }

private:
    Var x{"x"};
};

}  // namespace

HALIDE_REGISTER_GENERATOR(Bitcast, bitcast)
