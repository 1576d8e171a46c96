// A first-order recurrence down the columns, then back up:
// f(x, y) = f(x, y - 1) * a + in(x, y) over an RDom on the rows, then
// f(x, H - 1 - r) = f(x, H - r) * a + f(x, H - 1 - r). Both updates move
// the pure dimension y with their RDom (scans). The pure definition is
// the input; the output's rows are the input's.
#include "Halide.h"

namespace {

using namespace Halide;

class ScanRows : public Generator<ScanRows> {
public:
    Input<Buffer<float, 2>> in{"in"};
    Input<float> a{"a"};
    Output<Buffer<float, 2>> out{"out"};

    void generate() {
        Expr h = in.height();
        r = RDom(1, h - 1, "r");
        f(x, y) = in(x, y);
        f(x, r) = f(x, r - 1) * a + in(x, r);
        Expr up = h - 1 - r;
        f(x, up) = f(x, up + 1) * a + f(x, up);
        out(x, y) = f(x, y);
        in.dim(1).set_min(0);
        out.dim(1).set_bounds(0, h);
    }

    void schedule() {
        f.compute_root().vectorize(x, 8);
        f.update(0).reorder(x, r).vectorize(x, 8, TailStrategy::GuardWithIf);
        f.update(1).reorder(x, r).vectorize(x, 8, TailStrategy::GuardWithIf);
    }

private:
    Var x{"x"}, y{"y"};
    Func f{"f"};
    RDom r;
};

}  // namespace

HALIDE_REGISTER_GENERATOR(ScanRows, scan_rows)
