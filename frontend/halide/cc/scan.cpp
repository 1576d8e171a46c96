// Scans: updates whose left-hand side moves a pure dimension with the
// RDom (blur(x, ry, c) = f(blur(x, ry - 1, c), ...)), or pins it to a
// constant (blur(x, 0, c) = ...). The translator handles those that write
// each cell at most once: every moved dimension is a constant or
// +-1 times one RVar plus a constant, every RVar in exactly one dimension.
// The cell written then determines the iteration that writes it, and the
// specification indexes the update's tensor by the cell (spec.cpp).
#include "emit_internal.h"

namespace augur {
namespace detail {

namespace {

// uses_var reports whether e reads a variable named in names.
bool uses_var(const Expr &e, const std::set<std::string> &names) {
    class Uses : public IRGraphVisitor {
    public:
        const std::set<std::string> *names = nullptr;
        std::set<std::string> found;

    private:
        using IRGraphVisitor::visit;
        void visit(const Variable *op) override {
            if (names->count(op->name)) {
                found.insert(op->name);
            }
        }
    } u;
    u.names = &names;
    e.accept(&u);
    return !u.found.empty();
}

// used_rvars lists the RVars of rvs (by name) that e reads.
std::vector<size_t> used_rvars(const Expr &e, const std::vector<ReductionVariable> &rvs) {
    std::vector<size_t> out;
    for (size_t j = 0; j < rvs.size(); j++) {
        if (uses_var(e, {rvs[j].var})) {
            out.push_back(j);
        }
    }
    return out;
}

// reads_values reports whether e reads a func, an image or a parameter
// that is not an int32 index.
bool reads_values(const Expr &e) {
    class Reads : public IRGraphVisitor {
    public:
        bool found = false;

    private:
        using IRGraphVisitor::visit;
        void visit(const Call *op) override {
            found = found || op->call_type == Call::Halide || op->call_type == Call::Image;
            IRGraphVisitor::visit(op);
        }
        void visit(const Variable *op) override {
            found = found || (op->param.defined() && !op->param.is_buffer() && op->type != Int(32));
        }
    } r;
    e.accept(&r);
    return r.found;
}

}  // namespace

// enumerate_scan records in sc, when the RDom of st has constant bounds
// and at most max_points points, each iteration (predicate true) and the
// cell it writes, and reports whether every moved dimension is then a
// constant and no two iterations write the same cell. why is set to the
// reason when it cannot.
static bool enumerate_scan(const Definition &u, const Stage &st, Scan &sc, std::string *why) {
    const int64_t max_points = 1024;
    std::vector<int64_t> lo, ext;
    int64_t n = 1;
    for (const ReductionVariable &r : st.rv) {
        Expr m = simplify(r.min), e = simplify(r.extent);
        const int64_t *mi = as_const_int(m), *ei = as_const_int(e);
        if (!mi || !ei) {
            *why = "its RDom's bounds are not constants";
            return false;
        }
        lo.push_back(*mi);
        ext.push_back(std::max<int64_t>(*ei, 0));
        n *= ext.back();
        if (n > max_points) {
            *why = "its RDom has more than " + std::to_string(max_points) + " points";
            return false;
        }
    }
    Expr pred = u.predicate().defined() ? substitute_in_all_lets(u.predicate()) : const_true();
    std::set<std::string> seen;
    std::vector<int64_t> at(st.rv.size());
    for (int64_t q = 0; q < n; q++) {
        // The point q of the box in lexicographic order, outermost first.
        int64_t rest = q;
        std::map<std::string, Expr> env;
        for (size_t j = st.rv.size(); j-- > 0;) {
            at[j] = lo[j] + rest % ext[j];
            rest /= ext[j];
            env[st.rv[j].var] = make_const(Int(32), at[j]);
        }
        Expr p = simplify(substitute(env, pred));
        if (is_const_zero(p)) {
            continue;
        }
        if (!is_const_one(p)) {
            *why = "its predicate " + str(pred) + " is not a constant at each point of its RDom";
            return false;
        }
        std::vector<Expr> cell(sc.lhs.size());
        std::string key;
        for (size_t i = 0; i < sc.lhs.size(); i++) {
            if (sc.kept[i]) {
                continue;
            }
            cell[i] = simplify(substitute(env, sc.lhs[i]));
            if (!as_const_int(cell[i])) {
                *why = "it writes at " + str(sc.lhs[i]) + " in dimension " + std::to_string(i) + ", not a constant at each point of its RDom";
                return false;
            }
            key += str(cell[i]) + ",";
        }
        if (!seen.insert(key).second) {
            *why = "it writes the cell (" + key + ") several times";
            return false;
        }
        sc.points.push_back(at);
        sc.cells.push_back(cell);
    }
    sc.enumerated = true;
    return true;
}

// scan_stage records in st how update k - 1 of f moves its pure
// dimensions with its RVars (st.rv, outermost first), when it moves any,
// and checks that it writes each cell at most once; otherwise the update
// is an error naming what it cannot translate. An update whose moved
// dimensions are not each one RVar (plus a constant, with step 1 or -1)
// is enumerated when its RDom is small and constant (enumerate_scan).
void scan_stage(const Function &f, size_t k, Stage &st) {
    const Definition &u = f.updates()[k - 1];
    const std::string what = "update " + std::to_string(k - 1) + " of " + f.name();
    std::set<std::string> pure(f.args().begin(), f.args().end());
    Scan &sc = st.scan;
    for (const Expr &a : u.args()) {
        sc.lhs.push_back(substitute_in_all_lets(a));
    }
    sc.kept.assign(u.args().size(), true);
    sc.dim_of.assign(st.rv.size(), -1);
    sc.inverse.assign(st.rv.size(), Expr());
    std::string fail;  // why the RVars are not each one moved dimension
    for (size_t i = 0; i < sc.lhs.size(); i++) {
        const Expr &a = sc.lhs[i];
        const Variable *v = a.as<Variable>();
        if (v && v->name == f.args()[i]) {
            continue;
        }
        sc.on = true;
        sc.kept[i] = false;
        if (reads_values(a)) {
            // A histogram's write (dataindex.cpp: hist_stage), which may
            // depend on the pure variables the update keeps.
            sc.data.resize(sc.lhs.size(), false);
            sc.data[i] = true;
            continue;
        }
        if (uses_var(a, pure)) {
            unsupported(what + " writes at " + str(a) + " in dimension " + std::to_string(i) +
                        ": a dimension that moves may depend on the RDom and the parameters only, not on pure variables");
        }
        if (!fail.empty()) {
            continue;
        }
        std::vector<size_t> js = used_rvars(a, st.rv);
        if (js.empty()) {
            continue;
        }
        if (js.size() > 1) {
            fail = what + " writes at " + str(a) + " in dimension " + std::to_string(i) + ": only one RVar per moved dimension is translated";
            continue;
        }
        size_t j = js[0];
        if (sc.dim_of[j] >= 0) {
            fail = what + ": the RVar " + st.rv[j].var + " moves two dimensions (" + std::to_string(sc.dim_of[j]) + " and " +
                   std::to_string(i) + ")";
            continue;
        }
        // The inverse, r = s * (x - a(r := 0)) with s = +-1, checked both
        // ways by Halide's simplifier: a(r := inverse) == x and
        // inverse(x := a) == r make a a bijection between r and x.
        const std::string &r = st.rv[j].var;
        Expr rv = Variable::make(Int(32), r);
        Expr x = Variable::make(Int(32), f.args()[i]);
        Expr a0 = simplify(substitute(r, make_zero(Int(32)), a));
        Expr s = simplify(substitute(r, make_one(Int(32)), a) - a0);
        if (!is_const_one(s) && !is_const(s, -1)) {
            fail = what + " writes at " + str(a) + " in dimension " + std::to_string(i) + ": the RVar " + r +
                   " moves it by a step other than 1 or -1";
            continue;
        }
        Expr inv = simplify(s * (x - a0));
        if (!is_const_zero(simplify(substitute(r, inv, a) - x)) || !is_const_zero(simplify(substitute(f.args()[i], a, inv) - rv))) {
            fail = what + " writes at " + str(a) + " in dimension " + std::to_string(i) + ": not an affine function of " + r +
                   " that the translator can invert";
            continue;
        }
        sc.dim_of[j] = (int)i;
        sc.inverse[j] = inv;
    }
    if (!sc.data.empty()) {
        hist_stage(what, st);
        return;
    }
    if (!sc.on) {
        return;
    }
    for (size_t j = 0; j < st.rv.size() && fail.empty(); j++) {
        if (sc.dim_of[j] < 0) {
            fail = what + ": its RVar " + st.rv[j].var +
                   " moves no dimension it writes, so the update writes some cells several times, which the translator does not handle";
        }
    }
    if (fail.empty()) {
        return;
    }
    std::string why;
    if (!enumerate_scan(u, st, sc, &why)) {
        unsupported(fail + " (nor can its RDom be enumerated: " + why + ")");
    }
}

}  // namespace detail
}  // namespace augur
