// Reductions whose order the schedule changes (Clément 2022, chapter 7):
// atomic() updates, and rfactor()'s merges and intermediates, recognised
// by comparing the lowered pipeline with the algorithm as generate() left
// it.
#include "emit_internal.h"

namespace augur {
namespace detail {

namespace {

// Parts splits an update's value into its reduction operator and the
// value folded (see reduce_parts).
class Parts : public Strict {
public:
    Parts(const std::string &fn, const std::vector<Expr> &args, std::string *op, Expr *body)
        : fn_(fn), args_(args), op_(op), body_(body) {
    }
    bool found = false;

private:
    using Strict::visit;
    const std::string &fn_;
    const std::vector<Expr> &args_;
    std::string *op_;
    Expr *body_;

    // self reports whether e reads fn at the updated point.
    bool self(const Expr &e) {
        const Call *c = e.as<Call>();
        if (!c || c->call_type != Call::Halide || c->name != fn_ || c->args.size() != args_.size()) {
            return false;
        }
        for (size_t i = 0; i < args_.size(); i++) {
            if (!equal(c->args[i], args_[i])) {
                return false;
            }
        }
        return true;
    }
    // two finds the accumulator among a and b.
    bool two(const Expr &a, const Expr &b, const char *o) {
        if (self(a) && !self(b)) {
            *op_ = o;
            *body_ = b;
            return true;
        }
        if (self(b) && !self(a)) {
            *op_ = o;
            *body_ = a;
            return true;
        }
        return false;
    }
    void other(const IRNode *) override {
    }
    void visit(const Add *n) override {
        found = two(n->a, n->b, "+");
    }
    void visit(const Mul *n) override {
        found = two(n->a, n->b, "*");
    }
    void visit(const Min *n) override {
        found = two(n->a, n->b, "min");
    }
    void visit(const Max *n) override {
        found = two(n->a, n->b, "max");
    }
    void visit(const Call *c) override {
        if (c->args.size() != 2) {
            return;
        }
        if (c->is_intrinsic(Call::bitwise_and)) {
            found = two(c->args[0], c->args[1], "&");
        } else if (c->is_intrinsic(Call::bitwise_or)) {
            found = two(c->args[0], c->args[1], "|");
        } else if (c->is_intrinsic(Call::bitwise_xor)) {
            found = two(c->args[0], c->args[1], "^");
        }
    }
};

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

bool match(const Expr &a, const Expr &b, const std::set<std::string> &holes, std::map<std::string, Expr> &m);

// Match compares a node of a with b, a node of the same kind and type,
// as Halide's IRMatch does, matching the holes of a on the way (see
// match).
class Match : public Strict {
public:
    Match(const Expr &a, const Expr &b, const std::set<std::string> &holes, std::map<std::string, Expr> &m)
        : a_(a), b_(b), holes_(holes), m_(m) {
    }
    bool result = false;

private:
    using Strict::visit;
    const Expr &a_, &b_;
    const std::set<std::string> &holes_;
    std::map<std::string, Expr> &m_;

    bool sub(const Expr &a, const Expr &b) {
        return match(a, b, holes_, m_);
    }
    template<typename T>
    void both(const T *x) {
        const T *y = b_.as<T>();
        result = sub(x->a, y->a) && sub(x->b, y->b);
    }
    void other(const IRNode *) override {
        result = equal(a_, b_);
    }
    void visit(const Add *x) override { both(x); }
    void visit(const Sub *x) override { both(x); }
    void visit(const Mul *x) override { both(x); }
    void visit(const Div *x) override { both(x); }
    void visit(const Mod *x) override { both(x); }
    void visit(const Min *x) override { both(x); }
    void visit(const Max *x) override { both(x); }
    void visit(const EQ *x) override { both(x); }
    void visit(const NE *x) override { both(x); }
    void visit(const LT *x) override { both(x); }
    void visit(const LE *x) override { both(x); }
    void visit(const GT *x) override { both(x); }
    void visit(const GE *x) override { both(x); }
    void visit(const And *x) override { both(x); }
    void visit(const Or *x) override { both(x); }
    void visit(const Cast *x) override {
        result = sub(x->value, b_.as<Cast>()->value);
    }
    void visit(const Not *x) override {
        result = sub(x->a, b_.as<Not>()->a);
    }
    void visit(const Select *x) override {
        const Select *y = b_.as<Select>();
        result = sub(x->condition, y->condition) && sub(x->true_value, y->true_value) &&
                 sub(x->false_value, y->false_value);
    }
    void visit(const Let *x) override {
        const Let *y = b_.as<Let>();
        result = x->name == y->name && sub(x->value, y->value) && sub(x->body, y->body);
    }
    void visit(const Call *x) override {
        const Call *y = b_.as<Call>();
        if (x->name != y->name || x->call_type != y->call_type || x->value_index != y->value_index ||
            x->args.size() != y->args.size()) {
            result = false;
            return;
        }
        for (size_t i = 0; i < x->args.size(); i++) {
            if (!sub(x->args[i], y->args[i])) {
                result = false;
                return;
            }
        }
        result = true;
    }
};

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
    Match v(a, b, holes, m);
    a.accept(&v);
    return v.result;
}

// reduction records fn's own update as a reduction of the given kind: u
// is the user's update.
Red reduction(const Lowered &l, const std::string &fn, const Algorithm::Update &u, Red::Kind kind) {
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
}

// current is the only update of fn as the schedule left it.
Algorithm::Update current(const Lowered &l, const std::string &fn) {
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
}

// find_merges records the funcs whose update rfactor() rewrote into a
// merge of an intermediate func's partial results, and returns the
// intermediates, each with the func it was factored out of.
std::map<std::string, std::string> find_merges(Pipeline_ &p, const Lowered &l, const Algorithm &alg) {
    std::map<std::string, std::string> intermediates;
    for (const std::string &fn : l.order) {
        auto a = alg.updates.find(fn);
        if (a == alg.updates.end()) {
            continue;
        }
        const Function &f = l.env.at(fn);
        bool changed = a->second.size() != f.updates().size();
        for (size_t i = 0; !changed && i < a->second.size(); i++) {
            const auto &vs = f.updates()[i].values();
            changed = vs.size() != a->second[i].values.size() || !equal(vs[0], a->second[i].values[0]);
        }
        // rfactor() leaves F(x) = F(x) OP I(x, rv), I a func the schedule
        // made, of one update; other rewrites (the wrappers of Func::in())
        // keep the update's meaning and are translated as they stand.
        if (!changed || a->second.size() != 1 || f.updates().size() != 1 || f.updates()[0].values().size() != 1) {
            continue;
        }
        const Definition &d = f.updates()[0];
        std::string op;
        Expr part;
        const Call *c = nullptr;
        if (!reduce_parts(d.values()[0], fn, d.args(), &op, &part) || !(c = part.as<Call>()) ||
            c->call_type != Call::Halide || alg.updates.count(c->name) || !l.env.count(c->name) ||
            l.env.at(c->name).updates().size() != 1) {
            continue;
        }
        Red r = reduction(l, fn, a->second[0], Red::Merge);
        if (op != r.op) {
            unsupported("the update of " + fn + ", which the schedule rewrote into " + str(d.values()[0]) +
                        ": the merge does not use the reduction's operator " + r.op);
        }
        intermediates[c->name] = fn;
        p.reds[fn] = r;
    }
    return intermediates;
}

// substituted finds where rfactor() substituted the user's RVars in the
// update of its intermediate, by matching the user's update t with the
// intermediate's cur, of value body: its value, then its predicate.
std::map<std::string, Expr> substituted(const std::string &in, const Red &t, const Algorithm::Update &cur, const Expr &body) {
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
    return m;
}

// intermediate describes the rfactor() intermediate in of the reduction
// t: the position of the user's RDom each of its accumulations adds.
Red intermediate(const Lowered &l, const std::string &in, const Red &t) {
    Red r;
    r.kind = Red::Intermediate;
    r.target = t.target;
    r.dims = t.dims;
    r.op = t.op;
    const Function &f = l.env.at(in);
    Algorithm::Update cur = current(l, in);
    std::string op;
    Expr body;
    if (!reduce_parts(cur.values[0], in, cur.args, &op, &body) || op != t.op) {
        unsupported("the update of " + in + ", " + str(cur.values[0]) + ", which is not a reduction with " + t.op +
                    ": an intermediate of rfactor() that the schedule rewrote again (rfactor of an intermediate) is not translated");
    }
    if (!is_identity(f.values()[0], op)) {
        unsupported("the pure definition of " + in + ", " + str(f.values()[0]) + ", which is not the identity of " + op);
    }
    std::map<std::string, Expr> m = substituted(in, t, cur, body);
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
    return r;
}

}  // namespace

bool reduce_parts(const Expr &v0, const std::string &fn, const std::vector<Expr> &args, std::string *op, Expr *body) {
    // rfactor's splits bind the substituted RVars with lets
    Expr v = substitute_in_all_lets(v0);
    Parts parts(fn, args, op, body);
    v.accept(&parts);
    return parts.found;
}

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

// find_reductions finds those updated inside an Atomic node (atomic()),
// and, with the algorithm as generate() left it, those whose update
// rfactor rewrote into a merge of an intermediate func's partial results,
// and those intermediates.
void find_reductions(Pipeline_ &p, const Lowered &l, const Algorithm *alg) {
    std::map<std::string, std::string> intermediates;  // intermediate -> the func it was factored out of
    if (alg) {
        intermediates = find_merges(p, l, *alg);
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
        p.reds[fn] = reduction(l, fn, current(l, fn), Red::Atomic);
    }
    for (const auto &kv : intermediates) {
        p.reds[kv.first] = intermediate(l, kv.first, p.reds.at(kv.second));
    }
}

}  // namespace detail
}  // namespace augur
