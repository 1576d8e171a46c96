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

// Strides are what the Int(32) parts of the es of unify may step by
// besides a constant (see lane_at): constant multiples of the variables
// names, read through the lets in scope lets (their values expanded).
struct Strides {
    const std::set<std::string> &names;
    const std::map<std::string, Expr> &lets;
};

Expr unify(const std::vector<Expr> &es, const Expr &r, const Strides &strides);

// unify_each is unify of the k-th operands of the nodes es, for each of
// their n operands (of(e, k)), or empty where one is not found.
template<typename F>
std::vector<Expr> unify_each(const std::vector<Expr> &es, size_t n, const Expr &r, const Strides &strides, F of) {
    std::vector<Expr> out;
    for (size_t k = 0; k < n; k++) {
        std::vector<Expr> xs;
        for (const Expr &e : es) {
            xs.push_back(of(e, k));
        }
        Expr u = unify(xs, r, strides);
        if (!u.defined()) {
            return {};
        }
        out.push_back(u);
    }
    return out;
}

// unify_binary is unify of es, all nodes of type T, operand by operand.
template<typename T>
Expr unify_binary(const std::vector<Expr> &es, const Expr &r, const Strides &strides) {
    std::vector<Expr> v = unify_each(es, 2, r, strides, [](const Expr &e, size_t k) {
        const T *o = e.as<T>();
        return k == 0 ? o->a : o->b;
    });
    return v.empty() ? Expr() : T::make(v[0], v[1]);
}

// stride_step reports whether the polynomial d is a constant plus
// constant multiples of variables of strides (atoms "v:" + name, see
// PolyAtoms).
bool stride_step(const Poly &d, const Strides &strides) {
    for (const auto &kv : d) {
        const Monomial &m = kv.first;
        if (!m.empty() && (m.size() != 1 || m[0].rfind("v:", 0) != 0 || !strides.names.count(m[0].substr(2)))) {
            return false;
        }
    }
    return true;
}

// stride_progression is e0 + r * d where the Int(32) es, their lets
// expanded, are in arithmetic progression of step d over k as
// polynomials over their atoms, d a constant plus constant multiples of
// strides (stride_step); undefined where they are not.
Expr stride_progression(const std::vector<Expr> &es, const Expr &r, const Strides &strides) {
    std::vector<Expr> xs;
    for (const Expr &e : es) {
        xs.push_back(strides.lets.empty() ? e : simplify(substitute(strides.lets, e)));
    }
    PolyAtoms pa;
    Poly p0 = pa.of(xs[0]), d = pa.of(xs[1]);
    poly_add(&d, p0, -1);
    bool progression = stride_step(d, strides);
    for (size_t k = 2; progression && k < xs.size(); k++) {
        Poly pk = pa.of(xs[k]);
        poly_add(&pk, p0, -1);
        poly_add(&pk, d, -(int64_t)k);
        progression = pk.empty();
    }
    return progression ? simplify(xs[0] + r * pa.to_expr(d)) : Expr();
}

// unify is an expression of the Int(32) variable r whose value at r = k
// is es[k] (at least two scalars of one type), found where the es have
// one shape and differ only in Int(32) subexpressions in arithmetic
// progression over k of constant step, or of a step that is a constant
// plus constant multiples of strides (stride_progression): affine in r,
// as indices must be, once the delinearisation splits the strides off.
// Such are the lanes of the vectors of an interleaving or a
// concatenation at one symbolic lane, such as the loads of the rows of a
// tile transposed (of an input buffer: rows B_.stride.1 apart).
// Undefined where it is not found; the caller checks the result at
// every k (pick).
Expr unify(const std::vector<Expr> &es, const Expr &r, const Strides &strides) {
    const Expr &e0 = es[0];
    bool same = true;
    for (const Expr &e : es) {
        if (!e.defined() || e.type() != e0.type()) {
            return Expr();
        }
        same = same && equal(e, e0);
    }
    if (same) {
        return e0;
    }
    if (e0.type() == Int(32)) {
        // An index, or a part of one: only a progression of constant
        // step, or of multiples of strides, keeps it affine in r.
        Expr d = simplify(es[1] - e0);
        bool progression = as_const_int(d) != nullptr;
        for (size_t k = 2; progression && k < es.size(); k++) {
            progression = is_const_zero(simplify(es[k] - (e0 + make_const(Int(32), (int64_t)k) * d)));
        }
        return progression ? simplify(e0 + r * d) : stride_progression(es, r, strides);
    }
    for (const Expr &e : es) {
        if (e.node_type() != e0.node_type()) {
            return Expr();
        }
    }
    switch (e0.node_type()) {
    case IRNodeType::Add:
        return unify_binary<Add>(es, r, strides);
    case IRNodeType::Sub:
        return unify_binary<Sub>(es, r, strides);
    case IRNodeType::Mul:
        return unify_binary<Mul>(es, r, strides);
    case IRNodeType::Div:
        return unify_binary<Div>(es, r, strides);
    case IRNodeType::Mod:
        return unify_binary<Mod>(es, r, strides);
    case IRNodeType::Min:
        return unify_binary<Min>(es, r, strides);
    case IRNodeType::Max:
        return unify_binary<Max>(es, r, strides);
    case IRNodeType::Cast: {
        std::vector<Expr> v = unify_each(es, 1, r, strides, [](const Expr &e, size_t) { return e.as<Cast>()->value; });
        return v.empty() ? Expr() : Cast::make(e0.type(), v[0]);
    }
    case IRNodeType::Load: {
        const Load *l0 = e0.as<Load>();
        for (const Expr &e : es) {
            const Load *l = e.as<Load>();
            if (l->name != l0->name || !l->image.same_as(l0->image) || !l->param.same_as(l0->param)) {
                return Expr();
            }
        }
        std::vector<Expr> v = unify_each(es, 2, r, strides, [](const Expr &e, size_t k) {
            const Load *l = e.as<Load>();
            return k == 0 ? l->index : l->predicate;
        });
        return v.empty() ? Expr() : Load::make(e0.type(), l0->name, v[0], l0->image, l0->param, v[1], ModulusRemainder());
    }
    case IRNodeType::Call: {
        const Call *c0 = e0.as<Call>();
        for (const Expr &e : es) {
            const Call *c = e.as<Call>();
            if (!c->is_pure() || c->name != c0->name || c->call_type != c0->call_type || c->args.size() != c0->args.size() ||
                c->value_index != c0->value_index || !c->func.same_as(c0->func) || !c->image.same_as(c0->image) ||
                !c->param.same_as(c0->param)) {
                return Expr();
            }
        }
        std::vector<Expr> v = unify_each(es, c0->args.size(), r, strides, [](const Expr &e, size_t k) { return e.as<Call>()->args[k]; });
        if (v.size() != c0->args.size()) {
            return Expr();
        }
        return Call::make(e0.type(), c0->name, v, c0->call_type, c0->func, c0->value_index, c0->image, c0->param);
    }
    default:
        return Expr();
    }
}

// PolyNormal writes every Int(32) sum, difference and product of an
// expression as its polynomial over its atoms (PolyAtoms, the atoms
// normalised first), so that two expressions equal as polynomials in
// their Int(32) parts are written alike: (8 * i + 2) * s + b and
// 8 * (i * s) + b + 2 * s, which the simplifier leaves apart.
class PolyNormal : public IRMutator {
public:
    using IRMutator::mutate;
    Expr mutate(const Expr &e) override {
        Expr m = IRMutator::mutate(e);
        if (!m.defined() || m.type() != Int(32) || !(m.as<Add>() || m.as<Sub>() || m.as<Mul>())) {
            return m;
        }
        PolyAtoms pa;
        return pa.to_expr(pa.of(m));
    }
};

// same_value reports whether a and b are equal, as expressions once
// simplified, or with their Int(32) parts equal as polynomials
// (PolyNormal): ring identities, which hold in Int(32)'s wrapping
// arithmetic too.
bool same_value(const Expr &a, const Expr &b) {
    Expr sa = simplify(a), sb = simplify(b);
    if (equal(sa, sb)) {
        return true;
    }
    PolyNormal n;
    return equal(n.mutate(sa), n.mutate(sb));
}

// pick is es[k] at k = r, an Int(32) expression in [0, es.size()), as one
// expression of r (unify), checked equal to es[k] at every constant k
// (same_value, as they are or with the lets in scope expanded); undefined
// where it is not found.
Expr pick(const std::vector<Expr> &es, const Expr &r, const Strides &strides) {
    if (es.size() < 2) {
        return es.empty() ? Expr() : es[0];
    }
    Expr v = Variable::make(Int(32), "augur@pick");  // '@' is in no Halide name
    Expr u = unify(es, v, strides);
    if (!u.defined()) {
        return Expr();
    }
    for (size_t k = 0; k < es.size(); k++) {
        Expr at = substitute("augur@pick", make_const(Int(32), (int64_t)k), u);
        if (!same_value(at, es[k]) && (strides.lets.empty() || !same_value(substitute(strides.lets, at),
                                                                           substitute(strides.lets, es[k])))) {
            return Expr();
        }
    }
    return substitute("augur@pick", r, u);
}

// LaneAt is the lane of a vector expression at an Int(32) lane
// expression, as a scalar expression exact for every lane in range; ok
// turns false where that needs what the lane expression cannot say
// without a remainder or a quotient of it (a broadcast of a vector, a
// nested ramp, a shuffle at a symbolic lane other than a slice of one
// vector), except for an interleaving or a concatenation of vectors
// whose lanes are one expression of the vector's ordinal (whole_vectors:
// the quotient and remainder of the lane by a constant); or where a
// node is not lane by lane (a vector variable, a call whose vector
// arguments have other lanes, a call that is not pure).
// Like flatten.cpp's LaneOf, it caches nothing: a node read twice gets
// the lane each read asks of it.
class LaneAt : public IRMutator {
public:
    LaneAt(const Expr &lane, Strides strides)
        : lane_(lane), strides_(strides) {
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
    Strides strides_;

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
        if (!l && op->vectors.size() > 1) {
            return whole_vectors(op);
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
    // whole_vectors is lane lane_ of the shuffle op where it interleaves
    // or concatenates vectors of as many lanes n each: lane l is lane
    // l / K of vector l % K of the K vectors (interleaving), or lane
    // l % n of vector l / n (concatenation). The vectors' lanes at that
    // lane must be one expression of the vector's ordinal (pick), such
    // as the loads of a tile's rows that rewrite_interleavings
    // interleaves into one store of the tile transposed.
    Expr whole_vectors(const Shuffle *op) {
        int k = (int)op->vectors.size(), n = op->vectors[0].type().lanes();
        bool interleave = true, concat = true;
        for (const Expr &v : op->vectors) {
            interleave = interleave && v.type().lanes() == n;
        }
        if (!interleave || n < 2 || (int)op->indices.size() != k * n) {
            return fail(op);
        }
        concat = interleave;
        for (int i = 0; i < k * n; i++) {
            interleave = interleave && op->indices[i] == (i % k) * n + i / k;
            concat = concat && op->indices[i] == i;
        }
        if (!interleave && !concat) {
            return fail(op);
        }
        int m = interleave ? k : n;
        Expr q = simplify(lane_ / m), r = simplify(lane_ % m);
        Expr vec = interleave ? r : q, at_lane = interleave ? q : r;
        std::vector<Expr> es;
        for (const Expr &v : op->vectors) {
            es.push_back(simplify(at(v, at_lane)));
            if (!ok) {
                return make_zero(op->type.element_of());
            }
        }
        Expr e = pick(es, vec, strides_);
        return e.defined() ? e : fail(op);
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

Expr lane_at(const Expr &e, const Expr &lane, const std::set<std::string> &strides,
             const std::map<std::string, Expr> &lets) {
    LaneAt l(lane, Strides{strides, lets});
    Expr r = l.mutate(e);
    return l.ok ? simplify(r) : Expr();
}

}  // namespace detail
}  // namespace augur
