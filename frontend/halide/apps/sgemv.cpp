// sgemv: the single-precision matrix-vector product of level 2 BLAS,
// output = a * (A x) + b * y, with A column-major (dimension 0 the row
// index) or, with transpose=true, output = a * (A^T x) + b * y. It follows
// the float instance of GEMVGenerator in Halide's apps/linear_algebra
// (src/blas_l2_generators.cpp of release 14): its algorithm, its
// specialisations and its schedule. Adapted: a plain class for float
// instead of the template over the element type; the algorithm in
// generate() and the schedule in schedule(); the app's C assert that the
// target has no_asserts and no_bounds_query is left out (those target
// features do not change the loop nest); its unused `parallel`
// GeneratorParam is dropped.
//
// Without transpose, the product is accumulated per vector of 8 rows over
// the columns in steps of 4 (unrolled), then over the last columns; with
// transpose, per row of A^T over vectors of 8 columns, the 8 lanes summed
// afterwards. The vectorised result stages are computed in vectors past
// the end of a row count that is not a multiple of 4 or 8 inside the
// specialisations' strips, from cells that were never written (garbage
// writes, docs/validate.md).
#include "Halide.h"

namespace {

using namespace Halide;

class Sgemv : public Generator<Sgemv> {
public:
    // The rows of A per parallel task of the large-size specialisation.
    GeneratorParam<int> block_size{"block_size", 1 << 8};
    // Compute a * (A^T x) + b * y instead of a * (A x) + b * y.
    GeneratorParam<bool> transpose{"transpose", false};

    Input<float> a_{"a", 1};
    Input<Buffer<float, 2>> A_{"A"};
    Input<Buffer<float, 1>> x_{"x"};
    Input<float> b_{"b", 1};
    Input<Buffer<float, 1>> y_{"y"};

    Output<Buffer<float, 1>> output_{"output"};

    static constexpr int unroll = 4;
    Var i{"i"}, j{"j"}, ii{"ii"}, t{"t"};
    RVar ki{"ki"};
    Func result{"result"}, prod{"prod"}, accum_vecs{"accum_vecs"}, accum_vecs_transpose{"accum_vecs_transpose"};
    Func sum_lanes{"sum_lanes"}, sum_tail{"sum_tail"}, Ax{"Ax"}, block{"block"};
    RDom k, lanes, tail;

    int vec() { return natural_vector_size<float>(); }

    void generate() {
        if (transpose) {
            Expr sum_size = A_.width();
            Expr sum_size_vecs = sum_size / vec();
            prod(j, i) = A_(j, i) * x_(j);
            k = RDom(0, sum_size_vecs, "k");
            accum_vecs(j, i) += prod(k * vec() + j, i);
            accum_vecs_transpose(i, j) = accum_vecs(j, i);
            lanes = RDom(0, vec());
            sum_lanes(i) += accum_vecs_transpose(i, lanes);
            tail = RDom(sum_size_vecs * vec(), sum_size - sum_size_vecs * vec());
            sum_tail(i) = sum_lanes(i);
            sum_tail(i) += prod(tail, i);
            Ax(i) = sum_tail(i);
            result(i) = b_ * y_(i) + a_ * Ax(i);
            A_.dim(0).set_min(0).dim(1).set_min(0);
            x_.dim(0).set_bounds(0, A_.width());
            y_.dim(0).set_bounds(0, A_.height());
        } else {
            Expr sum_size = A_.height();
            Expr sum_size_cols = (sum_size / unroll) * unroll;
            k = RDom(0, sum_size_cols, "k");
            tail = RDom(sum_size_cols, sum_size - sum_size_cols, "tail");
            block(i) = b_ * y_(i);
            block(i) += a_ * A_(i, k) * x_(k);
            block(i) += a_ * A_(i, tail) * x_(tail);
            result(i) = block(i);
            A_.dim(0).set_min(0).dim(1).set_min(0);
            x_.dim(0).set_bounds(0, A_.height());
            y_.dim(0).set_bounds(0, A_.width());
        }
        output_(i) = result(i);
    }

    void schedule() {
        const int v = vec();
        if (transpose) {
            Expr size = A_.height();
            Expr sum_size = A_.width();
            result.specialize((sum_size / v) * v == sum_size)
                .specialize(size >= unroll)
                .vectorize(i, unroll)
                .specialize(size >= block_size)
                .split(i, t, i, block_size / unroll)
                .parallel(t);
            result.specialize(size >= unroll)
                .vectorize(i, unroll)
                .specialize(size >= block_size)
                .split(i, t, i, block_size / unroll)
                .parallel(t);
            accum_vecs.compute_at(result, i)
                .unroll(i)
                .unroll(j)
                .update()
                .reorder(i, j, k)
                .unroll(i)
                .unroll(j);
            accum_vecs_transpose.compute_at(result, i)
                .unroll(i)
                .unroll(j);
            sum_lanes.compute_at(result, i)
                .update()
                .unroll(lanes);
            sum_tail.compute_at(result, i)
                .update()
                .reorder(i, tail);
            accum_vecs.vectorize(j).update().vectorize(j);
            accum_vecs_transpose.vectorize(j);
            sum_lanes.specialize(size >= v).vectorize(i, v);
            sum_lanes.update().specialize(size >= v).vectorize(i, v);
            sum_tail.specialize(size >= v).vectorize(i, v);
            sum_tail.update().specialize(size >= v).vectorize(i, v);
        } else {
            Expr size = A_.width();
            Expr sum_size = A_.height();
            Expr tail_size = sum_size - (sum_size / unroll) * unroll;
            result.specialize(tail_size == 0)
                .specialize(size >= v)
                .vectorize(i, v)
                .specialize(size >= unroll * v)
                .unroll(i, unroll)
                .specialize(size >= block_size)
                .split(i, i, ii, block_size / (unroll * v))
                .parallel(i);
            result.specialize(size >= v)
                .vectorize(i, v)
                .specialize(size >= unroll * v)
                .unroll(i, unroll)
                .specialize(size >= block_size)
                .split(i, i, ii, block_size / (unroll * v))
                .parallel(i);
            block.compute_at(result, i);
            block.specialize(size >= v).vectorize(i, v);
            block.update()
                .specialize(size >= v && sum_size >= unroll)
                .split(i, i, ii, v)
                .split(k, k, ki, unroll)
                .reorder(ii, ki, i, k)
                .vectorize(ii)
                .unroll(ki);
            block.update().specialize(size >= v).vectorize(i, v);
            block.update(1)
                .reorder(i, tail)
                .specialize(size >= v)
                .vectorize(i, v)
                .specialize(sum_size >= unroll)
                .unroll(i, unroll);
        }
        result.compute_root();
        Expr size = x_.width();
        output_.specialize(size >= v)
            .vectorize(i, v)
            .specialize(size >= unroll * v)
            .unroll(i, unroll)
            .specialize(size >= block_size)
            .split(i, i, ii, block_size / (unroll * v))
            .parallel(i);
    }
};

}  // namespace

HALIDE_REGISTER_GENERATOR(Sgemv, sgemv)
