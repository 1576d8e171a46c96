// The final statement: Halide 14's lowering continued past storage
// flattening, pass by pass in the order of lower_impl (src/Lower.cpp at
// v14.0.0), to the statement code generation takes for a CPU target.
//
// The capture stops after hoist_prefetches, the last pass before the
// custom lowering passes, the device offloads (none on a CPU target) and
// lower_parallel_tasks: parallel loops are still For nodes of kind
// Parallel, not closures passed to halide_do_par_for, so the kernel keeps
// them as `par` loops. lower_parallel_tasks itself is trusted.
#include "emit_internal.h"

namespace augur {
namespace detail {

namespace {

// RecordRebased collects the RebasedLoops of a statement just after
// rebase_loops_to_zero.
class RecordRebased : public IRVisitor {
public:
    RebasedLoops loops;

private:
    using IRVisitor::visit;
    std::map<std::string, Expr> lets_;  // the lets in scope

    void visit(const LetStmt *op) override {
        auto it = lets_.find(op->name);
        bool had = it != lets_.end();
        Expr old = had ? it->second : Expr();
        lets_[op->name] = op->value;
        op->body.accept(this);
        if (had) {
            lets_[op->name] = old;
        } else {
            lets_.erase(op->name);
        }
    }

    void visit(const For *op) override {
        if (std::string v = rebased_var(op->name); !v.empty()) {
            const LetStmt *l = op->body.as<LetStmt>();
            bool own = l && l->name == v;
            loops[op->name].push_back({own ? l->value : Expr(), lets_});
        }
        IRVisitor::visit(op);
    }
};

}  // namespace

Stmt lower_final(const Lowered &l, const Target &t, RebasedLoops *rebased) {
    Stmt s = l.s;
    s = storage_flattening(s, l.outputs, l.env, t);
    s = add_atomic_mutex(s, l.env);
    s = unpack_buffers(s);
    // No memoization (lower() rejects it) and no device API: the GPU
    // passes of lower_impl do not apply.
    s = simplify(s);
    s = unify_duplicate_lets(s);
    s = reduce_prefetch_dimension(s, t);
    s = simplify_correlated_differences(s);
    s = unroll_loops(s);
    s = vectorize_loops(s, l.env);
    s = simplify(s);
    s = rewrite_interleavings(s);
    s = simplify(s);
    s = partition_loops(s);
    s = simplify(s);
    s = trim_no_ops(s);
    s = rebase_loops_to_zero(s);
    if (rebased) {
        RecordRebased r;
        s.accept(&r);
        *rebased = r.loops;
    }
    s = hoist_loop_invariant_if_statements(s);
    s = inject_early_frees(s);
    if (t.has_feature(Target::FuzzFloatStores)) {
        unsupported("the target feature fuzz_float_stores (it changes stored values on purpose)");
    }
    s = simplify_correlated_differences(s);
    s = bound_small_allocations(s);
    if (t.has_feature(Target::Profile) || t.has_feature(Target::ProfileByTimer)) {
        unsupported("the target features profile and profile_by_timer at --stage final");
    }
    s = common_subexpression_elimination(s);
    s = lower_unsafe_promises(s, t);
    if (t.has_feature(Target::AVX512_SapphireRapids)) {
        unsupported("the target feature avx512_sapphirerapids (tile operations) at --stage final");
    }
    s = flatten_nested_ramps(s);
    s = remove_dead_allocations(s);
    s = simplify(s);
    s = hoist_loop_invariant_values(s);
    s = hoist_loop_invariant_if_statements(s);
    s = find_intrinsics(s);
    s = hoist_prefetches(s);
    return s;
}

}  // namespace detail
}  // namespace augur
