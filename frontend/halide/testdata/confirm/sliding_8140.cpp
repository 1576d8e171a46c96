// Halide issue 8140, "Sliding window by backing up the loop min is busted"
// (https://github.com/halide/Halide/issues/8140): the smallest failure case
// of the issue, written as a generator. Changed from the issue: the
// ImageParam is an Input buffer, the funcs f[0], f[1], f[2] are named f0,
// f1 and the output f2, and never_partition_all() (not in Halide 14) is
// dropped; it only acts after the captured statement. Every output loop
// has one iteration; sliding window backs up the loops yo, yi and x, and
// f1, stored at the root, is read at a row its producer never computed.
// Stock Halide 14 computes a wrong value for the single output cell: with
// the input 70, the algorithm gives 188, and Halide's compiled code adds
// whatever the never-written cell of f1 holds (73 and 254 when its memory
// is poisoned with 0xA5 and 0x5A; docs/halide.md, "Confirming an INVALID
// on Halide's code").
#include "Halide.h"

using namespace Halide;

class Sliding8140 : public Generator<Sliding8140> {
public:
    Input<Buffer<uint8_t>> input{"input", 2};
    Output<Buffer<uint8_t>> f2{"f2", 2};

    void generate() {
        f0 = BoundaryConditions::repeat_edge(input);
        f1(x, y) = (f0(x + 1, y + 1) + f0(x - 1, y - 1)) * 2;
        f2(x, y) = (f0(x + 1, y + 1) + f0(x - 1, y - 1)) + (f1(x + 1, y + 1) + f1(x - 1, y - 1));
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

HALIDE_REGISTER_GENERATOR(Sliding8140, sliding_8140)
