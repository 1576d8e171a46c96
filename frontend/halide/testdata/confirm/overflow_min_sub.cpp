// The fuzz case frontend/halide/fuzz/testdata/nowrong/overflow-min-sub.case
// (augur fuzz-halide, seed 4004, case 821), written as a generator.
// Halide's simplifier computes f1 = min(a, b) - b as min(a - b, 0), whose
// subtraction overflows int32 where a exceeds b by more than 2^31 - 1 and
// the algorithm's value is 0: the kernel wraps there, and the validation
// finds it INVALID. Signed 32-bit overflow is undefined in Halide, and
// with the kernel's overflow unconstrained the counterexample's replay
// passes: augur halide --validate answers UNKNOWN (docs/halide.md,
// "Confirming an INVALID on Halide's code").
#include "Halide.h"

using namespace Halide;

class OverflowMinSub : public Generator<OverflowMinSub> {
public:
    Input<Buffer<int32_t>> in0{"in0", 2};
    Output<Buffer<int32_t>> f2{"f2", 2};

    void generate() {
        f1(x, y) = min(in0(x - 1, y), in0(x + 2, y + 1)) - in0(x + 2, y + 1);
        f2(x, y) = min(3 * f1(x * 2 + 1, y + 2), in0(x + 1, y + 1)) + 3 * f1(x - 2, y + 1);
    }

    void schedule() {
        f2.vectorize(x, 2);
        f1.compute_at(f2, x).store_root().fold_storage(y, 8).reorder(y, x);
    }

private:
    Var x{"x"}, y{"y"};
    Func f1{"f1"};
};

HALIDE_REGISTER_GENERATOR(OverflowMinSub, overflow_min_sub)
