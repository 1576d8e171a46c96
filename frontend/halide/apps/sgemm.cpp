// Single-precision general matrix product, result = a * (A B) + b * C, with
// the CPU schedule and size specialisations of Halide's linear_algebra app
// (BLAS level 3). Matrices are column-major: dimension 0 is the row index.
//
// GeneratorParams select the variants of Clément 2022, Table 6.1:
//   sgemm       all defaults (M, N, K free)
//   sgemm1024   size=1024        (M = N = K = 1024, fixed)
//   sqsgemm     square=true      (M = N = K, free)
//   bigsqsgemm  square=true big=true
//   bigsgemm    big=true         (only the large-matrix specialisations kept)
//   sgemmTA     transpose_A=true (A is given transposed)
//   sgemmTB     transpose_B=true (B is given transposed)
//
// The transposed variants keep the app's size bookkeeping, which reads the
// extents off the untransposed layout: the row count and the reduction length
// come from A_.width() and A_.height(), the column count from B_.height().
// With transpose_A and a non-square A the pipeline is therefore not a matrix
// product (the reduction runs over the wrong extent and the zero boundary
// condition hides the out-of-range reads); with transpose_B the bounds on B_
// only admit a square B. This is the specification bug for which the thesis
// expects both variants to fail validation.
#include "Halide.h"

namespace {

using namespace Halide;

class Sgemm : public Generator<Sgemm> {
public:
    GeneratorParam<bool> transpose_A{"transpose_A", false};
    GeneratorParam<bool> transpose_B{"transpose_B", false};
    // 0: extents are free; otherwise every extent is fixed to this value.
    GeneratorParam<int> size{"size", 0};
    // All three extents equal (M = N = K), still free.
    GeneratorParam<bool> square{"square", false};
    // Keep only the large-matrix branches of the specialisations; other
    // sizes fail at run time (specialize_fail).
    GeneratorParam<bool> big{"big", false};

    Input<float> a_{"a_"};
    Input<Buffer<float, 2>> A_{"A_"};
    Input<Buffer<float, 2>> B_{"B_"};
    Input<float> b_{"b_"};
    Input<Buffer<float, 2>> C_{"C_"};

    Output<Buffer<float, 2>> result{"result"};

    Var i{"i"}, j{"j"}, k{"k"};
    Var ii{"ii"}, ji{"ji"}, io{"io"}, jo{"jo"}, t{"t"};
    Var ti0{"ti0"}, ti1{"ti1"}, ti2{"ti2"}, tj0{"tj0"}, tj1{"tj1"}, tj2{"tj2"};
    Func Atmp{"Atmp"}, As{"As"}, A{"A"}, Btmp{"Btmp"}, B{"B"};
    Func prod{"prod"}, AB{"AB"}, ABt{"ABt"};
    RDom rv;
    bool swap_AB = false;
    int s = 0;

    Expr rows() { return A_.width(); }
    Expr cols() { return B_.height(); }
    Expr depth() { return A_.height(); }

    void generate() {
        const int vec = std::max(4, natural_vector_size<float>());
        s = 2 * vec;

        // Both transposed: multiply the other way round and transpose the
        // product instead.
        swap_AB = transpose_A && transpose_B;
        const bool tA = transpose_A && !swap_AB;
        const bool tB = transpose_B && !swap_AB;
        Input<Buffer<float, 2>> &lhs = swap_AB ? B_ : A_;
        Input<Buffer<float, 2>> &rhs = swap_AB ? A_ : B_;

        // A is repacked into panels of s rows, zero outside its bounds.
        Atmp(i, j) = BoundaryConditions::constant_exterior(lhs, 0.0f)(i, j);
        if (tA) {
            As(i, j, io) = Atmp(j, io * s + i);
        } else {
            As(i, j, io) = Atmp(io * s + i, j);
        }
        A(i, j) = As(i % s, j, i / s);

        Btmp(i, j) = rhs(i, j);
        if (tB) {
            B(i, j) = Btmp(j, i);
        } else {
            B(i, j) = Btmp(i, j);
        }

        prod(k, i, j) = A(i, k) * B(k, j);
        rv = RDom(0, depth());
        AB(i, j) += prod(rv, i, j);

        if (swap_AB) {
            ABt(i, j) = AB(j, i);
        } else {
            ABt(i, j) = AB(i, j);
        }

        result(i, j) = a_ * ABt(i, j) + b_ * C_(i, j);

        // Shape of the inputs and of the result.
        A_.dim(0).set_min(0).dim(1).set_min(0);
        B_.dim(0).set_bounds(0, depth()).dim(1).set_min(0);
        C_.dim(0).set_bounds(0, rows());
        C_.dim(1).set_bounds(0, cols());
        result.dim(0).set_bounds(0, rows()).dim(1).set_bounds(0, cols());
        if ((int)size > 0) {
            A_.dim(0).set_extent(size).dim(1).set_extent(size);
            B_.dim(1).set_extent(size);
        } else if (square) {
            A_.dim(1).set_extent(A_.dim(0).extent());
            B_.dim(1).set_extent(A_.dim(0).extent());
        }
    }

    void schedule() {
        const Expr num_rows = rows(), num_cols = cols();

        // Two levels of tiles: 2s x 2s blocks with guards at the edges, then
        // s x 4 (or 4 x s when the product is transposed) register tiles.
        result.tile(i, j, ti1, tj1, i, j, 2 * s, 2 * s, TailStrategy::GuardWithIf);
        if (swap_AB) {
            result.tile(i, j, ii, ji, 4, s)
                .tile(i, j, ti0, tj0, i, j, s / 4, 1);
        } else {
            result.tile(i, j, ii, ji, s, 4)
                .tile(i, j, ti0, tj0, i, j, 1, s / 4);
        }

        // Large matrices: one parallel task per block.
        result.specialize(num_rows >= 512 && num_cols >= 512)
            .fuse(tj1, ti1, t)
            .parallel(t);
        if (big) {
            result.specialize_fail("big: expected at least 512 rows and 512 columns");
        } else {
            // Medium matrices: group 2 x 2 blocks per task; small ones run serially.
            result.specialize(num_rows >= 128 && num_cols >= 128)
                .tile(ti1, tj1, ti2, tj2, ti1, tj1, 2, 2)
                .fuse(tj2, ti2, t)
                .parallel(t);
        }
        result.rename(tj0, t);
        result.bound(i, 0, num_rows).bound(j, 0, num_cols);

        // The packed copy of A, computed once.
        As.compute_root()
            .split(j, jo, ji, s)
            .reorder(i, ji, io, jo)
            .unroll(i)
            .vectorize(ji);
        As.specialize(A_.width() >= 256 && A_.height() >= 256)
            .parallel(jo, 4);
        if (big) {
            As.specialize_fail("big: expected A to be at least 256 x 256");
        }
        Atmp.compute_at(As, io)
            .vectorize(i)
            .unroll(j);

        if (transpose_B && !swap_AB) {
            B.compute_at(result, t)
                .tile(i, j, ii, ji, 8, 8)
                .vectorize(ii)
                .unroll(ji);
            Btmp.reorder_storage(j, i)
                .compute_at(B, i)
                .vectorize(i)
                .unroll(j);
        }

        // The accumulator tile, s x 4, lives in registers.
        AB.compute_at(result, i)
            .bound_extent(j, 4)
            .unroll(j)
            .bound_extent(i, s)
            .vectorize(i)
            .update()
            .reorder(i, j, rv)
            .unroll(j)
            .unroll(rv, 2)
            .vectorize(i);
        if (swap_AB) {
            ABt.compute_at(result, i)
                .bound_extent(i, 4)
                .unroll(i)
                .bound_extent(j, s)
                .vectorize(j);
        }
    }
};

}  // namespace

HALIDE_REGISTER_GENERATOR(Sgemm, sgemm)
