// sasum: the sum of the absolute values of a float vector (level 1
// BLAS). It follows the float instance of AbsSumGenerator in Halide's
// apps/linear_algebra (src/blas_l1_generators.cpp at tag v14.0.0): its
// algorithm and its schedule. Adapted: a plain class for float instead of
// the template over the element type; the algorithm in generate() and the
// schedule in schedule(); the app's C assert that the target has
// no_bounds_query is left out (the feature does not change the loop
// nest); its unused parallel and block_size GeneratorParams are dropped.
//
// Vectorised, the sums of the lanes are accumulated in norm over whole
// vectors, then summed, then the tail is added: result() is a 0-d func
// of two definitions (sum(...) makes two more funcs, sum and sum$1, each
// a 0-d func with an update over an RDom).
#include "Halide.h"

namespace {

using namespace Halide;

class Sasum : public Generator<Sasum> {
public:
    // Accumulate vectors of lanes, then sum the lanes and the tail.
    GeneratorParam<bool> vectorize_{"vectorize", true};

    Input<Buffer<float, 1>> x_{"x"};
    Output<Buffer<float, 0>> result_{"result"};

    void generate() {
        const int vec_size = vectorize_ ? natural_vector_size<float>() : 1;
        Expr size = x_.width();
        Expr size_vecs = size / vec_size;
        Expr size_tail = size - size_vecs * vec_size;

        if (vectorize_) {
            RDom k(0, size_vecs);
            norm(i) += abs(x_(k * vec_size + i));

            RDom lanes(0, vec_size);
            RDom tail(size_vecs * vec_size, size_tail);
            result_() = sum(norm(lanes));
            result_() += sum(abs(x_(tail)));
        } else {
            RDom k(0, x_.width());
            result_() = sum(abs(x_(k)));
        }
    }

    void schedule() {
        if (vectorize_) {
            norm.compute_root().vectorize(i);
            norm.update(0).vectorize(i);
        }
        x_.dim(0).set_min(0);
    }

private:
    Var i{"i"};
    Func norm{"norm"};
};

}  // namespace

HALIDE_REGISTER_GENERATOR(Sasum, sasum)
