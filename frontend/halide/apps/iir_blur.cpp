// iir_blur: a first-order low-pass IIR filter run down the columns of a
// float image and back up, then transposed, twice (the second pass blurs
// the rows of the original). It follows Halide's apps/iir_blur
// (iir_blur_generator.cpp at tag v14.0.0): its algorithm and its CPU
// schedule. Adapted: the helper that builds one pass returns its funcs
// instead of scheduling them, so that the algorithm is in generate() and
// the schedule in schedule(); the GPU schedules and the autoscheduler's
// estimates are left out; the output's bounds are pinned to the input's
// (see generate()).
//
// Each pass is a scan: an update that reads the row it wrote one
// iteration before (blur(x, ry, c) reads blur(x, ry - 1, c)).
#include "Halide.h"

namespace {

using namespace Halide;

class IirBlur : public Generator<IirBlur> {
public:
    Input<Buffer<float, 3>> input{"input"};
    // The weight of the input in the filter.
    Input<float> alpha{"alpha"};
    Output<Buffer<float, 3>> output{"output"};

    void generate() {
        Func in("in");
        in(x, y, c) = input(x, y, c);
        pass(in, input.height(), 0);
        pass(transpose[0], input.width(), 1);
        output(x, y, c) = transpose[1](x, y, c);

        // The passes start at row 0 and end at the last row of the input,
        // and nothing is written outside: an output larger than the input
        // would read cells no definition writes (undef). The app only runs
        // with an output of the input's size; these constraints say so.
        input.dim(0).set_min(0);
        input.dim(1).set_min(0);
        output.dim(0).set_bounds(0, input.width());
        output.dim(1).set_bounds(0, input.height());
    }

    void schedule() {
        const int vec = natural_vector_size<float>();
        for (int i = 0; i < 2; i++) {
            Func t = i == 1 ? Func(output) : transpose[i];
            Var xo, yo;
            t.compute_root()
                .tile(x, y, xo, yo, x, y, vec, vec * 4)
                .vectorize(x)
                .parallel(yo)
                .parallel(c);
            blur[i].compute_at(t, yo);
            blur[i].update(1).reorder(x, ry[i]).vectorize(x);
            blur[i].update(2).reorder(x, ry[i]).vectorize(x);
        }
    }

private:
    Var x{"x"}, y{"y"}, c{"c"};
    Func blur[2] = {Func("blur"), Func("blur")};
    Func transpose[2] = {Func("transpose"), Func("transpose")};
    RDom ry[2];

    // pass blurs the columns of input (of the given height) down and up,
    // then transposes the result.
    void pass(Func input, Expr height, int i) {
        Func &b = blur[i];
        // Pure definition: nothing.
        b(x, y, c) = undef<float>();
        // Update 0: the top row is the input's.
        b(x, 0, c) = input(x, 0, c);
        // Update 1: down the columns.
        ry[i] = RDom(1, height - 1, "ry");
        RDom r = ry[i];
        b(x, r, c) = (1 - alpha) * b(x, r - 1, c) + alpha * input(x, r, c);
        // Update 2: back up the columns.
        Expr flip = height - r - 1;
        b(x, flip, c) = (1 - alpha) * b(x, flip + 1, c) + alpha * b(x, flip, c);
        transpose[i](x, y, c) = b(y, x, c);
    }
};

}  // namespace

HALIDE_REGISTER_GENERATOR(IirBlur, iir_blur)
