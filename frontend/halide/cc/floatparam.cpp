// Integers computed from float parameters: an int32 conversion of a
// float32 expression of the pipeline's float scalar parameters, its
// integer parameters and constants alone (resize's int32(ceil(2 /
// scale_factor)), the number of its taps; bgu's int32(ceil(float32(
// slice_loc.extent.0) / float32(splat_loc.extent.0))), of integer
// parameters only, that exact_int does not read), used as an index expression (a loop bound, a reduction's
// extent, a realized min or extent), is abstracted as an integer
// parameter of its own, of both the specification and the kernel. The
// same computation, written alike on both sides, is the same parameter;
// different computations are different parameters, which nothing relates:
// a verdict VALID then holds for every value of each, the values the
// computations give among them. Each parameter's computation is recorded
// (Pipeline_::derived) and written in the specification's header.
//
// Quotients by a parameter: a quotient by a non-constant divisor of
// integer parameters alone ((pointwise_filter.extent.1 + -1)/
// depthwise_filter.extent.0, Halide's bound of a func read at d /
// depthwise_filter.extent.0) is abstracted the same way (quotient_param);
// one that reads a pure or a loop variable is, as a read's coordinate, a
// data-dependent index (divides_vars), its value computed alike on both
// sides, and anywhere else not an index expression.
#include "emit_internal.h"

#include <algorithm>

namespace augur {
namespace detail {

namespace {

// FloatOnly checks that an expression reads nothing but scalar
// parameters, buffers' mins and extents and constants, through arithmetic
// and pure calls, and lists the float parameters it reads.
class FloatOnly : public IRVisitor {
public:
    explicit FloatOnly(const Pipeline_ &p)
        : p_(p) {
    }
    std::string bad;               // why it reads something else
    std::vector<std::string> ps;    // the float parameters read
    std::vector<std::string> ints;  // the integer parameters read (their identifiers)

private:
    using IRVisitor::visit;
    const Pipeline_ &p_;

    void visit(const Variable *op) override {
        if (op->param.defined() && !op->param.is_buffer() && p_.scalar_index.count(op->param.name())) {
            const Scalar &s = p_.scalars[p_.scalar_index.at(op->param.name())];
            if (!s.index) {
                ps.push_back(op->param.name());
            } else {
                ints.push_back(s.id);
            }
            return;
        }
        if (auto f = p_.field_param.find(op->name); f != p_.field_param.end()) {
            ints.push_back(f->second);
            return;
        }
        bad = "it reads " + op->name + ", not a parameter";
    }
    void visit(const Call *op) override {
        if (op->call_type != Call::PureExtern && op->call_type != Call::PureIntrinsic) {
            bad = "it calls " + op->name;
            return;
        }
        IRVisitor::visit(op);
    }
    void visit(const Load *op) override {
        bad = "it loads " + op->name;
    }
    void visit(const Let *op) override {
        bad = "it binds " + op->name;
    }
};

// Literal removes what does not change a float expression's value when
// it is evaluated as written: strict_float marks and casts to the type an
// expression already has.
class Literal : public IRMutator {
    using IRMutator::visit;
    Expr visit(const Call *op) override {
        if (op->is_intrinsic(Call::strict_float)) {
            return mutate(op->args[0]);
        }
        return IRMutator::visit(op);
    }
    Expr visit(const Cast *op) override {
        if (op->type == op->value.type()) {
            return mutate(op->value);
        }
        return IRMutator::visit(op);
    }
};

// FloatOfVars finds an integer conversion of a float expression that
// reads a variable other than the pipeline's parameters (a func's pure
// variable, a loop variable) and that exact_int does not read.
class FloatOfVars : public IRVisitor {
public:
    explicit FloatOfVars(const Pipeline_ &p)
        : p_(p) {
    }
    bool found = false;

private:
    using IRVisitor::visit;
    const Pipeline_ &p_;

    void visit(const Cast *op) override {
        if (found) {
            return;
        }
        if (op->type.is_int() && op->value.type().is_float()) {
            std::vector<Expr> vals;
            Expr value = substitute_in_all_lets(op->value);
            if (!exact_int(value, vals).defined()) {
                FloatOnly v(p_);
                value.accept(&v);
                if (v.bad.rfind("it reads ", 0) == 0) {
                    found = true;
                    return;
                }
            }
        }
        IRVisitor::visit(op);
    }
};

}  // namespace

bool float_of_vars(const Pipeline_ &p, const Expr &e) {
    FloatOfVars v(p);
    e.accept(&v);
    return v.found;
}

// derive returns the parameter of p that abstracts lit, the computation
// of an integer from parameters alone whose reads v lists, named after
// the first float parameter it reads, or else the first integer
// parameter, with suffix: the same parameter for the same computation.
std::string derive(Pipeline_ &p, const Expr &lit, const FloatOnly &v, const std::string &suffix) {
    std::string key = str(lit);
    for (const Derived &d : p.derived) {
        if (d.key == key) {
            return d.id;
        }
    }
    Derived d;
    d.key = key;
    for (int n = 1; d.id.empty() || std::find(p.params.begin(), p.params.end(), d.id) != p.params.end(); n++) {
        d.id = p.names((v.ps.empty() ? v.ints[0] : v.ps[0]) + suffix + (n > 1 ? "_" + std::to_string(n) : ""));
    }
    try {
        d.def = spec_value(p, {}, lit);
    } catch (const Unsupported &) {
        d.def = key;
    }
    p.derived.push_back(d);
    p.params.push_back(d.id);
    return d.id;
}

std::string derived_param(Pipeline_ &p, const Cast *op, const Expr &e0) {
    FloatOnly v(p);
    Expr value = substitute_in_all_lets(op->value);
    value.accept(&v);
    if (!v.bad.empty() || (v.ps.empty() && v.ints.empty())) {
        unsupported("the index expression " + str(e0) + " is not quasi-affine" +
                    (v.bad.empty() ? "" : " (an integer computed from a float, but " + v.bad + ")"));
    }
    return derive(p, Cast::make(op->type, Literal().mutate(value)), v, "_int");
}

std::string quotient_param(Pipeline_ &p, const Expr &q0) {
    Expr q = substitute_in_all_lets(q0);
    FloatOnly v(p);
    q.accept(&v);
    if (!v.bad.empty() || !v.ps.empty() || v.ints.empty() || q.type() != Int(32)) {
        return "";
    }
    return derive(p, q, v, "_div");
}

bool params_only(const Pipeline_ &p, const Expr &e) {
    FloatOnly v(p);
    substitute_in_all_lets(e).accept(&v);
    return v.bad.empty() && v.ps.empty() && e.type().is_int();
}

namespace {

// DividesVars finds an integer quotient or remainder by a non-constant
// divisor that reads a variable other than the pipeline's parameters.
class DividesVars : public IRVisitor {
public:
    explicit DividesVars(const Pipeline_ &p)
        : p_(p) {
    }
    bool found = false;

private:
    using IRVisitor::visit;
    const Pipeline_ &p_;

    template <typename T>
    void check(const T *op) {
        if (found) {
            return;
        }
        if (op->type.is_int() && !is_const(simplify(op->b))) {
            FloatOnly v(p_);
            Expr(op).accept(&v);
            if (v.bad.rfind("it reads ", 0) == 0) {
                found = true;
                return;
            }
        }
        op->a.accept(this);
        op->b.accept(this);
    }
    void visit(const Div *op) override {
        check(op);
    }
    void visit(const Mod *op) override {
        check(op);
    }
};

}  // namespace

bool divides_vars(const Pipeline_ &p, const Expr &e) {
    if (!e.type().is_int()) {
        return false;
    }
    DividesVars v(p);
    substitute_in_all_lets(e).accept(&v);
    return v.found;
}

}  // namespace detail
}  // namespace augur
