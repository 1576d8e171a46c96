// The fuzz case frontend/halide/fuzz/testdata/nowrong/fold-factor-too-small.case
// (augur fuzz-halide, seed 3002, case 79), written as a generator: f2 is
// stored at the root, folded by 2 rows and computed at f3's x, and its
// update's y is split by 8 (a round-up split: 8 rows per iteration).
// Halide's storage-folding check (halide_error_fold_factor_too_small)
// stops its compiled code at every output row; the translation leaves
// the check out, and the kernel clobbers live rows of the fold: the
// validation finds the kernel INVALID, and augur halide --validate, whose
// confirmation sees Halide's code stop at the check, answers UNKNOWN
// (docs/halide.md, "Confirming an INVALID on Halide's code").
#include "Halide.h"

using namespace Halide;

class FoldFactorTooSmall : public Generator<FoldFactorTooSmall> {
public:
    Input<Buffer<int32_t>> in0{"in0", 2};
    Output<Buffer<int32_t>> f3{"f3", 2};

    void generate() {
        f1(x, y) = max(in0(x * 2 + 1, y + 2), 3 * in0(x * 2, y + 1));
        f2(x, y) = max(2 * f1(x + 1, y - 1), in0(x + 2, y - 1)) + f1(x + 2, y);
        f2(x, y) = f2(x, y) + in0(x + r.x, y + 1);
        f3(x, y) = f2(x * 2 + 1, y);
    }

    void schedule() {
        f3.vectorize(x, 8);
        f2.compute_at(f3, x).store_root().fold_storage(y, 2).reorder(y, x).unroll(y, 4).parallel(x);
        f2.update(0).split(y, yo, yi, 8, TailStrategy::Auto).reorder(r.x, x, yo, yi).fuse(yo, yi, fu);
    }

private:
    Var x{"x"}, y{"y"}, yo{"yo"}, yi{"yi"}, fu{"fu"};
    RDom r{-1, 3, "r"};
    Func f1{"f1"}, f2{"f2"};
};

HALIDE_REGISTER_GENERATOR(FoldFactorTooSmall, fold_factor_too_small)
