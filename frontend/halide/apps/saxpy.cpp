// saxpy: result = a * x + y over float vectors (level 1 BLAS). It follows
// the float instance of AXPYGenerator in Halide's apps/linear_algebra
// (src/blas_l1_generators.cpp at tag v14.0.0): its algorithm and its
// schedule. Adapted: a plain class for float instead of the template over
// the element type; the algorithm in generate() and the schedule in
// schedule(); the app's C assert that the target has no_bounds_query is
// left out (the feature does not change the loop nest); its unused
// block_size GeneratorParam is dropped.
//
// The result has no pure value (undef): two updates write it, one over
// the RDom of whole vectors (vectorised) and one over the tail, each
// moving the result's only dimension with its RVar.
#include "Halide.h"

namespace {

using namespace Halide;

class Saxpy : public Generator<Saxpy> {
public:
    // Vectorise the updates over whole vectors.
    GeneratorParam<bool> vectorize_{"vectorize", true};
    // result = a * x (+ y with add_to_y); without scale_x, result = x.
    GeneratorParam<bool> scale_x_{"scale_x", true};
    GeneratorParam<bool> add_to_y_{"add_to_y", true};

    Input<float> a_{"a", 1};
    Input<Buffer<float, 1>> x_{"x"};
    Input<Buffer<float, 1>> y_{"y"};
    Output<Buffer<float, 1>> result_{"result"};

    void generate() {
        vec_size = vectorize_ ? natural_vector_size<float>() : 1;
        Expr size = x_.width();
        Expr size_vecs = (size / vec_size) * vec_size;
        Expr size_tail = size - size_vecs;

        vecs = RDom(0, size_vecs, "vec");
        RDom tail(size_vecs, size_tail, "tail");
        result_(i) = undef<float>();
        result_(vecs) = calc(vecs);
        result_(tail) = calc(tail);
    }

    void schedule() {
        if (vectorize_) {
            result_.update().vectorize(vecs, vec_size);
        }
        result_.update(1).unscheduled();  // the tail is not vectorised

        result_.bound(i, 0, x_.width());
        result_.dim(0).set_bounds(0, x_.width());

        x_.dim(0).set_min(0);
        y_.dim(0).set_bounds(0, x_.width());
    }

private:
    Var i{"i"};
    RDom vecs;
    int vec_size = 1;

    Expr calc(Expr i) {
        if (scale_x_ && add_to_y_) {
            return a_ * x_(i) + y_(i);
        } else if (scale_x_) {
            return a_ * x_(i);
        }
        return x_(i);
    }
};

}  // namespace

HALIDE_REGISTER_GENERATOR(Saxpy, saxpy)
