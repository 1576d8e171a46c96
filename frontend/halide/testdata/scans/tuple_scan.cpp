// Scans of tuples: a complex first-order recurrence down the columns,
// f(x, y) = f(x, y - 1) * (a + b i) + f(x, y), then back up with the
// elements swapped; and a func whose pure definition is undef(), written
// at constant rows by updates that read each other's cells, as the
// small DFTs of Halide's apps/fft do. Written for Augur's tests.
#include "Halide.h"

namespace {

using namespace Halide;

class TupleScan : public Generator<TupleScan> {
public:
    Input<Buffer<float, 2>> re{"re"};
    Input<Buffer<float, 2>> im{"im"};
    Input<float> a{"a"};
    Input<float> b{"b"};
    Output<Buffer<>> out{"out", {Float(32), Float(32)}, 2};
    Output<Buffer<float, 2>> dft{"dft"};

    void generate() {
        Expr h = re.height();
        r = RDom(1, h - 1, "r");
        f(x, y) = Tuple(re(x, y), im(x, y));
        Expr pr = f(x, r - 1)[0], pi = f(x, r - 1)[1];
        f(x, r) = Tuple(pr * a - pi * b + f(x, r)[0], pr * b + pi * a + f(x, r)[1]);
        Expr up = h - 1 - r;
        f(x, up) = Tuple(f(x, up + 1)[1] + f(x, up)[0], f(x, up)[1] - f(x, up + 1)[0]);
        out(x, y) = f(x, y);

        g(x, c) = Tuple(undef<float>(), undef<float>());
        g(x, 0) = Tuple(re(x, 0) + re(x, 1), im(x, 0) + im(x, 1));
        g(x, 1) = Tuple(re(x, 0) - re(x, 1), im(x, 0) - im(x, 1));
        g(x, -1) = Tuple(g(x, 0)[1] * a, g(x, 1)[0] * b);
        g(x, 0) = Tuple(g(x, 0)[0] - g(x, -1)[0], g(x, 0)[1] + g(x, -1)[1]);
        dft(x, c) = g(x, c)[0] - g(x, c)[1];

        re.dim(1).set_min(0);
        im.dim(1).set_min(0);
        dft.dim(1).set_bounds(0, 2);
    }

    void schedule() {
        f.compute_root().vectorize(x, 8);
        f.update(0).reorder(x, r).vectorize(x, 8, TailStrategy::GuardWithIf);
        f.update(1).reorder(x, r).vectorize(x, 8, TailStrategy::GuardWithIf);
        g.compute_at(dft, x);
    }

private:
    Var x{"x"}, y{"y"}, c{"c"};
    Func f{"f"}, g{"g"};
    RDom r;
};

}  // namespace

HALIDE_REGISTER_GENERATOR(TupleScan, tuple_scan)
