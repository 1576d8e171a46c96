// doubling: shifts by variable amounts in index expressions. f is
// max_filter's vert_log (Halide's apps/max_filter) in one dimension: a
// scan along the slice dimension t whose slice t is the maximum over a
// window twice as long as slice t - 1's, read 1 << (t - 1) cells to the
// right; g sums the input at 1 << q cells to the right for q in [0, 3);
// out reads the last slice and adds 1 << clamp(c(x), 0, 3), a shift by a
// data-dependent amount.
#include "Halide.h"

using namespace Halide;

class Doubling : public Generator<Doubling> {
public:
    Input<Buffer<int32_t, 1>> in{"in"};
    Output<Buffer<int32_t, 1>> out{"out"};

    void generate() {
        Var x("x"), t("t");
        Func c("c"), f("f"), g("g");
        c(x) = in(clamp(x, 0, in.width() - 1));
        f(x, t) = c(x);
        RDom r(0, in.width(), 1, 2);
        f(r.x, r.y) = max(f(r.x, r.y - 1), f(r.x + clamp(1 << (r.y - 1), 0, 2), r.y - 1));
        g(x) = 0;
        RDom q(0, 3);
        g(x) += c(x + clamp(1 << q, 0, 4));
        out(x) = f(x, 2) + g(x) + (1 << clamp(c(x), 0, 3));

        f.compute_root();
        g.compute_root();
    }
};

HALIDE_REGISTER_GENERATOR(Doubling, doubling)
