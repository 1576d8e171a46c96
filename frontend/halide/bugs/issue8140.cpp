// Halide issue 8140, "Sliding window by backing up the loop min is busted"
// (https://github.com/halide/Halide/issues/8140, open): the pipeline of
// the issue, five stencils of up- and downsampling over a repeat_edge
// boundary condition, the first four stored at the root and computed per
// row of the last.
//
// With buggy=false every stage is computed at the root instead.
#include "Halide.h"

namespace {

using namespace Halide;

class Issue8140 : public Generator<Issue8140> {
public:
    GeneratorParam<bool> buggy{"buggy", true};

    Input<Buffer<uint8_t>> input{"input", 2};
    Output<Buffer<uint8_t>> out{"out", 2};

    void generate() {
        f[0](x, y) = BoundaryConditions::repeat_edge(input)(x, y);
        f[1](x, y) = ((f[0]((x / 2) + 2, (y / 2) + 1) + f[0](x / 2, (y / 2) + 2)) + (f[0](x * 2, y * 2) + f[0]((x * 2) + -1, y * 2)));
        f[2](x, y) = ((f[0](x + 1, y + 2) + f[0](x + 1, y + 1)) + (f[1]((x / 2) + -2, (y / 2) + -1) + f[1](x / 2, (y / 2) + -2)));
        f[3](x, y) = ((f[1](x + -1, y + 2) + f[1](x + 1, y + -1)) + (f[1](x / 2, y / 2) + f[1]((x / 2) + -1, (y / 2) + -2)));
        out(x, y) = ((f[3]((x * 2) + 1, y * 2) + f[3]((x * 2) + -2, (y * 2) + 2)) + (f[2](x / 2, y / 2) + f[2]((x / 2) + 1, (y / 2) + 1)));
    }

    void schedule() {
        for (int i = 0; i < 4; i++) {
            if (buggy) {
                f[i].store_root().compute_at(out, y);
            } else {
                f[i].compute_root();
            }
        }
    }

private:
    Var x{"x"}, y{"y"};
    Func f[4] = {Func("f0"), Func("f1"), Func("f2"), Func("f3")};
};

}  // namespace

HALIDE_REGISTER_GENERATOR(Issue8140, issue8140)
