// Funcs of several values (tuples): Halide's inline argmin and argmax,
// whose updates read both elements' previous values; a tuple whose update
// swaps its elements (each new value reads the other's old one) and whose
// second update leaves one element undefined (it keeps its value); and a
// tuple output; and argmin over floats, which starts from infinity. The
// schedule computes them per vector, vectorised.
#include "Halide.h"

namespace {

using namespace Halide;

class Tuples : public Generator<Tuples> {
public:
    Input<Buffer<int32_t, 2>> in{"in"};
    Input<Buffer<float, 2>> fin{"fin"};
    Output<Buffer<int32_t, 1>> arg{"arg"};
    Output<Buffer<>> extreme{"extreme", {Int(32), Int(32)}, 1};
    Output<Buffer<int32_t, 1>> swapped{"swapped"};
    Output<Buffer<int32_t, 1>> fargmin{"fargmin"};

    void generate() {
        RDom r(0, in.dim(1).extent());
        Tuple m = argmin(r, in(x, r), am);
        arg(x) = m[0] * 1000 + m[1] % 1000;
        extreme(x) = argmax(r, in(x, r) / 3);
        sw(x) = Tuple(in(x, 0), in(x, 1));
        sw(x) = Tuple(sw(x)[1], sw(x)[0] * 2);
        sw(x) = Tuple(sw(x)[0] + sw(x)[1], undef<int32_t>());
        swapped(x) = sw(x)[0] - sw(x)[1];
        RDom rf(0, fin.dim(1).extent());
        fargmin(x) = argmin(rf, fin(x, rf))[0];
    }

    void schedule() {
        arg.split(x, xo, xi, 8, TailStrategy::GuardWithIf).vectorize(xi);
        am.compute_at(arg, xo).vectorize(x, 8, TailStrategy::GuardWithIf);
        am.update().vectorize(x, 8, TailStrategy::GuardWithIf);
        extreme.vectorize(x, 4, TailStrategy::GuardWithIf);
        swapped.vectorize(x, 4, TailStrategy::GuardWithIf);
        sw.compute_at(swapped, x);
    }

private:
    Var x{"x"}, xo{"xo"}, xi{"xi"};
    Func am{"am"}, sw{"sw"};
};

}  // namespace

HALIDE_REGISTER_GENERATOR(Tuples, tuples)
