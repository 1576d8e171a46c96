// taps: a sum over taps whose count Halide computes from a float
// parameter, int32(ceil(2 / scale)), as apps/resize computes the number
// of its kernel's taps from its scale factor: the count is an integer
// parameter of both sides computed from scale (docs/halide.md, "Integers
// computed from float parameters").
#include "Halide.h"

using namespace Halide;

class Taps : public Generator<Taps> {
public:
    Input<Buffer<float, 1>> input{"input"};
    Input<float> scale{"scale"};
    Output<Buffer<float, 1>> output{"output"};

    void generate() {
        Var x("x");
        Func clamped = BoundaryConditions::repeat_edge(input);
        Expr taps = cast<int>(ceil(2.0f / scale));
        RDom r(0, taps, "r");
        Func acc("acc");
        acc(x) = 0.0f;
        acc(x) += clamped(x + r);
        output(x) = acc(x);
        acc.compute_at(output, x);
    }
};

HALIDE_REGISTER_GENERATOR(Taps, taps)
