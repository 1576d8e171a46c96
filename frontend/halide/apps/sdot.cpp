// sdot: the dot product of two float vectors, a reduction over an RDom
// (Halide's apps/linear_algebra, level 1 BLAS).
//
// vectorize=true is the float instance of DotGenerator in Halide's
// apps/linear_algebra (src/blas_l1_generators.cpp at tag v14.0.0), its
// algorithm and its schedule: the products are accumulated in dot over
// whole vectors, one lane per element of dot, then the lanes are summed
// and the tail added. Adapted: a plain class for float instead of the
// template over the element type; the algorithm in generate() and the
// schedule in schedule(); the app's C assert that the target has
// no_bounds_query is left out (the feature does not change the loop
// nest); its unused parallel and block_size GeneratorParams are dropped.
#include "Halide.h"

namespace {

using namespace Halide;

class Sdot : public Generator<Sdot> {
public:
    // The app's vectorised algorithm and schedule (false: one reduction
    // over the whole vectors, the thesis's sdot).
    GeneratorParam<bool> vectorize_{"vectorize", false};

    Input<Buffer<float>> x_{"x", 1};
    Input<Buffer<float>> y_{"y", 1};
    Output<Buffer<float>> result{"result", 0};

    void generate() {
        if (!vectorize_) {
            RDom k(0, x_.dim(0).extent(), "k");
            result() = 0.0f;
            result() += x_(k) * y_(k);
            return;
        }
        const int vec_size = natural_vector_size<float>();
        Expr size = x_.width();
        Expr size_vecs = size / vec_size;
        Expr size_tail = size - size_vecs * vec_size;

        RDom k(0, size_vecs);
        dot(i) += x_(k * vec_size + i) * y_(k * vec_size + i);

        RDom lanes(0, vec_size);
        RDom tail(size_vecs * vec_size, size_tail);
        result() = sum(dot(lanes));
        result() += sum(x_(tail) * y_(tail));

        x_.dim(0).set_bounds(0, size);
        y_.dim(0).set_bounds(0, size);
    }

    void schedule() {
        if (vectorize_) {
            dot.compute_root().vectorize(i);
            dot.update(0).vectorize(i);
        }
    }

private:
    Var i{"i"};
    Func dot{"dot"};
};

}  // namespace

HALIDE_REGISTER_GENERATOR(Sdot, sdot)
