// Halide pull request 7952, "Add missing condition to if renesting rule"
// (https://github.com/halide/Halide/pull/7952; src/Simplify_Stmts.cpp).
// No issue: the pull request says the rule "triggered in practice on some
// oddly-structured code" and tests the simplifier on statements alone.
// This generator builds such a statement from a schedule: two stages of one
// Func specialized on exclusive conditions.
//
// The simplifier rewrites two consecutive ifs whose conditions cannot both
// hold, `if (a) A else B; if (b) C else D`, into `if (a) A else { B; if (b)
// C else D }`: when a holds, D, the second if's else branch, is dropped.
// With buggy=true f's pure definition is specialized on p > 0 and its
// update on p <= 0 (each specialization vectorized, the other branch
// scalar): when p > 0 the update, the else branch of the second if, never
// runs. Halide 14's JIT, realizing f over 16 with p = 1: f(0) = input(0)
// where input(0) + 1 is right (every value wrong).
//
// With buggy=false, the neighbour Halide 14 compiles right: the pure
// definition not specialized (one if, nothing to renest).
#include "Halide.h"

namespace {

using namespace Halide;

class PR7952 : public Generator<PR7952> {
public:
    GeneratorParam<bool> buggy{"buggy", true};

    Input<Buffer<uint8_t>> input{"input", 1};
    Input<int32_t> p{"p"};
    Output<Buffer<int32_t>> f{"f", 1};

    void generate() {
        f(x) = cast<int32_t>(input(x));
        f(x) += 1;
    }

    void schedule() {
        if (buggy) {
            f.specialize(p > 0).vectorize(x, 4);
        }
        f.update(0).specialize(p <= 0).vectorize(x, 4);
    }

private:
    Var x{"x"};
};

}  // namespace

HALIDE_REGISTER_GENERATOR(PR7952, pr7952)
