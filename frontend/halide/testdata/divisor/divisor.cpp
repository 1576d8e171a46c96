// divisor: reads a func at x / p, p the extent of an input (as
// apps/depthwise_separable_conv reads its padded input at d / multiplier,
// the multiplier the depthwise filter's extent): the specification reads
// at a data-dependent index, the quotient computed as Halide computes it;
// the kernel's loop bounds and realized region of the func, Halide's
// bounds of the quotient over a tile, divide by the parameter too
// (docs/halide.md, "Quotients by a parameter").
#include "Halide.h"

using namespace Halide;

class Divisor : public Generator<Divisor> {
public:
    Input<Buffer<int32_t, 1>> table{"table"};
    Input<Buffer<int32_t, 1>> group{"group"};
    Output<Buffer<int32_t, 1>> output{"output"};

    void generate() {
        Var x("x"), xo("xo"), xi("xi");
        Expr p = group.dim(0).extent();
        scaled(x) = table(x) * 3 + 1;
        output(x) = scaled(x / p) + group(x % p);
        output.split(x, xo, xi, 8, TailStrategy::GuardWithIf);
        scaled.compute_at(output, xo);
    }

private:
    Func scaled{"scaled"};
};

HALIDE_REGISTER_GENERATOR(Divisor, divisor)
