// The translation of a Halide 14 pipeline to a specification (.sare) and an
// annotated kernel (.sched). See docs/halide.md for the scheme; the
// semantics follow Clément 2022, "Translation Validation of Tensor
// Compilers", section 2.4.4 (Halide algorithms as SAREs) and section 6.1
// (annotations from the loop nest Halide builds before flattening).
#include "augur_halide.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <functional>
#include <set>
#include <sstream>
#include <sys/stat.h>

namespace augur {

using namespace Halide;
using namespace Halide::Internal;

namespace {

std::string str(const Expr &e) {
    std::ostringstream o;
    o << e;
    return o.str();
}

[[noreturn]] void unsupported(const std::string &what) {
    throw Unsupported(what);
}

// ---------------------------------------------------------------- names

// Words that cannot name anything in either format: keywords, types and
// built-in functions (sare.IsKeyword and sched.IsKeyword).
const std::set<std::string> &reserved_words() {
    static const std::set<std::string> words = {
        "param", "assume", "input", "tensor", "output", "where", "kernel", "in", "out",
        "skip", "if", "else", "let", "alloc", "for", "par", "and", "or", "not", "true",
        "false", "_", "bool", "i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64", "f32",
        "f64", "min", "max", "abs", "clamp", "select", "sqrt", "exp", "log", "pow", "floor",
        "ceil", "round", "sin", "cos", "tanh",
        // the bit casts reinterpret_T
        "reinterpret_i8", "reinterpret_i16", "reinterpret_i32", "reinterpret_i64", "reinterpret_u8",
        "reinterpret_u16", "reinterpret_u32", "reinterpret_u64", "reinterpret_f32", "reinterpret_f64"};
    return words;
}

// sanitize turns a Halide name into an identifier: every character other
// than a letter, a digit or '_' becomes '_'; a leading digit or underscore
// gets a 'v' in front; a reserved word gets a '_' after it.
std::string sanitize(const std::string &name) {
    std::string s;
    for (char c : name) {
        bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
        s += ok ? c : '_';
    }
    if (s.empty() || (s[0] >= '0' && s[0] <= '9') || s[0] == '_') {
        s = "v" + s;
    }
    if (reserved_words().count(s)) {
        s += "_";
    }
    return s;
}

// Namer maps Halide names to distinct identifiers: the same Halide name
// always gets the same identifier, two different ones never do.
class Namer {
public:
    std::string operator()(const std::string &name) {
        auto it = ids_.find(name);
        if (it != ids_.end()) {
            return it->second;
        }
        std::string base = sanitize(name), id = base;
        for (int i = 2; taken_.count(id); i++) {
            id = base + "_" + std::to_string(i);
        }
        taken_.insert(id);
        ids_[name] = id;
        return id;
    }
    // reserve makes id unavailable to later names.
    void reserve(const std::string &id) {
        taken_.insert(id);
    }

private:
    std::map<std::string, std::string> ids_;
    std::set<std::string> taken_;
};

// ---------------------------------------------------------------- types

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
    std::ostringstream o;
    o << t;
    unsupported("type " + o.str() + " in " + where + " (the formats have bool, i8..i64, u8..u64, f32 and f64)");
}

// ---------------------------------------------------------------- text

// Frag is a piece of expression text with the precedence of its top
// operator (the formats' precedences, loosest first).
struct Frag {
    std::string s;
    int prec;
};

enum Prec { POr = 1,
            PAnd,
            PNot,
            PCmp,
            PAdd,
            PMul,
            PUnary,
            PAtom };

std::string at(const Frag &f, int need) {
    return f.prec >= need ? f.s : "(" + f.s + ")";
}

Frag binary(const Frag &a, const std::string &op, const Frag &b, int prec) {
    return {at(a, prec) + " " + op + " " + at(b, prec + 1), prec};
}

Frag atom(const std::string &s) {
    return {s, PAtom};
}

Frag int_lit(int64_t v) {
    return {std::to_string(v), v < 0 ? PUnary : PAtom};
}

std::string join(const std::vector<std::string> &xs, const std::string &sep) {
    std::string out;
    for (size_t i = 0; i < xs.size(); i++) {
        out += (i ? sep : "") + xs[i];
    }
    return out;
}

// float_text spells the finite float v (a binary32 or binary64 value, held
// exactly in a double) as the exact decimal expansion of its binary
// value: 0.333333343f is 0.3333333432674407958984375, which the formats
// read as exactly that number (docs/formats.md). A binary fraction of k
// fractional bits has exactly k fractional decimal digits, the last a 5,
// which glibc's printf prints exactly; an integer gets ".0".
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

// BoundsQueryOff replaces _halide_buffer_is_bounds_query(b) by false: the
// kernel is the pipeline called on real buffers, not as a bounds query.
class BoundsQueryOff : public IRMutator {
    using IRMutator::visit;
    Expr visit(const Call *op) override {
        if (op->name == "_halide_buffer_is_bounds_query") {
            return const_false();
        }
        return IRMutator::visit(op);
    }
};

Expr no_bounds_query(const Expr &e) {
    BoundsQueryOff m;
    return simplify(m.mutate(e));
}

// unwrap strips what does not change a value: likely tags, promises and
// boolean casts of booleans.
Expr unwrap(Expr e) {
    for (;;) {
        if (const Call *c = e.as<Call>()) {
            if (c->is_intrinsic(Call::likely) || c->is_intrinsic(Call::likely_if_innermost) ||
                c->is_intrinsic(Call::promise_clamped) || c->is_intrinsic(Call::unsafe_promise_clamped)) {
                e = c->args[0];
                continue;
            }
        }
        if (const Cast *c = e.as<Cast>()) {
            if (c->type == c->value.type()) {
                e = c->value;
                continue;
            }
        }
        return e;
    }
}

// ---------------------------------------------------------------- expressions

// Translator turns Halide expressions into text, in three modes: quasi-
// affine index expressions, affine constraints and typed values. Reads of
// funcs, images and parameters, and variables, are resolved by the
// subclass (specification or kernel).
class Translator {
public:
    virtual ~Translator() = default;

    Frag index(const Expr &e0) {
        Expr e = unwrap(e0);
        if (!e.type().is_int() || e.type().bits() > 32) {
            if (!(e.type().is_int() && e.as<Cast>())) {
                unsupported("the index expression " + str(e0) + " is of type " + type_str(e.type()) + ", not int32");
            }
        }
        if (const IntImm *i = e.as<IntImm>()) {
            return int_lit(i->value);
        }
        if (const Variable *v = e.as<Variable>()) {
            return index_var(v);
        }
        if (const Add *op = e.as<Add>()) {
            return binary(index(op->a), "+", index(op->b), PAdd);
        }
        if (const Sub *op = e.as<Sub>()) {
            return binary(index(op->a), "-", index(op->b), PAdd);
        }
        if (const Mul *op = e.as<Mul>()) {
            int64_t c;
            if (constant(op->b, &c)) {
                return binary(int_lit(c), "*", index(op->a), PMul);
            }
            if (constant(op->a, &c)) {
                return binary(int_lit(c), "*", index(op->b), PMul);
            }
            unsupported("the index expression " + str(e0) + " is not affine: a product of two non-constant terms");
        }
        if (const Div *op = e.as<Div>()) {
            int64_t c;
            if (constant(op->b, &c) && c > 0) {
                return binary(index(op->a), "/", int_lit(c), PMul);
            }
            Frag q;
            if (exact_quotient(op, &q)) {
                return q;
            }
            unsupported("the index expression " + str(e0) + " is not quasi-affine: division by a non-constant or non-positive divisor");
        }
        if (const Mod *op = e.as<Mod>()) {
            int64_t c;
            if (constant(op->b, &c) && c > 0) {
                return binary(index(op->a), "%", int_lit(c), PMul);
            }
            unsupported("the index expression " + str(e0) + " is not quasi-affine: remainder by a non-constant or non-positive divisor");
        }
        if (const Min *op = e.as<Min>()) {
            return atom("min(" + index(op->a).s + ", " + index(op->b).s + ")");
        }
        if (const Max *op = e.as<Max>()) {
            return atom("max(" + index(op->a).s + ", " + index(op->b).s + ")");
        }
        if (const Select *op = e.as<Select>()) {
            return atom("select(" + cond(op->condition).s + ", " + index(op->true_value).s + ", " + index(op->false_value).s + ")");
        }
        if (const Let *op = e.as<Let>()) {
            return index(substitute(op->name, op->value, op->body));
        }
        if (const Cast *op = e.as<Cast>()) {
            if (op->value.type().is_int() && op->value.type().bits() <= 32) {
                return index(op->value);
            }
        }
        unsupported("the index expression " + str(e0) + " is not quasi-affine");
    }

    Frag cond(const Expr &e0) {
        Expr e = unwrap(e0);
        if (const Cast *c = e.as<Cast>()) {
            if (c->type.is_bool() && c->value.type().is_bool()) {
                return cond(c->value);
            }
        }
        if (is_const_one(e)) {
            return atom("true");
        }
        if (is_const_zero(e)) {
            return atom("false");
        }
        auto cmp = [&](const Expr &a, const std::string &op, const Expr &b) {
            return binary(index(a), op, index(b), PCmp);
        };
        if (const EQ *op = e.as<EQ>()) {
            return cmp(op->a, "==", op->b);
        }
        if (const NE *op = e.as<NE>()) {
            return cmp(op->a, "!=", op->b);
        }
        if (const LT *op = e.as<LT>()) {
            return cmp(op->a, "<", op->b);
        }
        if (const LE *op = e.as<LE>()) {
            return cmp(op->a, "<=", op->b);
        }
        if (const GT *op = e.as<GT>()) {
            return cmp(op->a, ">", op->b);
        }
        if (const GE *op = e.as<GE>()) {
            return cmp(op->a, ">=", op->b);
        }
        if (const And *op = e.as<And>()) {
            return binary(cond(op->a), "and", cond(op->b), PAnd);
        }
        if (const Or *op = e.as<Or>()) {
            return binary(cond(op->a), "or", cond(op->b), POr);
        }
        if (const Not *op = e.as<Not>()) {
            return {"not " + at(cond(op->a), PNot), PNot};
        }
        if (const Let *op = e.as<Let>()) {
            return cond(substitute(op->name, op->value, op->body));
        }
        unsupported("the condition " + str(e0) + " is not an affine constraint");
    }

    Frag value(const Expr &e) {
        std::string where = "the value " + str(e);
        std::string t = type_name(e.type(), where);
        if (e.type() == Int(32) && !e.as<Call>() && !e.as<IntImm>()) {
            // An int32 index expression used as a value: cast it.
            try {
                Frag f = index(e);
                return atom("i32(" + f.s + ")");
            } catch (const Unsupported &) {
            }
        }
        if (const IntImm *i = e.as<IntImm>()) {
            return atom(t + "(" + std::to_string(i->value) + ")");
        }
        if (const UIntImm *u = e.as<UIntImm>()) {
            if (e.type().is_bool()) {
                return atom(u->value ? "true" : "false");
            }
            return atom(t + "(" + std::to_string(u->value) + ")");
        }
        if (const FloatImm *f = e.as<FloatImm>()) {
            return atom(t + "(" + float_text(f->value) + ")");
        }
        if (const Variable *v = e.as<Variable>()) {
            return value_var(v);
        }
        if (const Cast *op = e.as<Cast>()) {
            if (op->type == op->value.type()) {
                return value(op->value);
            }
            return atom(t + "(" + value(op->value).s + ")");
        }
        if (const Add *op = e.as<Add>()) {
            return binary(value(op->a), "+", value(op->b), PAdd);
        }
        if (const Sub *op = e.as<Sub>()) {
            return binary(value(op->a), "-", value(op->b), PAdd);
        }
        if (const Mul *op = e.as<Mul>()) {
            return binary(value(op->a), "*", value(op->b), PMul);
        }
        if (const Div *op = e.as<Div>()) {
            return binary(value(op->a), "/", value(op->b), PMul);
        }
        if (const Mod *op = e.as<Mod>()) {
            if (e.type().is_float()) {
                unsupported("the float remainder " + str(e));
            }
            return binary(value(op->a), "%", value(op->b), PMul);
        }
        if (const Min *op = e.as<Min>()) {
            return atom("min(" + value(op->a).s + ", " + value(op->b).s + ")");
        }
        if (const Max *op = e.as<Max>()) {
            return atom("max(" + value(op->a).s + ", " + value(op->b).s + ")");
        }
        auto cmp = [&](const Expr &a, const std::string &op, const Expr &b) {
            return binary(value(a), op, value(b), PCmp + 1);
        };
        if (const EQ *op = e.as<EQ>()) {
            return wrap_cmp(cmp(op->a, "==", op->b));
        }
        if (const NE *op = e.as<NE>()) {
            return wrap_cmp(cmp(op->a, "!=", op->b));
        }
        if (const LT *op = e.as<LT>()) {
            return wrap_cmp(cmp(op->a, "<", op->b));
        }
        if (const LE *op = e.as<LE>()) {
            return wrap_cmp(cmp(op->a, "<=", op->b));
        }
        if (const GT *op = e.as<GT>()) {
            return wrap_cmp(cmp(op->a, ">", op->b));
        }
        if (const GE *op = e.as<GE>()) {
            return wrap_cmp(cmp(op->a, ">=", op->b));
        }
        if (const And *op = e.as<And>()) {
            return binary(value(op->a), "and", value(op->b), PAnd);
        }
        if (const Or *op = e.as<Or>()) {
            return binary(value(op->a), "or", value(op->b), POr);
        }
        if (const Not *op = e.as<Not>()) {
            return {"not " + at(value(op->a), PNot), PNot};
        }
        if (const Select *op = e.as<Select>()) {
            return atom("select(" + value(op->condition).s + ", " + value(op->true_value).s + ", " + value(op->false_value).s + ")");
        }
        if (const Let *op = e.as<Let>()) {
            return value(substitute(op->name, op->value, op->body));
        }
        if (const Call *op = e.as<Call>()) {
            return value_call(op);
        }
        unsupported("the expression " + str(e) + " (" + node_name(e) + ")");
    }

protected:
    // exact_quotient translates (d*q + k)/d, for a non-constant d and k in
    // {0, -1}, exactly, for every value of d (Halide's division is
    // Euclidean and x/0 is 0): k = 0 gives q (0 when d is 0); k = -1 gives
    // q - 1 when d >= 1, 0 when d is 0 and q + 1 when d < 0. Halide's
    // bounds of a fused loop's outer coordinate t/d over [0, d*q) are of
    // this form.
    bool exact_quotient(const Div *op, Frag *out) {
        Expr num = op->a;
        int64_t k = 0;
        if (const Add *a = num.as<Add>()) {
            const int64_t *c = as_const_int(a->b);
            if (!c) {
                return false;
            }
            k = *c;
            num = a->a;
        } else if (const Sub *sb = num.as<Sub>()) {
            const int64_t *c = as_const_int(sb->b);
            if (!c) {
                return false;
            }
            k = -*c;
            num = sb->a;
        }
        if (k != 0 && k != -1) {
            return false;
        }
        const Mul *m = num.as<Mul>();
        if (!m) {
            return false;
        }
        Expr q;
        if (equal(m->a, op->b)) {
            q = m->b;
        } else if (equal(m->b, op->b)) {
            q = m->a;
        } else {
            return false;
        }
        Frag d = index(op->b), qf = index(q);
        if (k == 0) {
            *out = atom("select(" + binary(d, "==", int_lit(0), PCmp).s + ", 0, " + qf.s + ")");
        } else {
            *out = atom("select(" + binary(d, ">=", int_lit(1), PCmp).s + ", " + binary(qf, "-", int_lit(1), PAdd).s +
                        ", select(" + binary(d, "==", int_lit(0), PCmp).s + ", 0, " + binary(qf, "+", int_lit(1), PAdd).s + "))");
        }
        return true;
    }

    virtual Frag index_var(const Variable *v) = 0;
    virtual Frag value_var(const Variable *v) = 0;
    virtual Frag func_call(const Call *c) = 0;
    virtual Frag image_call(const Call *c) = 0;
    // constant folds e to an integer constant where the enclosing lets
    // make it one.
    virtual bool constant(const Expr &e, int64_t *c) {
        const int64_t *p = as_const_int(simplify(e));
        if (p) {
            *c = *p;
        }
        return p != nullptr;
    }

    static std::string node_name(const Expr &e) {
        switch (e->node_type) {
        case IRNodeType::Load:
            return "a flattened load";
        case IRNodeType::Ramp:
            return "a vector ramp";
        case IRNodeType::Broadcast:
            return "a vector broadcast";
        case IRNodeType::Shuffle:
            return "a vector shuffle";
        case IRNodeType::VectorReduce:
            return "a vector reduction";
        default:
            return "an unsupported expression node";
        }
    }

private:
    static std::string type_str(const Type &t) {
        std::ostringstream o;
        o << t;
        return o.str();
    }

    static Frag wrap_cmp(Frag f) {
        f.prec = PCmp;
        return f;
    }

    Frag value_call(const Call *op) {
        Expr e(op);
        if (op->call_type == Call::Halide) {
            if (op->value_index != 0) {
                unsupported("the tuple element " + str(e));
            }
            return func_call(op);
        }
        if (op->call_type == Call::Image) {
            return image_call(op);
        }
        if (op->is_intrinsic(Call::likely) || op->is_intrinsic(Call::likely_if_innermost) ||
            op->is_intrinsic(Call::promise_clamped) || op->is_intrinsic(Call::unsafe_promise_clamped) ||
            op->is_intrinsic(Call::strict_float)) {
            return value(op->args[0]);
        }
        if (op->is_intrinsic(Call::mux)) {
            // Halide's own select tree (an out-of-range index takes the
            // last value).
            return value(lower_mux(op));
        }
        if (op->is_intrinsic(Call::reinterpret)) {
            // The formats' bit cast reinterpret_T(x): the same bits, of
            // an integer or float type of the same width.
            const Type &from = op->args[0].type();
            std::string to_name = type_name(op->type, str(e));
            type_name(from, str(e));
            if (op->type.is_bool() || from.is_bool() || op->type.bits() != from.bits()) {
                unsupported("the call " + str(e) + ": reinterpret between " + type_str(from) + " and " +
                            type_str(op->type) + " (the formats' bit casts keep the width, and have no bool)");
            }
            return atom("reinterpret_" + to_name + "(" + value(op->args[0]).s + ")");
        }
        if (op->is_intrinsic(Call::shift_left) || op->is_intrinsic(Call::shift_right)) {
            // Only by a constant amount within the width, where Halide's
            // shifts and the formats' agree (arithmetic to the right on
            // signed types); Halide's negative amounts shift the other
            // way and the formats' give 0 or -1.
            const Type &t = op->type;
            const Expr &b = op->args[1];
            int64_t k = -1;
            if (const int64_t *c = as_const_int(b)) {
                k = *c;
            } else if (const uint64_t *c = as_const_uint(b)) {
                k = *c < 64 ? (int64_t)*c : -1;
            }
            if (!t.is_int_or_uint() || k < 0 || k >= t.bits()) {
                unsupported("the shift " + str(e) + " (only by a constant amount below the width)");
            }
            std::string tn = type_name(t, str(e));
            const char *sym = op->is_intrinsic(Call::shift_left) ? "<<" : ">>";
            return binary(value(op->args[0]), sym, atom(tn + "(" + std::to_string(k) + ")"), PMul);
        }
        auto un = [&](const std::string &f) { return atom(f + "(" + value(op->args[0]).s + ")"); };
        if (op->is_intrinsic(Call::abs)) {
            Type in = op->args[0].type();
            if (in.is_int()) {
                // Halide's abs of a signed integer is unsigned; the
                // formats' abs keeps the type and wraps, which the cast
                // turns into the same bits.
                return atom(type_name(op->type, str(e)) + "(" + un("abs").s + ")");
            }
            return un("abs");
        }
        if (op->is_intrinsic(Call::bitwise_and)) {
            return binary(value(op->args[0]), "&", value(op->args[1]), PMul);
        }
        if (op->is_intrinsic(Call::bitwise_or)) {
            return binary(value(op->args[0]), "|", value(op->args[1]), PAdd);
        }
        if (op->is_intrinsic(Call::bitwise_xor)) {
            return binary(value(op->args[0]), "^", value(op->args[1]), PAdd);
        }
        if (op->is_intrinsic(Call::bitwise_not)) {
            return {"~" + at(value(op->args[0]), PUnary), PUnary};
        }
        if (op->call_type == Call::PureExtern) {
            static const std::set<std::string> math = {"sqrt", "exp", "log", "pow", "floor", "ceil",
                                                       "round", "sin", "cos", "tanh"};
            std::string n = op->name;
            for (const char *suffix : {"_f32", "_f64"}) {
                size_t l = std::strlen(suffix);
                if (n.size() > l && n.compare(n.size() - l, l, suffix) == 0) {
                    n = n.substr(0, n.size() - l);
                }
            }
            if (math.count(n) && n != op->name) {
                std::vector<std::string> args;
                for (const Expr &a : op->args) {
                    args.push_back(value(a).s);
                }
                return atom(n + "(" + join(args, ", ") + ")");
            }
        }
        unsupported("the call " + str(e) + " (" + op->name + ")");
    }
};

// ---------------------------------------------------------------- the pipeline

struct Stage {
    std::string tensor;                // its tensor in the specification
    std::vector<std::string> coords;   // Halide names of its coordinates in the loop nest: f.sK.x, then f.sK.r (RVars outermost first)
    std::vector<std::string> fused;    // f.sK.fused.x for each pure coordinate: its name in a loop compute_with fused
    std::vector<ReductionVariable> rv;  // the RDom's variables, outermost first
};

struct FuncInfo {
    Function f;
    std::string tensor;     // the final value's tensor
    std::string type;       // its element type
    std::vector<Stage> stages;
};

struct Buffer_ {
    std::string name;    // Halide name
    std::string tensor;  // its tensor
    std::string array;   // its array in the kernel
    std::string type;
    int dims = 0;
    bool output = false;
    std::vector<std::string> mins, extents;  // parameter names
};

struct Scalar {
    std::string name, id, type;
    bool index = false;  // an int32 parameter; otherwise a 0-d input
    std::string array;   // for 0-d inputs
};

// Red is how a func takes part in a reduction whose order the schedule
// changed (Clément 2022, chapter 7): atomic() updates, and rfactor's
// merges and intermediates. Its cells hold partial results of the target
// func's elements, which the specification defines with reduce(...).
struct Red {
    enum Kind { Atomic, Merge, Intermediate } kind = Atomic;
    std::string target;  // the user's func (itself, unless an intermediate)
    size_t dims = 0;     // the target's dimensions: the first coordinates of the cells' funcs
    std::string op;      // + * min max & | ^
    // the user's update, for the specification (targets only)
    std::vector<ReductionVariable> rvars;  // outermost first
    Expr predicate, body;
    // Intermediate: the position of the user's RDom each accumulation
    // adds, outermost first, over the stage's coordinates (f.s1.x).
    std::vector<Expr> at;
};

// Pipeline gathers the funcs, buffers and scalar parameters of a lowered
// pipeline and names them.
struct Pipeline_ {
    std::map<std::string, Red> reds;
    std::vector<std::string> order;
    std::map<std::string, FuncInfo> funcs;
    std::vector<Buffer_> buffers;  // outputs first, then inputs in order of first use
    std::map<std::string, size_t> buffer_index;
    std::vector<Scalar> scalars;
    std::map<std::string, size_t> scalar_index;
    std::vector<std::string> params;                // every parameter, in declaration order
    std::map<std::string, std::string> field_param;  // "b.min.0" -> b_min_0
    Namer names;

    void add_buffer(const std::string &name, const Type &t, int dims, bool output) {
        if (buffer_index.count(name)) {
            return;
        }
        Buffer_ b;
        b.name = name;
        b.type = type_name(t, "buffer " + name);
        b.dims = dims;
        b.output = output;
        b.tensor = output ? funcs.at(name).tensor : names(name);
        b.array = names("buf_" + name);
        for (int d = 0; d < dims; d++) {
            std::string mn = name + ".min." + std::to_string(d), ex = name + ".extent." + std::to_string(d);
            b.mins.push_back(names(mn));
            b.extents.push_back(names(ex));
            field_param[mn] = b.mins.back();
            field_param[ex] = b.extents.back();
        }
        buffer_index[name] = buffers.size();
        buffers.push_back(b);
    }

    void add_scalar(const Parameter &p) {
        if (scalar_index.count(p.name())) {
            return;
        }
        Scalar s;
        s.name = p.name();
        s.id = names(p.name());
        s.type = type_name(p.type(), "parameter " + p.name());
        s.index = p.type() == Int(32);
        if (!s.index) {
            s.array = names("buf_" + p.name());
        }
        scalar_index[s.name] = scalars.size();
        scalars.push_back(s);
    }
};

// Inputs finds the images and scalar parameters an expression reads.
class Inputs : public IRGraphVisitor {
public:
    std::vector<std::pair<std::string, const Call *>> images;
    std::vector<Parameter> scalars;

private:
    using IRGraphVisitor::visit;
    std::set<std::string> seen_;
    void visit(const Call *op) override {
        if (op->call_type == Call::Image && !seen_.count(op->name)) {
            seen_.insert(op->name);
            images.emplace_back(op->name, op);
        }
        IRGraphVisitor::visit(op);
    }
    void visit(const Variable *op) override {
        if (op->param.defined() && !op->param.is_buffer() && !seen_.count(op->param.name())) {
            seen_.insert(op->param.name());
            scalars.push_back(op->param);
        }
    }
};

// ---------------------------------------------------------------- the specification

class SpecTranslator : public Translator {
public:
    SpecTranslator(Pipeline_ &p, const std::map<std::string, std::string> &vars)
        : p_(p), vars_(vars) {
    }
    // self rewrites reads of the func being updated.
    std::function<Frag(const Call *)> self;
    std::string self_name;

protected:
    Frag index_var(const Variable *v) override {
        auto it = vars_.find(v->name);
        if (it != vars_.end()) {
            return atom(it->second);
        }
        return atom(param(v));
    }
    Frag value_var(const Variable *v) override {
        if (v->param.defined() && !v->param.is_buffer()) {
            const Scalar &s = p_.scalars[p_.scalar_index.at(v->param.name())];
            if (!s.index) {
                return atom(s.id + "()");
            }
        }
        if (v->type == Int(32)) {
            return atom("i32(" + index_var(v).s + ")");
        }
        unsupported("the variable " + v->name + " of type " + type_name(v->type, v->name) + " used as a value");
    }
    Frag func_call(const Call *c) override {
        if (c->name == self_name && self) {
            return self(c);
        }
        auto it = p_.funcs.find(c->name);
        if (it == p_.funcs.end()) {
            unsupported("the call to " + c->name + ", which is not a func of the pipeline");
        }
        return atom(it->second.tensor + "(" + args(c->args) + ")");
    }
    Frag image_call(const Call *c) override {
        const Buffer_ &b = p_.buffers[p_.buffer_index.at(c->name)];
        return atom(b.tensor + "(" + args(c->args) + ")");
    }

public:
    std::string args(const std::vector<Expr> &xs) {
        std::vector<std::string> out;
        for (const Expr &x : xs) {
            out.push_back(index(x).s);
        }
        return join(out, ", ");
    }

    std::string param(const Variable *v) {
        auto f = p_.field_param.find(v->name);
        if (f != p_.field_param.end()) {
            return f->second;
        }
        if (v->param.defined() && !v->param.is_buffer()) {
            const Scalar &s = p_.scalars[p_.scalar_index.at(v->param.name())];
            if (s.index) {
                return s.id;
            }
            unsupported("the parameter " + v->name + " of type " + s.type + " in an index expression");
        }
        unsupported("the free variable " + v->name + " in the algorithm");
    }

private:
    Pipeline_ &p_;
    std::map<std::string, std::string> vars_;
};

// spec_text writes the specification (Clément 2022, section 2.4.4): one
// tensor per stage, recurrences over RDoms with the previous stage as the
// base case, the final value as its own tensor.
std::string spec_text(Pipeline_ &p, const std::string &name) {
    std::ostringstream o;
    o << "# Generated by augur halide from the Halide 14 pipeline " << name << ".\n";
    o << "# One tensor per func stage; see docs/halide.md for the naming scheme.\n";
    if (!p.params.empty()) {
        o << "param " << join(p.params, ", ") << "\n";
    }
    for (const Buffer_ &b : p.buffers) {
        if (b.output) {
            continue;
        }
        std::vector<std::string> vs;
        for (int d = 0; d < b.dims; d++) {
            vs.push_back("d" + std::to_string(d));
        }
        o << "\ninput " << b.tensor << "(" << join(vs, ", ") << ") : " << b.type << "\n";
    }
    for (const Scalar &s : p.scalars) {
        if (!s.index) {
            o << "\ninput " << s.id << "() : " << s.type << "\n";
        }
    }
    for (const std::string &fn : p.order) {
        FuncInfo &fi = p.funcs.at(fn);
        const Function &f = fi.f;
        // The func's pure variables, named after Halide's.
        std::map<std::string, std::string> vars;
        std::vector<std::string> xs;
        Namer local;
        for (const std::string &a : f.args()) {
            std::string id = sanitize(a);
            while (p.funcs.count(id) || std::find(p.params.begin(), p.params.end(), id) != p.params.end() ||
                   std::find(xs.begin(), xs.end(), id) != xs.end()) {
                id += "_";
            }
            vars[a] = id;
            xs.push_back(id);
        }
        std::string x = join(xs, ", ");
        if (auto rit = p.reds.find(fn); rit != p.reds.end()) {
            // A reduction the schedule re-orders: the user's update as
            // reduce(...) over its whole RDom (Clément 2022, section 7.4);
            // rfactor's intermediates hold partial results of it and have
            // no tensor of their own.
            const Red &r = rit->second;
            if (r.kind == Red::Intermediate) {
                continue;
            }
            std::map<std::string, std::string> uvars = vars;
            std::vector<std::string> ks, ranges;
            for (const ReductionVariable &rv : r.rvars) {
                std::string id = sanitize(rv.var);
                while (std::find(xs.begin(), xs.end(), id) != xs.end() || std::find(ks.begin(), ks.end(), id) != ks.end() ||
                       p.funcs.count(id) || std::find(p.params.begin(), p.params.end(), id) != p.params.end()) {
                    id += "_";
                }
                uvars[rv.var] = id;
                ks.push_back(id);
            }
            SpecTranslator t(p, uvars);
            for (size_t i = 0; i < r.rvars.size(); i++) {
                ranges.push_back(ks[i] + " in " + t.index(r.rvars[i].min).s + " .. " +
                                 t.index(simplify(r.rvars[i].min + r.rvars[i].extent)).s);
            }
            std::string dom = join(ranges, ", ");
            if (r.predicate.defined() && !is_const_one(r.predicate)) {
                dom += " where " + t.cond(r.predicate).s;
            }
            o << "\ntensor " << fi.tensor << "(" << x << ") : " << fi.type << "\n";
            o << fi.tensor << "(" << x << ") = reduce(" << r.op << ", " << dom << ", " << t.value(r.body).s << ")\n";
            continue;
        }
        o << "\n";
        const Stage &s0 = fi.stages[0];
        SpecTranslator pure(p, vars);
        o << "tensor " << s0.tensor << "(" << x << ") : " << fi.type << "\n";
        o << s0.tensor << "(" << x << ") = " << pure.value(f.values()[0]).s << "\n";
        // stage_value is the value of stage k at the pure point args (text).
        auto stage_value = [&](size_t k, const std::string &args) {
            const Stage &s = fi.stages[k];
            std::vector<std::string> idx;
            if (!args.empty()) {
                idx.push_back(args);
            }
            SpecTranslator t(p, {});
            for (const ReductionVariable &r : s.rv) {
                idx.push_back(t.index(simplify(r.min + r.extent - 1)).s);
            }
            return s.tensor + "(" + join(idx, ", ") + ")";
        };
        for (size_t k = 1; k < fi.stages.size(); k++) {
            const Stage &st = fi.stages[k];
            const Definition &u = f.updates()[k - 1];
            std::map<std::string, std::string> uvars = vars;
            std::vector<std::string> ks;
            for (const ReductionVariable &r : st.rv) {
                std::string id = sanitize(r.var);
                while (std::find(xs.begin(), xs.end(), id) != xs.end() || std::find(ks.begin(), ks.end(), id) != ks.end() ||
                       p.funcs.count(id) || std::find(p.params.begin(), p.params.end(), id) != p.params.end()) {
                    id += "_";
                }
                uvars[r.var] = id;
                ks.push_back(id);
            }
            std::vector<std::string> all = xs;
            all.insert(all.end(), ks.begin(), ks.end());
            std::string lhs = st.tensor + "(" + join(all, ", ") + ")";
            o << "tensor " << lhs << " : " << fi.type << "\n";
            std::string prev = stage_value(k - 1, x);
            SpecTranslator t(p, uvars);
            t.self_name = fn;
            std::string where;
            if (u.predicate().defined() && !is_const_one(u.predicate())) {
                where = t.cond(u.predicate()).s;
            }
            auto eq = [&](const std::string &val, std::vector<std::string> conds) {
                conds.erase(std::remove(conds.begin(), conds.end(), std::string()), conds.end());
                o << lhs << " = " << val;
                if (!conds.empty()) {
                    o << " where " << join(conds, " and ");
                }
                o << "\n";
            };
            // The pure arguments of a read of self must be the update's own.
            auto check_self = [&](const Call *c) {
                for (size_t i = 0; i < c->args.size(); i++) {
                    const Variable *v = c->args[i].as<Variable>();
                    if (!v || v->name != f.args()[i]) {
                        unsupported("update " + std::to_string(k - 1) + " of " + fn + " reads " + str(Expr(c)) +
                                    ": an update may read its own func only at the point it updates");
                    }
                }
            };
            if (ks.empty()) {
                t.self = [&](const Call *c) {
                    check_self(c);
                    return atom(prev);
                };
                std::string val = t.value(u.values()[0]).s;
                if (where.empty()) {
                    eq(val, {});
                } else {
                    eq(val, {"(" + where + ")"});
                    eq(prev, {"not (" + where + ")"});
                }
                continue;
            }
            std::vector<std::string> box, lo, last;
            for (size_t i = 0; i < st.rv.size(); i++) {
                const ReductionVariable &r = st.rv[i];
                lo.push_back(t.index(r.min).s);
                last.push_back(t.index(simplify(r.min + r.extent - 1)).s);
                std::string hi = t.index(simplify(r.min + r.extent)).s;
                box.push_back(lo[i] + " <= " + ks[i] + " < " + hi);
            }
            std::string dom = join(box, " and ");
            eq(prev, {"not (" + dom + ")"});
            size_t n = ks.size();
            // Case q (from the innermost, 1-based): the variables inside
            // q at their lower bounds, the q-th above its own; the first
            // point of the box reads outside it, the previous stage.
            for (size_t q = 1; q <= n; q++) {
                std::vector<std::string> pred(n), conds{dom};
                for (size_t i = 0; i < n; i++) {
                    size_t pos = n - i;
                    if (pos > q) {
                        pred[i] = ks[i];
                    } else if (pos == q) {
                        pred[i] = ks[i] + " - 1";
                        if (q > 1) {
                            conds.push_back(ks[i] + " > " + lo[i]);
                        }
                    } else {
                        pred[i] = last[i];
                        conds.push_back(ks[i] + " == " + lo[i]);
                    }
                }
                if (q == 1 && n > 1) {
                    std::vector<std::string> first;
                    for (size_t i = 0; i + 1 < n; i++) {
                        first.push_back(ks[i] + " == " + lo[i]);
                    }
                    conds.push_back("(" + ks[n - 1] + " > " + lo[n - 1] + " or " + join(first, " and ") + ")");
                }
                std::vector<std::string> here = xs;
                here.insert(here.end(), pred.begin(), pred.end());
                std::string cur = st.tensor + "(" + join(here, ", ") + ")";
                t.self = [&](const Call *c) {
                    check_self(c);
                    return atom(cur);
                };
                std::string val = t.value(u.values()[0]).s;
                if (where.empty()) {
                    eq(val, conds);
                } else {
                    std::vector<std::string> c1 = conds, c2 = conds;
                    c1.push_back("(" + where + ")");
                    c2.push_back("not (" + where + ")");
                    eq(val, c1);
                    eq(cur, c2);
                }
            }
        }
        if (fi.stages.size() > 1) {
            o << "tensor " << fi.tensor << "(" << x << ") : " << fi.type << "\n";
            o << fi.tensor << "(" << x << ") = " << stage_value(fi.stages.size() - 1, x) << "\n";
        }
    }
    std::vector<std::string> outs;
    for (const Buffer_ &b : p.buffers) {
        if (b.output) {
            outs.push_back(b.tensor);
        }
    }
    o << "\noutput " << join(outs, ", ") << "\n";
    return o.str();
}

// ---------------------------------------------------------------- the kernel

// Lines is a translated statement: its lines (unindented), the
// identifiers it uses, and whether it declares lets at its top level.
struct Lines {
    std::vector<std::string> l;
    std::set<std::string> uses;
    bool lets = false;

    void add(Lines &&o) {
        l.insert(l.end(), o.l.begin(), o.l.end());
        uses.insert(o.uses.begin(), o.uses.end());
        lets = lets || o.lets;
    }
    void indent_into(std::vector<std::string> &out) const {
        for (const std::string &s : l) {
            out.push_back("  " + s);
        }
    }
};

struct LetInfo {
    std::string id;
    Expr value;          // as written
    Expr expanded;       // with every enclosing let substituted
    std::string text;    // the index text, when it is one
    std::set<std::string> uses;
    std::string bad;     // why it is not an index expression
};

struct Realized {
    std::string array;
    std::vector<Frag> mins;
};

std::set<std::string> atomic_funcs(const Stmt &s);
bool reduce_parts(const Expr &v, const std::string &fn, const std::vector<Expr> &args, std::string *op, Expr *body);

class KernelTranslator : public Translator {
public:
    KernelTranslator(Pipeline_ &p, const std::map<std::string, std::set<int>> &folded)
        : p_(p), folded_(folded) {
    }

    std::vector<std::string> assumes;
    std::vector<std::string> notes;

    Lines stmt(const Stmt &s) {
        if (const LetStmt *op = s.as<LetStmt>()) {
            return let_stmt(op);
        }
        if (const Block *op = s.as<Block>()) {
            Lines a = stmt(op->first);
            Lines b = stmt(op->rest);
            if (a.lets) {
                Lines w;
                w.l.push_back("{");
                a.indent_into(w.l);
                w.l.push_back("}");
                w.uses = a.uses;
                a = std::move(w);
            }
            a.lets = false;
            a.add(std::move(b));
            return a;
        }
        if (const ProducerConsumer *op = s.as<ProducerConsumer>()) {
            return stmt(op->body);
        }
        if (const For *op = s.as<For>()) {
            return for_loop(op);
        }
        if (const Realize *op = s.as<Realize>()) {
            return realize(op);
        }
        if (const Provide *op = s.as<Provide>()) {
            return provide(op);
        }
        if (const IfThenElse *op = s.as<IfThenElse>()) {
            return if_then_else(op);
        }
        if (const AssertStmt *op = s.as<AssertStmt>()) {
            return assert_stmt(op);
        }
        if (const Atomic *op = s.as<Atomic>()) {
            // atomic(): the updates inside are accumulations of a
            // reduction, atomic in the kernel model (Clément 2022,
            // section 7.3.6)
            for (const std::string &fn : atomic_funcs(s)) {
                if (!p_.reds.count(fn)) {
                    unsupported("the atomic store to " + fn + ", which is not a reduction of its func");
                }
            }
            return stmt(op->body);
        }
        if (const Evaluate *op = s.as<Evaluate>()) {
            if (is_const(op->value)) {
                return {};
            }
            unsupported("the statement " + str(op->value) + " (an Evaluate node)");
        }
        std::ostringstream o;
        o << s;
        std::string text = o.str();
        if (text.size() > 200) {
            text = text.substr(0, 200) + "...";
        }
        unsupported("the statement " + stmt_kind(s) + ": " + text);
    }

protected:
    Frag index_var(const Variable *v) override {
        auto it = scope_.find(v->name);
        if (it != scope_.end() && !it->second.empty()) {
            if (in_assert_) {
                unsupported("the variable " + v->name + " in a check");
            }
            const Bound &b = it->second.back();
            if (b.let && !b.let->bad.empty()) {
                unsupported("the index expression uses " + v->name + " = " + str(b.let->value) + ", which is not one: " + b.let->bad);
            }
            if (uses_) {
                uses_->insert(b.id);
            }
            return atom(b.id);
        }
        auto f = p_.field_param.find(v->name);
        if (f != p_.field_param.end()) {
            return atom(f->second);
        }
        if (v->param.defined() && !v->param.is_buffer() && p_.scalar_index.count(v->param.name())) {
            const Scalar &s = p_.scalars[p_.scalar_index.at(v->param.name())];
            if (s.index) {
                return atom(s.id);
            }
        }
        unsupported("the free variable " + v->name + " (not a loop variable, a let, a buffer's min or extent, nor an int32 parameter)");
    }

    Frag value_var(const Variable *v) override {
        auto it = scope_.find(v->name);
        if (it != scope_.end() && !it->second.empty()) {
            const Bound &b = it->second.back();
            if (b.let && !b.let->bad.empty()) {
                // A let of a value: substitute it.
                return value(b.let->value);
            }
        }
        if (v->param.defined() && !v->param.is_buffer() && p_.scalar_index.count(v->param.name())) {
            const Scalar &s = p_.scalars[p_.scalar_index.at(v->param.name())];
            if (!s.index) {
                return atom(s.array + "[]");
            }
        }
        if (v->type == Int(32)) {
            return atom("i32(" + index_var(v).s + ")");
        }
        unsupported("the variable " + v->name + " of type " + type_name(v->type, v->name) + " used as a value");
    }

    Frag func_call(const Call *c) override {
        return atom(access(c->name, c->args, "read of " + str(Expr(c))));
    }

    Frag image_call(const Call *c) override {
        return atom(access(c->name, c->args, "read of " + str(Expr(c))));
    }

    bool constant(const Expr &e, int64_t *c) override {
        const int64_t *p = as_const_int(simplify(substitute(expanded_, e)));
        if (p) {
            *c = *p;
        }
        return p != nullptr;
    }

private:
    struct Bound {
        std::string id;
        LetInfo *let = nullptr;
    };

    Pipeline_ &p_;
    std::map<std::string, std::set<int>> folded_;
    std::map<std::string, std::vector<Bound>> scope_;
    std::map<std::string, Expr> expanded_;  // the lets in scope, expanded
    std::map<std::string, std::vector<Realized>> realized_;
    std::set<std::string> *uses_ = nullptr;
    int depth_ = 0;  // loops around the statement (a check inside one is reached only if the loop runs)
    bool in_assert_ = false;
    std::vector<std::unique_ptr<LetInfo>> lets_;
    std::vector<Expr> path_;  // the conditions of the enclosing ifs (lets expanded), else branches negated
    Scope<Interval> bounds_;  // constant bounds of parameters that the kernel assumes

    // note_bound records a check of the form v >= c or v <= c on a
    // parameter v, which the kernel assumes, for proofs in fused loops.
    void note_bound(const Expr &e) {
        const Variable *v = nullptr;
        const int64_t *c = nullptr;
        bool lower = false;
        auto side = [&](const Expr &a, const Expr &b, bool a_lower) {
            if (a.as<Variable>() && as_const_int(b)) {
                v = a.as<Variable>();
                c = as_const_int(b);
                lower = a_lower;
            } else if (b.as<Variable>() && as_const_int(a)) {
                v = b.as<Variable>();
                c = as_const_int(a);
                lower = !a_lower;
            }
        };
        int64_t adj = 0;
        if (const GE *op = e.as<GE>()) {
            side(op->a, op->b, true);
        } else if (const LE *op = e.as<LE>()) {
            side(op->a, op->b, false);
        } else if (const GT *op = e.as<GT>()) {
            side(op->a, op->b, true);
            adj = 1;
        } else if (const LT *op = e.as<LT>()) {
            side(op->a, op->b, false);
            adj = 1;
        }
        if (!v) {
            return;
        }
        Interval iv = bounds_.contains(v->name) ? bounds_.get(v->name) : Interval::everything();
        if (lower) {
            Expr m = make_const(Int(32), *c + adj);
            iv.min = iv.has_lower_bound() ? simplify(max(iv.min, m)) : m;
        } else {
            Expr m = make_const(Int(32), *c - adj);
            iv.max = iv.has_upper_bound() ? simplify(min(iv.max, m)) : m;
        }
        if (bounds_.contains(v->name)) {
            bounds_.pop(v->name);
        }
        bounds_.push(v->name, iv);
    }

    static std::string stmt_kind(const Stmt &s) {
        switch (s->node_type) {
        case IRNodeType::Store:
            return "Store (a flattened store)";
        case IRNodeType::Allocate:
            return "Allocate (a flattened allocation)";
        case IRNodeType::Free:
            return "Free";
        case IRNodeType::Fork:
            return "Fork (async)";
        case IRNodeType::Acquire:
            return "Acquire (async semaphores)";
        case IRNodeType::Atomic:
            return "Atomic";
        case IRNodeType::Prefetch:
            return "Prefetch";
        default:
            return "node";
        }
    }

    // with translates f's expressions, collecting the identifiers they use
    // into uses.
    template<typename F>
    auto with(std::set<std::string> &uses, F f) {
        std::set<std::string> *old = uses_;
        uses_ = &uses;
        struct Restore {
            std::set<std::string> **p;
            std::set<std::string> *old;
            ~Restore() {
                *p = old;
            }
        } r{&uses_, old};
        return f();
    }

    std::string ident(const std::string &name) {
        return p_.names(name);
    }

    void push(const std::string &name, const std::string &id, LetInfo *let) {
        scope_[name].push_back({id, let});
    }
    void pop(const std::string &name) {
        scope_[name].pop_back();
    }

    // access is an array access, the func's or image's coordinates shifted
    // by the array's mins.
    std::string access(const std::string &name, const std::vector<Expr> &args, const std::string &what) {
        auto it = realized_.find(name);
        if (it == realized_.end() || it->second.empty()) {
            unsupported("the " + what + ": " + name + " is neither realized here nor a buffer of the pipeline");
        }
        const Realized &r = it->second.back();
        if (r.mins.size() != args.size()) {
            unsupported("the " + what + ": " + std::to_string(args.size()) + " coordinates for " +
                        std::to_string(r.mins.size()) + " dimensions");
        }
        std::vector<std::string> idx;
        for (size_t i = 0; i < args.size(); i++) {
            Frag a = index(args[i]);
            if (r.mins[i].s == "0") {
                idx.push_back(a.s);
            } else {
                idx.push_back(binary(a, "-", r.mins[i], PAdd).s);
            }
        }
        return r.array + "[" + join(idx, ", ") + "]";
    }

    Lines let_stmt(const LetStmt *op) {
        auto info = std::make_unique<LetInfo>();
        LetInfo *li = info.get();
        lets_.push_back(std::move(info));
        li->id = ident(op->name);
        li->value = op->value;
        li->expanded = substitute(expanded_, op->value);
        if (op->value.type() != Int(32)) {
            li->bad = "of type " + type_name_or(op->value.type());
        } else {
            try {
                li->text = with(li->uses, [&] { return index(op->value).s; });
            } catch (const Unsupported &e) {
                li->bad = e.what();
            }
        }
        push(op->name, li->id, li);
        Expr old = expanded_.count(op->name) ? expanded_[op->name] : Expr();
        expanded_[op->name] = li->expanded;
        Lines body = stmt(op->body);
        if (old.defined()) {
            expanded_[op->name] = old;
        } else {
            expanded_.erase(op->name);
        }
        pop(op->name);
        if (!body.uses.count(li->id)) {
            return body;
        }
        body.uses.erase(li->id);
        body.uses.insert(li->uses.begin(), li->uses.end());
        body.l.insert(body.l.begin(), "let " + li->id + " = " + li->text);
        body.lets = true;
        return body;
    }

    static std::string type_name_or(const Type &t) {
        std::ostringstream o;
        o << t;
        return o.str();
    }

    Lines for_loop(const For *op) {
        std::string kind;
        switch (op->for_type) {
        case ForType::Serial:
        case ForType::Unrolled:
            kind = "for";
            break;
        case ForType::Parallel:
        case ForType::Vectorized:
            kind = "par";
            break;
        default: {
            std::ostringstream o;
            o << op->for_type;
            unsupported("the " + o.str() + " loop " + op->name);
        }
        }
        if (op->device_api != DeviceAPI::None && op->device_api != DeviceAPI::Host) {
            unsupported("the loop " + op->name + " offloaded to a device");
        }
        Lines out;
        if (fused_loop(op, kind, &out)) {
            return out;
        }
        Frag mn = with(out.uses, [&] { return index(op->min); });
        Frag ex = with(out.uses, [&] { return index(op->extent); });
        std::string id = ident(op->name);
        push(op->name, id, nullptr);
        depth_++;
        Lines body = stmt(op->body);
        depth_--;
        pop(op->name);
        body.uses.erase(id);
        std::string head;
        if (mn.s == "0") {
            head = kind + " " + id + " < " + ex.s + " {";
        } else {
            head = kind + " " + id + " in " + mn.s + " .. " + binary(mn, "+", ex, PAdd).s + " {";
        }
        out.l.push_back(head);
        body.indent_into(out.l);
        out.l.push_back("}");
        out.uses.insert(body.uses.begin(), body.uses.end());
        return out;
    }

    // fused_loop translates a loop that Halide's fuse() made of two loops
    // of symbolic extents, t over [0, q*d), its body reading t only as
    // t / d and t % d: as the two loops it came from, u over [0, q) and
    // v over [0, d), t / d read as u and t % d as v. The two iterate the
    // same points in the same order when d >= 0 (t = u*d + v), which must
    // follow from the checks the kernel assumes; otherwise, or when t is
    // read otherwise, the loop is an error (an index expression d*u is
    // not affine; Clément 2022, section 9.6, non-affine code).
    bool fused_loop(const For *op, const std::string &kind, Lines *out) {
        if (!is_const_zero(simplify(substitute(expanded_, op->min)))) {
            return false;
        }
        Expr ext = simplify(substitute(expanded_, op->extent));
        const Mul *m = ext.as<Mul>();
        if (!m || is_const(m->a) || is_const(m->b)) {
            return false;
        }
        const std::string t = op->name;
        auto is_t = [&](const Expr &e) {
            const Variable *v = e.as<Variable>();
            return v && v->name == t;
        };
        // The divisors of t in the body, and whether t is read otherwise.
        std::vector<Expr> divisors;
        bool other = false;
        class Scan : public IRGraphVisitor {
        public:
            std::function<bool(const Expr &)> is_t;
            std::vector<Expr> *divisors;
            bool *other;
            using IRGraphVisitor::visit;
            void visit(const Div *op) override {
                if (is_t(op->a)) {
                    divisors->push_back(op->b);
                    op->b.accept(this);
                } else {
                    IRGraphVisitor::visit(op);
                }
            }
            void visit(const Mod *op) override {
                if (is_t(op->a)) {
                    divisors->push_back(op->b);
                    op->b.accept(this);
                } else {
                    IRGraphVisitor::visit(op);
                }
            }
            void visit(const Variable *op) override {
                if (is_t(Expr(op))) {
                    *other = true;
                }
            }
        } sc;
        sc.is_t = is_t;
        sc.divisors = &divisors;
        sc.other = &other;
        op->body.accept(&sc);
        if (divisors.empty()) {
            return false;
        }
        auto expand = [&](const Expr &e) { return simplify(substitute(expanded_, e)); };
        Expr d = expand(divisors[0]), q;
        for (const Expr &x : divisors) {
            if (!equal(expand(x), d)) {
                unsupported("the fused loop " + t + " over " + str(ext) + ": its variable is divided by both " + str(d) +
                            " and " + str(expand(x)));
            }
        }
        if (equal(expand(m->a), d)) {
            q = m->b;
        } else if (equal(expand(m->b), d)) {
            q = m->a;
        } else {
            unsupported("the fused loop " + t + " over " + str(ext) + ": its variable is divided by " + str(d) +
                        ", not a factor of the extent");
        }
        if (other) {
            unsupported("the fused loop " + t + " over " + str(ext) + ": its variable is read otherwise than as " + t + " / " +
                        str(d) + " and " + t + " % " + str(d));
        }
        if (!can_prove(d >= 0, bounds_)) {
            unsupported("the fused loop " + t + " over " + str(ext) + ": the checks do not show its inner extent " + str(d) +
                        " non-negative, so it cannot be split back into two loops");
        }
        const std::string un = t + "$q", vn = t + "$r";
        Expr u = Variable::make(Int(32), un), v = Variable::make(Int(32), vn);
        class Split : public IRMutator {
        public:
            std::function<bool(const Expr &)> is_t;
            Expr u, v;
            using IRMutator::visit;
            Expr visit(const Div *op) override {
                return is_t(op->a) ? u : IRMutator::visit(op);
            }
            Expr visit(const Mod *op) override {
                return is_t(op->a) ? v : IRMutator::visit(op);
            }
        } sp;
        sp.is_t = is_t;
        sp.u = u;
        sp.v = v;
        Stmt body = sp.mutate(op->body);
        Frag qf = with(out->uses, [&] { return index(q); });
        Frag df = with(out->uses, [&] { return index(d); });
        std::string uid = ident(un), vid = ident(vn);
        push(un, uid, nullptr);
        push(vn, vid, nullptr);
        depth_ += 2;
        Lines b = stmt(body);
        depth_ -= 2;
        pop(vn);
        pop(un);
        b.uses.erase(uid);
        b.uses.erase(vid);
        out->l.push_back("# Halide's fused loop " + ident(t) + " split back: " + ident(t) + " = " + uid + " * (" + df.s + ") + " + vid);
        out->l.push_back(kind + " " + uid + " < " + qf.s + " {");
        out->l.push_back("  " + kind + " " + vid + " < " + df.s + " {");
        for (const std::string &l : b.l) {
            out->l.push_back("    " + l);
        }
        out->l.push_back("  }");
        out->l.push_back("}");
        out->uses.insert(b.uses.begin(), b.uses.end());
        return true;
    }

    Lines realize(const Realize *op) {
        if (op->types.size() != 1) {
            unsupported("the realization of " + op->name + ", a func of " + std::to_string(op->types.size()) + " values (tuples)");
        }
        // A conditional realization (skip_stages: the func is needed only
        // when the condition holds) allocates only then; its body runs
        // either way. An allocation has no effect of its own in the
        // kernel model, so the array is allocated unconditionally.
        Lines out;
        Realized r;
        auto fi = p_.funcs.find(op->name);
        if (fi == p_.funcs.end()) {
            unsupported("the realization of " + op->name + ", which is not a func of the pipeline");
        }
        r.array = ident("buf_" + op->name);
        std::vector<std::string> ext;
        for (const Range &b : op->bounds) {
            r.mins.push_back(with(out.uses, [&] { return index(b.min); }));
            ext.push_back(with(out.uses, [&] { return index(b.extent).s; }));
        }
        realized_[op->name].push_back(r);
        Lines body = stmt(op->body);
        realized_[op->name].pop_back();
        out.l.push_back("alloc " + r.array + " : " + fi->second.type + "[" + join(ext, ", ") + "] {");
        body.indent_into(out.l);
        out.l.push_back("}");
        out.uses.insert(body.uses.begin(), body.uses.end());
        return out;
    }

    Lines provide(const Provide *op) {
        std::string what = "store to " + op->name;
        if (op->values.size() != 1) {
            unsupported("the " + what + " of " + std::to_string(op->values.size()) + " values (tuples)");
        }
        if (op->predicate.defined() && !is_const_one(op->predicate)) {
            unsupported("the predicated " + what + " (if " + str(op->predicate) + ")");
        }
        auto fi = p_.funcs.find(op->name);
        if (fi == p_.funcs.end()) {
            unsupported("the " + what + ", which is not a func of the pipeline");
        }
        Lines out;
        std::string lhs = with(out.uses, [&] { return access(op->name, op->args, what); });
        std::string rhs = with(out.uses, [&] { return value(op->values[0]).s; });
        // The stage: its RVars' coordinates must be in scope, and the
        // one with the most coordinates in scope wins. A pure coordinate
        // out of scope (the simplifier substitutes the variables of loops
        // of one iteration) is the store's own argument in that
        // dimension, unless storage folding rewrote the dimension.
        const Stage *found = nullptr;
        int best = -1;
        bool tie = false;
        size_t npure = fi->second.f.args().size();
        auto in_scope = [&](const std::string &c) {
            auto it = scope_.find(c);
            return it != scope_.end() && !it->second.empty();
        };
        // compute_with fuses the loops of two funcs: a pure coordinate
        // f.sK.y is then the fused loop's f.sK.fused.y.
        auto coord = [&](const Stage &st, size_t i) {
            const std::string &c = st.coords[i];
            if (i < npure && !in_scope(c) && in_scope(st.fused[i])) {
                return st.fused[i];
            }
            return c;
        };
        for (const Stage &st : fi->second.stages) {
            int score = 0;
            bool ok = true;
            for (size_t i = 0; i < st.coords.size(); i++) {
                if (in_scope(coord(st, i))) {
                    score++;
                } else if (i >= npure) {
                    ok = false;
                }
            }
            if (!ok) {
                continue;
            }
            if (score > best) {
                found = &st;
                best = score;
                tie = false;
            } else if (score == best) {
                tie = true;
            }
        }
        if (!found) {
            unsupported("the " + what + ": no stage of " + op->name + " has its coordinates in scope");
        }
        if (tie) {
            unsupported("the " + what + ": the stage it belongs to is ambiguous (two stages with their coordinates in scope)");
        }
        std::vector<std::string> coords;
        for (size_t i = 0; i < found->coords.size(); i++) {
            const std::string c = coord(*found, i);
            if (!in_scope(c)) {
                auto fo = folded_.find(op->name);
                if (fo != folded_.end() && fo->second.count((int)i)) {
                    unsupported("the " + what + ": the coordinate " + c + " is not in scope and dimension " +
                                std::to_string(i) + " is folded");
                }
                coords.push_back(with(out.uses, [&] { return index(op->args[i]).s; }));
                continue;
            }
            const Bound &b = scope_.at(c).back();
            if (b.let && !b.let->bad.empty()) {
                unsupported("the coordinate " + c + " of the " + what + " is bound to " + str(b.let->value) + ": " + b.let->bad);
            }
            out.uses.insert(b.id);
            coords.push_back(b.id);
        }
        if (auto rit = p_.reds.find(op->name); rit != p_.reds.end()) {
            return reduction_store(op, rit->second, lhs, rhs, found - &fi->second.stages[0], npure, coords, std::move(out));
        }
        out.l.push_back(lhs + " {" + found->tensor + "(" + join(coords, ", ") + ")} := " + rhs);
        return out;
    }

    // reduction_store annotates a store of a func whose reduction the
    // schedule re-orders (Clément 2022, section 7.3): the pure
    // definition's initialises an accumulator of the target's element, an
    // update accumulates the position of the user's RDom it adds (its own
    // RVars' coordinates, or, in an rfactor intermediate, the position
    // rfactor substituted), an rfactor merge adds a partial result.
    Lines reduction_store(const Provide *op, const Red &r, const std::string &lhs, const std::string &rhs, size_t stage,
                          size_t npure, const std::vector<std::string> &coords, Lines out) {
        std::vector<std::string> x(coords.begin(), coords.begin() + r.dims);
        std::string ann = p_.funcs.at(r.target).tensor + "(" + join(x, ", ") + ")";
        if (stage == 0) {
            out.l.push_back(lhs + " {" + ann + " @ ()} := " + rhs);
            return out;
        }
        std::string opn;
        Expr body;
        if (!reduce_parts(op->values[0], op->name, op->args, &opn, &body) || opn != r.op) {
            unsupported("the store to " + op->name + ", " + str(op->values[0]) + ": not an accumulation with " + r.op);
        }
        std::string val = with(out.uses, [&] { return value(body).s; });
        std::string at;
        switch (r.kind) {
        case Red::Atomic:
            at = " @ (" + join(std::vector<std::string>(coords.begin() + npure, coords.end()), ", ") + ")";
            break;
        case Red::Intermediate: {
            std::vector<std::string> ps;
            for (const Expr &e : r.at) {
                ps.push_back(with(out.uses, [&] { return index(e).s; }));
            }
            at = " @ (" + join(ps, ", ") + ")";
            break;
        }
        case Red::Merge: {
            const Call *c = body.as<Call>();
            if (!c || !p_.reds.count(c->name) || p_.reds.at(c->name).kind != Red::Intermediate) {
                unsupported("the store to " + op->name + ", " + str(op->values[0]) + ": not a merge of an rfactor() intermediate");
            }
            break;
        }
        }
        out.l.push_back(lhs + " {" + ann + at + "} " + r.op + "= " + val);
        return out;
    }

    Lines if_then_else(const IfThenElse *op) {
        Expr c = no_bounds_query(op->condition);
        if (is_const_one(c)) {
            return stmt(op->then_case);
        }
        if (is_const_zero(c)) {
            return op->else_case.defined() ? stmt(op->else_case) : Lines{};
        }
        Lines out;
        std::string cond_text = with(out.uses, [&] { return cond(op->condition).s; });
        // The path condition, for the checks inside (with the lets
        // around expanded).
        Expr pc = substitute(expanded_, c);
        path_.push_back(pc);
        Lines then = stmt(op->then_case);
        path_.pop_back();
        out.l.push_back("if " + cond_text + " {");
        then.indent_into(out.l);
        out.uses.insert(then.uses.begin(), then.uses.end());
        if (op->else_case.defined()) {
            path_.push_back(simplify(!pc));
            Lines els = stmt(op->else_case);
            path_.pop_back();
            out.l.push_back("} else {");
            els.indent_into(out.l);
            out.uses.insert(els.uses.begin(), els.uses.end());
        }
        out.l.push_back("}");
        return out;
    }

    // Halide's checks of buffers and parameters: an affine constraint on
    // the parameters becomes an assumption of the kernel; the checks of
    // what the model has no notion of (types, dimensions, strides, host
    // pointers, allocation sizes, device state) are listed as notes.
    Lines assert_stmt(const AssertStmt *op) {
        Expr c = no_bounds_query(substitute(expanded_, op->condition));
        if (is_const_one(c)) {
            return {};
        }
        std::string err = "assert";
        if (const Call *m = op->message.as<Call>()) {
            err = m->name;
        }
        std::vector<Expr> parts;
        std::function<void(const Expr &)> split = [&](const Expr &e) {
            if (const And *a = e.as<And>()) {
                split(a->a);
                split(a->b);
            } else {
                parts.push_back(e);
            }
        };
        split(c);
        static const std::set<std::string> outside = {
            "halide_error_bad_type", "halide_error_bad_dimensions", "halide_error_constraint_violated",
            "halide_error_buffer_allocation_too_large", "halide_error_buffer_extents_too_large",
            "halide_error_device_dirty_with_no_device_support", "halide_error_host_is_null",
            "halide_error_unaligned_host_ptr", "halide_error_constraints_make_required_region_smaller"};
        // A check under ifs holds only where their conditions do: the
        // assumption is the implication. An unreachable branch's failing
        // check (Halide's specialize_fail) thus assumes the branch is
        // not taken.
        std::string path_text;
        if (!path_.empty()) {
            Expr pc = path_[0];
            for (size_t i = 1; i < path_.size(); i++) {
                pc = pc && path_[i];
            }
            try {
                in_assert_ = true;
                std::set<std::string> u;
                path_text = with(u, [&] { return cond(simplify(pc)).s; });
                in_assert_ = false;
            } catch (const Unsupported &ex) {
                in_assert_ = false;
                unsupported("the check " + str(op->condition) + " (" + err + ") under the condition " + str(pc) + ": " + ex.what());
            }
        }
        for (const Expr &e : parts) {
            std::string text;
            try {
                in_assert_ = true;
                std::set<std::string> u;
                text = with(u, [&] { return cond(e).s; });
                in_assert_ = false;
                if (depth_ > 0) {
                    unsupported("the check " + str(op->condition) + " (" + err + ") inside a loop");
                }
                if (!path_text.empty()) {
                    text = "not (" + path_text + ") or (" + text + ")";
                } else {
                    note_bound(e);
                }
            } catch (const Unsupported &ex) {
                in_assert_ = false;
                if (!outside.count(err)) {
                    unsupported("the check " + str(op->condition) + " (" + err + "): " + ex.what());
                }
                notes.push_back(err + ": " + str(e));
                continue;
            }
            if (std::find(assumes.begin(), assumes.end(), text) == assumes.end()) {
                assumes.push_back(text);
            }
        }
        return {};
    }

public:
    // bind declares the arrays of the buffers, before the body.
    void bind_buffers() {
        for (const Buffer_ &b : p_.buffers) {
            Realized r;
            r.array = b.array;
            for (const std::string &m : b.mins) {
                r.mins.push_back(atom(m));
            }
            realized_[b.name].push_back(r);
        }
    }
};

// ---------------------------------------------------------------- lowering

struct Lowered {
    Stmt s;
    std::map<std::string, std::set<int>> folded;  // dimensions storage folding rewrote, by func
    std::vector<Function> outputs;
    std::map<std::string, Function> env;
    std::vector<std::string> order;
};

// Realizations collects the bounds of every realization.
class Realizations : public IRVisitor {
public:
    std::map<std::string, std::vector<Region>> bounds;

private:
    using IRVisitor::visit;
    void visit(const Realize *op) override {
        bounds[op->name].push_back(op->bounds);
        IRVisitor::visit(op);
    }
};

// folded_dims finds the dimensions whose realization bounds storage folding
// changed: there the stores and loads are at folded coordinates.
std::map<std::string, std::set<int>> folded_dims(const Stmt &before, const Stmt &after) {
    Realizations b, a;
    before.accept(&b);
    after.accept(&a);
    std::map<std::string, std::set<int>> out;
    for (const auto &kv : a.bounds) {
        auto it = b.bounds.find(kv.first);
        for (size_t r = 0; r < kv.second.size(); r++) {
            for (size_t d = 0; d < kv.second[r].size(); d++) {
                bool same = it != b.bounds.end() && r < it->second.size() && d < it->second[r].size() &&
                            equal(it->second[r][d].min, kv.second[r][d].min) &&
                            equal(it->second[r][d].extent, kv.second[r][d].extent);
                if (!same) {
                    out[kv.first].insert((int)d);
                }
            }
        }
    }
    return out;
}

Lowered lower(const Halide::Pipeline &pipeline, const Target &t, const std::string &name) {
    if (t.has_gpu_feature() || t.has_feature(Target::OpenGLCompute) || t.has_feature(Target::HexagonDma) ||
        (t.arch != Target::Hexagon && t.has_feature(Target::HVX))) {
        unsupported("the target " + t.to_string() + ": device offloading (only host targets are translated)");
    }
    std::vector<Function> outs;
    for (const Func &f : pipeline.outputs()) {
        outs.push_back(f.function());
    }
    // The passes of Halide 14's lower_impl (src/Lower.cpp), in its order,
    // up to storage flattening.
    auto copied = deep_copy(outs, build_environment(outs));
    Lowered l;
    l.outputs = copied.first;
    l.env = copied.second;
    strictify_float(l.env, t);
    for (const Function &f : l.outputs) {
        Func(f).compute_root().store_root();
    }
    for (auto &it : l.env) {
        it.second.lock_loop_levels();
    }
    l.env = wrap_func_calls(l.env);
    auto ordered = realization_order(l.outputs, l.env);
    l.order = ordered.first;
    simplify_specializations(l.env);
    bool any_memoized = false;
    Stmt s = schedule_functions(l.outputs, ordered.second, l.env, t, any_memoized);
    if (any_memoized) {
        unsupported("memoize(): memoized funcs");
    }
    s = inject_tracing(s, name, false, l.env, l.outputs, t);
    s = add_parameter_checks({}, s, t);
    FuncValueBounds fb = compute_function_value_bounds(l.order, l.env);
    s = clamp_unsafe_accesses(s, l.env, fb);
    s = bounds_inference(s, l.outputs, l.order, ordered.second, l.env, fb, t);
    s = remove_extern_loops(s);
    s = sliding_window(s, l.env);
    s = uniquify_variable_names(s);
    s = simplify(s, false);
    s = simplify_correlated_differences(s);
    s = allocation_bounds_inference(s, l.env, fb);
    s = add_image_checks(s, l.outputs, t, l.order, l.env, fb, false);
    s = remove_undef(s);
    Stmt before_folding = s;
    s = storage_folding(s, l.env);
    l.folded = folded_dims(before_folding, s);
    s = debug_to_file(s, l.outputs, l.env);
    s = inject_prefetch(s, l.env);
    s = lower_safe_promises(s);
    s = skip_stages(s, l.order);
    s = fork_async_producers(s, l.env);
    s = split_tuples(s, l.env);
    s = simplify_correlated_differences(s);
    s = bound_small_allocations(s);
    l.s = s;
    return l;
}

// gather names the funcs, buffers and parameters of the lowered pipeline.
Pipeline_ gather(const Lowered &l) {
    Pipeline_ p;
    for (const std::string &w : reserved_words()) {
        p.names.reserve(w);
    }
    p.order = l.order;
    for (const std::string &fn : l.order) {
        const Function &f = l.env.at(fn);
        if (f.has_extern_definition()) {
            unsupported("the extern func " + fn);
        }
        if (f.outputs() != 1) {
            unsupported("the func " + fn + " of " + std::to_string(f.outputs()) + " values (tuples)");
        }
        if (!f.has_pure_definition()) {
            unsupported("the func " + fn + " without a pure definition");
        }
        FuncInfo fi;
        fi.f = f;
        fi.type = type_name(f.output_types()[0], "func " + fn);
        fi.tensor = p.names(fn);
        size_t n = 1 + f.updates().size();
        for (size_t k = 0; k < n; k++) {
            Stage st;
            std::string prefix = fn + ".s" + std::to_string(k) + ".";
            st.tensor = n == 1 ? fi.tensor : p.names(fn + "_s" + std::to_string(k));
            for (const std::string &a : f.args()) {
                st.coords.push_back(prefix + a);
                st.fused.push_back(prefix + "fused." + a);
            }
            if (k > 0) {
                const Definition &u = f.updates()[k - 1];
                for (size_t i = 0; i < u.args().size(); i++) {
                    const Variable *v = u.args()[i].as<Variable>();
                    if (!v || v->name != f.args()[i]) {
                        unsupported("update " + std::to_string(k - 1) + " of " + fn + " writes at " + str(u.args()[i]) +
                                    " in dimension " + std::to_string(i) +
                                    ": only updates that keep every pure variable in place are translated");
                    }
                }
                if (u.values().size() != 1) {
                    unsupported("update " + std::to_string(k - 1) + " of " + fn + " of several values (tuples)");
                }
                const auto &rvs = u.schedule().rvars();
                for (auto it = rvs.rbegin(); it != rvs.rend(); ++it) {
                    st.rv.push_back(*it);
                    st.coords.push_back(prefix + it->var);
                }
            }
            fi.stages.push_back(st);
        }
        p.funcs[fn] = fi;
    }
    for (const Function &f : l.outputs) {
        p.add_buffer(f.name(), f.output_types()[0], f.dimensions(), true);
    }
    // Inputs and parameters, in the order the algorithm reads them.
    Inputs in;
    for (const std::string &fn : l.order) {
        const Function &f = l.env.at(fn);
        auto visit_def = [&](const Definition &d) {
            for (const Expr &e : d.values()) {
                e.accept(&in);
            }
            for (const Expr &e : d.args()) {
                e.accept(&in);
            }
            if (d.predicate().defined()) {
                d.predicate().accept(&in);
            }
            for (const ReductionVariable &r : d.schedule().rvars()) {
                r.min.accept(&in);
                r.extent.accept(&in);
            }
        };
        visit_def(f.definition());
        for (const Definition &u : f.updates()) {
            visit_def(u);
        }
    }
    l.s.accept(&in);
    for (const auto &im : in.images) {
        const Call *c = im.second;
        Type t = c->type;
        int dims = (int)c->args.size();
        p.add_buffer(im.first, t, dims, false);
    }
    for (const Parameter &prm : in.scalars) {
        p.add_scalar(prm);
    }
    for (const Buffer_ &b : p.buffers) {
        for (int d = 0; d < b.dims; d++) {
            p.params.push_back(b.mins[d]);
            p.params.push_back(b.extents[d]);
        }
    }
    for (const Scalar &s : p.scalars) {
        if (s.index) {
            p.params.push_back(s.id);
        }
    }
    return p;
}

// ---------------------------------------------------------------- reductions

// reduce_parts splits the value v of an update of fn at args into its
// reduction operator and the value folded, when v combines fn's own value
// at the updated point with one associative and commutative operator.
bool reduce_parts(const Expr &v0, const std::string &fn, const std::vector<Expr> &args, std::string *op, Expr *body) {
    // rfactor's splits bind the substituted RVars with lets
    Expr v = substitute_in_all_lets(v0);
    auto self = [&](const Expr &e) {
        const Call *c = e.as<Call>();
        if (!c || c->call_type != Call::Halide || c->name != fn || c->args.size() != args.size()) {
            return false;
        }
        for (size_t i = 0; i < args.size(); i++) {
            if (!equal(c->args[i], args[i])) {
                return false;
            }
        }
        return true;
    };
    auto two = [&](const Expr &a, const Expr &b, const char *o) {
        if (self(a) && !self(b)) {
            *op = o;
            *body = b;
            return true;
        }
        if (self(b) && !self(a)) {
            *op = o;
            *body = a;
            return true;
        }
        return false;
    };
    if (const Add *n = v.as<Add>()) {
        return two(n->a, n->b, "+");
    }
    if (const Mul *n = v.as<Mul>()) {
        return two(n->a, n->b, "*");
    }
    if (const Min *n = v.as<Min>()) {
        return two(n->a, n->b, "min");
    }
    if (const Max *n = v.as<Max>()) {
        return two(n->a, n->b, "max");
    }
    if (const Call *c = v.as<Call>(); c && c->args.size() == 2) {
        if (c->is_intrinsic(Call::bitwise_and)) {
            return two(c->args[0], c->args[1], "&");
        }
        if (c->is_intrinsic(Call::bitwise_or)) {
            return two(c->args[0], c->args[1], "|");
        }
        if (c->is_intrinsic(Call::bitwise_xor)) {
            return two(c->args[0], c->args[1], "^");
        }
    }
    return false;
}

// reads_func reports whether e reads the func fn.
bool reads_func(const Expr &e, const std::string &fn) {
    class Reads : public IRGraphVisitor {
    public:
        std::string fn;
        bool found = false;

    private:
        using IRGraphVisitor::visit;
        void visit(const Call *op) override {
            if (op->call_type == Call::Halide && op->name == fn) {
                found = true;
            }
            IRGraphVisitor::visit(op);
        }
    } r;
    r.fn = fn;
    e.accept(&r);
    return r.found;
}

// is_identity reports whether e is op's identity.
bool is_identity(const Expr &e0, const std::string &op) {
    Expr e = simplify(e0);
    Type t = e.type();
    if (op == "+" || op == "|" || op == "^") {
        return is_const_zero(e);
    }
    if (op == "*") {
        return is_const_one(e);
    }
    if (op == "&") {
        return equal(e, t.is_uint() ? t.max() : make_const(t, -1));
    }
    if (op == "min") {
        return !t.is_float() && equal(e, t.max());
    }
    if (op == "max") {
        return !t.is_float() && equal(e, t.min());
    }
    return false;
}

// match finds the values of the variables holes that make a into b, where
// b is a with each hole substituted (as Halide's rfactor substitutes the
// RVars it splits): same structure elsewhere.
bool match(const Expr &a, const Expr &b, const std::set<std::string> &holes, std::map<std::string, Expr> &m) {
    if (!a.defined() || !b.defined()) {
        return a.defined() == b.defined();
    }
    if (const Variable *v = a.as<Variable>(); v && holes.count(v->name)) {
        auto it = m.find(v->name);
        if (it == m.end()) {
            m[v->name] = b;
            return true;
        }
        return equal(it->second, b);
    }
    if (a.node_type() != b.node_type() || a.type() != b.type()) {
        return false;
    }
#define AUGUR_MATCH2(T)                                                        \
    if (const T *x = a.as<T>()) {                                              \
        const T *y = b.as<T>();                                                \
        return match(x->a, y->a, holes, m) && match(x->b, y->b, holes, m);    \
    }
    AUGUR_MATCH2(Add)
    AUGUR_MATCH2(Sub)
    AUGUR_MATCH2(Mul)
    AUGUR_MATCH2(Div)
    AUGUR_MATCH2(Mod)
    AUGUR_MATCH2(Min)
    AUGUR_MATCH2(Max)
    AUGUR_MATCH2(EQ)
    AUGUR_MATCH2(NE)
    AUGUR_MATCH2(LT)
    AUGUR_MATCH2(LE)
    AUGUR_MATCH2(GT)
    AUGUR_MATCH2(GE)
    AUGUR_MATCH2(And)
    AUGUR_MATCH2(Or)
#undef AUGUR_MATCH2
    if (const Cast *x = a.as<Cast>()) {
        return match(x->value, b.as<Cast>()->value, holes, m);
    }
    if (const Not *x = a.as<Not>()) {
        return match(x->a, b.as<Not>()->a, holes, m);
    }
    if (const Select *x = a.as<Select>()) {
        const Select *y = b.as<Select>();
        return match(x->condition, y->condition, holes, m) && match(x->true_value, y->true_value, holes, m) &&
               match(x->false_value, y->false_value, holes, m);
    }
    if (const Let *x = a.as<Let>()) {
        const Let *y = b.as<Let>();
        return x->name == y->name && match(x->value, y->value, holes, m) && match(x->body, y->body, holes, m);
    }
    if (const Call *x = a.as<Call>()) {
        const Call *y = b.as<Call>();
        if (x->name != y->name || x->call_type != y->call_type || x->value_index != y->value_index ||
            x->args.size() != y->args.size()) {
            return false;
        }
        for (size_t i = 0; i < x->args.size(); i++) {
            if (!match(x->args[i], y->args[i], holes, m)) {
                return false;
            }
        }
        return true;
    }
    return equal(a, b);
}

// atomic_funcs lists the funcs stored inside Atomic nodes.
std::set<std::string> atomic_funcs(const Stmt &s) {
    class Scan : public IRVisitor {
    public:
        std::set<std::string> found;

    private:
        using IRVisitor::visit;
        int depth = 0;
        void visit(const Atomic *op) override {
            depth++;
            IRVisitor::visit(op);
            depth--;
        }
        void visit(const Provide *op) override {
            if (depth > 0) {
                found.insert(op->name);
            }
            IRVisitor::visit(op);
        }
    } sc;
    s.accept(&sc);
    return sc.found;
}

// find_reductions finds the funcs whose reduction the schedule re-orders:
// those updated inside an Atomic node (atomic()), and, with the algorithm
// as generate() left it, those whose update rfactor rewrote into a merge
// of an intermediate func's partial results, and those intermediates.
void find_reductions(Pipeline_ &p, const Lowered &l, const Algorithm *alg) {
    // target records fn's own update as a reduction: u is the user's.
    auto target = [&](const std::string &fn, const Algorithm::Update &u, Red::Kind kind) {
        const Function &f = l.env.at(fn);
        Red r;
        r.kind = kind;
        r.target = fn;
        r.dims = f.args().size();
        if (u.values.size() != 1 || !reduce_parts(u.values[0], fn, u.args, &r.op, &r.body)) {
            unsupported("the update of " + fn + ", " + str(u.values.empty() ? Expr() : u.values[0]) +
                        ": atomic() and rfactor() are translated for updates F(x) = F(x) OP e with OP one of + * min max & | ^");
        }
        if (reads_func(r.body, fn)) {
            unsupported("the update of " + fn + " reads " + fn + " beyond its accumulator");
        }
        if (r.op == "min" || r.op == "max") {
            if (f.output_types()[0].is_float()) {
                unsupported("the float " + r.op + " reduction of " + fn + ": its identity is infinite, which the formats cannot write");
            }
        }
        if (u.rvars.empty()) {
            unsupported("the update of " + fn + ": atomic() and rfactor() are translated for updates over an RDom");
        }
        if (!is_identity(f.values()[0], r.op)) {
            unsupported("the pure definition of " + fn + ", " + str(f.values()[0]) + ": a reduction the schedule re-orders (atomic(), rfactor()) is translated when it starts from its operator's identity");
        }
        for (auto it = u.rvars.rbegin(); it != u.rvars.rend(); ++it) {
            r.rvars.push_back(*it);
        }
        r.predicate = u.predicate;
        return r;
    };
    auto current = [&](const std::string &fn) {
        const Function &f = l.env.at(fn);
        if (f.updates().size() != 1) {
            unsupported("the func " + fn + ": atomic() and rfactor() are translated for funcs of one update");
        }
        const Definition &d = f.updates()[0];
        Algorithm::Update u;
        u.args = d.args();
        u.values = d.values();
        u.predicate = d.predicate();
        u.rvars = d.schedule().rvars();
        return u;
    };
    std::map<std::string, std::string> intermediates;  // intermediate -> the func it was factored out of
    if (alg) {
        for (const std::string &fn : l.order) {
            auto a = alg->updates.find(fn);
            if (a == alg->updates.end()) {
                continue;
            }
            const Function &f = l.env.at(fn);
            bool changed = a->second.size() != f.updates().size();
            for (size_t i = 0; !changed && i < a->second.size(); i++) {
                const auto &vs = f.updates()[i].values();
                changed = vs.size() != a->second[i].values.size() || !equal(vs[0], a->second[i].values[0]);
            }
            // rfactor() leaves F(x) = F(x) OP I(x, rv), I a func the
            // schedule made, of one update; other rewrites (the wrappers
            // of Func::in()) keep the update's meaning and are translated
            // as they stand.
            if (!changed || a->second.size() != 1 || f.updates().size() != 1 || f.updates()[0].values().size() != 1) {
                continue;
            }
            const Definition &d = f.updates()[0];
            std::string op;
            Expr part;
            const Call *c = nullptr;
            if (!reduce_parts(d.values()[0], fn, d.args(), &op, &part) || !(c = part.as<Call>()) ||
                c->call_type != Call::Halide || alg->updates.count(c->name) || !l.env.count(c->name) ||
                l.env.at(c->name).updates().size() != 1) {
                continue;
            }
            Red r = target(fn, a->second[0], Red::Merge);
            if (op != r.op) {
                unsupported("the update of " + fn + ", which the schedule rewrote into " + str(d.values()[0]) +
                            ": the merge does not use the reduction's operator " + r.op);
            }
            intermediates[c->name] = fn;
            p.reds[fn] = r;
        }
    }
    for (const std::string &fn : atomic_funcs(l.s)) {
        if (p.reds.count(fn) || intermediates.count(fn)) {
            continue;
        }
        if (!l.env.count(fn)) {
            unsupported("the atomic store to " + fn + ", which is not a func of the pipeline");
        }
        if (alg && !alg->updates.count(fn)) {
            unsupported("the atomic update of " + fn + ", a func the schedule made");
        }
        p.reds[fn] = target(fn, current(fn), Red::Atomic);
    }
    for (const auto &kv : intermediates) {
        const std::string &in = kv.first;
        const Red &t = p.reds.at(kv.second);
        Red r;
        r.kind = Red::Intermediate;
        r.target = t.target;
        r.dims = t.dims;
        r.op = t.op;
        const Function &f = l.env.at(in);
        Algorithm::Update cur = current(in);
        std::string op;
        Expr body;
        if (!reduce_parts(cur.values[0], in, cur.args, &op, &body) || op != t.op) {
            unsupported("the update of " + in + ", " + str(cur.values[0]) + ", which is not a reduction with " + t.op +
                        ": an intermediate of rfactor() that the schedule rewrote again (rfactor of an intermediate) is not translated");
        }
        if (!is_identity(f.values()[0], op)) {
            unsupported("the pure definition of " + in + ", " + str(f.values()[0]) + ", which is not the identity of " + op);
        }
        // The position each accumulation adds: the user's RVars as rfactor
        // substituted them, found by matching the user's update with the
        // intermediate's (its value, then its predicate).
        std::set<std::string> holes;
        for (const ReductionVariable &v : t.rvars) {
            holes.insert(v.var);
        }
        std::map<std::string, Expr> m;
        bool ok = match(t.body, body, holes, m);
        if (ok && t.predicate.defined() && cur.predicate.defined()) {
            // rfactor conjoins the user's predicate, substituted, with the
            // splits' guards
            std::vector<Expr> conj{cur.predicate};
            bool found = false;
            while (!conj.empty() && !found) {
                Expr c = conj.back();
                conj.pop_back();
                std::map<std::string, Expr> m2 = m;
                if (match(t.predicate, c, holes, m2)) {
                    m = m2;
                    found = true;
                } else if (const And *a = c.as<And>()) {
                    conj.push_back(a->a);
                    conj.push_back(a->b);
                }
            }
        }
        if (!ok || !equal(substitute(m, t.body), body)) {
            unsupported("the update of " + in + ", " + str(cur.values[0]) + ": it is not the update of " + t.target +
                        " with its RVars substituted, as rfactor() makes it");
        }
        std::map<std::string, Expr> coord;
        std::string prefix = in + ".s1.";
        for (const std::string &a : f.args()) {
            coord[a] = Variable::make(Int(32), prefix + a);
        }
        for (const ReductionVariable &v : cur.rvars) {
            coord[v.var] = Variable::make(Int(32), prefix + v.var);
        }
        for (const ReductionVariable &v : t.rvars) {
            auto it = m.find(v.var);
            if (it == m.end()) {
                unsupported("the rfactor() intermediate " + in + ": the update of " + t.target + " does not use its RVar " + v.var +
                            ", whose position in the intermediate cannot be recovered");
            }
            r.at.push_back(substitute(coord, it->second));
        }
        p.reds[in] = r;
    }
}

std::string sched_text(Pipeline_ &p, const Stmt &s, const std::map<std::string, std::set<int>> &folded,
                       const std::string &name, const Target &t) {
    KernelTranslator k(p, folded);
    k.bind_buffers();
    Lines body = k.stmt(s);
    std::ostringstream o;
    o << "# Generated by augur halide from the Halide 14 pipeline " << name << " (target " << t.to_string() << "):\n";
    o << "# Halide's own loop nest after every pass before storage flattening, annotated.\n";
    if (!k.notes.empty()) {
        o << "# Halide's checks on what the kernel model has no notion of (types, dimensions,\n";
        o << "# strides, host pointers, allocation sizes), assumed to hold:\n";
        for (const std::string &n : k.notes) {
            o << "#   " << n << "\n";
        }
    }
    o << "kernel " << sanitize(name) << "(" << join(p.params, ", ") << ")\n";
    for (const std::string &a : k.assumes) {
        o << "assume " << a << "\n";
    }
    for (const Buffer_ &b : p.buffers) {
        std::vector<std::string> vs, at, ext;
        for (int d = 0; d < b.dims; d++) {
            std::string v = "d" + std::to_string(d);
            vs.push_back(v);
            at.push_back(v + " + " + b.mins[d]);
            ext.push_back(b.extents[d]);
        }
        o << (b.output ? "out " : "in  ") << b.array << "[" << join(vs, ", ") << "] : " << b.type << "["
          << join(ext, ", ") << "] = " << b.tensor << "(" << join(at, ", ") << ")\n";
    }
    for (const Scalar &sc : p.scalars) {
        if (!sc.index) {
            o << "in  " << sc.array << "[] : " << sc.type << "[] = " << sc.id << "()\n";
        }
    }
    o << "{\n";
    for (const std::string &line : body.l) {
        o << "  " << line << "\n";
    }
    o << "}\n";
    return o.str();
}

void write_file(const std::string &path, const std::string &text) {
    std::ofstream f(path);
    f << text;
    f.close();
    if (!f) {
        throw std::runtime_error("cannot write " + path + ": " + std::strerror(errno));
    }
}

void make_dir(const std::string &dir) {
    std::string cur;
    std::stringstream ss(dir);
    std::string part;
    if (!dir.empty() && dir[0] == '/') {
        cur = "/";
    }
    while (std::getline(ss, part, '/')) {
        if (part.empty()) {
            continue;
        }
        cur += part + "/";
        if (mkdir(cur.c_str(), 0755) != 0 && errno != EEXIST) {
            throw std::runtime_error("cannot create " + cur + ": " + std::strerror(errno));
        }
    }
}

Emitted translate_lowered(const Lowered &l, const Target &t, const std::string &name, const Algorithm *alg) {
    Pipeline_ p = gather(l);
    find_reductions(p, l, alg);
    Emitted e;
    e.spec = spec_text(p, name);
    e.sched = sched_text(p, l.s, l.folded, name, t);
    for (const Buffer_ &b : p.buffers) {
        e.tensors[b.name] = b.tensor;
    }
    for (const Scalar &s : p.scalars) {
        e.tensors[s.name] = s.id;
    }
    e.params = p.field_param;
    return e;
}

}  // namespace

Stmt lower_before_flattening(const Halide::Pipeline &pipeline, const Target &target, const std::string &name) {
    return lower(pipeline, target, name).s;
}

Algorithm snapshot(const Halide::Pipeline &pipeline) {
    std::vector<Function> outs;
    for (const Func &f : pipeline.outputs()) {
        outs.push_back(f.function());
    }
    Algorithm a;
    for (const auto &kv : build_environment(outs)) {
        std::vector<Algorithm::Update> &us = a.updates[kv.first];
        for (const Definition &d : kv.second.updates()) {
            Algorithm::Update u;
            u.args = d.args();
            u.values = d.values();
            u.predicate = d.predicate();
            u.rvars = d.schedule().rvars();
            us.push_back(u);
        }
    }
    return a;
}

Emitted translate(const Halide::Pipeline &pipeline, const Target &target, const std::string &name, const Algorithm *algorithm) {
    return translate_lowered(lower(pipeline, target, name), target, name, algorithm);
}

Emitted emit(const Halide::Pipeline &pipeline, const Target &target, const std::string &dir, const std::string &name,
             const Algorithm *algorithm) {
    Emitted e = translate(pipeline, target, name, algorithm);
    make_dir(dir);
    write_file(dir + "/spec.sare", e.spec);
    write_file(dir + "/prog.sched", e.sched);
    return e;
}

namespace {

// ---------------------------------------------------------------- the JIT sample

struct Rng {
    uint64_t s;
    uint64_t next() {
        // splitmix64
        uint64_t z = (s += 0x9e3779b97f4a7c15ULL);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        return z ^ (z >> 31);
    }
    double unit() {
        return (next() >> 11) * (1.0 / 9007199254740992.0);
    }
};

template<typename T>
void fill(Buffer<void> &b, Rng &rng) {
    Buffer<T> t = b.as<T>();
    t.for_each_value([&](T &v) {
        if constexpr (std::is_floating_point<T>::value) {
            v = (T)(rng.unit() * 2 - 1);
        } else if constexpr (std::is_same<T, bool>::value) {
            v = rng.next() & 1;
        } else {
            v = (T)rng.next();
        }
    });
}

template<typename T>
std::string text_of(T v) {
    if constexpr (std::is_floating_point<T>::value) {
        return float_text(v);
    } else if constexpr (std::is_same<T, bool>::value) {
        return v ? "true" : "false";
    } else if constexpr (std::is_signed<T>::value) {
        return std::to_string((int64_t)v);
    } else {
        return std::to_string((uint64_t)v);
    }
}

template<typename T>
void dump(std::ostream &o, const std::string &dir, const std::string &tensor, const Buffer<void> &b) {
    Buffer<T> t = b.as<T>();
    t.for_each_element([&](const int *pos) {
        o << dir << " " << tensor;
        for (int d = 0; d < t.dimensions(); d++) {
            o << " " << pos[d];
        }
        o << " = " << text_of<T>(t(pos)) << "\n";
    });
}

#define AUGUR_TYPE_DISPATCH(t, F, ...)                                      \
    do {                                                                    \
        if ((t) == Float(32)) F<float>(__VA_ARGS__);                        \
        else if ((t) == Float(64)) F<double>(__VA_ARGS__);                  \
        else if ((t) == Int(8)) F<int8_t>(__VA_ARGS__);                     \
        else if ((t) == Int(16)) F<int16_t>(__VA_ARGS__);                   \
        else if ((t) == Int(32)) F<int32_t>(__VA_ARGS__);                   \
        else if ((t) == Int(64)) F<int64_t>(__VA_ARGS__);                   \
        else if ((t) == UInt(8)) F<uint8_t>(__VA_ARGS__);                   \
        else if ((t) == UInt(16)) F<uint16_t>(__VA_ARGS__);                 \
        else if ((t) == UInt(32)) F<uint32_t>(__VA_ARGS__);                 \
        else if ((t) == UInt(64)) F<uint64_t>(__VA_ARGS__);                 \
        else if ((t) == Bool()) F<bool>(__VA_ARGS__);                       \
        else unsupported("JIT sample: buffers of type " + type_name(t, "the JIT sample")); \
    } while (0)

// Params finds the input buffers and scalar parameters of a pipeline.
class Params : public IRGraphVisitor {
public:
    std::map<std::string, Parameter> buffers, scalars;

private:
    using IRGraphVisitor::visit;
    void visit(const Call *op) override {
        if (op->call_type == Call::Image && op->param.defined()) {
            buffers.emplace(op->name, op->param);
        } else if (op->call_type == Call::Image) {
            unsupported("JIT sample: the embedded buffer " + op->name);
        }
        IRGraphVisitor::visit(op);
    }
    void visit(const Variable *op) override {
        if (op->param.defined() && !op->param.is_buffer()) {
            scalars.emplace(op->param.name(), op->param);
        }
    }
};

}  // namespace

void jit_sample(Halide::Pipeline pipeline, const Target &target, const std::string &name,
                const JitSizes &sizes, uint64_t seed, const std::string &path) {
    // The names, from the translation itself.
    Emitted e = translate(pipeline, target, name);
    std::vector<Function> outs;
    for (const Func &f : pipeline.outputs()) {
        outs.push_back(f.function());
    }
    Params prm;
    for (auto &kv : build_environment(outs)) {
        kv.second.accept(&prm);
    }
    Rng rng{seed};
    for (auto &kv : prm.scalars) {
        Parameter &p = kv.second;
        auto sz = sizes.find(kv.first);
        if (p.type() == Int(32)) {
            p.set_scalar<int32_t>(sz != sizes.end() && !sz->second.empty() ? sz->second[0] : 3);
        } else if (p.type() == Float(32)) {
            p.set_scalar<float>((float)(rng.unit() * 2 - 1));
        } else if (p.type() == Float(64)) {
            p.set_scalar<double>(rng.unit() * 2 - 1);
        } else {
            unsupported("JIT sample: the parameter " + kv.first + " of type " + type_name(p.type(), kv.first));
        }
    }
    for (auto &kv : prm.buffers) {
        auto sz = sizes.find(kv.first);
        if (sz != sizes.end()) {
            kv.second.set_buffer(Buffer<void>(kv.second.type(), sz->second));
        } else {
            kv.second.set_buffer(Buffer<void>());
        }
    }
    std::vector<Buffer<void>> out_bufs;
    for (const Function &f : outs) {
        auto sz = sizes.find(f.name());
        if (sz == sizes.end()) {
            unsupported("JIT sample: no size for the output " + f.name());
        }
        out_bufs.emplace_back(f.output_types()[0], sz->second);
    }
    Realization r(out_bufs);
    pipeline.infer_input_bounds(r, target);
    for (auto &kv : prm.buffers) {
        Buffer<void> b = kv.second.buffer();
        AUGUR_TYPE_DISPATCH(b.type(), fill, b, rng);
    }
    pipeline.realize(r, target);

    std::ofstream o(path);
    auto param = [&](const std::string &field, int v) {
        auto it = e.params.find(field);
        if (it != e.params.end()) {
            o << "param " << it->second << " = " << v << "\n";
        }
    };
    auto buffer_params = [&](const std::string &n, const Buffer<void> &b) {
        for (int d = 0; d < b.dimensions(); d++) {
            param(n + ".min." + std::to_string(d), b.dim(d).min());
            param(n + ".extent." + std::to_string(d), b.dim(d).extent());
        }
    };
    for (size_t i = 0; i < outs.size(); i++) {
        buffer_params(outs[i].name(), out_bufs[i]);
    }
    for (auto &kv : prm.buffers) {
        buffer_params(kv.first, kv.second.buffer());
    }
    for (auto &kv : prm.scalars) {
        const Parameter &p = kv.second;
        auto it = e.tensors.find(kv.first);
        if (it == e.tensors.end()) {
            continue;
        }
        if (p.type() == Int(32)) {
            o << "param " << it->second << " = " << p.scalar<int32_t>() << "\n";
        } else if (p.type() == Float(32)) {
            o << "in " << it->second << " = " << text_of<float>(p.scalar<float>()) << "\n";
        } else {
            o << "in " << it->second << " = " << text_of<double>(p.scalar<double>()) << "\n";
        }
    }
    for (auto &kv : prm.buffers) {
        auto it = e.tensors.find(kv.first);
        if (it == e.tensors.end()) {
            continue;
        }
        Buffer<void> b = kv.second.buffer();
        AUGUR_TYPE_DISPATCH(b.type(), dump, o, "in", it->second, b);
    }
    for (size_t i = 0; i < outs.size(); i++) {
        AUGUR_TYPE_DISPATCH(out_bufs[i].type(), dump, o, "out", e.tensors.at(outs[i].name()), out_bufs[i]);
    }
    o.close();
    if (!o) {
        throw std::runtime_error("cannot write " + path);
    }
}

}  // namespace augur
