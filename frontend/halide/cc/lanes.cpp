// Lanes: one lane of a vector expression of the final statement at a
// symbolic lane, so that flatten.cpp can translate a vector store as one
// scalar store in a loop over its lanes (see Unflatten's store_rerolled)
// rather than as one store per lane.
#include "emit_internal.h"

namespace augur {
namespace detail {

Expr fold_exprs(VectorReduce::Operator op, const std::vector<Expr> &xs) {
    Expr acc;
    for (const Expr &x : xs) {
        if (!acc.defined()) {
            acc = x;
            continue;
        }
        switch (op) {
        case VectorReduce::Add:
            acc = acc + x;
            break;
        case VectorReduce::Mul:
            acc = acc * x;
            break;
        case VectorReduce::Min:
            acc = min(acc, x);
            break;
        case VectorReduce::Max:
            acc = max(acc, x);
            break;
        case VectorReduce::And:
            acc = acc && x;
            break;
        case VectorReduce::Or:
            acc = acc || x;
            break;
        default:
            return Expr();
        }
    }
    return acc;
}

namespace {

// LaneAt is the lane of a vector expression at an Int(32) lane
// expression, as a scalar expression exact for every lane in range; ok
// turns false where that needs what the lane expression cannot say
// without a remainder or a quotient of it (a broadcast of a vector, a
// nested ramp, a shuffle other than a slice of one vector at a symbolic
// lane), or where a node is not lane by lane (a vector variable, a call
// whose vector arguments have other lanes, a call that is not pure).
// Like flatten.cpp's LaneOf, it caches nothing: a node read twice gets
// the lane each read asks of it.
class LaneAt : public IRMutator {
public:
    explicit LaneAt(const Expr &lane)
        : lane_(lane) {
    }
    bool ok = true;

    // mutate is lane lane_ of e. Once it has given up, a scalar of e's
    // element type stands in for every vector node, so that the nodes
    // above it (discarded) are still well typed.
    Expr mutate(const Expr &e) override {
        if (!e.defined() || e.type().is_scalar()) {
            return e;
        }
        if (!ok) {
            return make_zero(e.type().element_of());
        }
        return IRMutator::mutate(e);
    }

private:
    using IRMutator::visit;
    Expr lane_;

    // at is lane lane of e.
    Expr at(const Expr &e, const Expr &lane) {
        Expr saved = lane_;
        lane_ = lane;
        Expr r = mutate(e);
        lane_ = saved;
        return r;
    }
    // fail gives up: a scalar of e's type stands in for the result,
    // which is discarded.
    Expr fail(const Expr &e) {
        ok = false;
        return make_zero(e.type().element_of());
    }
    // constant_lane is the lane, where it is a constant.
    const int64_t *constant_lane() const {
        return as_const_int(lane_);
    }

    Expr visit(const Broadcast *op) override {
        int m = op->value.type().lanes();
        if (m == 1) {
            return op->value;
        }
        const int64_t *l = constant_lane();
        return l ? at(op->value, make_const(Int(32), *l % m)) : fail(op);
    }
    Expr visit(const Ramp *op) override {
        Type t = op->base.type().element_of();
        int m = op->base.type().lanes();
        if (const int64_t *l = constant_lane()) {
            // Lane l of a ramp of vectors of m lanes: lane l % m of base
            // + (l / m) * stride.
            Expr k = make_const(Int(32), *l % m);
            return simplify(at(op->base, k) + make_const(t, *l / m) * at(op->stride, k));
        }
        if (m != 1 || t != Int(32)) {
            return fail(op);
        }
        return simplify(op->base + lane_ * op->stride);
    }
    Expr visit(const Shuffle *op) override {
        const int64_t *l = constant_lane();
        if (!l && op->vectors.size() == 1 && op->is_slice()) {
            Expr lane = simplify(make_const(Int(32), op->slice_begin()) + lane_ * op->slice_stride());
            return at(op->vectors[0], lane);
        }
        if (!l || *l < 0 || *l >= (int64_t)op->indices.size()) {
            return fail(op);
        }
        int index = op->indices[*l];
        for (const Expr &v : op->vectors) {
            if (index < v.type().lanes()) {
                return at(v, make_const(Int(32), index));
            }
            index -= v.type().lanes();
        }
        return fail(op);
    }
    Expr visit(const VectorReduce *op) override {
        int factor = op->value.type().lanes() / op->type.lanes();
        std::vector<Expr> xs;
        for (int j = 0; j < factor; j++) {
            xs.push_back(at(op->value, simplify(lane_ * factor + j)));
        }
        Expr r = fold_exprs(op->op, xs);
        return r.defined() ? r : fail(op);
    }
    Expr visit(const Load *op) override {
        return Load::make(op->type.element_of(), op->name, at(op->index, lane_), op->image, op->param,
                          at(op->predicate, lane_), ModulusRemainder());
    }
    Expr visit(const Cast *op) override {
        return Cast::make(op->type.element_of(), mutate(op->value));
    }
    Expr visit(const Variable *op) override {
        return fail(op);
    }
    Expr visit(const Let *op) override {
        if (op->value.type().is_vector()) {
            return mutate(substitute(op->name, op->value, op->body));
        }
        return Let::make(op->name, op->value, mutate(op->body));
    }
    Expr visit(const Call *op) override {
        if (!op->is_pure() || op->is_intrinsic(Call::dynamic_shuffle)) {
            return fail(op);
        }
        std::vector<Expr> args;
        for (const Expr &a : op->args) {
            if (a.type().is_vector() && a.type().lanes() != op->type.lanes()) {
                return fail(op);
            }
            args.push_back(mutate(a));
        }
        return Call::make(op->type.element_of(), op->name, args, op->call_type, op->func, op->value_index, op->image,
                          op->param);
    }
};

}  // namespace

Expr lane_at(const Expr &e, const Expr &lane) {
    LaneAt l(lane);
    Expr r = l.mutate(e);
    return l.ok ? simplify(r) : Expr();
}

}  // namespace detail
}  // namespace augur
