// Types and literals: the formats' names of Halide's scalar types, and
// the exact spelling of float constants.
#include "emit_internal.h"

#include <cmath>
#include <cstdio>
#include <sstream>

namespace augur {
namespace detail {

std::string type_name(const Type &t, const std::string &where) {
    if (t.lanes() != 1) {
        unsupported("vector type " + type_to_c_type(t, false) + " in " + where);
    }
    if (t.is_bool()) {
        return "bool";
    }
    if (t.is_int() && (t.bits() == 8 || t.bits() == 16 || t.bits() == 32 || t.bits() == 64)) {
        return "i" + std::to_string(t.bits());
    }
    if (t.is_uint() && (t.bits() == 8 || t.bits() == 16 || t.bits() == 32 || t.bits() == 64)) {
        return "u" + std::to_string(t.bits());
    }
    if (t.is_float() && !t.is_bfloat() && (t.bits() == 32 || t.bits() == 64)) {
        return "f" + std::to_string(t.bits());
    }
    unsupported("type " + type_str(t) + " in " + where + " (the formats have bool, i8..i64, u8..u64, f32 and f64)");
}

std::string type_str(const Type &t) {
    std::ostringstream o;
    o << t;
    return o.str();
}

// float_text: 0.333333343f is 0.3333333432674407958984375, which the
// formats read as exactly that number (docs/formats.md). A binary
// fraction of k fractional bits has exactly k fractional decimal digits,
// the last a 5, which glibc's printf prints exactly; an integer gets
// ".0".
std::string float_text(double v) {
    if (!std::isfinite(v)) {
        unsupported("the non-finite float constant " + std::to_string(v));
    }
    int k = 0;  // fractional bits of v
    if (v != 0) {
        int ex;
        double f = std::frexp(std::fabs(v), &ex);  // v = f * 2^ex, f in [0.5, 1)
        uint64_t m = (uint64_t)std::ldexp(f, 53);  // v = m * 2^(ex - 53)
        int e2 = ex - 53;
        while ((m & 1) == 0) {
            m >>= 1;
            e2++;
        }
        k = e2 < 0 ? -e2 : 0;
    }
    int n = std::snprintf(nullptr, 0, "%.*f", k, v);
    std::string s(n + 1, '\0');
    std::snprintf(&s[0], s.size(), "%.*f", k, v);
    s.resize(n);
    return k == 0 ? s + ".0" : s;
}

}  // namespace detail
}  // namespace augur
