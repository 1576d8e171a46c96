// Halide issue 8149 (https://github.com/halide/Halide/issues/8149), fixed
// by pull request 8152, "Fix two compute_with bugs": the second bug, the
// loops of a compute_with group not widened to the region its other
// members compute. Adapted from overlapping_updates_test, added to
// test/correctness/compute_with.cpp on Halide's main branch by that pull
// request: the two outputs have different extents here instead of
// different mins, which Halide's JIT sample can realize.
//
// With buggy=true g's update is computed with f's over x: the fused loop
// runs over f's region only. Halide 14's JIT, realizing f over 10 and g
// over 12: g(10) = 0 where 10 is right (g(11) as well).
//
// With buggy=false, the neighbour Halide 14 compiles right: g's pure
// definition computed with f's (Halide 14 widens the loops of pure
// definitions fused this way).
#include "Halide.h"

namespace {

using namespace Halide;

class Issue8149 : public Generator<Issue8149> {
public:
    GeneratorParam<bool> buggy{"buggy", true};

    Output<Buffer<int32_t>> f{"f", 1};
    Output<Buffer<int32_t>> g{"g", 1};

    void generate() {
        f(x) = 0;
        f(x) += x;
        g(x) = 0;
        g(x) += x;
    }

    void schedule() {
        if (buggy) {
            g.update().compute_with(f.update(), x);
        } else {
            g.compute_with(f, x);
        }
    }

private:
    Var x{"x"};
};

}  // namespace

HALIDE_REGISTER_GENERATOR(Issue8149, issue8149)
