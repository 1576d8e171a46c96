// A diagonal stencil over a stencil, on a 1x1 output, whose schedule
// stock Halide 14 miscompiles: the sliding window backs up the loops
// over the output's rows and columns to warm up f0 and f1, and f1, stored
// at the root and computed per pixel, is read at a row it never computed.
// The algorithm and schedule are those of the report of Halide's issue
// 8140, "Sliding window by backing up the loop min is busted"
// (https://github.com/halide/Halide/issues/8140), made a Generator;
// never_partition_all(), which Halide 14 does not have, is left out.
#include "Halide.h"
#include "stencil.h"

namespace {

using namespace Halide;

class Diagonal : public Generator<Diagonal> {
public:
    Input<Buffer<uint8_t>> input{"input", 2};
    Output<Buffer<uint8_t>> f2{"f2", 2};

    void generate() {
        f0 = BoundaryConditions::repeat_edge(input);
        f1(x, y) = filters::diagonal_pair(f0, x, y) * 2;
        f2(x, y) = filters::diagonal_pair(f0, x, y) + filters::diagonal_pair(f1, x, y);
    }

    void schedule() {
        f2.bound(x, 0, 1).bound(y, 0, 1).split(y, yo, yi, 1, TailStrategy::RoundUp);
        f0.store_at(f2, yo).compute_at(f2, x);
        f1.store_root().compute_at(f2, x);
    }

private:
    Var x{"x"}, y{"y"}, yo{"yo"}, yi{"yi"};
    Func f0{"f0"}, f1{"f1"};
};

}  // namespace

HALIDE_REGISTER_GENERATOR(Diagonal, diagonal)
