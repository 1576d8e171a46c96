// Halide 14's arithmetic intrinsics, each applied to every pair of a few
// values of its operand type: the type's edge values (0, 1, 2, the
// largest, one less, the smallest) followed by random ones. One output
// per result type, the intrinsics stacked along its last dimension (c);
// the outputs are vectorised, so that the kernel is not the algorithm
// itself. Every buffer has the fixed extent `size` (and the number of
// intrinsics stacked), so that the verdict is about the intrinsics, not
// about a dozen buffers' sizes.
#include "Halide.h"

namespace {

using namespace Halide;

class Intrinsics : public Generator<Intrinsics> {
public:
    // The extent of every input and of the outputs' first two dimensions.
    GeneratorParam<int> size{"size", 16};
    // Only the intrinsics of the output of this result type (u8, i8, ...;
    // the others are 0): all when empty.
    GeneratorParam<std::string> only{"only", ""};

    Input<Buffer<uint8_t, 1>> in_u8{"in_u8"};
    Input<Buffer<int8_t, 1>> in_i8{"in_i8"};
    Input<Buffer<int16_t, 1>> in_i16{"in_i16"};
    Input<Buffer<int32_t, 1>> in_i32{"in_i32"};
    Input<Buffer<uint32_t, 1>> in_u32{"in_u32"};
    Input<Buffer<float, 1>> in_f32{"in_f32"};

    Output<Buffer<uint8_t, 3>> out_u8{"out_u8"};
    Output<Buffer<int8_t, 3>> out_i8{"out_i8"};
    Output<Buffer<uint16_t, 3>> out_u16{"out_u16"};
    Output<Buffer<int16_t, 3>> out_i16{"out_i16"};
    Output<Buffer<int32_t, 3>> out_i32{"out_i32"};
    Output<Buffer<uint32_t, 3>> out_u32{"out_u32"};
    Output<Buffer<float, 3>> out_f32{"out_f32"};

    // edged is in at i, but its first six entries are t's edge values.
    template<typename In>
    Expr edged(In &in, Type t, Expr i) {
        std::vector<Expr> edges{cast(t, 0), cast(t, 1), cast(t, 2), t.max() - 1, t.max(), t.min()};
        return select(i < 6, mux(i, edges), in(i));
    }

    // stack is the intrinsics es stacked along c, in the output of result
    // type t, or 0 when another is chosen.
    Expr stack(const std::string &t, const std::vector<Expr> &es) {
        if (!only.value().empty() && only.value() != t) {
            return cast(es[0].type(), 0);
        }
        return mux(c, es);
    }

    void generate() {
        Expr u8x = edged(in_u8, UInt(8), x), u8y = edged(in_u8, UInt(8), y);
        Expr i8x = edged(in_i8, Int(8), x), i8y = edged(in_i8, Int(8), y);
        Expr i16x = edged(in_i16, Int(16), x), i16y = edged(in_i16, Int(16), y);
        Expr i32x = edged(in_i32, Int(32), x), i32y = edged(in_i32, Int(32), y);
        Expr u32x = edged(in_u32, UInt(32), x), u32y = edged(in_u32, UInt(32), y);
        Expr f32x = in_f32(x), f32y = in_f32(y);

        out_u8(x, y, c) = stack("u8", {absd(u8x, u8y), saturating_sub(u8x, u8y), halving_add(u8x, u8y),
                                  rounding_halving_add(u8x, u8y), rounding_shift_right(u8x, 2),
                                  mul_shift_right(u8x, u8y, 8), rounding_mul_shift_right(u8x, u8y, 8),
                                  lerp(u8x, u8y, u8x), popcount(u8y), count_leading_zeros(u8y),
                                  count_trailing_zeros(u8y), saturating_add(u8x, u8y), absd(i8x, i8y)});
        out_i8(x, y, c) = stack("i8", {saturating_add(i8x, i8y), saturating_sub(i8x, i8y),
                                  rounding_halving_add(i8x, i8y), halving_sub(i8x, i8y),
                                  rounding_halving_sub(i8x, i8y), count_leading_zeros(i8y),
                                  popcount(i8y), lerp(i8x, i8y, u8y), rounding_shift_right(i8x, 3)});
        out_u16(x, y, c) = stack("u16", {absd(i16x, i16y), widening_add(u8x, u8y), widening_mul(u8x, u8y),
                                   widening_shift_left(u8x, 4)});
        out_i16(x, y, c) = stack("i16", {widening_sub(u8x, u8y), rounding_shift_right(i16x, 3),
                                   rounding_mul_shift_right(i16x, i16y, 15), mul_shift_right(i16x, i16y, 15),
                                   halving_sub(i16x, i16y), saturating_add(i16x, i16y), widening_add(i8x, i8y),
                                   count_trailing_zeros(i16y)});
        out_i32(x, y, c) = stack("i32", {widening_mul(i16x, i16y), mul_shift_right(i32x, i32y, 31),
                                   rounding_mul_shift_right(i32x, i32y, 31), count_leading_zeros(i32y),
                                   popcount(i32y), saturating_sub(i32x, i32y), rounding_shift_right(i32x, 7)});
        out_u32(x, y, c) = stack("u32", {popcount(u32y), count_leading_zeros(u32y), absd(i32x, i32y),
                                   count_trailing_zeros(u32y), halving_add(u32x, u32y)});
        out_f32(x, y, c) = stack("f32", {absd(f32x, f32y), lerp(f32x, f32y, 0.25f)});
    }

    void schedule() {
        auto fix_in = [&](auto &in) { in.dim(0).set_bounds(0, size); };
        fix_in(in_u8), fix_in(in_i8), fix_in(in_i16), fix_in(in_i32), fix_in(in_u32), fix_in(in_f32);
        auto fix_out = [&](auto &o, int n) { o.dim(0).set_bounds(0, size).dim(1).set_bounds(0, size).dim(2).set_bounds(0, n); };
        fix_out(out_u8, 13), fix_out(out_i8, 9), fix_out(out_u16, 4), fix_out(out_i16, 8);
        fix_out(out_i32, 7), fix_out(out_u32, 5), fix_out(out_f32, 2);
        out_u8.vectorize(x, 8, TailStrategy::GuardWithIf);
        out_i8.vectorize(x, 8, TailStrategy::GuardWithIf);
        out_u16.vectorize(x, 8, TailStrategy::GuardWithIf);
        out_i16.vectorize(x, 8, TailStrategy::GuardWithIf);
        out_i32.vectorize(x, 8, TailStrategy::GuardWithIf);
        out_u32.vectorize(x, 8, TailStrategy::GuardWithIf);
        out_f32.vectorize(x, 8, TailStrategy::GuardWithIf);
    }

private:
    Var x{"x"}, y{"y"}, c{"c"};
};

}  // namespace

HALIDE_REGISTER_GENERATOR(Intrinsics, intrinsics)
