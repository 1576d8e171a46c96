// The kernel: Halide's own loop nest, as lowering leaves it before storage
// flattening, in the kernel format, every store annotated with the stage
// of the func it computes at that stage's coordinates (Clément 2022,
// sections 5.6 and 6.1), Halide's checks as the kernel's assumptions.
#include "emit_internal.h"

#include <algorithm>
#include <functional>
#include <memory>
#include <sstream>

namespace augur {
namespace detail {

namespace {

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
    Expr value;        // as written
    Expr expanded;     // with every enclosing let substituted
    std::string text;  // the index text, when it is one
    std::set<std::string> uses;
    std::vector<std::string> exact;     // what the text assumes (assume_exact), assumed once the let is used
    std::vector<std::string> divisors;  // what the text assumes of its divisors (param_quotient), likewise
    std::string bad;  // why it is not an index expression
};

struct Realized {
    std::string array;
    std::vector<Frag> mins;
};

// stmt_kind names the kinds of statement the kernel cannot hold, for the
// error.
std::string stmt_kind(const Stmt &s) {
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

// ParamBound reads a check of the form v >= c, v <= c (or with > and <,
// either way round) on a variable v, c a constant or an expression with a
// constant bound in that direction.
class ParamBound : public Strict {
public:
    const Variable *v = nullptr;
    const int64_t *c = nullptr;
    bool lower = false;  // v >= c
    int64_t adj = 0;     // 1 for a strict comparison

private:
    using Strict::visit;
    int64_t bound_ = 0;
    // side takes a <= b (a_lower false) or a >= b (a_lower true) with one
    // side a variable: the other side's constant bound in the direction
    // the comparison gives (the simplifier folds a buffer's
    // non-negative-extent check into its bounds check, max(..., 384) <=
    // output.extent.0, which bounds output.extent.0 below by 384).
    void side(const Expr &a, const Expr &b, bool a_lower) {
        const Variable *va = a.as<Variable>(), *vb = b.as<Variable>();
        if (va && constant_side(b, a_lower)) {
            v = va;
            lower = a_lower;
        } else if (vb && constant_side(a, !a_lower)) {
            v = vb;
            lower = !a_lower;
        }
    }
    // constant_side finds a constant lower (v >= e) or upper (v <= e)
    // bound of e, one that holds for every value of the variables e reads
    // (v among them).
    bool constant_side(const Expr &e, bool v_lower) {
        if (const int64_t *k = as_const_int(e)) {
            c = k;
            return true;
        }
        Expr k = find_constant_bound(e, v_lower ? Direction::Lower : Direction::Upper);
        const int64_t *kc = k.defined() ? as_const_int(k) : nullptr;
        if (!kc) {
            return false;
        }
        bound_ = *kc;
        c = &bound_;
        return true;
    }
    void other(const IRNode *) override {
    }
    void visit(const GE *op) override {
        side(op->a, op->b, true);
    }
    void visit(const LE *op) override {
        side(op->a, op->b, false);
    }
    void visit(const GT *op) override {
        side(op->a, op->b, true);
        adj = 1;
    }
    void visit(const LT *op) override {
        side(op->a, op->b, false);
        adj = 1;
    }
};

// LoopReads finds how the body of a loop of variable t reads it: the
// divisors of t / d and t % d, and whether it reads t otherwise.
class LoopReads : public IRGraphVisitor {
public:
    explicit LoopReads(const std::string &t)
        : t_(t) {
    }
    std::vector<Expr> divisors;
    bool other = false;

private:
    using IRGraphVisitor::visit;
    std::string t_;
    bool is_t(const Expr &e) const {
        const Variable *v = e.as<Variable>();
        return v && v->name == t_;
    }
    void visit(const Div *op) override {
        if (is_t(op->a)) {
            divisors.push_back(op->b);
            op->b.accept(this);
        } else {
            IRGraphVisitor::visit(op);
        }
    }
    void visit(const Mod *op) override {
        if (is_t(op->a)) {
            divisors.push_back(op->b);
            op->b.accept(this);
        } else {
            IRGraphVisitor::visit(op);
        }
    }
    void visit(const Variable *op) override {
        if (op->name == t_) {
            other = true;
        }
    }
};

// SplitLoop replaces t / d by u and t % d by v.
class SplitLoop : public IRMutator {
public:
    SplitLoop(const std::string &t, const Expr &u, const Expr &v)
        : t_(t), u_(u), v_(v) {
    }

private:
    using IRMutator::visit;
    std::string t_;
    Expr u_, v_;
    bool is_t(const Expr &e) const {
        const Variable *v = e.as<Variable>();
        return v && v->name == t_;
    }
    Expr visit(const Div *op) override {
        return is_t(op->a) ? u_ : IRMutator::visit(op);
    }
    Expr visit(const Mod *op) override {
        return is_t(op->a) ? v_ : IRMutator::visit(op);
    }
};

// DropFoldTracking removes what storage folding adds when it cannot prove
// that a folded dimension's footprint moves monotonically (an explicit
// fold_storage whose loop Halide's analysis does not see through): the
// stack counters FUNC.LOOP$N.head and .head_next of the footprint's
// leading edge, their stores, and the checks that read them
// (halide_error_bad_fold) or bound one iteration's footprint
// (halide_error_fold_factor_too_small). These are checks only: the
// folded accesses themselves are at coordinates modulo the fold factor
// whichever way the footprint moves. Without them the kernel does what
// Halide's code does wherever that code does not stop at a failed check,
// and the validation proves the folded storage correct by itself.
class DropFoldTracking : public IRMutator {
    using IRMutator::visit;
    std::set<std::string> counters_;

    static bool is_counter(const Allocate *op) {
        for (const Expr &e : op->extents) {
            if (!is_const_one(e)) {
                return false;
            }
        }
        return op->type == Int(32) && op->memory_type == MemoryType::Stack &&
               (ends_with(op->name, ".head") || ends_with(op->name, ".head_next"));
    }

    // ReadsCounter finds a load of one of the counters.
    class ReadsCounter : public IRVisitor {
        using IRVisitor::visit;
        const std::set<std::string> &counters_;
        void visit(const Load *op) override {
            found = found || counters_.count(op->name) > 0;
            IRVisitor::visit(op);
        }

    public:
        bool found = false;
        explicit ReadsCounter(const std::set<std::string> &c)
            : counters_(c) {
        }
    };

    bool reads_counter(const Expr &e) const {
        ReadsCounter r(counters_);
        e.accept(&r);
        return r.found;
    }

    Stmt visit(const Allocate *op) override {
        if (!is_counter(op)) {
            return IRMutator::visit(op);
        }
        counters_.insert(op->name);
        return mutate(op->body);
    }

    Stmt visit(const Store *op) override {
        if (counters_.count(op->name)) {
            return Evaluate::make(0);
        }
        return IRMutator::visit(op);
    }

    Stmt visit(const AssertStmt *op) override {
        const Call *m = op->message.as<Call>();
        if (m && (m->name == "halide_error_bad_fold" || m->name == "halide_error_fold_factor_too_small")) {
            return Evaluate::make(0);
        }
        return IRMutator::visit(op);
    }

    Stmt visit(const LetStmt *op) override {
        Stmt body = mutate(op->body);
        if (reads_counter(op->value) && !stmt_uses_var(body, op->name)) {
            return body;
        }
        return LetStmt::make(op->name, op->value, body);
    }

    Stmt visit(const Block *op) override {
        Stmt first = mutate(op->first), rest = mutate(op->rest);
        if (is_no_op(first)) {
            return rest;
        }
        if (is_no_op(rest)) {
            return first;
        }
        return Block::make(first, rest);
    }
};

// The checks of what the kernel model has no notion of (types,
// dimensions, strides, host pointers, allocation sizes, device state).
const std::set<std::string> &outside_checks() {
    static const std::set<std::string> outside = {
        "halide_error_bad_type", "halide_error_bad_dimensions", "halide_error_constraint_violated",
        "halide_error_buffer_allocation_too_large", "halide_error_buffer_extents_too_large",
        "halide_error_device_dirty_with_no_device_support", "halide_error_host_is_null",
        "halide_error_unaligned_host_ptr", "halide_error_constraints_make_required_region_smaller",
        "halide_error_buffer_argument_is_null"};
    return outside;
}

// KernelTranslator translates the lowered statement: variables are the
// loops' and the lets' in scope, reads of funcs and images are array
// accesses.
class KernelTranslator : public Translator {
public:
    KernelTranslator(Pipeline_ &p, const std::map<std::string, std::set<int>> &folded, bool final)
        : p_(p), folded_(folded), final_(final) {
    }

    std::vector<std::string> assumes;
    std::vector<std::string> notes;
    std::vector<std::string> exact;  // the assumptions of exact float32 bounds (assume_exact), also in assumes
    std::vector<std::string> divisors;  // the assumptions on the divisors of quotients by parameters (param_quotient), also in assumes
    std::vector<std::string> unassumed;  // Halide's checks of conditions computed from floats or strides, not assumed

    // stmt translates the statement s.
    Lines stmt(const Stmt &s);
    // bind_buffers declares the arrays of the buffers, before the body.
    void bind_buffers();

protected:
    Frag index_var(const Variable *v) override;
    Frag value_var(const Variable *v) override;
    Frag func_call(const Call *c) override {
        return atom(access(c->name, c->args, "read of " + str(Expr(c)), true));
    }
    Frag image_call(const Call *c) override {
        return atom(access(c->name, c->args, "read of " + str(Expr(c)), true));
    }
    const Target &target() const override {
        return p_.target;
    }
    bool constant(const Expr &e, int64_t *c) override {
        const int64_t *p = as_const_int(simplify(substitute(expanded_, e)));
        if (p) {
            *c = *p;
        }
        return p != nullptr;
    }
    void assume_exact(const std::vector<Expr> &vals, const Expr &e) override;
    bool data_index(const Expr &e) override {
        Expr x = substitute(expanded_, e);
        return Translator::data_index(x) || float_of_vars(p_, x) || divides_vars(p_, x);
    }
    Interval range_of(const Expr &e) override {
        return Translator::range_of(substitute(expanded_, e));
    }
    Frag float_int(const Cast *op, const Expr &e) override {
        Expr c = Cast::make(op->type, substitute(expanded_, op->value));
        return atom(derived_param(p_, c.as<Cast>(), e));
    }
    Frag param_quotient(const Expr &q, const Expr &a, const Expr &b, bool rem, const Expr &e) override;
    Frag quotient_case(const Expr &q, const Expr &den, const Expr &b, int c);

private:
    class StmtText;

    struct Bound {
        std::string id;
        LetInfo *let = nullptr;
    };

    Pipeline_ &p_;
    std::map<std::string, std::set<int>> folded_;
    // final_: the statement is the final one, its stores rebuilt from the
    // flattened ones (flatten.cpp), not Halide's own before flattening.
    bool final_ = false;
    std::map<std::string, std::vector<Bound>> scope_;
    std::map<std::string, Expr> expanded_;  // the lets in scope, expanded
    std::map<std::string, std::vector<Realized>> realized_;
    std::map<std::string, std::string> tuple_tmps_;  // split_tuples' f.i.value, by the 0-d array that holds it
    std::set<std::string> *uses_ = nullptr;
    int depth_ = 0;  // loops around the statement (a check inside one is reached only if the loop runs)
    bool in_assert_ = false;
    std::vector<std::string> *exact_sink_ = nullptr;  // where assume_exact puts its assumptions while a let is translated
    std::vector<std::string> *divisor_sink_ = nullptr;  // where param_quotient puts its assumptions while a let is translated
    std::vector<std::unique_ptr<LetInfo>> lets_;
    std::vector<Expr> path_;  // the conditions of the enclosing ifs (lets expanded), else branches negated
    Scope<Interval> bounds_;  // constant bounds of parameters that the kernel assumes

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
    bool in_scope(const std::string &name) const {
        auto it = scope_.find(name);
        return it != scope_.end() && !it->second.empty();
    }
    std::string slid(const std::string &coord) const;
    std::string uniquified(const std::string &coord) const;
    std::string single_iteration(const std::string &coord);

    void note_bound(const Expr &e);
    // access is an array access; a read's coordinates may be
    // data-dependent (read_index).
    std::string access(const std::string &name, const std::vector<Expr> &args, const std::string &what, bool read = false);
    Lines block(const Block *op);
    Lines atomic(const Stmt &s, const Atomic *op);
    Lines let_stmt(const LetStmt *op);
    Lines for_loop(const For *op);
    bool unrolled_loop(const For *op, Lines *out);
    bool fused_loop(const For *op, const std::string &kind, Lines *out);
    Lines realize(const Realize *op);
    const Stage *store_stage(const Provide *op, const FuncInfo &fi, const std::string &what);
    std::map<std::string, int> last_stage_;  // by func, the stage of its last store translated in its produce node (-1: none; -2: unknown)
    int next_stage(const std::string &fn, const std::vector<size_t> &tied, const std::string &what);
    std::set<std::string> same_stage_;  // funcs whose next store is of the stage of their last one

public:
    // same_stage says that the next store to fn is of the stage of the
    // last one (the next lane of a vector store split into lanes).
    void same_stage(const std::string &fn) {
        same_stage_.insert(fn);
    }

private:
    Lines produce(const ProducerConsumer *op);
    void merge_stages(const std::map<std::string, int> &other);
    void merge_skipped(const std::map<std::string, int> &before);
    Lines provide(const Provide *op);
    std::vector<std::string> store_coords(const Provide *op, const FuncInfo &fi, const Stage &st, Lines &out);
    Expr fused_coord(const Provide *op, const FuncInfo &fi, size_t i);
    static bool aligned(const FuncInfo &fi, size_t stage);
    bool tuple_value_let(const LetStmt *op) const;
    Lines tuple_values(const LetStmt *op);
    Lines reduction_store(const Provide *op, const Red &r, const std::string &lhs, const std::string &rhs, size_t stage,
                          size_t npure, const std::vector<std::string> &coords, Lines out);
    std::vector<std::string> scan_cell(const Stage &st, size_t npure, const std::vector<std::string> &coords,
                                       std::set<std::string> &uses);
    Lines if_then_else(const IfThenElse *op);
    std::string check_text(const Expr &e);
    void add_exact(const std::string &text);
    void add_divisor(const std::string &text);
    Lines assert_stmt(const AssertStmt *op);
};

// StmtText dispatches one statement, s, to the translator.
class KernelTranslator::StmtText : public Strict {
public:
    StmtText(KernelTranslator &k, const Stmt &s)
        : k_(k), s_(s) {
    }
    Lines out;

private:
    using Strict::visit;
    KernelTranslator &k_;
    Stmt s_;

    void other(const IRNode *) override {
        std::ostringstream o;
        o << s_;
        std::string text = o.str();
        if (text.size() > 200) {
            text = text.substr(0, 200) + "...";
        }
        unsupported("the statement " + stmt_kind(s_) + ": " + text);
    }
    void visit(const LetStmt *op) override {
        out = k_.let_stmt(op);
    }
    void visit(const Block *op) override {
        out = k_.block(op);
    }
    void visit(const ProducerConsumer *op) override {
        out = k_.produce(op);
    }
    void visit(const For *op) override {
        out = k_.for_loop(op);
    }
    void visit(const Realize *op) override {
        out = k_.realize(op);
    }
    void visit(const Provide *op) override {
        out = k_.provide(op);
    }
    void visit(const IfThenElse *op) override {
        out = k_.if_then_else(op);
    }
    void visit(const AssertStmt *op) override {
        out = k_.assert_stmt(op);
    }
    void visit(const Atomic *op) override {
        out = k_.atomic(s_, op);
    }
    // A prefetch (a schedule's prefetch()) is a hint to the memory
    // system: it changes no value, and its body runs whatever it does.
    void visit(const Prefetch *op) override {
        out = k_.stmt(op->body);
    }
    void visit(const Evaluate *op) override {
        const Call *c = op->value.as<Call>();
        if (c && c->name == same_stage_marker && c->args.size() == 1 && c->args[0].as<StringImm>()) {
            k_.same_stage(c->args[0].as<StringImm>()->value);
            return;
        }
        if (c && c->is_intrinsic(Call::prefetch)) {
            return;
        }
        if (!is_const(op->value)) {
            unsupported("the statement " + str(op->value) + " (an Evaluate node)");
        }
    }
};

Lines KernelTranslator::stmt(const Stmt &s) {
    StmtText v(*this, s);
    s.accept(&v);
    return std::move(v.out);
}

void KernelTranslator::bind_buffers() {
    for (const Buffer_ &b : p_.buffers) {
        Realized r;
        r.array = b.array;
        for (const std::string &m : b.mins) {
            r.mins.push_back(atom(m));
        }
        realized_[b.name].push_back(r);
    }
}

Frag KernelTranslator::index_var(const Variable *v) {
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
    if (!in_assert_) {
        if (std::string id = p_.stride_param(v->name); !id.empty()) {
            // A buffer's stride, before flattening, only selects a branch
            // (a specialization): a parameter of its own, which only
            // Halide's checks on it constrain (those the body's
            // conditions do not read first stay out of the kernel's
            // assumptions, as before: a weaker kernel).
            return atom(id);
        }
    }
    unsupported("the free variable " + v->name + " (not a loop variable, a let, a buffer's min or extent, nor an int32 parameter)");
}

Frag KernelTranslator::value_var(const Variable *v) {
    if (auto t = tuple_tmps_.find(v->name); t != tuple_tmps_.end()) {
        return atom(t->second + "[]");
    }
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

// note_bound records a check of the form v >= c or v <= c on a parameter
// v, which the kernel assumes, for proofs in fused loops.
void KernelTranslator::note_bound(const Expr &e) {
    ParamBound pb;
    e.accept(&pb);
    if (!pb.v) {
        return;
    }
    const std::string &name = pb.v->name;
    Interval iv = bounds_.contains(name) ? bounds_.get(name) : Interval::everything();
    if (pb.lower) {
        Expr m = make_const(Int(32), *pb.c + pb.adj);
        iv.min = iv.has_lower_bound() ? simplify(max(iv.min, m)) : m;
    } else {
        Expr m = make_const(Int(32), *pb.c - pb.adj);
        iv.max = iv.has_upper_bound() ? simplify(min(iv.max, m)) : m;
    }
    if (bounds_.contains(name)) {
        bounds_.pop(name);
    }
    bounds_.push(name, iv);
}

// access is an array access, the func's or image's coordinates shifted
// by the array's mins.
std::string KernelTranslator::access(const std::string &name, const std::vector<Expr> &args, const std::string &what, bool read) {
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
        bool data = read && data_index(args[i]);
        Frag a;
        if (data && divides_vars(p_, substitute(expanded_, args[i]))) {
            // A quotient by a parameter: its cases (param_quotient).
            a = index(args[i]);
            data = false;
        } else if (data) {
            // A coordinate that reads floats only through lets the kernel
            // binds to index expressions (integers computed from float
            // parameters) is an index expression itself.
            try {
                a = index(args[i]);
                data = false;
            } catch (const Unsupported &) {
                a = read_index(args[i]);
            }
        } else {
            a = index(args[i]);
        }
        if (r.mins[i].s == "0") {
            idx.push_back(a.s);
        } else if (data) {
            idx.push_back(binary(a, "-", atom("i32(" + r.mins[i].s + ")"), PAdd).s);
        } else {
            idx.push_back(binary(a, "-", r.mins[i], PAdd).s);
        }
    }
    return r.array + "[" + join(idx, ", ") + "]";
}

// block translates a sequence: a first statement that declares lets at
// its top level is wrapped in braces, so that they do not reach the rest.
Lines KernelTranslator::block(const Block *op) {
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

// atomic translates atomic(): the updates inside are accumulations of a
// reduction, atomic in the kernel model (Clément 2022, section 7.3.6).
Lines KernelTranslator::atomic(const Stmt &s, const Atomic *op) {
    for (const std::string &fn : atomic_funcs(s)) {
        if (!p_.reds.count(fn)) {
            unsupported("the atomic store to " + fn + ", which is not a reduction of its func");
        }
    }
    return stmt(op->body);
}

Lines KernelTranslator::let_stmt(const LetStmt *op) {
    if (tuple_value_let(op)) {
        return tuple_values(op);
    }
    auto info = std::make_unique<LetInfo>();
    LetInfo *li = info.get();
    lets_.push_back(std::move(info));
    li->id = ident(op->name);
    li->value = op->value;
    li->expanded = substitute(expanded_, op->value);
    if (op->value.type() != Int(32)) {
        li->bad = "of type " + type_str(op->value.type());
    } else {
        std::vector<std::string> *sink = exact_sink_, *dsink = divisor_sink_;
        exact_sink_ = &li->exact;
        divisor_sink_ = &li->divisors;
        try {
            li->text = with(li->uses, [&] { return index(op->value).s; });
        } catch (const Unsupported &e) {
            li->bad = e.what();
        }
        exact_sink_ = sink;
        divisor_sink_ = dsink;
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
    for (const std::string &a : li->exact) {
        add_exact(a);
    }
    for (const std::string &a : li->divisors) {
        add_divisor(a);
    }
    body.l.insert(body.l.begin(), "let " + li->id + " = " + li->text);
    body.lets = true;
    return body;
}

Lines KernelTranslator::for_loop(const For *op) {
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
    if (unrolled_loop(op, &out)) {
        return out;
    }
    Frag mn = with(out.uses, [&] { return index(op->min); });
    Frag ex = with(out.uses, [&] { return index(op->extent); });
    std::string id = ident(op->name);
    push(op->name, id, nullptr);
    // The body runs with the variable in the loop's range (shift.cpp).
    Expr mn_x = substitute(expanded_, op->min);
    ranges.push(op->name, Interval(mn_x, simplify(mn_x + substitute(expanded_, op->extent) - 1)));
    depth_++;
    Lines body = stmt(op->body);
    depth_--;
    ranges.pop(op->name);
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

// unrolled_loop translates an unrolled loop of at most 16 iterations
// whose variable its body multiplies by something that is not a constant
// (apps/fft reads its twiddle factors at r*(s % 4)) as its iterations, the
// variable a constant in each, as Halide's unroll_loops will.
bool KernelTranslator::unrolled_loop(const For *op, Lines *out) {
    if (op->for_type != ForType::Unrolled) {
        return false;
    }
    const int64_t *mn = as_const_int(simplify(substitute(expanded_, op->min)));
    const int64_t *ex = as_const_int(simplify(substitute(expanded_, op->extent)));
    if (!mn || !ex || *ex > 16) {
        return false;
    }
    class Products : public IRGraphVisitor {
    public:
        std::string var;
        bool found = false;

    private:
        using IRGraphVisitor::visit;
        void visit(const Mul *m) override {
            if (!is_const(m->a) && !is_const(m->b) && (expr_uses_var(m->a, var) || expr_uses_var(m->b, var))) {
                found = true;
            }
            IRGraphVisitor::visit(m);
        }
    } products;
    products.var = op->name;
    op->body.accept(&products);
    if (!products.found) {
        return false;
    }
    for (int64_t i = 0; i < *ex; i++) {
        Lines it = stmt(substitute(op->name, make_const(op->min.type(), *mn + i), op->body));
        out->l.push_back("{");
        it.indent_into(out->l);
        out->l.push_back("}");
        out->uses.insert(it.uses.begin(), it.uses.end());
    }
    return true;
}

// fused_loop translates a loop that Halide's fuse() made of two loops,
// the inner one of a symbolic extent d (the outer one's q symbolic or
// constant), t over [0, q*d), its body reading t only as t / d and t % d: as the two loops it came from, u over [0, q) and v over [0, d),
// t / d read as u and t % d as v. The two iterate the same points in the
// same order when d >= 0 (t = u*d + v), which must follow from the checks
// the kernel assumes; otherwise, or when t is read otherwise, the loop is
// an error (an index expression d*u is not affine; Clément 2022, section
// 9.6, non-affine code).
bool KernelTranslator::fused_loop(const For *op, const std::string &kind, Lines *out) {
    if (!is_const_zero(simplify(substitute(expanded_, op->min)))) {
        return false;
    }
    Expr ext = simplify(substitute(expanded_, op->extent));
    const Mul *m = ext.as<Mul>();
    if (!m) {
        return false;
    }
    const std::string t = op->name;
    LoopReads reads(t);
    op->body.accept(&reads);
    if (reads.divisors.empty()) {
        return false;
    }
    auto expand = [&](const Expr &e) { return simplify(substitute(expanded_, e)); };
    Expr d = expand(reads.divisors[0]), q;
    if (is_const(d)) {
        return false;  // t / d and t % d are quasi-affine: the loop stays
    }
    for (const Expr &x : reads.divisors) {
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
    if (reads.other) {
        unsupported("the fused loop " + t + " over " + str(ext) + ": its variable is read otherwise than as " + t + " / " +
                    str(d) + " and " + t + " % " + str(d));
    }
    if (!can_prove(d >= 0, bounds_)) {
        unsupported("the fused loop " + t + " over " + str(ext) + ": the checks do not show its inner extent " + str(d) +
                    " non-negative, so it cannot be split back into two loops");
    }
    const std::string un = t + "$q", vn = t + "$r";
    SplitLoop sp(t, Variable::make(Int(32), un), Variable::make(Int(32), vn));
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

Lines KernelTranslator::realize(const Realize *op) {
    if (op->types.size() != 1) {
        unsupported("the realization of " + op->name + ", a func of " + std::to_string(op->types.size()) + " values (tuples)");
    }
    // A conditional realization (skip_stages: the func is needed only
    // when the condition holds) allocates only then; its body runs
    // either way. An allocation has no effect of its own in the kernel
    // model, so the array is allocated unconditionally.
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

// slid names the variable in scope that holds a stage's coordinate:
// sliding window, when it backs up the start of a loop to warm a
// producer up, renames the loop variable v to v.$n in the loop's body
// (src/SlidingWindow.cpp at tag v14.0.0), once more per func it slides
// there: when v is not in scope, the most renamed of v.$n, v.$n.$n, ...
// in scope is the coordinate.
std::string KernelTranslator::slid(const std::string &coord) const {
    std::string found = coord;
    if (in_scope(coord)) {
        return coord;
    }
    for (auto it = scope_.lower_bound(coord + ".$n"); it != scope_.end(); ++it) {
        const std::string &c = it->first;
        if (c.compare(0, coord.size(), coord) != 0) {
            break;
        }
        bool renamed = (c.size() - coord.size()) % 3 == 0;
        for (size_t k = coord.size(); renamed && k < c.size(); k += 3) {
            renamed = c.compare(k, 3, ".$n") == 0;
        }
        if (renamed && !it->second.empty() && c.size() > found.size()) {
            found = c;
        }
    }
    return found;
}

// uniquified names the variable in scope that holds a stage's coordinate
// coord when a let or loop inside the one named coord binds the same
// name: uniquify_variable_names renames the inner binding to coord_N, N
// the first number not yet taken (src/UniquifyVariableNames.cpp at tag
// v14.0.0), and the store's coordinate is the innermost binding, the one
// in scope with the largest N. An rfactor() merge of an update whose
// pure variable was split is such a store: Halide 14 keeps a loop over
// the old variable around the split's loops, and the split's let of the
// variable inside is renamed.
std::string KernelTranslator::uniquified(const std::string &coord) const {
    std::string found = coord;
    long best = 0;
    const std::string prefix = coord + "_";
    for (auto it = scope_.lower_bound(prefix); it != scope_.end(); ++it) {
        const std::string &c = it->first;
        if (c.compare(0, prefix.size(), prefix) != 0) {
            break;
        }
        std::string n = c.substr(prefix.size());
        if (n.empty() || n.size() > 9 || n.find_first_not_of("0123456789") != std::string::npos || it->second.empty()) {
            continue;
        }
        long k = std::stol(n);
        if (k > best) {
            best = k;
            found = c;
        }
    }
    return found;
}

// single_iteration names the variable in scope that holds a stage's
// pure coordinate whose loop ran once: the simplifier replaces such a
// loop, for (v, v.loop_min, v.loop_extent) with v.loop_extent bound to 1,
// by its min, so v itself is gone but v.loop_min is still bound. It
// returns "" when the coordinate's loop is not of that kind.
std::string KernelTranslator::single_iteration(const std::string &coord) {
    std::string v = slid(coord);
    std::string min = v + ".loop_min", extent = v + ".loop_extent";
    if (!in_scope(min) || !in_scope(extent)) {
        return "";
    }
    int64_t n = 0;
    if (!constant(Variable::make(Int(32), extent), &n) || n != 1) {
        return "";
    }
    return min;
}

// store_stage finds the stage of fi a store computes: its RVars'
// coordinates must be in scope, and the one with the most coordinates in
// scope wins. compute_with fuses the loops of two funcs: a pure
// coordinate f.sK.y is then the fused loop's f.sK.fused.y.
const Stage *KernelTranslator::store_stage(const Provide *op, const FuncInfo &fi, const std::string &what) {
    const Stage *found = nullptr;
    int best = -1;
    std::vector<size_t> tied;
    size_t npure = fi.f.args().size();
    for (size_t k = 0; k < fi.stages.size(); k++) {
        if (k == 0 && is_undef(fi.f.values()[fi.value_index])) {
            continue;  // a pure definition undef() stores nothing
        }
        const Stage &st = fi.stages[k];
        int score = 0;
        bool ok = true;
        for (size_t i = 0; i < st.coords.size(); i++) {
            if (in_scope(slid(st.coords[i])) || (i < npure && in_scope(slid(st.fused[i])))) {
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
            tied = {k};
        } else if (score == best) {
            tied.push_back(k);
        }
    }
    if (!found) {
        unsupported("the " + what + ": no stage of " + op->name + " has its coordinates in scope");
    }
    if (tied.size() > 1) {
        found = &fi.stages[next_stage(op->name, tied, what)];
    }
    same_stage_.erase(op->name);
    last_stage_[op->name] = (int)(found - &fi.stages[0]);
    return found;
}

// next_stage resolves a store that several stages of fn could compute
// (tied, in order), as a 0-d func's stages without RVars: Halide writes
// a func's definitions in order within its produce node, so it is the
// first of them after the stage of the last store to fn translated there.
int KernelTranslator::next_stage(const std::string &fn, const std::vector<size_t> &tied, const std::string &what) {
    auto it = last_stage_.find(fn);
    if (same_stage_.erase(fn) && it != last_stage_.end() &&
        std::find(tied.begin(), tied.end(), (size_t)std::max(it->second, 0)) != tied.end() && it->second >= 0) {
        return it->second;
    }
    if (it != last_stage_.end() && it->second >= -1) {
        for (size_t k : tied) {
            if ((int)k > it->second) {
                return (int)k;
            }
        }
    }
    unsupported("the " + what + ": the stage it belongs to is ambiguous (stages " + std::to_string(tied[0]) + " and " +
                std::to_string(tied[1]) + " have their coordinates in scope, and the order of the stores does not tell them apart)");
}

// produce translates the body of a produce or consume node; a produce
// node of f starts its definitions (see next_stage).
Lines KernelTranslator::produce(const ProducerConsumer *op) {
    if (op->is_producer) {
        last_stage_[op->name] = -1;
        // split_tuples stores a tuple's elements as f.0, f.1, ...
        for (int i = 0; p_.funcs.count(op->name + "." + std::to_string(i)); i++) {
            last_stage_[op->name + "." + std::to_string(i)] = -1;
        }
    }
    return stmt(op->body);
}

// provide translates a store, annotated with the stage it computes at
// that stage's coordinates (slid: as sliding window renamed them). A pure
// coordinate out of scope (the simplifier substitutes the variables of
// loops of one iteration) is the store's own argument in that dimension,
// or, where storage folding rewrote the dimension, the loop's min
// (single_iteration).
Lines KernelTranslator::provide(const Provide *op) {
    std::string what = "store to " + op->name;
    if (op->values.size() != 1) {
        unsupported("the " + what + " of " + std::to_string(op->values.size()) + " values (tuples)");
    }
    if (op->predicate.defined() && !is_const_one(op->predicate)) {
        // A predicated store (TailStrategy::PredicateStores) stores only
        // where its predicate holds: the store under an if. Its value is
        // then computed only there too, which changes no stored value.
        Stmt guarded = IfThenElse::make(op->predicate, Provide::make(op->name, op->values, op->args, const_true()));
        return if_then_else(guarded.as<IfThenElse>());
    }
    auto fi = p_.funcs.find(op->name);
    if (fi == p_.funcs.end()) {
        unsupported("the " + what + ", which is not a func of the pipeline");
    }
    Lines out;
    if (is_undef(op->values[0])) {
        // A tuple element an update leaves undefined keeps its value.
        return out;
    }
    // A histogram's store writes at data-dependent indices (read_index).
    std::string lhs = with(out.uses, [&] { return access(op->name, op->args, what, true); });
    std::string rhs = with(out.uses, [&] { return value(op->values[0]).s; });
    const Stage *found = store_stage(op, fi->second, what);
    size_t npure = fi->second.f.args().size();
    std::vector<std::string> coords = store_coords(op, fi->second, *found, out);
    if (auto rit = p_.reds.find(op->name); rit != p_.reds.end()) {
        return reduction_store(op, rit->second, lhs, rhs, found - &fi->second.stages[0], npure, coords, std::move(out));
    }
    out.l.push_back(lhs + " {" + found->tensor + "(" + join(coords, ", ") + ")} := " + rhs);
    return out;
}

// tuple_value_let reports whether op is one of the lets split_tuples
// puts around the stores of a tuple whose elements read each other,
// f.i.value, the new value of element f.i.
bool KernelTranslator::tuple_value_let(const LetStmt *op) const {
    const std::string suffix = ".value";
    const std::string &n = op->name;
    if (n.size() <= suffix.size() || n.compare(n.size() - suffix.size(), suffix.size(), suffix) != 0) {
        return false;
    }
    auto it = p_.funcs.find(n.substr(0, n.size() - suffix.size()));
    return it != p_.funcs.end() && it->second.f.outputs() > 1;
}

// tuple_values translates split_tuples' lets f.i.value around the stores
// of a tuple whose elements read each other. Halide computes every
// element's new value before it stores any: each is computed into a 0-d
// array first, annotated with what the element's store claims, and the
// stores copy them.
Lines KernelTranslator::tuple_values(const LetStmt *op) {
    std::vector<const LetStmt *> lets;
    Stmt body = op;
    while (const LetStmt *l = body.as<LetStmt>()) {
        if (!tuple_value_let(l)) {
            break;
        }
        lets.push_back(l);
        body = l->body;
    }
    std::map<std::string, const Provide *> stores;
    std::vector<Stmt> todo{body};
    while (!todo.empty()) {
        Stmt s = todo.back();
        todo.pop_back();
        if (const Block *b = s.as<Block>()) {
            todo.push_back(b->first);
            todo.push_back(b->rest);
        } else if (const Provide *p = s.as<Provide>()) {
            stores[p->name] = p;
        }
    }
    Lines out;
    std::vector<std::pair<std::string, std::string>> arrays;  // id, type
    for (const LetStmt *l : lets) {
        std::string en = l->name.substr(0, l->name.size() - std::string(".value").size());
        auto st = stores.find(en);
        if (st == stores.end()) {
            unsupported("the value " + l->name + " of a tuple element, with no store of " + en + " beside it");
        }
        const FuncInfo &fi = p_.funcs.at(en);
        const Stage *found = store_stage(st->second, fi, "store to " + en);
        std::vector<std::string> coords = store_coords(st->second, fi, *found, out);
        std::string id = ident(l->name);
        std::string rhs = with(out.uses, [&] { return value(l->value).s; });
        out.l.push_back(id + "[] {" + found->tensor + "(" + join(coords, ", ") + ")} := " + rhs);
        arrays.emplace_back(id, fi.type);
        tuple_tmps_[l->name] = id;
    }
    Lines stores_text = stmt(body);
    for (const LetStmt *l : lets) {
        tuple_tmps_.erase(l->name);
    }
    out.add(std::move(stores_text));
    for (auto it = arrays.rbegin(); it != arrays.rend(); ++it) {
        Lines w;
        w.l.push_back("alloc " + it->first + " : " + it->second + "[] {");
        out.indent_into(w.l);
        w.l.push_back("}");
        w.uses = std::move(out.uses);
        out = std::move(w);
    }
    return out;
}

// fused_coord is the pure coordinate i of the store op to fi in a loop
// that compute_with fused with another's: the store's argument i, the
// fused loop's variable plus the alignment's shift, or, where storage
// folding folded dimension i, the dividend of the argument's remainder.
Expr KernelTranslator::fused_coord(const Provide *op, const FuncInfo &fi, size_t i) {
    Expr a = op->args[i];
    auto fo = folded_.find(fi.f.name());
    if (fo != folded_.end() && fo->second.count((int)i)) {
        const Mod *m = a.as<Mod>();
        int64_t k = 0;
        if (!m || !constant(m->b, &k) || k <= 0) {
            unsupported("the store to " + op->name + " in a loop compute_with fused: its folded coordinate " + str(a) +
                        " is not the coordinate modulo the fold");
        }
        a = m->a;
    }
    return a;
}

// aligned says whether stage k of fi is compute_with fused with an
// alignment that can shift its loops (AlignStart, AlignEnd).
bool KernelTranslator::aligned(const FuncInfo &fi, size_t k) {
    const Definition &def = k == 0 ? fi.f.definition() : fi.f.update((int)k - 1);
    for (const auto &kv : def.schedule().fuse_level().align) {
        if (kv.second == LoopAlignStrategy::AlignStart || kv.second == LoopAlignStrategy::AlignEnd) {
            return true;
        }
    }
    return false;
}

// store_coords are the coordinates of the stage found at which the store
// op to the func fi is annotated, the identifiers they use added to out.
std::vector<std::string> KernelTranslator::store_coords(const Provide *op, const FuncInfo &fi, const Stage &st, Lines &out) {
    std::string what = "store to " + op->name;
    const Stage *found = &st;
    size_t npure = fi.f.args().size();
    std::vector<std::string> coords;
    for (size_t i = 0; i < found->coords.size(); i++) {
        std::string c = slid(found->coords[i]);
        if (std::string u = uniquified(c);
            u != c && in_scope(c) && std::find(found->coords.begin(), found->coords.end(), u) == found->coords.end()) {
            c = u;  // not a variable of the stage named so
        }
        if (i < npure && (found->scan.on || found->scan.hist) && !found->scan.kept[i]) {
            coords.emplace_back();  // the cell written there: scan_cell, hist_cell
            continue;
        }
        if (i < npure && !in_scope(c) && in_scope(slid(found->fused[i]))) {
            // compute_with: Halide substitutes the fused loop's variable
            // plus the alignment's shift (ScheduleFunctions' ShiftLoopNest)
            // for the coordinate, so Halide's own store's argument is the
            // coordinate (under a fold, the dividend of its % factor). The
            // final statement's stores are rebuilt: their coordinate is the
            // fused loop's variable, right only without a shift.
            if (!final_) {
                coords.push_back(with(out.uses, [&] { return index(fused_coord(op, fi, i)).s; }));
                continue;
            }
            if (aligned(fi, (size_t)(found - &fi.stages[0]))) {
                unsupported("the " + what + " at --stage final: its loops compute_with fused with an alignment "
                            "(AlignStart, AlignEnd) that may shift its coordinate " + c);
            }
            c = slid(found->fused[i]);
        }
        if (!in_scope(c)) {
            // Storage folding runs before split_tuples: a tuple's
            // realization is folded under the func's own name.
            auto fo = folded_.find(fi.f.name());
            if (fo == folded_.end() || !fo->second.count((int)i)) {
                coords.push_back(with(out.uses, [&] { return index(op->args[i]).s; }));
                continue;
            }
            std::string m = single_iteration(c);
            if (m.empty()) {
                unsupported("the " + what + ": the coordinate " + c + " is not in scope and dimension " +
                            std::to_string(i) + " is folded");
            }
            c = m;
        }
        const Bound &b = scope_.at(c).back();
        if (b.let && !b.let->bad.empty()) {
            unsupported("the coordinate " + c + " of the " + what + " is bound to " + str(b.let->value) + ": " + b.let->bad);
        }
        out.uses.insert(b.id);
        coords.push_back(b.id);
    }
    if (found->scan.on) {
        coords = scan_cell(*found, npure, coords, out.uses);
    }
    if (found->scan.hist) {
        // A histogram's data-dependent coordinate, over the RVars'
        // coordinates, read in the specification's tensors.
        std::map<std::string, std::string> at;
        for (size_t i = 0; i < npure; i++) {
            if (found->scan.kept[i]) {
                at[fi.f.args()[i]] = coords[i];
            }
        }
        for (size_t j = 0; j < found->rv.size(); j++) {
            at[found->rv[j].var] = coords[npure + j];
        }
        for (size_t i = 0; i < npure; i++) {
            if (!found->scan.kept[i]) {
                coords[i] = spec_value(p_, at, found->scan.lhs[i]);
            }
        }
    }
    return coords;
}

// reduction_store annotates a store of a func whose reduction the
// schedule re-orders (Clément 2022, section 7.3): the pure definition's
// initialises an accumulator of the target's element, an update
// accumulates the position of the user's RDom it adds (its own RVars'
// coordinates, or, in an rfactor intermediate, the position rfactor
// substituted), an rfactor merge adds a partial result.
Lines KernelTranslator::reduction_store(const Provide *op, const Red &r, const std::string &lhs, const std::string &rhs,
                                        size_t stage, size_t npure, const std::vector<std::string> &coords, Lines out) {
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

// scan_cell is the annotation's coordinates of a store of a scan stage
// st (scan.cpp), whose tensor is indexed by the cell written: the pure
// coordinates it keeps, and in a dimension it moves, the update's
// argument at the stage's RVar coordinates (coords, after the npure pure
// ones).
std::vector<std::string> KernelTranslator::scan_cell(const Stage &st, size_t npure, const std::vector<std::string> &coords,
                                                     std::set<std::string> &uses) {
    std::map<std::string, Expr> at;
    for (size_t j = 0; j < st.rv.size(); j++) {
        at[st.rv[j].var] = Variable::make(Int(32), st.coords[npure + j]);
    }
    std::vector<std::string> cell;
    for (size_t i = 0; i < npure; i++) {
        if (st.scan.kept[i]) {
            cell.push_back(coords[i]);
        } else {
            cell.push_back(with(uses, [&] { return index(substitute(at, st.scan.lhs[i])).s; }));
        }
    }
    return cell;
}

Lines KernelTranslator::if_then_else(const IfThenElse *op) {
    Expr c = no_bounds_query(op->condition);
    if (is_const_one(c)) {
        return stmt(op->then_case);
    }
    if (is_const_zero(c)) {
        return op->else_case.defined() ? stmt(op->else_case) : Lines{};
    }
    Lines out;
    std::string cond_text = with(out.uses, [&] { return cond(op->condition).s; });
    // The path condition, for the checks inside (with the lets around
    // expanded).
    Expr pc = substitute(expanded_, c);
    path_.push_back(pc);
    std::map<std::string, int> before = last_stage_;
    Lines then = stmt(op->then_case);
    path_.pop_back();
    out.l.push_back("if " + cond_text + " {");
    then.indent_into(out.l);
    out.uses.insert(then.uses.begin(), then.uses.end());
    if (op->else_case.defined()) {
        path_.push_back(simplify(!pc));
        std::map<std::string, int> after_then = last_stage_;
        last_stage_ = before;
        Lines els = stmt(op->else_case);
        path_.pop_back();
        merge_stages(after_then);
        out.l.push_back("} else {");
        els.indent_into(out.l);
        out.uses.insert(els.uses.begin(), els.uses.end());
    }
    if (!op->else_case.defined()) {
        merge_skipped(before);
    }
    out.l.push_back("}");
    return out;
}

// merge_skipped joins the stages of the last stores after an if without
// else (before: those before it) with those of its then branch, which
// may not run. A func whose then branch stored a later stage than before
// (as remove_undef guards the store of a pure definition
// select(c, v, undef()), the constant_exterior of fft's real-input
// path) keeps that stage: a produce node holds each stage's store once,
// in the order of the stages, so a store after the if is of a later
// stage either way. Other differences make the next tied store
// unresolvable (merge_stages).
void KernelTranslator::merge_skipped(const std::map<std::string, int> &before) {
    std::map<std::string, int> then = last_stage_;
    merge_stages(before);
    for (const auto &kv : then) {
        auto b = before.find(kv.first);
        if (b != before.end() && b->second >= -1 && kv.second > b->second) {
            last_stage_[kv.first] = kv.second;
        }
    }
}

// merge_stages joins the stages of the last stores of two branches (see
// next_stage): where they differ, the next tied store cannot be resolved.
void KernelTranslator::merge_stages(const std::map<std::string, int> &other) {
    for (const auto &kv : other) {
        auto it = last_stage_.find(kv.first);
        if (it == last_stage_.end() || it->second != kv.second) {
            last_stage_[kv.first] = -2;
        }
    }
    for (auto &kv : last_stage_) {
        if (!other.count(kv.first)) {
            kv.second = -2;
        }
    }
}



// check_text translates the condition e of a check, as an affine
// constraint on the parameters alone.
std::string KernelTranslator::check_text(const Expr &e) {
    bool old = in_assert_;
    in_assert_ = true;
    try {
        std::set<std::string> u;
        std::string text = with(u, [&] { return cond(e).s; });
        in_assert_ = old;
        return text;
    } catch (const Unsupported &) {
        in_assert_ = old;
        throw;
    }
}

// assume_exact assumes that each int32 expression of vals, an integer
// that the float32 expression in e computes (exact_int), lies in [-2^24,
// 2^24], where float32 represents it exactly: an assumption on the
// parameters alone, with the enclosing lets expanded; a value that
// depends on a loop variable is not an index expression. The
// assumptions of a let's value are made once the let is used.
void KernelTranslator::assume_exact(const std::vector<Expr> &vals, const Expr &e) {
    const Expr bound = make_const(Int(32), 16777216);
    for (const Expr &v : vals) {
        Expr c = simplify(no_bounds_query(substitute(expanded_, -bound <= v && v <= bound)));
        if (is_const_one(c)) {
            continue;
        }
        std::string text;
        try {
            text = check_text(c);
        } catch (const Unsupported &ex) {
            unsupported("the index expression " + str(e) + " converts a float32 that is exact only where " + str(c) + ", not a condition on the parameters alone: " + ex.what());
        }
        if (exact_sink_) {
            exact_sink_->push_back(text);
        } else {
            add_exact(text);
        }
    }
}

// param_quotient translates a / b (a % b with rem), b a non-constant
// divisor of the parameters alone (depthwise_filter.extent.0), exactly
// where 0 <= b <= kDivisorCases, which the kernel assumes (its header
// lists it): the select of a / c (a % c) over the constants c of that
// range, 0 where b is 0 (Halide's x / 0 and x % 0). A quotient by a
// parameter is not Presburger (its quotient q satisfies b*q <= a < b*q +
// b, a product of two unknowns); each case is. The assumptions of a let's
// value are made once the let is used, as assume_exact's.
//
// Each case is q with b replaced by c, simplified (quotient_case): the
// selects of Halide's bounds on b (select(0 < b, 15, 0)) are constants
// there, a quotient by b inside a is one by c, and (16 * ro + 15) / 2 is
// 8 * ro + 7. The cases are written as a chain of ranges, select(b <= 0,
// 0, select(b <= 1, a, ...)), so that each case's condition is one
// conjunction (c <= b <= c) that contradicts every other case's by its
// form alone: the product of two quotients by b, in a min or a
// difference, keeps its pairs of the same case only.
Frag KernelTranslator::param_quotient(const Expr &q, const Expr &, const Expr &den, bool, const Expr &e) {
    Expr b = simplify(no_bounds_query(substitute(expanded_, den)));
    if (!params_only(p_, b)) {
        unsupported("the index expression " + str(e) + " divides by " + str(den) +
                    ", which reads more than the parameters: not quasi-affine");
    }
    Expr in = simplify(0 <= b && b <= kDivisorCases);
    std::string range = check_text(in);
    if (divisor_sink_) {
        divisor_sink_->push_back(range);
    } else {
        add_divisor(range);
    }
    Frag d = index(den);
    Frag last = quotient_case(q, den, b, kDivisorCases);
    std::string t = last.s;
    bool same = true;  // every case alike (0 / b): the quotient is that case
    for (int c = kDivisorCases - 1; c >= 0; c--) {
        std::string qc = quotient_case(q, den, b, c).s;
        same = same && qc == last.s;
        t = "select(" + binary(d, "<=", int_lit(c), PCmp).s + ", " + qc + ", " + t + ")";
    }
    return same ? last : atom(t);
}

// quotient_case translates the quotient (or remainder) q where its
// divisor den (b, expanded) is the constant c: q with den and b replaced
// by c, simplified (Halide's x / 0 and x % 0 are 0).
Frag KernelTranslator::quotient_case(const Expr &q, const Expr &den, const Expr &b, int c) {
    Expr k = make_const(den.type(), c);
    return index(simplify(substitute(b, k, substitute(den, k, q))));
}

// add_divisor adds the assumption text of a divisor's range.
void KernelTranslator::add_divisor(const std::string &text) {
    if (std::find(divisors.begin(), divisors.end(), text) == divisors.end()) {
        divisors.push_back(text);
    }
    if (std::find(assumes.begin(), assumes.end(), text) == assumes.end()) {
        assumes.push_back(text);
    }
}

// add_exact adds the assumption text of an exact float32 bound.
void KernelTranslator::add_exact(const std::string &text) {
    if (std::find(exact.begin(), exact.end(), text) == exact.end()) {
        exact.push_back(text);
    }
    if (std::find(assumes.begin(), assumes.end(), text) == assumes.end()) {
        assumes.push_back(text);
    }
}

// assert_stmt translates Halide's checks of buffers and parameters: an
// affine constraint on the parameters becomes an assumption of the
// kernel; the checks of what the model has no notion of (types,
// dimensions, strides, host pointers, allocation sizes, device state) are
// listed as notes.
Lines KernelTranslator::assert_stmt(const AssertStmt *op) {
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
    // A check under ifs holds only where their conditions do: the
    // assumption is the implication. An unreachable branch's failing
    // check (Halide's specialize_fail) thus assumes the branch is not
    // taken.
    std::string path_text;
    if (!path_.empty()) {
        Expr pc = path_[0];
        for (size_t i = 1; i < path_.size(); i++) {
            pc = pc && path_[i];
        }
        try {
            path_text = check_text(simplify(pc));
        } catch (const Unsupported &ex) {
            unsupported("the check " + str(op->condition) + " (" + err + ") under the condition " + str(pc) + ": " + ex.what());
        }
    }
    for (const Expr &e : parts) {
        std::string text;
        try {
            text = check_text(e);
            if (depth_ > 0) {
                unsupported("the check " + str(op->condition) + " (" + err + ") inside a loop");
            }
            if (!path_text.empty()) {
                text = "not (" + path_text + ") or (" + text + ")";
            } else {
                note_bound(e);
            }
        } catch (const Unsupported &ex) {
            if (reads_float(e) || reads_stride(e)) {
                // Bounds that Halide computes from float parameters (resize's
                // required region of its input), or that its specializations
                // on strides make depend on them: not assumed, which only
                // weakens the kernel's assumptions.
                unassumed.push_back(err + ": " + str(e));
                continue;
            }
            if (!outside_checks().count(err)) {
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

}  // namespace

std::string sched_text(Pipeline_ &p, const Stmt &s, const std::map<std::string, std::set<int>> &folded,
                       const std::string &name, const Target &t, bool final) {
    KernelTranslator k(p, folded, final);
    k.bind_buffers();
    Lines body = k.stmt(DropFoldTracking().mutate(s));
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
    if (!k.unassumed.empty()) {
        o << "# Halide's checks of conditions computed from float parameters or strides, not assumed:\n";
        for (const std::string &n : k.unassumed) {
            o << "#   " << n << "\n";
        }
    }
    if (!p.strides.empty()) {
        o << "# Strides, read only by conditions (specializations, checks), parameters of\n";
        o << "# both sides that the specification ignores, constrained by Halide's checks alone:\n";
        for (const std::string &f : p.strides) {
            o << "#   " << p.field_param.at(f) << " = " << f << "\n";
        }
    }
    if (!k.exact.empty()) {
        o << "# Bounds of indices computed in float32, read as the integers they compute where\n";
        o << "# float32 represents each of them exactly, assumed:\n";
        for (const std::string &a : k.exact) {
            o << "#   " << a << "\n";
        }
    }
    if (!k.divisors.empty()) {
        o << "# Divisors of indices that are parameters, within the constants where the\n";
        o << "# quotients are written as cases, assumed, and every buffer's coordinates\n";
        o << "# int32 (min + extent <= 2^31), where the specification's quotients, values,\n";
        o << "# do not wrap:\n";
        for (const std::string &a : k.divisors) {
            o << "#   " << a << "\n";
        }
    }
    o << "kernel " << sanitize(name) << "(" << join(p.params, ", ") << ")\n";
    for (const std::string &a : k.assumes) {
        o << "assume " << a << "\n";
    }
    // Every parameter is an int32 of Halide's (a buffer's min, extent or
    // stride, an Input<int>, an integer Halide computes from a float
    // parameter), which the kernel's i32 arithmetic on it relies on.
    for (const std::string &prm : p.params) {
        o << "assume -2147483648 <= " << prm << " <= 2147483647\n";
    }
    if (!k.divisors.empty()) {
        // Halide's coordinates are int32 (its loops' overflow is
        // undefined), which the specification's quotients by parameters,
        // int32 values, rely on.
        for (const Buffer_ &b : p.buffers) {
            for (int d = 0; d < b.dims; d++) {
                o << "assume " << b.mins[d] << " + " << b.extents[d] << " <= 2147483648\n";
            }
        }
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
        if (!b.initial.empty()) {
            o << "in  " << b.array << "[" << join(vs, ", ") << "] : " << b.type << "[" << join(ext, ", ") << "] = " << b.initial
              << "(" << join(at, ", ") << ")\n";
        }
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

}  // namespace detail
}  // namespace augur
