// Integers computed from float parameters: an int32 conversion of a
// float32 expression of the pipeline's float scalar parameters, its
// integer parameters and constants alone (resize's int32(ceil(2 /
// scale_factor)), the number of its taps), used as an index expression (a loop bound, a reduction's
// extent, a realized min or extent), is abstracted as an integer
// parameter of its own, of both the specification and the kernel. The
// same computation, written alike on both sides, is the same parameter;
// different computations are different parameters, which nothing relates:
// a verdict VALID then holds for every value of each, the values the
// computations give among them. Each parameter's computation is recorded
// (Pipeline_::derived) and written in the specification's header.
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
    std::string bad;             // why it reads something else
    std::vector<std::string> ps;  // the parameters read

private:
    using IRVisitor::visit;
    const Pipeline_ &p_;

    void visit(const Variable *op) override {
        if (op->param.defined() && !op->param.is_buffer() && p_.scalar_index.count(op->param.name())) {
            if (!p_.scalars[p_.scalar_index.at(op->param.name())].index) {
                ps.push_back(op->param.name());
            }
            return;
        }
        if (p_.field_param.count(op->name)) {
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

}  // namespace

std::string derived_param(Pipeline_ &p, const Cast *op, const Expr &e0) {
    FloatOnly v(p);
    Expr value = substitute_in_all_lets(op->value);
    value.accept(&v);
    if (!v.bad.empty() || v.ps.empty()) {
        unsupported("the index expression " + str(e0) + " is not quasi-affine" +
                    (v.bad.empty() ? "" : " (an integer computed from a float, but " + v.bad + ")"));
    }
    Expr lit = Cast::make(op->type, Literal().mutate(value));
    std::string key = str(lit);
    for (const Derived &d : p.derived) {
        if (d.key == key) {
            return d.id;
        }
    }
    Derived d;
    d.key = key;
    for (int n = 1; d.id.empty() || std::find(p.params.begin(), p.params.end(), d.id) != p.params.end(); n++) {
        d.id = p.names(v.ps[0] + "_int" + (n > 1 ? "_" + std::to_string(n) : ""));
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

}  // namespace detail
}  // namespace augur
