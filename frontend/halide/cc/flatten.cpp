// The final statement's flattened accesses brought back to
// multi-dimensional ones (delinearisation; Clément 2022, section 9.7;
// Grosser, Ramanujam, Pouchet, Sadayappan and Pop, "Optimistic
// Delinearization of Parametrically Sized Arrays", ICS 2015), so that the
// kernel translator (kernel.cpp) reads the final statement as it reads the
// one before flattening.
//
// Storage flattening turns an access f(x_0, ..., x_n) into
// f[sum_k (x_k - min_k) * stride_k]. Unflatten rewrites each Load and
// Store back into a Call or a Provide at coordinates x_k = c_k + min_k,
// where the cells c_k are found from the flat index e:
//
//   - a buffer of the pipeline (input or output): its strides are the
//     symbols b.stride.k; e, with every let expanded, is linear in them,
//     e = c_0 + sum_k c_k * b.stride.k with no stride in any c_k, and
//     that split is unique;
//   - an allocation with extents e_0, ..., e_n and constant strides
//     S_k = e_0 * ... * e_{k-1}: c_k = (e / S_k) % e_k for k < n, and
//     c_n = e / S_n (Euclidean division, as Halide's);
//   - an allocation whose stride S_1 = e_0 is a variable (two
//     dimensions): split as a buffer's, e_0 the symbol.
//
// In each case e equals sum_k c_k * S_k identically. The kernel declares
// the array with the allocation's (or the buffer's) extents and checks, as
// it checks every access, that each c_k lies in [0, e_k): then the cell
// (c_0, ..., c_n) is the flat element e and no other cell is, so the
// multi-dimensional kernel reads and writes exactly the memory the final
// statement does. An access whose cells cannot be proved in bounds leaves
// the kernel not VALID. For an output buffer, cells are distinct memory
// only when its strides do not overlap (stride_k >= stride_{k-1} *
// extent_{k-1}, stride_0 = 1): Halide does not check that, and the kernel
// lists it among what it assumes. Reads of input buffers need nothing:
// the kernel's input cells are then independent values, which covers any
// layout.
#include "emit_internal.h"

#include <functional>
#include <sstream>

namespace augur {
namespace detail {

namespace {

// UsesAny finds whether an expression reads any of a set of variables.
class UsesAny : public IRVisitor {
public:
    explicit UsesAny(const std::set<std::string> &names)
        : names_(names) {
    }
    bool found = false;

private:
    using IRVisitor::visit;
    const std::set<std::string> &names_;
    void visit(const Variable *op) override {
        found = found || names_.count(op->name) > 0;
    }
};

bool uses_any(const Expr &e, const std::set<std::string> &names) {
    UsesAny u(names);
    e.accept(&u);
    return u.found;
}

// Linear is an expression split by symbols: e = parts[""] + sum_s
// parts[s] * s.
using Linear = std::map<std::string, Expr>;

void add_to(Linear &acc, const Linear &x, int sign) {
    for (const auto &kv : x) {
        Expr v = sign > 0 ? kv.second : -kv.second;
        auto it = acc.find(kv.first);
        acc[kv.first] = it == acc.end() ? v : it->second + v;
    }
}

// split_linear splits e, which must be linear in the symbols syms (no
// product of two symbols, no symbol under any other operation), into
// out. It returns false when e is not.
bool split_linear(const Expr &e, const std::set<std::string> &syms, Linear *out) {
    if (!uses_any(e, syms)) {
        (*out)[""] = e;
        return true;
    }
    if (const Variable *v = e.as<Variable>()) {
        (*out)[v->name] = make_one(v->type);
        return true;
    }
    if (const Add *a = e.as<Add>()) {
        Linear x, y;
        if (!split_linear(a->a, syms, &x) || !split_linear(a->b, syms, &y)) {
            return false;
        }
        add_to(*out, x, 1);
        add_to(*out, y, 1);
        return true;
    }
    if (const Sub *s = e.as<Sub>()) {
        Linear x, y;
        if (!split_linear(s->a, syms, &x) || !split_linear(s->b, syms, &y)) {
            return false;
        }
        add_to(*out, x, 1);
        add_to(*out, y, -1);
        return true;
    }
    if (const Mul *m = e.as<Mul>()) {
        Expr k, other;
        if (!uses_any(m->a, syms)) {
            k = m->a;
            other = m->b;
        } else if (!uses_any(m->b, syms)) {
            k = m->b;
            other = m->a;
        } else {
            return false;
        }
        Linear x;
        if (!split_linear(other, syms, &x)) {
            return false;
        }
        for (const auto &kv : x) {
            (*out)[kv.first] = kv.second * k;
        }
        return true;
    }
    return false;
}

// Unflatten rewrites the final statement's Allocates, Stores and Loads
// into Realizes, Provides and Calls at multi-dimensional coordinates, and
// drops what the kernel model has no counterpart for (Free, the lets that
// unpack the buffers' fields).
class Unflatten : public IRMutator {
public:
    Unflatten(const Pipeline_ &p, const std::map<std::string, std::vector<Region>> &realized)
        : p_(p), realized_(realized) {
    }
    std::set<std::string> outputs_stored;  // output buffers the statement stores to

private:
    using IRMutator::visit;

    struct Layout {
        std::vector<Expr> mins, extents;  // in func coordinates
        std::vector<std::string> stride_syms;  // a buffer's: its stride variables (dimension 0's may be absent)
        bool buffer = false;
        bool image = false;  // an input buffer
        Type type;
    };

    const Pipeline_ &p_;
    std::map<std::string, std::vector<Region>> realized_;
    std::map<std::string, Expr> lets_;  // every let in scope, expanded
    std::map<std::string, std::vector<Layout>> allocs_;

    // layout is the layout of the array name, an allocation in scope or a
    // buffer of the pipeline.
    Layout layout(const std::string &name, const std::string &what) {
        auto a = allocs_.find(name);
        if (a != allocs_.end() && !a->second.empty()) {
            return a->second.back();
        }
        auto b = p_.buffer_index.find(name);
        if (b == p_.buffer_index.end()) {
            unsupported("the " + what + ": " + name + " is neither an allocation in scope nor a buffer of the pipeline");
        }
        const Buffer_ &buf = p_.buffers[b->second];
        Layout l;
        l.buffer = true;
        l.image = !buf.output;
        for (int d = 0; d < buf.dims; d++) {
            std::string k = std::to_string(d);
            l.mins.push_back(Variable::make(Int(32), name + ".min." + k));
            l.extents.push_back(Variable::make(Int(32), name + ".extent." + k));
            l.stride_syms.push_back(name + ".stride." + k);
        }
        return l;
    }

    // coords are the func coordinates of the flat index e of the array
    // name (see the file's comment).
    std::vector<Expr> coords(const std::string &name, const Expr &flat, const std::string &what) {
        Layout l = layout(name, what);
        Expr e = simplify(substitute(lets_, flat));
        size_t n = l.extents.size();
        std::vector<Expr> cells(n);
        if (n == 0) {
            if (!is_const_zero(e)) {
                unsupported("the " + what + ": a 0-dimensional array at index " + str(e));
            }
        } else if (l.buffer) {
            std::set<std::string> syms(l.stride_syms.begin(), l.stride_syms.end());
            Linear parts;
            if (!split_linear(e, syms, &parts)) {
                unsupported("the " + what + ": its flat index " + str(e) + " is not linear in the strides of " + name);
            }
            Expr rest = parts.count("") ? parts[""] : make_zero(Int(32));
            for (size_t k = 0; k < n; k++) {
                auto it = parts.find(l.stride_syms[k]);
                cells[k] = it == parts.end() ? make_zero(Int(32)) : it->second;
            }
            if (parts.count(l.stride_syms[0])) {
                // No stride constraint on dimension 0: nothing may be left over.
                if (!is_const_zero(simplify(rest))) {
                    unsupported("the " + what + ": its flat index " + str(e) + " is not a combination of the strides of " + name);
                }
            } else {
                cells[0] = rest;  // stride 0 is 1 (Halide's default constraint)
            }
        } else {
            std::vector<Expr> strides{make_one(Int(32))};
            for (size_t k = 1; k < n; k++) {
                strides.push_back(simplify(strides.back() * l.extents[k - 1]));
            }
            bool constant = true;
            for (const Expr &s : strides) {
                constant = constant && as_const_int(s);
            }
            if (constant) {
                for (size_t k = 0; k < n; k++) {
                    Expr c = k == 0 ? e : simplify(e / strides[k]);
                    cells[k] = k + 1 < n ? simplify(c % l.extents[k]) : c;
                }
            } else if (n == 2 && strides[1].as<Variable>()) {
                std::string sym = strides[1].as<Variable>()->name;
                Linear parts;
                if (!split_linear(e, {sym}, &parts)) {
                    unsupported("the " + what + ": its flat index " + str(e) + " is not linear in the stride " + sym + " of " + name);
                }
                cells[0] = parts.count("") ? parts[""] : make_zero(Int(32));
                cells[1] = parts.count(sym) ? parts[sym] : make_zero(Int(32));
            } else {
                unsupported("the " + what + ": the allocation " + name + " has " + std::to_string(n) +
                            " dimensions and strides " + str(strides.back()) + " neither constant nor one variable");
            }
        }
        // The identity e == sum_k c_k * S_k holds by construction; the
        // simplifier double-checks it where it can.
        std::vector<Expr> out;
        for (size_t k = 0; k < n; k++) {
            out.push_back(simplify(cells[k] + l.mins[k]));
        }
        return out;
    }

    Stmt visit(const LetStmt *op) override {
        if (const Call *c = op->value.as<Call>()) {
            if (c->is_extern() && starts_with(c->name, "_halide_buffer_get_")) {
                // The unpacking of a buffer's fields: the kernel has them as
                // parameters (mins, extents) or nothing (the rest).
                return mutate(op->body);
            }
        }
        Expr v = mutate(op->value);
        lets_[op->name] = simplify(substitute(lets_, op->value));
        Stmt body = mutate(op->body);
        lets_.erase(op->name);
        if (!stmt_uses_var(body, op->name)) {
            return body;
        }
        return LetStmt::make(op->name, v, body);
    }

    Expr visit(const Let *op) override {
        Expr v = mutate(op->value);
        lets_[op->name] = simplify(substitute(lets_, op->value));
        Expr body = mutate(op->body);
        lets_.erase(op->name);
        if (!expr_uses_var(body, op->name)) {
            return body;
        }
        return Let::make(op->name, v, body);
    }

    Stmt visit(const Allocate *op) override {
        if (op->new_expr.defined()) {
            unsupported("the allocation " + op->name + " with a custom allocator (new_expr)");
        }
        if (op->type.is_vector()) {
            unsupported("the allocation " + op->name + " of vectors");
        }
        auto r = realized_.find(op->name);
        if (r == realized_.end() || r->second.size() != 1) {
            unsupported("the allocation " + op->name + ": it is realized " +
                        std::to_string(r == realized_.end() ? 0 : r->second.size()) +
                        " times before flattening, where the translation takes its mins (once is needed)");
        }
        const Region &rb = r->second[0];
        if (rb.size() != op->extents.size()) {
            unsupported("the allocation " + op->name + ": " + std::to_string(op->extents.size()) +
                        " extents after flattening, " + std::to_string(rb.size()) + " dimensions before");
        }
        Layout l;
        l.type = op->type;
        Region bounds;
        for (size_t k = 0; k < rb.size(); k++) {
            l.mins.push_back(rb[k].min);
            l.extents.push_back(op->extents[k]);
            bounds.emplace_back(rb[k].min, op->extents[k]);
        }
        allocs_[op->name].push_back(l);
        Stmt body = mutate(op->body);
        allocs_[op->name].pop_back();
        // The condition (skip_stages') and the memory type change nothing
        // in the kernel model: the array is allocated unconditionally.
        return Realize::make(op->name, {op->type}, op->memory_type, bounds, const_true(), body);
    }

    Stmt visit(const Free *) override {
        return Evaluate::make(0);
    }

    Stmt visit(const Store *op) override {
        std::string what = "store to " + op->name;
        if (op->value.type().is_vector() || op->index.type().is_vector()) {
            unsupported("the " + what + ": a vector store (" + str(op->index) + ")");
        }
        if (!is_const_one(op->predicate)) {
            unsupported("the " + what + ": a predicated store");
        }
        std::vector<Expr> args = coords(op->name, op->index, what);
        if (p_.buffer_index.count(op->name) && p_.buffers[p_.buffer_index.at(op->name)].output) {
            outputs_stored.insert(op->name);
        }
        return Provide::make(op->name, {mutate(op->value)}, args, const_true());
    }

    Expr visit(const Load *op) override {
        std::string what = "load of " + op->name;
        if (op->type.is_vector() || op->index.type().is_vector()) {
            unsupported("the " + what + ": a vector load (" + str(op->index) + ")");
        }
        if (!is_const_one(op->predicate)) {
            unsupported("the " + what + ": a predicated load");
        }
        std::vector<Expr> args = coords(op->name, op->index, what);
        Layout l = layout(op->name, what);
        Call::CallType ct = l.image ? Call::Image : Call::Halide;
        if (l.image) {
            return Call::make(op->type, op->name, args, ct, FunctionPtr(), 0, op->image, op->param);
        }
        return Call::make(op->type, op->name, args, ct);
    }
};

// RealizeBounds collects the bounds of every realization before
// flattening, by func, with the lets around them expanded.
class RealizeBounds : public IRVisitor {
public:
    std::map<std::string, std::vector<Region>> bounds;

private:
    using IRVisitor::visit;
    std::map<std::string, Expr> lets_;
    void visit(const LetStmt *op) override {
        Expr old;
        auto it = lets_.find(op->name);
        bool had = it != lets_.end();
        if (had) {
            old = it->second;
        }
        lets_[op->name] = substitute(lets_, op->value);
        op->body.accept(this);
        if (had) {
            lets_[op->name] = old;
        } else {
            lets_.erase(op->name);
        }
    }
    void visit(const Realize *op) override {
        Region r;
        for (const Range &b : op->bounds) {
            r.emplace_back(simplify(substitute(lets_, b.min)), simplify(substitute(lets_, b.extent)));
        }
        bounds[op->name].push_back(r);
        IRVisitor::visit(op);
    }
};

// unflatten rewrites the final statement (see Unflatten) and lists in
// assumed what the delinearisation assumes of the output buffers.
Stmt unflatten(const Pipeline_ &p, const Lowered &l, const Stmt &final_stmt, std::vector<std::string> *assumed) {
    RealizeBounds rb;
    l.s.accept(&rb);
    Unflatten u(p, rb.bounds);
    Stmt s = u.mutate(final_stmt);
    for (const std::string &b : u.outputs_stored) {
        const Buffer_ &buf = p.buffers[p.buffer_index.at(b)];
        std::ostringstream o;
        o << "the strides of " << b << " do not overlap: " << b << ".stride.0 = 1";
        for (int d = 1; d < buf.dims; d++) {
            o << ", " << b << ".stride." << d << " >= " << b << ".stride." << d - 1 << " * " << b << ".extent." << d - 1;
        }
        assumed->push_back(o.str());
    }
    return s;
}

}  // namespace

std::string final_sched_text(Pipeline_ &p, const Lowered &l, const std::string &name, const Target &t) {
    Stmt fin = lower_final(l, t);
    std::vector<std::string> assumed;
    Stmt s = unflatten(p, l, fin, &assumed);
    std::string text = sched_text(p, s, l.folded, name, t);
    // The header names the stage and what the delinearisation assumes.
    std::ostringstream head;
    head << "# Captured at --stage final: Halide's statement after every lowering pass before\n";
    head << "# lower_parallel_tasks, its flattened accesses delinearised (each cell checked in bounds).\n";
    if (!assumed.empty()) {
        head << "# Assumed of the output buffers' layouts (Halide does not check it):\n";
        for (const std::string &a : assumed) {
            head << "#   " << a << "\n";
        }
    }
    const std::string stage_line = "# Halide's own loop nest after every pass before storage flattening, annotated.\n";
    size_t at = text.find(stage_line);
    if (at == std::string::npos) {
        unsupported("the kernel's header: no line naming the stage");
    }
    return text.substr(0, at) + head.str() + text.substr(at + stage_line.size());
}

}  // namespace detail
}  // namespace augur
