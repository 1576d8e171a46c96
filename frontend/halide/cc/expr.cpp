// Expressions: Halide expressions as the formats' text, in three modes,
// each a visitor of Halide's IR: quasi-affine index expressions (IndexText),
// affine constraints (CondText) and typed values (ValueText). What a
// variable, a read of a func or of an image, means is left to the
// subclasses of Translator: the specification's and the kernel's.
#include "emit_internal.h"

#include <cmath>
#include <cstring>
#include <exception>

namespace augur {
namespace detail {

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

namespace {

// BoundsQueryOff replaces _halide_buffer_is_bounds_query(b) by false.
class BoundsQueryOff : public IRMutator {
    using IRMutator::visit;
    Expr visit(const Call *op) override {
        if (op->name == "_halide_buffer_is_bounds_query") {
            return const_false();
        }
        return IRMutator::visit(op);
    }
};

// node_name names the kinds of expression nodes a value cannot be, for
// the error.
std::string node_name(const Expr &e) {
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

// promise reports whether c only tags its first argument: likely tags and
// promises.
bool promise(const Call *c) {
    return c->is_intrinsic(Call::likely) || c->is_intrinsic(Call::likely_if_innermost) ||
           c->is_intrinsic(Call::promise_clamped) || c->is_intrinsic(Call::unsafe_promise_clamped);
}

}  // namespace

Expr no_bounds_query(const Expr &e) {
    BoundsQueryOff m;
    return simplify(m.mutate(e));
}

Expr unwrap(Expr e) {
    for (;;) {
        if (const Call *c = e.as<Call>()) {
            if (promise(c)) {
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

bool Translator::constant(const Expr &e, int64_t *c) {
    const int64_t *p = as_const_int(simplify(e));
    if (p) {
        *c = *p;
    }
    return p != nullptr;
}

void Translator::assume_exact(const std::vector<Expr> &, const Expr &e) {
    unsupported("the index expression " + str(e) + " is not quasi-affine");
}

Frag Translator::float_int(const Cast *, const Expr &e) {
    unsupported("the index expression " + str(e) + " is not quasi-affine");
}

Frag Translator::param_quotient(const Expr &, const Expr &, const Expr &, bool rem, const Expr &e) {
    unsupported("the index expression " + str(e) + " is not quasi-affine: " + (rem ? "remainder" : "division") +
                " by a non-constant or non-positive divisor");
}

// ---------------------------------------------------------------- index expressions

// IndexText translates one quasi-affine index expression, e0 as written.
class Translator::IndexText : public Strict {
public:
    IndexText(Translator &t, const Expr &e0)
        : t_(t), e0_(e0) {
    }
    Frag out;

private:
    using Strict::visit;
    Translator &t_;
    Expr e0_;

    void other(const IRNode *) override {
        unsupported("the index expression " + str(e0_) + " is not quasi-affine");
    }
    void visit(const IntImm *op) override {
        out = int_lit(op->value);
    }
    void visit(const Variable *op) override {
        out = t_.index_var(op);
    }
    void visit(const Add *op) override {
        out = binary(t_.index(op->a), "+", t_.index(op->b), PAdd);
    }
    void visit(const Sub *op) override {
        out = binary(t_.index(op->a), "-", t_.index(op->b), PAdd);
    }
    void visit(const Mul *op) override {
        int64_t c;
        if (t_.constant(op->b, &c)) {
            out = binary(int_lit(c), "*", t_.index(op->a), PMul);
        } else if (t_.constant(op->a, &c)) {
            out = binary(int_lit(c), "*", t_.index(op->b), PMul);
        } else {
            unsupported("the index expression " + str(e0_) + " is not affine: a product of two non-constant terms");
        }
    }
    void visit(const Div *op) override {
        int64_t c;
        if (t_.constant(op->b, &c) && c > 0) {
            out = binary(t_.index(op->a), "/", int_lit(c), PMul);
        } else if (!exact_quotient(op)) {
            if (t_.valuing_) {
                // A value keeps its quotients by parameters.
                other(op);
            }
            out = t_.param_quotient(op, op->a, op->b, false, e0_);
        }
    }
    void visit(const Mod *op) override {
        int64_t c;
        if (!t_.constant(op->b, &c) || c <= 0) {
            if (t_.valuing_) {
                other(op);
            }
            out = t_.param_quotient(op, op->a, op->b, true, e0_);
            return;
        }
        out = binary(t_.index(op->a), "%", int_lit(c), PMul);
    }
    void visit(const Min *op) override {
        out = atom("min(" + t_.index(op->a).s + ", " + t_.index(op->b).s + ")");
    }
    void visit(const Max *op) override {
        out = atom("max(" + t_.index(op->a).s + ", " + t_.index(op->b).s + ")");
    }
    void visit(const Select *op) override {
        std::string c;
        std::exception_ptr bad;
        try {
            c = t_.cond(op->condition).s;
        } catch (const Unsupported &) {
            bad = std::current_exception();
        }
        Frag a = t_.index(op->true_value), b = t_.index(op->false_value);
        if (a.s == b.s) {
            // Both branches translate alike (resize's specializations on
            // strides, whose bounds differ only by integers computed from
            // floats, abstracted alike): the select is either.
            out = a;
            return;
        }
        if (bad) {
            std::rethrow_exception(bad);
        }
        out = atom("select(" + c + ", " + a.s + ", " + b.s + ")");
    }
    void visit(const Let *op) override {
        out = t_.index(substitute(op->name, op->value, op->body));
    }
    void visit(const Call *op) override {
        if (!op->is_intrinsic(Call::shift_left) && !op->is_intrinsic(Call::shift_right)) {
            other(op);
        }
        out = t_.index(shift_index(op));
    }
    // shift_index rewrites a shift: by a constant amount k in [0, 31), a
    // product or a quotient by 2^k (Halide's simplifier rewrites shifts
    // so; its right shift of a signed integer is arithmetic, a floor, as
    // its division by a positive constant); by a variable amount within a
    // small interval of constants, unshifted's select.
    Expr shift_index(const Call *op) {
        int64_t k;
        if (t_.constant(op->args[1], &k) || const_int(simplify(op->args[1]), &k)) {
            if (k < 0 || k >= 31) {
                unsupported("the index expression " + str(e0_) + " is not quasi-affine: a shift by " + std::to_string(k));
            }
            int64_t a;
            if (const_int(op->args[0], &a)) {
                // Halide's own folding: what the shift computes.
                return simplify(Expr(op));
            }
            Expr p = make_const(op->type, (int64_t)1 << k);
            return op->is_intrinsic(Call::shift_left) ? Mul::make(op->args[0], p) : Div::make(op->args[0], p);
        }
        Expr u = t_.unshifted(op);
        if (!u.defined()) {
            unsupported("the index expression " + str(e0_) +
                        " is not quasi-affine: a shift by an amount not within a small interval of constants");
        }
        return u;
    }
    void visit(const Cast *op) override {
        if (op->value.type().is_int() && op->value.type().bits() <= 32) {
            out = t_.index(op->value);
            return;
        }
        std::vector<Expr> vals;
        Expr i;
        if (op->type == Int(32) && op->value.type() == Float(32)) {
            i = exact_int(op->value, vals);
        }
        if (!i.defined()) {
            if (op->type == Int(32) && op->value.type().is_float() && !t_.valuing_) {
                out = t_.float_int(op, e0_);
                return;
            }
            other(op);
        }
        t_.assume_exact(vals, e0_);
        out = t_.index(i);
    }

    // exact_quotient translates (d*q + k)/d, for a non-constant d and k in
    // {0, -1}, exactly, for every value of d (Halide's division is
    // Euclidean and x/0 is 0): k = 0 gives q (0 when d is 0); k = -1 gives
    // q - 1 when d >= 1, 0 when d is 0 and q + 1 when d < 0. Halide's
    // bounds of a fused loop's outer coordinate t/d over [0, d*q) are of
    // this form.
    bool exact_quotient(const Div *op) {
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
        Frag d = t_.index(op->b), qf = t_.index(q);
        if (k == 0) {
            out = atom("select(" + binary(d, "==", int_lit(0), PCmp).s + ", 0, " + qf.s + ")");
        } else {
            out = atom("select(" + binary(d, ">=", int_lit(1), PCmp).s + ", " + binary(qf, "-", int_lit(1), PAdd).s +
                       ", select(" + binary(d, "==", int_lit(0), PCmp).s + ", 0, " + binary(qf, "+", int_lit(1), PAdd).s + "))");
        }
        return true;
    }
};

// exact_int returns the int32 expression equal to the float32 expression
// f where every value f computes is an integer of magnitude at most 2^24,
// which float32 represents exactly: f converts int32 expressions to
// float32 and adds, subtracts, multiplies by integer constants, takes
// minima and maxima of them (Halide's bounds of an index computed from a
// float, such as int32(max(float32(levels + -1), 0.0f))). Each operation
// on exact operands whose exact result is representable gives that
// result, so f is the integer expression wherever each of the int32
// expressions pushed into vals lies in [-2^24, 2^24]. It returns an
// undefined Expr when f has any other form.
Expr exact_int(const Expr &f, std::vector<Expr> &vals) {
    constexpr double exact = 16777216;  // 2^24
    Expr e = unwrap(f);
    if (e.type() != Float(32)) {
        return Expr();
    }
    if (const FloatImm *c = e.as<FloatImm>()) {
        if (std::trunc(c->value) != c->value || std::fabs(c->value) > exact) {
            return Expr();
        }
        return make_const(Int(32), (int64_t)c->value);
    }
    if (const Cast *c = e.as<Cast>()) {
        if (!c->value.type().is_int() || c->value.type().bits() > 32) {
            return Expr();
        }
        Expr v = c->value.type() == Int(32) ? c->value : Cast::make(Int(32), c->value);
        vals.push_back(v);
        return v;
    }
    auto both = [&](const Expr &a, const Expr &b, Expr *ia, Expr *ib) {
        *ia = exact_int(a, vals);
        *ib = ia->defined() ? exact_int(b, vals) : Expr();
        return ib->defined();
    };
    Expr a, b, r;
    if (const Add *op = e.as<Add>(); op && both(op->a, op->b, &a, &b)) {
        r = a + b;
    } else if (const Sub *op = e.as<Sub>(); op && both(op->a, op->b, &a, &b)) {
        r = a - b;
    } else if (const Mul *op = e.as<Mul>(); op && both(op->a, op->b, &a, &b) && (is_const(a) || is_const(b))) {
        r = a * b;
    } else if (const Min *op = e.as<Min>(); op && both(op->a, op->b, &a, &b)) {
        return min(a, b);
    } else if (const Max *op = e.as<Max>(); op && both(op->a, op->b, &a, &b)) {
        return max(a, b);
    } else {
        return Expr();
    }
    vals.push_back(r);
    return r;
}

Frag Translator::index(const Expr &e0) {
    Expr e = unwrap(e0);
    if (!e.type().is_int() || e.type().bits() > 32) {
        if (!(e.type().is_int() && e.as<Cast>())) {
            unsupported("the index expression " + str(e0) + " is of type " + type_str(e.type()) + ", not int32");
        }
    }
    IndexText v(*this, e0);
    e.accept(&v);
    return v.out;
}

// ---------------------------------------------------------------- affine constraints

// CondText translates one affine constraint, e0 as written.
class Translator::CondText : public Strict {
public:
    CondText(Translator &t, const Expr &e0)
        : t_(t), e0_(e0) {
    }
    Frag out;

private:
    using Strict::visit;
    Translator &t_;
    Expr e0_;

    void other(const IRNode *) override {
        unsupported("the condition " + str(e0_) + " is not an affine constraint");
    }
    Frag cmp(const Expr &a, const std::string &op, const Expr &b) {
        return binary(t_.index(a), op, t_.index(b), PCmp);
    }
    void visit(const Cast *op) override {
        if (op->type.is_bool() && op->value.type().is_bool()) {
            out = t_.cond(op->value);
        } else {
            other(op);
        }
    }
    void visit(const EQ *op) override {
        out = cmp(op->a, "==", op->b);
    }
    void visit(const NE *op) override {
        out = cmp(op->a, "!=", op->b);
    }
    void visit(const LT *op) override {
        out = cmp(op->a, "<", op->b);
    }
    void visit(const LE *op) override {
        out = cmp(op->a, "<=", op->b);
    }
    void visit(const GT *op) override {
        out = cmp(op->a, ">", op->b);
    }
    void visit(const GE *op) override {
        out = cmp(op->a, ">=", op->b);
    }
    void visit(const And *op) override {
        out = binary(t_.cond(op->a), "and", t_.cond(op->b), PAnd);
    }
    void visit(const Or *op) override {
        out = binary(t_.cond(op->a), "or", t_.cond(op->b), POr);
    }
    void visit(const Not *op) override {
        out = {"not " + at(t_.cond(op->a), PNot), PNot};
    }
    void visit(const Let *op) override {
        out = t_.cond(substitute(op->name, op->value, op->body));
    }
};

Frag Translator::cond(const Expr &e0) {
    Expr e = unwrap(e0);
    if (is_const_one(e)) {
        return atom("true");
    }
    if (is_const_zero(e)) {
        return atom("false");
    }
    CondText v(*this, e0);
    e.accept(&v);
    return v.out;
}

// ---------------------------------------------------------------- typed values

// ValueText translates one value, e of the formats' type t.
class Translator::ValueText : public Strict {
public:
    ValueText(Translator &tr, const Expr &e, const std::string &t)
        : tr_(tr), e_(e), t_(t) {
    }
    Frag out;

private:
    using Strict::visit;
    Translator &tr_;
    Expr e_;
    std::string t_;

    void other(const IRNode *) override {
        unsupported("the expression " + str(e_) + " (" + node_name(e_) + ")");
    }
    Frag value(const Expr &e) {
        return tr_.value(e);
    }
    void visit(const IntImm *op) override {
        out = atom(t_ + "(" + std::to_string(op->value) + ")");
    }
    void visit(const UIntImm *op) override {
        if (op->type.is_bool()) {
            out = atom(op->value ? "true" : "false");
        } else {
            out = atom(t_ + "(" + std::to_string(op->value) + ")");
        }
    }
    void visit(const FloatImm *op) override {
        if (std::isinf(op->value)) {
            out = infinity(op);
            return;
        }
        out = atom(t_ + "(" + float_text(op->value) + ")");
    }
    // infinity is a float infinity (the initial value of argmin over
    // floats, Float(32).max()), which no literal spells: the bit cast of
    // its encoding, exact in the ieee value model and an uninterpreted
    // value, the same on both sides, in the real one.
    Frag infinity(const FloatImm *op) {
        bool neg = op->value < 0;
        int64_t bits = op->type.bits() == 32 ? (neg ? -8388608LL : 2139095040LL)
                                             : (neg ? -4503599627370496LL : 9218868437227405312LL);
        return atom("reinterpret_" + t_ + "(" + std::to_string(bits) + ")");
    }
    void visit(const Variable *op) override {
        out = tr_.value_var(op);
    }
    void visit(const Cast *op) override {
        if (op->type == op->value.type()) {
            out = value(op->value);
        } else {
            out = atom(t_ + "(" + value(op->value).s + ")");
        }
    }
    void visit(const Add *op) override {
        out = binary(value(op->a), "+", value(op->b), PAdd);
    }
    void visit(const Sub *op) override {
        out = binary(value(op->a), "-", value(op->b), PAdd);
    }
    void visit(const Mul *op) override {
        out = binary(value(op->a), "*", value(op->b), PMul);
    }
    void visit(const Div *op) override {
        out = binary(value(op->a), "/", value(op->b), PMul);
    }
    void visit(const Mod *op) override {
        if (op->type.is_float()) {
            unsupported("the float remainder " + str(e_));
        }
        out = binary(value(op->a), "%", value(op->b), PMul);
    }
    void visit(const Min *op) override {
        out = atom("min(" + value(op->a).s + ", " + value(op->b).s + ")");
    }
    void visit(const Max *op) override {
        out = atom("max(" + value(op->a).s + ", " + value(op->b).s + ")");
    }
    // cmp is a comparison of values, whose operands bind tighter than
    // a comparison.
    Frag cmp(const Expr &a, const std::string &op, const Expr &b) {
        Frag f = binary(value(a), op, value(b), PCmp + 1);
        f.prec = PCmp;
        return f;
    }
    void visit(const EQ *op) override {
        out = cmp(op->a, "==", op->b);
    }
    void visit(const NE *op) override {
        out = cmp(op->a, "!=", op->b);
    }
    void visit(const LT *op) override {
        out = cmp(op->a, "<", op->b);
    }
    void visit(const LE *op) override {
        out = cmp(op->a, "<=", op->b);
    }
    void visit(const GT *op) override {
        out = cmp(op->a, ">", op->b);
    }
    void visit(const GE *op) override {
        out = cmp(op->a, ">=", op->b);
    }
    void visit(const And *op) override {
        out = binary(value(op->a), "and", value(op->b), PAnd);
    }
    void visit(const Or *op) override {
        out = binary(value(op->a), "or", value(op->b), POr);
    }
    void visit(const Not *op) override {
        out = {"not " + at(value(op->a), PNot), PNot};
    }
    void visit(const Select *op) override {
        out = atom("select(" + value(op->condition).s + ", " + value(op->true_value).s + ", " + value(op->false_value).s + ")");
    }
    void visit(const Let *op) override {
        out = value(substitute(op->name, op->value, op->body));
    }
    void visit(const Call *op) override;
    Frag reinterpret(const Call *op);
    Frag shift(const Call *op);
    bool math(const Call *op);
};

namespace {

// absd_exactly is Halide's absd(a, b), |a - b| of the unsigned type of
// the operands' width for integers (the difference of the larger and the
// smaller in that type, where it wraps to its exact value), of their own
// type for floats.
Expr absd_exactly(const Call *op) {
    const Expr &a = op->args[0], &b = op->args[1];
    if (a.type().is_float()) {
        return Select::make(LT::make(a, b), Sub::make(b, a), Sub::make(a, b));
    }
    Type u = op->type;
    Expr ua = a.type() == u ? a : Cast::make(u, a), ub = b.type() == u ? b : Cast::make(u, b);
    return Select::make(LT::make(a, b), Sub::make(ub, ua), Sub::make(ua, ub));
}

// bit_count_exactly is Halide's popcount, count_leading_zeros or
// count_trailing_zeros of x, of x's type and on its bits: a sum of the
// bits, or a chain of selects on them, in the unsigned type of x's width.
Expr bit_count_exactly(const Call *op) {
    const Expr &x = op->args[0];
    int n = x.type().bits();
    Type u = UInt(n);
    Expr ux = x.type() == u ? x : Cast::make(u, x);
    auto bit = [&](int i) {
        return make_const(u, (uint64_t)1 << i);
    };
    Expr r;
    if (op->is_intrinsic(Call::popcount)) {
        r = ux & bit(0);
        for (int i = 1; i < n; i++) {
            r = Add::make(r, (ux >> make_const(u, i)) & bit(0));
        }
    } else if (op->is_intrinsic(Call::count_leading_zeros)) {
        // The highest set bit decides: tested outermost.
        r = make_const(u, n);
        for (int i = 0; i < n; i++) {
            r = Select::make(GE::make(ux, bit(i)), make_const(u, n - 1 - i), r);
        }
    } else {
        // The lowest set bit decides: tested outermost.
        r = make_const(u, n);
        for (int i = n - 1; i >= 0; i--) {
            r = Select::make(NE::make(ux & bit(i), make_zero(u)), make_const(u, i), r);
        }
    }
    return op->type == u ? r : Cast::make(op->type, r);
}

}  // namespace

// intrinsic is Halide's intrinsic op written with the operations the
// formats have, exactly: Halide's own lowering of its widening,
// saturating, halving and rounding operations and of mul_shift_right
// (lower_intrinsic, the arithmetic its code generator falls back to),
// of lerp (lower_lerp, for target t), and absd, popcount,
// count_leading_zeros and count_trailing_zeros on their bits. Undefined
// for any other call.
Expr intrinsic(const Call *op, const Target &t) {
    if (op->call_type != Call::PureIntrinsic && op->call_type != Call::Intrinsic) {
        return Expr();
    }
    if (op->is_intrinsic(Call::absd)) {
        return absd_exactly(op);
    }
    if (op->is_intrinsic(Call::popcount) || op->is_intrinsic(Call::count_leading_zeros) ||
        op->is_intrinsic(Call::count_trailing_zeros)) {
        return bit_count_exactly(op);
    }
    if (op->is_intrinsic(Call::lerp)) {
        return lower_lerp(op->type, op->args[0], op->args[1], op->args[2], t);
    }
    return lower_intrinsic(op);
}

void Translator::ValueText::visit(const Call *op) {
    if (op->call_type == Call::Halide) {
        out = tr_.func_call(op);
    } else if (op->call_type == Call::Image) {
        out = tr_.image_call(op);
    } else if (promise(op) || op->is_intrinsic(Call::strict_float)) {
        out = value(op->args[0]);
    } else if (op->is_intrinsic(Call::mux)) {
        // Halide's own select tree (an out-of-range index takes the last
        // value).
        out = value(lower_mux(op));
    } else if (op->is_intrinsic(Call::reinterpret)) {
        out = reinterpret(op);
    } else if (op->is_intrinsic(Call::shift_left) || op->is_intrinsic(Call::shift_right)) {
        out = shift(op);
    } else if (op->is_intrinsic(Call::abs)) {
        Frag abs = atom("abs(" + value(op->args[0]).s + ")");
        // Halide's abs of a signed integer is unsigned; the formats' abs
        // keeps the type and wraps, which the cast turns into the same
        // bits.
        out = op->args[0].type().is_int() ? atom(type_name(op->type, str(e_)) + "(" + abs.s + ")") : abs;
    } else if (op->is_intrinsic(Call::bitwise_and)) {
        out = binary(value(op->args[0]), "&", value(op->args[1]), PMul);
    } else if (op->is_intrinsic(Call::bitwise_or)) {
        out = binary(value(op->args[0]), "|", value(op->args[1]), PAdd);
    } else if (op->is_intrinsic(Call::bitwise_xor)) {
        out = binary(value(op->args[0]), "^", value(op->args[1]), PAdd);
    } else if (op->is_intrinsic(Call::bitwise_not)) {
        out = {"~" + at(value(op->args[0]), PUnary), PUnary};
    } else if (Expr e = intrinsic(op, tr_.target()); e.defined()) {
        out = value(e);
    } else if (!math(op)) {
        unsupported("the call " + str(e_) + " (" + op->name + ")");
    }
}

// reinterpret is the formats' bit cast reinterpret_T(x): the same bits,
// of an integer or float type of the same width.
Frag Translator::ValueText::reinterpret(const Call *op) {
    const Type &from = op->args[0].type();
    std::string to_name = type_name(op->type, str(e_));
    type_name(from, str(e_));
    if (op->type.is_bool() || from.is_bool() || op->type.bits() != from.bits()) {
        unsupported("the call " + str(e_) + ": reinterpret between " + type_str(from) + " and " +
                    type_str(op->type) + " (the formats' bit casts keep the width, and have no bool)");
    }
    return atom("reinterpret_" + to_name + "(" + value(op->args[0]).s + ")");
}

// shift translates a shift by a constant amount within the width, where
// Halide's shifts and the formats' agree (arithmetic to the right on
// signed types; Halide's negative amounts shift the other way and the
// formats' give 0 or -1), or by an amount within a small interval of
// constants in that range, as unshifted's select over them.
Frag Translator::ValueText::shift(const Call *op) {
    const Type &t = op->type;
    const Expr &b = op->args[1];
    int64_t k = -1;
    if (const int64_t *c = as_const_int(b)) {
        k = *c;
    } else if (const uint64_t *c = as_const_uint(b)) {
        k = *c < 64 ? (int64_t)*c : -1;
    }
    if (k < 0) {
        // By an amount within a small interval of constants: a select
        // over its values (shift.cpp).
        if (Expr u = tr_.unshifted(op); u.defined()) {
            return value(u);
        }
    }
    if (!t.is_int_or_uint() || k < 0 || k >= t.bits()) {
        unsupported("the shift " + str(e_) + " (only by a constant amount below the width, or by an amount within a small interval of constants)");
    }
    std::string tn = type_name(t, str(e_));
    const char *sym = op->is_intrinsic(Call::shift_left) ? "<<" : ">>";
    return binary(value(op->args[0]), sym, atom(tn + "(" + std::to_string(k) + ")"), PMul);
}

// math translates a call of Halide's math library (sqrt_f32 and the like,
// fast_inverse_f32 and fast_inverse_sqrt_f32, its reciprocal estimates) as
// the formats' function of the same name, when it has one.
bool Translator::ValueText::math(const Call *op) {
    static const std::set<std::string> names = {"sqrt", "exp", "log", "pow", "floor", "ceil",
                                                "round", "sin", "cos", "tanh", "fast_inverse",
                                                "fast_inverse_sqrt"};
    if (op->call_type != Call::PureExtern) {
        return false;
    }
    std::string n = op->name;
    for (const char *suffix : {"_f32", "_f64"}) {
        size_t l = std::strlen(suffix);
        if (n.size() > l && n.compare(n.size() - l, l, suffix) == 0) {
            n = n.substr(0, n.size() - l);
        }
    }
    if (!names.count(n) || n == op->name) {
        return false;
    }
    std::vector<std::string> args;
    for (const Expr &a : op->args) {
        args.push_back(value(a).s);
    }
    out = atom(n + "(" + join(args, ", ") + ")");
    return true;
}

Frag Translator::value(const Expr &e) {
    std::string where = "the value " + str(e);
    std::string t = type_name(e.type(), where);
    if (e.type() == Int(32) && !e.as<Call>() && !e.as<IntImm>()) {
        // An int32 index expression used as a value: cast it. A value
        // keeps its integers computed from floats (float_int) and its
        // quotients by parameters (param_quotient).
        valuing_++;
        try {
            Frag f = index(e);
            valuing_--;
            return atom("i32(" + f.s + ")");
        } catch (const Unsupported &) {
            valuing_--;
        }
    }
    ValueText v(*this, e, t);
    e.accept(&v);
    return v.out;
}

}  // namespace detail
}  // namespace augur
