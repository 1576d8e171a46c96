// The specification: a pipeline's algorithm as a system of affine
// recurrence equations (Clément 2022, section 2.4.4), one tensor per func
// stage, recurrences over RDoms with the previous stage as the base case,
// the final value as its own tensor; a reduction the schedule re-orders
// is the user's update as reduce(...) over its whole RDom.
#include "emit_internal.h"

#include <algorithm>
#include <functional>
#include <sstream>

namespace augur {
namespace detail {

namespace {

// SpecTranslator translates the algorithm's expressions: variables are
// the equation's, named by vars, reads of funcs and images are reads of
// their tensors.
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
        if (it == p_.funcs.end() || it->second.f.outputs() != 1) {
            it = p_.funcs.find(c->name + "." + std::to_string(c->value_index));
        }
        if (it == p_.funcs.end()) {
            unsupported("the call to " + c->name + ", which is not a func of the pipeline");
        }
        const FuncInfo &fi = it->second;
        try {
            return atom(fi.tensor + "(" + args(c->args) + ")");
        } catch (const Unsupported &e) {
            // A read at coordinates that are not quasi-affine (apps/fft's
            // twiddle factors W(r*(s % 4))) of a func of one definition,
            // defined at every point, is its definition there.
            if (fi.stages.size() != 1 || p_.reds.count(c->name) || is_undef(fi.f.values()[fi.value_index])) {
                throw;
            }
            std::map<std::string, Expr> at;
            for (size_t i = 0; i < c->args.size(); i++) {
                at[fi.f.args()[i]] = c->args[i];
            }
            return value(substitute(at, substitute_in_all_lets(fi.f.values()[fi.value_index])));
        }
    }
    Frag image_call(const Call *c) override {
        const Buffer_ &b = p_.buffers[p_.buffer_index.at(c->name)];
        return atom(b.tensor + "(" + args(c->args) + ")");
    }
    const Target &target() const override {
        return p_.target;
    }
    bool data_index(const Expr &e) override {
        return Translator::data_index(e) || float_of_vars(p_, e) || divides_vars(p_, e);
    }
    Frag float_int(const Cast *op, const Expr &e) override {
        return atom(derived_param(p_, op, e));
    }
    Frag param_quotient(const Expr &q, const Expr &a, const Expr &b, bool rem, const Expr &e) override {
        std::string id = quotient_param(p_, q);
        return id.empty() ? Translator::param_quotient(q, a, b, rem, e) : atom(id);
    }

private:
    Pipeline_ &p_;
    std::map<std::string, std::string> vars_;

    std::string args(const std::vector<Expr> &xs) {
        std::vector<std::string> out;
        for (const Expr &x : xs) {
            out.push_back(read_index(x).s);
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
};

}  // namespace

std::string spec_value(Pipeline_ &p, const std::map<std::string, std::string> &vars, const Expr &e) {
    SpecTranslator t(p, vars);
    return t.value(e).s;
}

namespace {

// SpecWriter writes the equations of one func at a time.
class SpecWriter {
public:
    SpecWriter(Pipeline_ &p, std::ostream &o)
        : p_(p), o_(o) {
    }
    // func writes the tensors and equations of the func fn.
    void func(const std::string &fn);

private:
    Pipeline_ &p_;
    std::ostream &o_;
    // the func being written: its name, its pure variables named after
    // Halide's (by Halide name, and in order), and those joined
    std::string fn_;
    const FuncInfo *fi_ = nullptr;
    std::map<std::string, std::string> vars_;
    std::vector<std::string> xs_;
    std::string x_;

    // taken reports whether id names something the equations of the func
    // already use besides the RVars ks.
    bool taken(const std::string &id, const std::vector<std::string> &ks) const {
        return std::find(xs_.begin(), xs_.end(), id) != xs_.end() || std::find(ks.begin(), ks.end(), id) != ks.end() ||
               p_.funcs.count(id) || std::find(p_.params.begin(), p_.params.end(), id) != p_.params.end();
    }
    // rvar_ids names the RVars rvs, outermost first, adding them to vars.
    std::vector<std::string> rvar_ids(const std::vector<ReductionVariable> &rvs, std::map<std::string, std::string> &vars) const {
        std::vector<std::string> ks;
        for (const ReductionVariable &rv : rvs) {
            std::string id = sanitize(rv.var);
            while (taken(id, ks)) {
                id += "_";
            }
            vars[rv.var] = id;
            ks.push_back(id);
        }
        return ks;
    }
    void reduction(const Red &r);
    std::string pure_value(SpecTranslator &t);
    std::string stage_value(size_t k, const std::string &args, const FuncInfo *fi = nullptr);
    const FuncInfo &element(const Call *c) const;
    std::string element_value(const Definition &d, SpecTranslator &t, const std::string &same);
    void update(size_t k);
    void update_cases(size_t k, const std::string &lhs, const std::vector<std::string> &ks, const std::string &prev,
                      SpecTranslator &t, const std::string &where);
    void equation(const std::string &lhs, const std::string &val, std::vector<std::string> conds);
    void check_self(size_t k, const Call *c);
    // histograms (spec.cpp, below update_cases)
    void check_hist_self(size_t k, const Call *c);
    std::string hist_value(const Stage &st, SpecTranslator &t, const std::string &val, const std::string &cur);
    // scans (spec.cpp, below update_cases)
    bool undef0_ = false;  // the pure definition is undef(): its tensor is not written
    bool prev_undef(size_t k) const {
        return k == 1 && undef0_;
    }
    struct SelfRead;
    void scan_update(size_t k);
    void enumerated_update(size_t k);
    std::vector<SelfRead> scan_reads(size_t k, const std::map<std::string, Expr> &at_cell, const Expr &w);
    void scan_ranges(size_t k, SpecTranslator &t);
    void scan_cases(size_t k, const Expr &val, const Expr &w, const std::vector<SelfRead> &reads);
};

void SpecWriter::func(const std::string &fn) {
    fn_ = fn;
    fi_ = &p_.funcs.at(fn);
    vars_.clear();
    xs_.clear();
    for (const std::string &a : fi_->f.args()) {
        std::string id = sanitize(a);
        while (p_.funcs.count(id) || std::find(p_.params.begin(), p_.params.end(), id) != p_.params.end() ||
               std::find(xs_.begin(), xs_.end(), id) != xs_.end()) {
            id += "_";
        }
        vars_[a] = id;
        xs_.push_back(id);
    }
    x_ = join(xs_, ", ");
    if (auto rit = p_.reds.find(fn); rit != p_.reds.end()) {
        reduction(rit->second);
        return;
    }
    o_ << "\n";
    const Stage &s0 = fi_->stages[0];
    auto ob = p_.buffer_index.find(fn_);
    bool in_place = ob != p_.buffer_index.end() && !p_.buffers[ob->second].initial.empty();
    undef0_ = is_undef(fi_->f.values()[fi_->value_index]) && !in_place;
    if (undef0_) {
        if (fi_->stages.size() < 2 || !fi_->stages[1].scan.on) {
            unsupported("the func " + fn + ": a pure definition undef() is translated only before an update that moves a pure dimension, or in an output updated in place");
        }
    } else {
        SpecTranslator pure(p_, vars_);
        o_ << "tensor " << s0.tensor << "(" << x_ << ") : " << fi_->type << "\n";
        // select(c, v, undef()) (a boundary condition's constant_exterior
        // with an undef() exterior): defined where c only, as
        // remove_undef makes the stores conditional.
        const Expr &v0 = substitute_in_all_lets(fi_->f.values()[fi_->value_index]);
        const Select *sel = v0.as<Select>();
        auto undef_cast = [](Expr e) {
            while (const Cast *c = e.as<Cast>()) {
                e = c->value;
            }
            return is_undef(e);
        };
        if (sel && (undef_cast(sel->false_value) != undef_cast(sel->true_value))) {
            bool t = undef_cast(sel->false_value);
            std::string c = pure.cond(sel->condition).s;
            equation(s0.tensor + "(" + x_ + ")", pure.value(t ? sel->true_value : sel->false_value).s,
                     {t ? "(" + c + ")" : "not (" + c + ")"});
        } else {
            o_ << s0.tensor << "(" << x_ << ") = " << pure_value(pure) << "\n";
        }
    }
    for (size_t k = 1; k < fi_->stages.size(); k++) {
        update(k);
    }
    if (fi_->stages.size() > 1) {
        o_ << "tensor " << fi_->tensor << "(" << x_ << ") : " << fi_->type << "\n";
        o_ << fi_->tensor << "(" << x_ << ") = " << stage_value(fi_->stages.size() - 1, x_) << "\n";
    }
}

// pure_value is the value of the pure definition of the func being
// written; undef() only where an output is updated in place, whose
// updates start from its initial contents.
std::string SpecWriter::pure_value(SpecTranslator &t) {
    const Expr &v = fi_->f.values()[fi_->value_index];
    if (!is_undef(v)) {
        return t.value(v).s;
    }
    auto b = p_.buffer_index.find(fn_);
    if (b == p_.buffer_index.end() || p_.buffers[b->second].initial.empty()) {
        unsupported("the pure definition of " + fn_ + ", undef(), of a func that is not an output updated in place");
    }
    return p_.buffers[b->second].initial + "(" + x_ + ")";
}

// reduction writes a reduction the schedule re-orders: the user's update
// as reduce(...) over its whole RDom (Clément 2022, section 7.4);
// rfactor's intermediates hold partial results of it and have no tensor
// of their own.
void SpecWriter::reduction(const Red &r) {
    if (r.kind == Red::Intermediate) {
        return;
    }
    std::map<std::string, std::string> uvars = vars_;
    std::vector<std::string> ks = rvar_ids(r.rvars, uvars), ranges;
    SpecTranslator t(p_, uvars);
    for (size_t i = 0; i < r.rvars.size(); i++) {
        ranges.push_back(ks[i] + " in " + t.index(r.rvars[i].min).s + " .. " +
                         t.index(simplify(r.rvars[i].min + r.rvars[i].extent)).s);
    }
    std::string dom = join(ranges, ", ");
    if (r.predicate.defined() && !is_const_one(r.predicate)) {
        dom += " where " + t.cond(r.predicate).s;
    }
    o_ << "\ntensor " << fi_->tensor << "(" << x_ << ") : " << fi_->type << "\n";
    o_ << fi_->tensor << "(" << x_ << ") = reduce(" << r.op << ", " << dom << ", " << t.value(r.body).s << ")\n";
}

// stage_value is the value of stage k of the func fi (the one being
// written by default) at the pure point args (text): at the last point of
// its RDom.
std::string SpecWriter::stage_value(size_t k, const std::string &args, const FuncInfo *fi) {
    const Stage &s = (fi ? fi : fi_)->stages[k];
    if (s.scan.on) {
        return s.tensor + "(" + args + ")";
    }
    std::vector<std::string> idx;
    if (!args.empty()) {
        idx.push_back(args);
    }
    SpecTranslator t(p_, {});
    for (const ReductionVariable &r : s.rv) {
        idx.push_back(t.index(simplify(r.min + r.extent - 1)).s);
    }
    return s.tensor + "(" + join(idx, ", ") + ")";
}

// element is the element of the func being written that its own update
// reads with c: itself, or, in a tuple, the element c names.
const FuncInfo &SpecWriter::element(const Call *c) const {
    return p_.funcs.at(element_name(fi_->f, c->value_index));
}

// element_value is the value the definition d gives the element being
// written; undef() keeps its value, same (text).
std::string SpecWriter::element_value(const Definition &d, SpecTranslator &t, const std::string &same) {
    const Expr &v = d.values()[fi_->value_index];
    return is_undef(v) ? same : t.value(v).s;
}

// equation writes lhs = val where conds (the empty ones left out).
void SpecWriter::equation(const std::string &lhs, const std::string &val, std::vector<std::string> conds) {
    conds.erase(std::remove(conds.begin(), conds.end(), std::string()), conds.end());
    o_ << lhs << " = " << val;
    if (!conds.empty()) {
        o_ << " where " << join(conds, " and ");
    }
    o_ << "\n";
}

// check_self checks a read of the func by its update k: the pure
// arguments must be the update's own.
void SpecWriter::check_self(size_t k, const Call *c) {
    for (size_t i = 0; i < c->args.size(); i++) {
        const Variable *v = c->args[i].as<Variable>();
        if (!v || v->name != fi_->f.args()[i]) {
            unsupported("update " + std::to_string(k - 1) + " of " + fn_ + " reads " + str(Expr(c)) +
                        ": an update may read its own func only at the point it updates");
        }
    }
}

// update writes stage k, the func's update k - 1: over its RVars, a
// recurrence whose base case is the previous stage.
void SpecWriter::update(size_t k) {
    if (fi_->stages[k].scan.on) {
        scan_update(k);
        return;
    }
    const Stage &st = fi_->stages[k];
    const Definition &u = fi_->f.updates()[k - 1];
    std::map<std::string, std::string> uvars = vars_;
    std::vector<std::string> ks = rvar_ids(st.rv, uvars);
    std::vector<std::string> all = xs_;
    all.insert(all.end(), ks.begin(), ks.end());
    std::string lhs = st.tensor + "(" + join(all, ", ") + ")";
    o_ << "tensor " << lhs << " : " << fi_->type << "\n";
    std::string prev = stage_value(k - 1, x_);
    SpecTranslator t(p_, uvars);
    t.self_name = fi_->f.name();
    std::string where;
    if (u.predicate().defined() && !is_const_one(u.predicate())) {
        where = t.cond(u.predicate()).s;
    }
    if (!ks.empty()) {
        update_cases(k, lhs, ks, prev, t, where);
        return;
    }
    t.self = [&](const Call *c) {
        check_self(k, c);
        return atom(stage_value(k - 1, x_, &element(c)));
    };
    std::string val = element_value(u, t, prev);
    if (where.empty()) {
        equation(lhs, val, {});
    } else {
        equation(lhs, val, {"(" + where + ")"});
        equation(lhs, prev, {"not (" + where + ")"});
    }
}

// update_cases writes the equations of an update over the RVars ks
// (outermost first): outside their box, the previous stage's value prev;
// inside, one case per RVar, for the point that precedes the current one.
void SpecWriter::update_cases(size_t k, const std::string &lhs, const std::vector<std::string> &ks, const std::string &prev,
                              SpecTranslator &t, const std::string &where) {
    const Stage &st = fi_->stages[k];
    const Definition &u = fi_->f.updates()[k - 1];
    std::vector<std::string> box, lo, last;
    for (size_t i = 0; i < st.rv.size(); i++) {
        const ReductionVariable &r = st.rv[i];
        lo.push_back(t.index(r.min).s);
        last.push_back(t.index(simplify(r.min + r.extent - 1)).s);
        std::string hi = t.index(simplify(r.min + r.extent)).s;
        box.push_back(lo[i] + " <= " + ks[i] + " < " + hi);
    }
    std::string dom = join(box, " and ");
    equation(lhs, prev, {"not (" + dom + ")"});
    // Every equation below holds in the box: its RVars' ranges bound
    // shifts by them (shift.cpp).
    for (const ReductionVariable &r : st.rv) {
        t.ranges.push(r.var, Interval(r.min, simplify(r.min + r.extent - 1)));
    }
    size_t n = ks.size();
    // Case q (from the innermost, 1-based): the variables inside q at
    // their lower bounds, the q-th above its own; the first point of the
    // box reads outside it, the previous stage.
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
        std::vector<std::string> here = xs_;
        here.insert(here.end(), pred.begin(), pred.end());
        std::string at = "(" + join(here, ", ") + ")", cur = st.tensor + at;
        t.self = [&](const Call *c) {
            if (st.scan.hist) {
                check_hist_self(k, c);
            } else {
                check_self(k, c);
            }
            return atom(element(c).stages[k].tensor + at);
        };
        std::string val = element_value(u, t, cur);
        if (st.scan.hist) {
            val = hist_value(st, t, val, cur);
        }
        if (where.empty()) {
            equation(lhs, val, conds);
        } else {
            std::vector<std::string> c1 = conds, c2 = conds;
            c1.push_back("(" + where + ")");
            c2.push_back("not (" + where + ")");
            equation(lhs, val, c1);
            equation(lhs, cur, c2);
        }
    }
}

// check_hist_self checks a read of the func by its histogram update k
// (Scan::hist): at the cell the update writes, the pure variables it
// keeps and its data-dependent coordinates.
void SpecWriter::check_hist_self(size_t k, const Call *c) {
    const Scan &sc = fi_->stages[k].scan;
    const Definition &u = fi_->f.updates()[k - 1];
    for (size_t i = 0; i < c->args.size(); i++) {
        const Variable *v = c->args[i].as<Variable>();
        bool ok = sc.kept[i] ? v && v->name == fi_->f.args()[i]
                             : equal(c->args[i], u.args()[i]) || equal(substitute_in_all_lets(c->args[i]), sc.lhs[i]);
        if (!ok) {
            unsupported("update " + std::to_string(k - 1) + " of " + fn_ + " reads " + str(Expr(c)) +
                        ": a histogram's update may read its own func only at the cell it updates");
        }
    }
}

// hist_value is the value of a histogram's update (Clément 2022, section
// 9.6.3) at a point of its tensor: the update's value val where every
// data-dependent coordinate written equals the point's, the previous
// value cur elsewhere.
std::string SpecWriter::hist_value(const Stage &st, SpecTranslator &t, const std::string &val, const std::string &cur) {
    std::string out = val;
    for (size_t i = st.scan.lhs.size(); i-- > 0;) {
        if (st.scan.kept[i]) {
            continue;
        }
        std::string here = "i32(" + xs_[i] + ")";
        out = "select(" + here + " == " + t.value(st.scan.lhs[i]).s + ", " + out + ", " + cur + ")";
    }
    return out;
}

// SelfRead is a read of the func by a scan update, at the cell y (over
// the pure variables of the cell written): it sees the update's own
// value at y when an earlier iteration wrote y, else the previous
// stage's.
struct SpecWriter::SelfRead {
    std::string key;            // y and the element read, printed by Halide (self_key)
    std::string cell;           // y alone
    int elem = 0;               // the element read, of a tuple
    std::vector<Expr> y;        // the cell read
    Expr earlier;               // an earlier iteration of the update wrote y
    std::string mine, before;   // the update's value at y, and the previous stage's (empty: undefined)
};

// self_key names a read c of the func at the cell y, with the element it
// reads: a tuple's elements are different reads of the same cell.
std::string self_key(const Call *c, const std::vector<Expr> &y) {
    return str(Expr(Call::make(c->type, c->name, y, c->call_type))) + "[" + std::to_string(c->value_index) + "]";
}

// scan_update writes stage k, an update that moves pure dimensions with
// its RDom (scan.cpp). Each cell is written by at most one iteration,
// the one the cell determines, so the stage's tensor is indexed by the
// cell: where an iteration writes it, the update's value at that
// iteration, its reads of the func resolved to the latest earlier write
// (the update's own tensor where an earlier iteration wrote the cell
// read, the previous stage elsewhere); everywhere else, the previous
// stage.
void SpecWriter::scan_update(size_t k) {
    const Stage &st = fi_->stages[k];
    const Definition &u = fi_->f.updates()[k - 1];
    const Scan &sc = st.scan;
    const std::vector<std::string> &args = fi_->f.args();
    if (p_.reds.count(fn_)) {
        unsupported("update " + std::to_string(k - 1) + " of " + fn_ + ": a reduction the schedule re-orders that moves a pure dimension");
    }
    if (sc.enumerated) {
        enumerated_update(k);
        return;
    }
    // The RVars at the cell written, and W, "the update writes the cell".
    std::map<std::string, Expr> at_cell;
    Expr w = const_true();
    for (size_t j = 0; j < st.rv.size(); j++) {
        const ReductionVariable &r = st.rv[j];
        at_cell[r.var] = sc.inverse[j];
        w = w && r.min <= sc.inverse[j] && sc.inverse[j] < r.min + r.extent;
    }
    for (size_t i = 0; i < args.size(); i++) {
        if (!sc.kept[i] && std::find(sc.dim_of.begin(), sc.dim_of.end(), (int)i) == sc.dim_of.end()) {
            w = w && Variable::make(Int(32), args[i]) == sc.lhs[i];
        }
    }
    if (u.predicate().defined() && !is_const_one(u.predicate())) {
        w = w && substitute(at_cell, substitute_in_all_lets(u.predicate()));
    }
    w = simplify(w);
    o_ << "tensor " << st.tensor << "(" << x_ << ") : " << fi_->type << "\n";
    std::string lhs = st.tensor + "(" + x_ + ")";
    SpecTranslator t(p_, vars_);
    std::string wt = t.cond(w).s;
    if (!prev_undef(k)) {
        equation(lhs, stage_value(k - 1, x_), {"not (" + wt + ")"});
    }
    // An element the update leaves undefined (a tuple's) keeps its value.
    const Expr &v = u.values()[fi_->value_index];
    if (is_undef(v)) {
        if (prev_undef(k)) {
            unsupported("update " + std::to_string(k - 1) + " of " + fn_ + ": an element undef() in a scan whose pure definition is undef()");
        }
        equation(lhs, stage_value(k - 1, x_), {"(" + wt + ")"});
        return;
    }
    Expr val = substitute(at_cell, substitute_in_all_lets(v));
    scan_cases(k, val, w, scan_reads(k, at_cell, w));
}

// enumerated_update writes stage k, a scan whose RDom the translator
// enumerated (scan.cpp): one equation per iteration, for the cell it
// writes, its reads of the func resolved to the latest earlier write of
// the cell read, which is known statically, or to the previous stage's
// value (an iteration that would read the previous stage's undefined
// value is left undefined); everywhere else, the previous stage.
void SpecWriter::enumerated_update(size_t k) {
    const Stage &st = fi_->stages[k];
    const Definition &u = fi_->f.updates()[k - 1];
    const Scan &sc = st.scan;
    const std::vector<std::string> &args = fi_->f.args();
    SpecTranslator t(p_, vars_);
    o_ << "tensor " << st.tensor << "(" << x_ << ") : " << fi_->type << "\n";
    std::string lhs = st.tensor + "(" + x_ + ")";
    // here(q): the cell is the one iteration q writes.
    auto here = [&](size_t q) {
        std::vector<std::string> eqs;
        for (size_t i = 0; i < args.size(); i++) {
            if (!sc.kept[i]) {
                eqs.push_back(xs_[i] + " == " + t.index(sc.cells[q][i]).s);
            }
        }
        return "(" + join(eqs, " and ") + ")";
    };
    if (!prev_undef(k)) {
        std::vector<std::string> conds;
        for (size_t q = 0; q < sc.cells.size(); q++) {
            conds.push_back("not " + here(q));
        }
        equation(lhs, stage_value(k - 1, x_), conds);
    }
    const Expr &v = u.values()[fi_->value_index];
    for (size_t q = 0; q < sc.points.size(); q++) {
        if (is_undef(v)) {
            if (!prev_undef(k)) {
                equation(lhs, stage_value(k - 1, x_), {here(q)});
            }
            continue;
        }
        std::map<std::string, Expr> env;
        for (size_t j = 0; j < st.rv.size(); j++) {
            env[st.rv[j].var] = make_const(Int(32), sc.points[q][j]);
        }
        Expr val = simplify(substitute(env, substitute_in_all_lets(v)));
        bool defined = true;
        t.self_name = fi_->f.name();
        t.self = [&](const Call *c) {
            // The cell read: the kept dimensions in place, the moved ones constants.
            std::vector<std::string> ys;
            std::vector<Expr> y;
            for (size_t i = 0; i < c->args.size(); i++) {
                y.push_back(simplify(c->args[i]));
                if (sc.kept[i]) {
                    const Variable *pv = y[i].as<Variable>();
                    if (!pv || pv->name != args[i]) {
                        unsupported("update " + std::to_string(k - 1) + " of " + fn_ + " reads " + str(Expr(c)) +
                                    ": a scan may read its own func only at the pure variables it keeps");
                    }
                } else if (!as_const_int(y[i])) {
                    unsupported("update " + std::to_string(k - 1) + " of " + fn_ + " reads " + str(Expr(c)) +
                                ": an enumerated scan may read its own func only at constant cells in the dimensions it moves");
                }
                ys.push_back(t.index(y[i]).s);
            }
            const FuncInfo &ej = p_.funcs.at(element_name(fi_->f, c->value_index));
            bool earlier = false;
            for (size_t e = 0; e < q && !earlier; e++) {
                bool same = true;
                for (size_t i = 0; i < args.size(); i++) {
                    same = same && (sc.kept[i] || can_prove(sc.cells[e][i] == y[i]));
                }
                earlier = same;
            }
            std::string at = join(ys, ", ");
            if (earlier) {
                return atom(ej.stages[k].tensor + "(" + at + ")");
            }
            if (k == 1 && is_undef(fi_->f.values()[c->value_index]) && undef0_) {
                defined = false;
                return atom(ej.stages[k - 1].tensor + "(" + at + ")");
            }
            return atom(stage_value(k - 1, at, &ej));
        };
        std::string text = t.value(val).s;
        if (defined) {
            equation(lhs, text, {here(q)});
        }
    }
}

// scan_reads finds the reads of the func by the scan update k, checks
// that they keep the kept dimensions at the cell written (so that the
// iterations for different values of the kept pure variables touch
// different cells, in whatever order the schedule runs them), and says
// when each sees the update's own earlier write: the iteration that
// writes the cell read is in the RDom, its predicate holds there, and it
// comes before the current one in the RDom's order.
std::vector<SpecWriter::SelfRead> SpecWriter::scan_reads(size_t k, const std::map<std::string, Expr> &at_cell, const Expr &w) {
    const Stage &st = fi_->stages[k];
    const Definition &u = fi_->f.updates()[k - 1];
    const std::vector<std::string> &args = fi_->f.args();
    class Calls : public IRGraphVisitor {
    public:
        std::string fn;
        std::vector<const Call *> found;

    private:
        using IRGraphVisitor::visit;
        void visit(const Call *op) override {
            if (op->call_type == Call::Halide && op->name == fn) {
                found.push_back(op);
            }
            IRGraphVisitor::visit(op);
        }
    } calls;
    calls.fn = fi_->f.name();
    Expr v0 = substitute_in_all_lets(u.values()[fi_->value_index]);
    v0.accept(&calls);
    std::vector<SelfRead> out;
    for (const Call *c : calls.found) {
        SelfRead r;
        std::map<std::string, Expr> to_y;
        for (size_t i = 0; i < args.size(); i++) {
            if (st.scan.kept[i]) {
                const Variable *v = c->args[i].as<Variable>();
                if (!v || v->name != args[i]) {
                    unsupported("update " + std::to_string(k - 1) + " of " + fn_ + " reads " + str(Expr(c)) +
                                ": a scan may read its own func only at the pure variables it keeps");
                }
            }
            r.y.push_back(simplify(substitute(at_cell, c->args[i])));
            to_y[args[i]] = r.y.back();
        }
        r.key = self_key(c, r.y);
        r.cell = str(Expr(Call::make(c->type, c->name, r.y, c->call_type)));
        r.elem = c->value_index;
        bool seen = false;
        for (const SelfRead &o : out) {
            seen = seen || o.key == r.key;
        }
        if (seen) {
            continue;
        }
        // The lexicographic order of the RVars, outermost first.
        Expr less = const_false(), same = const_true();
        for (const Expr &inv : st.scan.inverse) {
            Expr there = substitute(to_y, inv);
            less = less || (same && there < inv);
            same = same && there == inv;
        }
        r.earlier = simplify(substitute(to_y, w) && less);
        out.push_back(r);
    }
    std::set<std::string> cells;
    for (const SelfRead &r : out) {
        cells.insert(r.cell);
    }
    if (cells.size() > 4) {
        unsupported("update " + std::to_string(k - 1) + " of " + fn_ + ": a scan that reads its own func at more than 4 cells");
    }
    return out;
}

// scan_ranges bounds, in t, each dimension the scan update k moves by the
// range its RVar gives it: the equations where the update writes hold
// them, so they bound shifts by them (shift.cpp).
void SpecWriter::scan_ranges(size_t k, SpecTranslator &t) {
    const Stage &st = fi_->stages[k];
    const std::vector<std::string> &args = fi_->f.args();
    Scope<Interval> rvs;
    for (const ReductionVariable &r : st.rv) {
        rvs.push(r.var, Interval(r.min, simplify(r.min + r.extent - 1)));
    }
    for (int d : st.scan.dim_of) {
        if (d < 0) {
            continue;
        }
        Interval iv = bounds_of_expr_in_scope(st.scan.lhs[d], rvs);
        if (iv.is_bounded()) {
            t.ranges.push(args[d], Interval(simplify(iv.min), simplify(iv.max)));
        }
    }
}

// scan_cases writes the equations of the scan update k where it writes
// (w): one per way its reads of the func resolve, the ways that read the
// previous stage's undefined value left out.
void SpecWriter::scan_cases(size_t k, const Expr &val, const Expr &w, const std::vector<SelfRead> &reads0) {
    const Stage &st = fi_->stages[k];
    // W, translated without the ranges that it establishes.
    std::string wt = "(" + SpecTranslator(p_, vars_).cond(w).s + ")";
    SpecTranslator t(p_, vars_);
    scan_ranges(k, t);
    std::vector<SelfRead> reads = reads0;
    // The cells whose resolution depends on the cell written (a tuple's
    // elements read at one cell resolve together), by their first read.
    std::vector<std::string> open;
    for (size_t l = 0; l < reads.size(); l++) {
        std::vector<std::string> ys;
        for (const Expr &e : reads[l].y) {
            ys.push_back(t.index(e).s);
        }
        // A read of element j of a tuple sees element j's stages.
        const FuncInfo &ej = p_.funcs.at(element_name(fi_->f, reads[l].elem));
        reads[l].mine = ej.stages[k].tensor + "(" + join(ys, ", ") + ")";
        if (!(k == 1 && is_undef(fi_->f.values()[reads[l].elem]) && undef0_)) {
            reads[l].before = stage_value(k - 1, join(ys, ", "), &ej);
        }
        if (!is_const(reads[l].earlier) && std::find(open.begin(), open.end(), reads[l].cell) == open.end()) {
            open.push_back(reads[l].cell);
        }
    }
    std::string lhs = st.tensor + "(" + x_ + ")";
    for (size_t m = 0; m < ((size_t)1 << open.size()); m++) {
        std::vector<std::string> conds{wt};
        std::map<std::string, bool> mine;
        bool defined = true;
        std::set<std::string> split;
        for (size_t l = 0; l < reads.size(); l++) {
            bool e = is_const_one(reads[l].earlier);
            auto at = std::find(open.begin(), open.end(), reads[l].cell);
            if (at != open.end()) {
                e = (m >> (at - open.begin())) & 1;
                if (split.insert(reads[l].cell).second) {
                    std::string c = t.cond(reads[l].earlier).s;
                    conds.push_back(e ? "(" + c + ")" : "not (" + c + ")");
                }
            }
            mine[reads[l].key] = e;
            defined = defined && (e || !reads[l].before.empty());
        }
        if (!defined) {
            continue;
        }
        t.self_name = fi_->f.name();
        t.self = [&](const Call *c) {
            std::vector<Expr> y;
            for (const Expr &a : c->args) {
                y.push_back(simplify(a));
            }
            std::string key = self_key(c, y);
            for (const SelfRead &r : reads) {
                if (r.key == key) {
                    return atom(mine.at(key) ? r.mine : r.before);
                }
            }
            unsupported("update " + std::to_string(k - 1) + " of " + fn_ + ": the read " + key + " of its own func, not found");
        };
        equation(lhs, t.value(val).s, conds);
    }
}

}  // namespace

std::string spec_text(Pipeline_ &p, const std::string &name) {
    std::ostringstream o;
    for (const Buffer_ &b : p.buffers) {
        if (b.output && b.initial.empty()) {
            continue;
        }
        std::vector<std::string> vs;
        for (int d = 0; d < b.dims; d++) {
            vs.push_back("d" + std::to_string(d));
        }
        o << "\ninput " << (b.output ? b.initial : b.tensor) << "(" << join(vs, ", ") << ") : " << b.type << "\n";
    }
    for (const Scalar &s : p.scalars) {
        if (!s.index) {
            o << "\ninput " << s.id << "() : " << s.type << "\n";
        }
    }
    SpecWriter w(p, o);
    for (const std::string &fn : p.order) {
        w.func(fn);
    }
    std::vector<std::string> outs;
    for (const Buffer_ &b : p.buffers) {
        if (b.output) {
            outs.push_back(b.tensor);
        }
    }
    o << "\noutput " << join(outs, ", ") << "\n";
    // The header last: translating the funcs may add parameters.
    std::ostringstream h;
    h << "# Generated by augur halide from the Halide 14 pipeline " << name << ".\n";
    h << "# One tensor per func stage; see docs/halide.md for the naming scheme.\n";
    if (!p.derived.empty()) {
        h << "# Integer parameters computed from float inputs, abstracted (docs/halide.md,\n";
        h << "# \"Integers computed from float parameters\"):\n";
        for (const Derived &d : p.derived) {
            h << "#   " << d.id << " = " << d.def << "\n";
        }
    }
    // Halide's int32 and int64 arithmetic has no value where it overflows.
    h << "overflow unconstrained\n";
    if (!p.params.empty()) {
        h << "param " << join(p.params, ", ") << "\n";
    }
    return h.str() + o.str();
}

}  // namespace detail
}  // namespace augur
