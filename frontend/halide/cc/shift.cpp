// Shifts by a variable amount: max_filter's vert_log(x, r.x + clamp(1 <<
// (r.y - 1), 0, 2 * radius), c, r.y - 1) shifts by an RVar of constant
// bounds, its vert by a clamped lookup. A shift whose amount lies in a
// small interval of constants is a select over the amount's values, each
// a shift by a constant: an index expression (a product or a quotient by
// a power of two) or a value the formats have.
#include "emit_internal.h"

namespace augur {
namespace detail {

namespace {

// max_cases bounds the values a shift's amount may take: each is a case
// of the select.
constexpr int64_t max_cases = 16;

}  // namespace

bool const_int(const Expr &e, int64_t *v) {
    if (const int64_t *c = as_const_int(e)) {
        *v = *c;
        return true;
    }
    if (const uint64_t *c = as_const_uint(e); c && *c < ((uint64_t)1 << 62)) {
        *v = (int64_t)*c;
        return true;
    }
    return false;
}

Interval Translator::range_of(const Expr &e) {
    return bounds_of_expr_in_scope(e, ranges);
}

bool Translator::const_range(const Expr &e, int64_t *lo, int64_t *hi) {
    Interval iv = range_of(e);
    if (!iv.is_bounded()) {
        return false;
    }
    return const_int(simplify(iv.min), lo) && const_int(simplify(iv.max), hi);
}

Expr Translator::unshifted(const Call *op) {
    if (!op->is_intrinsic(Call::shift_left) && !op->is_intrinsic(Call::shift_right)) {
        return Expr();
    }
    const Type &t = op->type;
    const Expr &a = op->args[0], &b = op->args[1];
    int64_t lo, hi;
    if (const_int(b, &lo)) {
        return Expr();
    }
    if (!t.is_int_or_uint() || !b.type().is_int_or_uint() || !const_range(b, &lo, &hi) || lo < 0 ||
        hi >= t.bits() || hi - lo >= max_cases) {
        return Expr();
    }
    // The cases test the amount without the integer casts that keep its
    // values (Halide's uint32(r - 1)): an index expression, in int32.
    Expr c = b;
    int64_t clo, chi;
    while (c.as<Cast>() && c.as<Cast>()->value.type().is_int_or_uint() &&
           const_range(c.as<Cast>()->value, &clo, &chi) && c.type().can_represent(clo) && c.type().can_represent(chi) &&
           c.as<Cast>()->value.type().can_represent(clo) && c.as<Cast>()->value.type().can_represent(chi)) {
        c = c.as<Cast>()->value;
    }
    Expr out;
    for (int64_t v = hi; v >= lo; v--) {
        Expr s = Call::make(t, op->name, {a, make_const(b.type(), v)}, Call::PureIntrinsic);
        out = out.defined() ? Select::make(c == make_const(c.type(), v), s, out) : s;
    }
    return out;
}

}  // namespace detail
}  // namespace augur
