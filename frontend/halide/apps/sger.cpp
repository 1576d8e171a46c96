// sger: the single-precision rank-1 update of level 2 BLAS, in place on
// the output, result = result + a * x y^T, with result column-major
// (dimension 0 the row index). It follows the float instance of
// GERGenerator in Halide's apps/linear_algebra, src/blas_l2_generators.cpp
// at tag v14.0.0: its algorithm (a pure definition undef(), so that the
// update starts from the output buffer's contents) and its schedule (the
// update vectorised over rows in vectors of 4 x the natural width and
// parallel over columns in strips of 8, both guarded). Adapted: a plain
// class for float instead of the template over the element type; the
// algorithm in generate() and the schedule in schedule(); the unused
// `block_size` GeneratorParam is dropped.
#include "Halide.h"

namespace {

using namespace Halide;

class Sger : public Generator<Sger> {
public:
    // Vectorise the update over rows (4 x the natural vector width).
    GeneratorParam<bool> vectorize_{"vectorize", true};
    // Run the update's columns in parallel strips of 8.
    GeneratorParam<bool> parallel_{"parallel", true};

    Input<float> a_{"a", 1};
    Input<Buffer<float, 1>> x_{"x"};
    Input<Buffer<float, 1>> y_{"y"};

    Output<Buffer<float, 2>> result_{"result"};

    void generate() {
        result_(i, j) = undef<float>();  // in-place operation on the output
        result_(i, j) += (a_ * y_(j)) * x_(i);
    }

    void schedule() {
        const int vec_size = vectorize_ ? natural_vector_size(Float(32)) : 1;
        if (vectorize_) {
            result_.update().vectorize(i, vec_size * 4, TailStrategy::GuardWithIf);
        }
        if (parallel_) {
            result_.update().parallel(j, 8, TailStrategy::GuardWithIf);
        }
        x_.dim(0).set_min(0);
        y_.dim(0).set_min(0);
        result_.dim(0).set_bounds(0, x_.dim(0).extent());
        result_.dim(1).set_bounds(0, y_.dim(0).extent());
    }

private:
    Var i{"i"}, j{"j"};
};

}  // namespace

HALIDE_REGISTER_GENERATOR(Sger, sger)
