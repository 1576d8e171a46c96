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
//     c_n = e / S_n (Euclidean division, as Halide's), taken term by
//     term and without a division or remainder the ranges of the loops
//     around prove idle (see euclid_cells);
//   - an allocation whose extents are constant but one, e_j = a * sym +
//     b with a constant a (a realized extent, rounded up or not): e is
//     linear in sym, and its coefficient gives the cells above j, the
//     rest those up to j (see symbolic_cells);
//   - an allocation with several symbolic extents, or one symbolic_cells
//     cannot split: polynomial division of e by each extent in turn, the
//     identity e == sum_k c_k * S_k then checked as polynomials (see
//     poly_cells).
//
// An allocation's strides follow its func's storage order
// (reorder_storage; Halide 14's storage flattening takes it from the
// func's storage_dims): the extents are taken in that order, and the cells
// put back in the dimensions' (see Unflatten::allocation_cells).
//
// The mins are the realization's before flattening, and so are the
// extents of an allocation that bound_small_allocations made
// one-dimensional. For a func realized several times, a second lowering
// with each realization marked (region_hints) tells which region each
// allocation has; the mins only name the cells (see
// Unflatten::realization), so a wrong one cannot make a wrong kernel
// VALID.
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

#include <algorithm>
#include <functional>
#include <limits>
#include <optional>
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

// has_product reports whether e, read as a sum of products (its sums,
// differences and products; anything else a term), multiplies two
// terms that are not constants.
bool has_product(const Expr &e) {
    if (const Add *a = e.as<Add>()) {
        return has_product(a->a) || has_product(a->b);
    }
    if (const Sub *s = e.as<Sub>()) {
        return has_product(s->a) || has_product(s->b);
    }
    if (const Mul *m = e.as<Mul>()) {
        bool ka = as_const_int(m->a) != nullptr, kb = as_const_int(m->b) != nullptr;
        return (!ka && !kb) || has_product(m->a) || has_product(m->b);
    }
    return false;
}

// vars_of lists the variables an expression reads.
std::set<std::string> vars_of(const Expr &e) {
    class Vars : public IRVisitor {
    public:
        std::set<std::string> names;

    private:
        using IRVisitor::visit;
        void visit(const Variable *op) override {
            names.insert(op->name);
        }
    } v;
    e.accept(&v);
    return v.names;
}

// str_list prints expressions as [e_0, e_1, ...].
std::string str_list(const std::vector<Expr> &es) {
    std::ostringstream o;
    o << "[";
    for (size_t i = 0; i < es.size(); i++) {
        o << (i ? ", " : "") << es[i];
    }
    o << "]";
    return o.str();
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

// linear_terms splits e, times mult, into terms with constant
// coefficients: sums, differences and products by constants are
// distributed, constants added into *k, anything else is a term.
void linear_terms(const Expr &e, int64_t mult, std::vector<std::pair<Expr, int64_t>> *terms, int64_t *k) {
    if (const int64_t *c = as_const_int(e)) {
        *k += mult * *c;
    } else if (const Add *a = e.as<Add>()) {
        linear_terms(a->a, mult, terms, k);
        linear_terms(a->b, mult, terms, k);
    } else if (const Sub *b = e.as<Sub>()) {
        linear_terms(b->a, mult, terms, k);
        linear_terms(b->b, -mult, terms, k);
    } else if (const Mul *m = e.as<Mul>(); m && as_const_int(m->b)) {
        linear_terms(m->a, mult * *as_const_int(m->b), terms, k);
    } else if (m && as_const_int(m->a)) {
        linear_terms(m->b, mult * *as_const_int(m->a), terms, k);
    } else {
        terms->emplace_back(e, mult);
    }
}

// const_stride_cells splits the flat index e of a buffer whose strides
// are the constants strides (its constraints, Halide's set_stride, which
// the simplifier substituted into the index) into cells with e == sum_k
// c_k * strides[k] identically: each term of e goes to the outermost
// dimension whose stride divides its coefficient, and the constant,
// divided from the outermost dimension in, truncated towards zero, or
// rounded down where the dimensions inside have no term but constants
// (so that their cells are not negative: input(1, x - 1) of a buffer of
// strides 1 and 3 is cell [1, x - 1], not [-2, x]). The
// split is a guess (Grosser et al.'s optimistic delinearisation), exact
// once the kernel checks the cells in bounds.
std::vector<Expr> const_stride_cells(const Expr &e, const std::vector<int64_t> &strides) {
    std::vector<std::pair<Expr, int64_t>> terms;
    int64_t k = 0;
    linear_terms(e, 1, &terms, &k);
    size_t n = strides.size();
    std::vector<Expr> cells(n, make_zero(Int(32)));
    for (const auto &t : terms) {
        size_t d = n;
        while (d-- > 0 && t.second % strides[d] != 0) {
        }
        cells[d] = cells[d] + t.first * make_const(Int(32), t.second / strides[d]);
    }
    // below[d]: no dimension inside d has a term of e, only constants.
    std::vector<bool> below(n, true);
    for (size_t d = 1; d < n; d++) {
        below[d] = below[d - 1] && as_const_int(simplify(cells[d - 1]));
    }
    for (size_t d = n; d-- > 0;) {
        int64_t q = k / strides[d];
        if (below[d] && k - q * strides[d] < 0) {
            q--;  // constant cells inside d: the remainder in [0, strides[d])
        }
        k -= q * strides[d];
        cells[d] = simplify(cells[d] + make_const(Int(32), q));
    }
    return cells;
}

// euclid_cells are the cells c_k = (e / S_k) % ext_k (the last one e /
// S_{n-1}, Euclidean division, as Halide's) of the flat index e of an
// allocation of constant extents ext, S_k = ext_0 * ... * ext_{k-1},
// written as simply as the ranges bounds (of the loops around the access)
// allow. e, a sum of terms a * t with constant coefficients, is X + S_k *
// Y with Y the terms whose coefficient S_k divides: e / S_k = X / S_k + Y
// and X / S_k is 0 where 0 <= X < S_k is proved; (Z + ext_k * W) % ext_k
// = Z % ext_k, and Z % ext_k is Z where 0 <= Z < ext_k is proved. Each
// step is an identity of Euclidean division (or holds on the ranges), so
// the cells equal those of the division alone wherever the loops' ranges
// hold, and a flat index whose terms a * t are, say, the digits of a
// folded row (388 * (y % 8)) and a column, gives the column and the row,
// not a division and a remainder of their sum.
std::vector<Expr> euclid_cells(const Expr &e, const std::vector<int64_t> &ext, const Scope<Interval> &bounds) {
    std::vector<std::pair<Expr, int64_t>> terms;
    int64_t k = 0;
    linear_terms(e, 1, &terms, &k);
    size_t n = ext.size();
    std::vector<Expr> cells(n);
    auto in_range = [&](const Expr &x, int64_t hi) {
        return can_prove(x >= 0 && x < make_const(Int(32), hi), bounds);
    };
    int64_t stride = 1;
    for (size_t d = 0; d < n; d++) {
        int64_t q = k / stride;  // k = q * stride + r, 0 <= r < stride
        if (k - q * stride < 0) {
            q--;
        }
        Expr x = make_const(Int(32), k - q * stride);
        std::vector<std::pair<Expr, int64_t>> ys;  // Y's terms, coefficients divided by stride
        for (const auto &t : terms) {
            if (t.second % stride == 0) {
                ys.emplace_back(t.first, t.second / stride);
            } else {
                x = x + t.first * make_const(Int(32), t.second);
            }
        }
        x = simplify(x);
        Expr c = in_range(x, stride) ? make_zero(Int(32)) : simplify(x / make_const(Int(32), stride));
        if (d + 1 < n) {
            int64_t m = ext[d];
            int64_t qm = ((q % m) + m) % m;
            c = c + make_const(Int(32), qm);
            for (const auto &y : ys) {
                if (y.second % m != 0) {
                    c = c + y.first * make_const(Int(32), y.second);
                }
            }
            c = simplify(c);
            cells[d] = in_range(c, m) ? c : simplify(c % make_const(Int(32), m));
        } else {
            c = c + make_const(Int(32), q);
            for (const auto &y : ys) {
                c = c + y.first * make_const(Int(32), y.second);
            }
            cells[d] = simplify(c);
        }
        stride *= ext[d];
    }
    return cells;
}

}  // namespace

// The polynomials over atoms (Poly, emit_internal.h), which lanes.cpp
// shares.

void poly_add(Poly *acc, const Poly &x, int64_t k) {
    for (const auto &kv : x) {
        int64_t &c = (*acc)[kv.first];
        c += k * kv.second;
        if (c == 0) {
            acc->erase(kv.first);
        }
    }
}

Poly poly_mul(const Poly &x, const Poly &y) {
    Poly out;
    for (const auto &a : x) {
        for (const auto &b : y) {
            Monomial m = a.first;
            m.insert(m.end(), b.first.begin(), b.first.end());
            std::sort(m.begin(), m.end());
            poly_add(&out, Poly{{m, 1}}, a.second * b.second);
        }
    }
    return out;
}

Poly poly_const(int64_t k) {
    return k == 0 ? Poly{} : Poly{{Monomial{}, k}};
}

Poly PolyAtoms::of(const Expr &e) {
    if (const int64_t *k = as_const_int(e)) {
        return poly_const(*k);
    }
    if (const Add *a = e.as<Add>()) {
        Poly p = of(a->a);
        poly_add(&p, of(a->b), 1);
        return p;
    }
    if (const Sub *s = e.as<Sub>()) {
        Poly p = of(s->a);
        poly_add(&p, of(s->b), -1);
        return p;
    }
    if (const Mul *m = e.as<Mul>()) {
        return poly_mul(of(m->a), of(m->b));
    }
    std::string key;
    if (const Variable *v = e.as<Variable>()) {
        key = "v:" + v->name;
    } else {
        key = "o:" + str(e);
    }
    expr.emplace(key, e);
    return Poly{{Monomial{key}, 1}};
}

Expr PolyAtoms::to_expr(const Poly &p) const {
    Expr out = make_zero(Int(32));
    for (const auto &kv : p) {
        Expr t = make_const(Int(32), kv.second);
        for (const std::string &a : kv.first) {
            t = t * expr.at(a);
        }
        out = out + t;
    }
    return simplify(out);
}

namespace {

// degree is the degree of p in the atom u.
int degree(const Poly &p, const std::string &u) {
    int d = 0;
    for (const auto &kv : p) {
        d = std::max(d, (int)std::count(kv.first.begin(), kv.first.end(), u));
    }
    return d;
}

// linear_atom finds an atom u of f with f = a * u + b, a constant other
// than 0 and b free of u, u none of taken; it returns false where there is
// none. It prefers an atom of positive coefficient: an extent is max - min
// + 1, and a cell x - min reads the min's atoms, so that dividing in an
// atom of the max leaves them in the remainder, where dividing in one of
// the min takes a whole extent into the quotient for the cell's -min alone
// (interpolate's interpolated_2, of extent max(...) - (min(W, 26) - 26) /
// 4 + 1, whose cell (W - 26) / 4 - (min(W, 26) - 26) / 4 would come out
// one row up, a whole extent below 0).
bool linear_atom(const Poly &f, const std::set<std::string> &taken, std::string *u, int64_t *a) {
    for (int pass = 0; pass < 2; pass++) {
        for (const auto &kv : f) {
            if (kv.first.size() != 1 || taken.count(kv.first[0]) || degree(f, kv.first[0]) != 1 ||
                (pass == 0 && kv.second < 0)) {
                continue;
            }
            bool alone = true;
            for (const auto &o : f) {
                alone = alone && (o.first == kv.first || !std::count(o.first.begin(), o.first.end(), kv.first[0]));
            }
            if (alone) {
                *u = kv.first[0];
                *a = kv.second;
                return true;
            }
        }
    }
    return false;
}

// divide_by divides q by f = a * u + b (see linear_atom) in u: q = r + f
// * quot with r free of u. It returns false where a coefficient is not a
// multiple of a.
bool divide_by(Poly q, const Poly &f, const std::string &u, int64_t a, Poly *quot, Poly *r) {
    Poly b = f;
    b.erase(Monomial{u});
    quot->clear();
    for (int d = degree(q, u); d > 0; d = degree(q, u)) {
        Poly t;  // the terms of q of degree d in u, divided by a * u
        for (const auto &kv : q) {
            if ((int)std::count(kv.first.begin(), kv.first.end(), u) != d) {
                continue;
            }
            if (kv.second % a != 0) {
                return false;
            }
            Monomial m = kv.first;
            m.erase(std::find(m.begin(), m.end(), u));
            t[m] = kv.second / a;
        }
        poly_add(quot, t, 1);
        poly_add(&q, poly_mul(t, f), -1);
    }
    *r = q;
    return true;
}

// uses_atom reports whether a monomial reads any of the atoms us.
bool uses_atom(const Monomial &m, const std::set<std::string> &us) {
    for (const std::string &a : m) {
        if (us.count(a)) {
            return true;
        }
    }
    return false;
}

// poly_cells splits the flat index e of an array whose strides are the
// products of its extents ext in storage order, S_k = ext_0 * ... *
// ext_{k-1}, into cells c_k with e == sum_k c_k * S_k, by polynomial
// division over the atoms (every let expanded): a symbolic extent f =
// a * u + b, linear in an atom u of its own, divides the quotient so far
// in u, the remainder (free of u) its cell, which borrows f from the
// quotient or carries it where it is certainly negative or past f (the
// shifted tail of a vectorised row); a constant extent c takes the terms
// that read a later extent's atom whole into the quotient (their
// coefficients multiples of c), then the terms of coefficient a multiple
// of c, and cuts the rest r Euclid's way, r % c and r / c. The identity
// is then checked as polynomials, each r / c an atom Q of its own and r
// % c written r - c * Q (Euclid's identity, exact for c > 0): an index
// that is not sum_k c_k * S_k identically is rejected, so the split is
// exact once the kernel checks each c_k in [0, ext_k), whatever the
// heuristics chose. why says why not where it returns no cells.
std::vector<Expr> poly_cells(const Expr &e, const std::vector<Expr> &ext, std::string *why) {
    PolyAtoms atoms;
    size_t n = ext.size();
    std::vector<Poly> f(n);
    std::vector<std::string> us(n);
    std::vector<int64_t> as(n, 0);
    std::set<std::string> taken;
    for (size_t k = 0; k + 1 < n; k++) {
        f[k] = atoms.of(simplify(ext[k]));
        if (!as_const_int(simplify(ext[k])) && !linear_atom(f[k], taken, &us[k], &as[k])) {
            *why = "its extent " + str(ext[k]) + " is linear in no atom of its own";
            return {};
        }
        if (!us[k].empty()) {
            taken.insert(us[k]);
        }
    }
    Poly q = atoms.of(simplify(e));
    std::vector<Poly> check(n);  // the cells, each r / c an atom
    std::vector<Expr> cells(n);
    for (size_t k = 0; k + 1 < n; k++) {
        std::set<std::string> later;
        for (size_t j = k + 1; j + 1 < n; j++) {
            if (!us[j].empty()) {
                later.insert(us[j]);
            }
        }
        Poly quot, r;
        if (us[k].empty()) {
            int64_t c = *as_const_int(simplify(ext[k]));
            if (c <= 0) {
                *why = "its extent " + str(ext[k]) + " is not positive";
                return {};
            }
            for (const auto &kv : q) {
                bool high = uses_atom(kv.first, later);
                if (high && kv.second % c != 0) {
                    *why = "the term of coefficient " + std::to_string(kv.second) + " in its index is not a multiple of the extent " + std::to_string(c) + " below it";
                    return {};
                }
                if (kv.second % c == 0) {
                    quot[kv.first] = kv.second / c;
                } else {
                    r[kv.first] = kv.second;
                }
            }
            Expr re = atoms.to_expr(r);
            std::string qk = "q:" + std::to_string(k);
            atoms.expr[qk] = simplify(re / make_const(Int(32), c));
            poly_add(&quot, Poly{{Monomial{qk}, 1}}, 1);
            check[k] = r;
            poly_add(&check[k], Poly{{Monomial{qk}, 1}}, -c);
            cells[k] = simplify(re % make_const(Int(32), c));
        } else {
            if (!divide_by(q, f[k], us[k], as[k], &quot, &r)) {
                *why = "a coefficient of its index " + str(e) + " is not a multiple of that of the extent " + str(ext[k]);
                return {};
            }
            for (int i = 0; i < 4; i++) {
                Expr re = atoms.to_expr(r);
                if (can_prove(re < 0)) {
                    poly_add(&r, f[k], 1);
                    poly_add(&quot, poly_const(1), -1);
                } else if (can_prove(re >= ext[k])) {
                    poly_add(&r, f[k], -1);
                    poly_add(&quot, poly_const(1), 1);
                } else {
                    break;
                }
            }
            check[k] = r;
            cells[k] = atoms.to_expr(r);
        }
        q = quot;
    }
    check[n - 1] = q;
    cells[n - 1] = atoms.to_expr(q);
    Poly sum, stride = poly_const(1);
    for (size_t k = 0; k < n; k++) {
        poly_add(&sum, poly_mul(check[k], stride), 1);
        stride = poly_mul(stride, f[k]);
    }
    poly_add(&sum, atoms.of(simplify(e)), -1);
    if (!sum.empty()) {
        *why = "its index " + str(e) + " is not the sum of the cells " + str_list(cells) + " times the strides";
        return {};
    }
    return cells;
}

// LoadsFrom finds whether an expression loads from an array.
class LoadsFrom : public IRVisitor {
public:
    explicit LoadsFrom(const std::string &name)
        : name_(name) {
    }
    bool found = false;

private:
    using IRVisitor::visit;
    std::string name_;
    void visit(const Load *op) override {
        found = found || op->name == name_;
        IRVisitor::visit(op);
    }
};

// SelfLoads finds whether every load of an array in an expression is at
// the vector index at, lane for lane: each lane then reads only the cell
// it stores to.
class SelfLoads : public IRVisitor {
public:
    SelfLoads(const std::string &name, const Expr &at)
        : name_(name), at_(at) {
    }
    bool same = true;

private:
    using IRVisitor::visit;
    std::string name_;
    Expr at_;
    void visit(const Load *op) override {
        if (op->name == name_) {
            same = same && is_const_one(op->predicate) && equal(op->index, at_);
        }
        IRVisitor::visit(op);
    }
};

// Unpredicated drops the predicate of every load whose predicate is,
// node for node, the predicate of the vector store whose value it is in:
// the translation stores a lane only where the store's predicate holds
// (store_rerolled, store_lanes), and there the load's predicate holds
// too, so each lane stored reads what Halide's predicated load reads.
class Unpredicated : public IRMutator {
public:
    explicit Unpredicated(const Expr &pred)
        : pred_(pred) {
    }

private:
    using IRMutator::visit;
    Expr pred_;
    Expr visit(const Load *op) override {
        Expr index = mutate(op->index);
        if (is_const_one(op->predicate) || !equal(op->predicate, pred_)) {
            return Load::make(op->type, op->name, index, op->image, op->param, mutate(op->predicate), op->alignment);
        }
        return Load::make(op->type, op->name, index, op->image, op->param, const_true(op->type.lanes()),
                          op->alignment);
    }
};

// fold_lanes folds the lanes first, first + 1, ..., first + n - 1 of the
// vector v (scalars, by lane_of) with a VectorReduce's operator.
Expr fold_lanes(VectorReduce::Operator op, const Expr &v, int first, int n);

// LaneOf is one lane of a vector expression, as a scalar expression.
// Halide's extract_lane (Deinterleave.cpp) is an IRGraphMutator whose
// cache ignores the lane it extracts: a node that an expression reads
// both directly and through a shuffle gets, everywhere, the lane first
// asked of it, so that lane i of a || shuffle(a, 0, 0, 1, ...) is a_i
// || a_i. LaneOf caches nothing.
class LaneOf : public IRMutator {
public:
    explicit LaneOf(int lane)
        : lane_(lane) {
    }
    Expr mutate(const Expr &e) override {
        if (!e.defined() || e.type().is_scalar()) {
            return e;
        }
        return IRMutator::mutate(e);
    }

private:
    using IRMutator::visit;
    int lane_;

    // at is lane lane of e.
    Expr at(const Expr &e, int lane) {
        int saved = lane_;
        lane_ = lane;
        Expr r = mutate(e);
        lane_ = saved;
        return r;
    }
    Expr visit(const Broadcast *op) override {
        return at(op->value, lane_ % op->value.type().lanes());
    }
    Expr visit(const Ramp *op) override {
        // Lane l of a ramp of vectors of m lanes: lane l % m of base +
        // (l / m) * stride.
        int m = op->base.type().lanes(), l = lane_ % m;
        Type t = op->base.type().element_of();
        return at(op->base, l) + make_const(t, lane_ / m) * at(op->stride, l);
    }
    Expr visit(const Shuffle *op) override {
        int index = op->indices[lane_];
        for (const Expr &v : op->vectors) {
            if (index < v.type().lanes()) {
                return at(v, index);
            }
            index -= v.type().lanes();
        }
        unsupported("the shuffle " + str(Expr(op)) + ": a lane index past its vectors");
        return Expr();
    }
    Expr visit(const VectorReduce *op) override {
        int factor = op->value.type().lanes() / op->type.lanes();
        return fold_lanes(op->op, op->value, lane_ * factor, factor);
    }
    Expr visit(const Load *op) override {
        return Load::make(op->type.element_of(), op->name, at(op->index, lane_), op->image, op->param,
                          at(op->predicate, lane_), ModulusRemainder());
    }
    Expr visit(const Cast *op) override {
        return Cast::make(op->type.element_of(), mutate(op->value));
    }
    Expr visit(const Variable *op) override {
        unsupported("the vector " + op->name + ": a vector variable that is not a let of the statement");
        return Expr();
    }
    Expr visit(const Let *op) override {
        if (op->value.type().is_vector()) {
            return mutate(substitute(op->name, op->value, op->body));
        }
        return Let::make(op->name, op->value, mutate(op->body));
    }
    Expr visit(const Call *op) override {
        // Lane-wise calls only: every vector argument has the call's lanes.
        for (const Expr &a : op->args) {
            if (a.type().is_vector() && a.type().lanes() != op->type.lanes()) {
                unsupported("the call " + str(Expr(op)) + ", which is not lane by lane");
            }
        }
        if (op->is_intrinsic(Call::dynamic_shuffle)) {
            unsupported("the call " + str(Expr(op)) + ", which is not lane by lane");
        }
        std::vector<Expr> args;
        for (const Expr &a : op->args) {
            args.push_back(mutate(a));
        }
        return Call::make(op->type.element_of(), op->name, args, op->call_type, op->func, op->value_index, op->image,
                          op->param);
    }
};

// lane_of is lane i of the vector expression e, simplified.
Expr lane_of(const Expr &e, int i) {
    LaneOf l(i);
    return simplify(l.mutate(e));
}

Expr fold_lanes(VectorReduce::Operator op, const Expr &v, int first, int n) {
    std::vector<Expr> xs;
    for (int i = first; i < first + n; i++) {
        LaneOf l(i);
        xs.push_back(l.mutate(v));
    }
    Expr acc = fold_exprs(op, xs);
    if (!acc.defined()) {
        unsupported("the vector reduction of " + str(v) + " (a saturating add)");
    }
    return acc;
}

// ReduceLanes rewrites each VectorReduce to one lane into the fold of its
// operand's lanes, one by one (lane_of): the kernel has no vectors.
class ReduceLanes : public IRMutator {
    using IRMutator::visit;
    Expr visit(const VectorReduce *op) override {
        Expr v = mutate(op->value);
        if (op->type.lanes() != 1) {
            unsupported("the vector reduction " + str(Expr(op)) + " to " + std::to_string(op->type.lanes()) + " lanes");
        }
        return fold_lanes(op->op, v, 0, v.type().lanes());
    }
};

// Unrolled describes the loops unroll_loops unrolled, as they were before
// flattening.
struct Unrolled {
    // By variable: each such loop's min (lets expanded) and constant extent.
    std::map<std::string, std::vector<std::pair<Expr, int64_t>>> loops;
    // By func: for each of its realizations, the unrolled loops around it,
    // outermost first.
    std::map<std::string, std::vector<std::vector<std::string>>> around;
};

// CopyOrdinals numbers the allocations of each array within the body of
// their innermost enclosing loop (or the whole statement), in the order
// of the statement: unroll_loops lays out the copies of an unrolled
// loop's body one after the other, the first iteration first.
class CopyOrdinals : public IRVisitor {
public:
    // By allocation: its ordinal and the number of allocations of the
    // same array in the same loop body.
    std::map<const Allocate *, std::pair<int, int>> at;

private:
    using IRVisitor::visit;
    std::vector<std::map<std::string, std::vector<const Allocate *>>> bodies_{1};

    void close() {
        for (const auto &kv : bodies_.back()) {
            for (size_t i = 0; i < kv.second.size(); i++) {
                at[kv.second[i]] = {(int)i, (int)kv.second.size()};
            }
        }
        bodies_.pop_back();
    }
    void visit(const For *op) override {
        op->min.accept(this);
        op->extent.accept(this);
        bodies_.emplace_back();
        op->body.accept(this);
        close();
    }
    void visit(const Allocate *op) override {
        bodies_.back()[op->name].push_back(op);
        IRVisitor::visit(op);
    }

public:
    void finish() {
        close();
    }
};

// region_marker names the call of an Evaluate that MarkRegions puts
// first in the body of a realization before the final passes:
// region_marker(name, min_0, extent_0, ..., min_n, extent_n).
constexpr const char *region_marker = "augur.region";
// coord_marker names the call of an Evaluate that MarkRegions puts
// before each store of a func with RVars: coord_marker(name, c_1, v_1,
// ...), the names of its RVar coordinates in scope and their values.
constexpr const char *coord_marker = "augur.coords";

// region_marker_of is the marker call s is, or null.
const Call *region_marker_of(const Stmt &s) {
    const Evaluate *e = s.as<Evaluate>();
    const Call *c = e ? e->value.as<Call>() : nullptr;
    if (!c || c->name != region_marker || c->args.empty() || !c->args[0].as<StringImm>()) {
        return nullptr;
    }
    return c;
}

// MarkRegions marks each realization of the funcs names (a region_marker
// first in its body), so that the final passes carry its region to each
// allocation they make of it: unrolling and loop partitioning copy the
// marker with the body, the simplifier substitutes into it what it
// substitutes into the accesses.
class MarkRegions : public IRMutator {
public:
    // names: the funcs whose realizations to mark; rvars: by func, the
    // RVar coordinates of its update stages, whose values to mark before
    // each of its stores (coord_marker).
    MarkRegions(const std::set<std::string> &names, const std::map<std::string, std::set<std::string>> &rvars)
        : names_(names), rvars_(rvars) {
    }

private:
    using IRMutator::visit;
    const std::set<std::string> &names_;
    const std::map<std::string, std::set<std::string>> &rvars_;
    std::map<std::string, int> scope_;  // the lets and loops in scope
    Stmt visit(const Realize *op) override {
        Stmt body = mutate(op->body);
        if (names_.count(op->name)) {
            std::vector<Expr> args{StringImm::make(op->name)};
            for (const Range &b : op->bounds) {
                args.push_back(b.min);
                args.push_back(b.extent);
            }
            body = Block::make(Evaluate::make(Call::make(Int(32), region_marker, args, Call::Extern)), body);
        }
        return Realize::make(op->name, op->types, op->memory_type, op->bounds, op->condition, body);
    }
    Stmt visit(const LetStmt *op) override {
        scope_[op->name]++;
        Stmt s = IRMutator::visit(op);
        scope_[op->name]--;
        return s;
    }
    Stmt visit(const For *op) override {
        scope_[op->name]++;
        Stmt s = IRMutator::visit(op);
        scope_[op->name]--;
        return s;
    }
    // Each store to a func with RVars is preceded by coord_marker(f,
    // c_1, c_1's value, ...) for its RVar coordinates in scope.
    Stmt visit(const Provide *op) override {
        auto r = rvars_.find(op->name);
        if (r == rvars_.end()) {
            return op;
        }
        std::vector<Expr> args{StringImm::make(op->name)};
        for (const std::string &c : r->second) {
            if (scope_[c] > 0) {
                args.push_back(StringImm::make(c));
                args.push_back(Variable::make(Int(32), c));
            }
        }
        return Block::make(Evaluate::make(Call::make(Int(32), coord_marker, args, Call::Extern)), op);
    }
};

// FindRegion finds the region markers of the array name in an
// allocation's body (not in a nested allocation of the same array), each
// with the lets around it (those outside the body given), expanded.
class FindRegion : public IRVisitor {
public:
    FindRegion(const std::string &name, const std::map<std::string, Expr> &lets)
        : name_(name), lets_(lets) {
    }
    std::vector<std::pair<const Call *, std::map<std::string, Expr>>> found;

private:
    using IRVisitor::visit;
    std::string name_;
    std::map<std::string, Expr> lets_;
    void visit(const Evaluate *op) override {
        const Call *c = region_marker_of(op);
        if (c && c->args[0].as<StringImm>()->value == name_) {
            found.emplace_back(c, lets_);
        }
    }
    void visit(const LetStmt *op) override {
        auto old = lets_.find(op->name);
        std::optional<Expr> saved;
        if (old != lets_.end()) {
            saved = old->second;
        }
        lets_[op->name] = substitute(lets_, op->value);
        op->body.accept(this);
        if (saved) {
            lets_[op->name] = *saved;
        } else {
            lets_.erase(op->name);
        }
    }
    void visit(const Allocate *op) override {
        if (op->name != name_) {
            IRVisitor::visit(op);
        }
    }
};

// MarkedRegions lists, by array, the regions that the markers of a
// statement lowered with MarkRegions carry to its allocations, in the
// order of the statement, every let expanded: an allocation without
// exactly one marker of its array in its body has none.
class MarkedRegions : public IRVisitor {
public:
    std::map<std::string, std::vector<std::optional<Region>>> regions;
    // By array: for each store to it, what the last coord_marker of it
    // before carried.
    std::map<std::string, std::vector<std::map<std::string, Expr>>> coords;

private:
    using IRVisitor::visit;
    std::map<std::string, Expr> lets_;
    void visit(const LetStmt *op) override {
        const Call *c = op->value.as<Call>();
        if (c && c->is_extern() && starts_with(c->name, "_halide_buffer_get_")) {
            // A buffer's field: the kernel's parameter of that name.
            op->body.accept(this);
            return;
        }
        auto old = lets_.find(op->name);
        std::optional<Expr> saved;
        if (old != lets_.end()) {
            saved = old->second;
        }
        lets_[op->name] = substitute(lets_, op->value);
        op->body.accept(this);
        if (saved) {
            lets_[op->name] = *saved;
        } else {
            lets_.erase(op->name);
        }
    }
    std::map<std::string, std::map<std::string, Expr>> last_;  // by func, what its last marker carried
    void visit(const Evaluate *op) override {
        const Call *c = op->value.as<Call>();
        if (!c || c->name != coord_marker || c->args.empty() || !c->args[0].as<StringImm>()) {
            return;
        }
        std::map<std::string, Expr> &m = last_[c->args[0].as<StringImm>()->value];
        m.clear();
        for (size_t i = 1; i + 1 < c->args.size(); i += 2) {
            if (const StringImm *n = c->args[i].as<StringImm>()) {
                m[n->value] = simplify(substitute_in_all_lets(substitute(lets_, c->args[i + 1])));
            }
        }
    }
    void visit(const Store *op) override {
        coords[op->name].push_back(last_[op->name]);
        IRVisitor::visit(op);
    }
    void visit(const Allocate *op) override {
        FindRegion f(op->name, lets_);
        op->body.accept(&f);
        std::optional<Region> r;
        if (f.found.size() == 1) {
            const Call *c = f.found[0].first;
            r = Region();
            for (size_t i = 1; i + 1 < c->args.size(); i += 2) {
                r->emplace_back(simplify(substitute_in_all_lets(substitute(f.found[0].second, c->args[i]))),
                                simplify(substitute_in_all_lets(substitute(f.found[0].second, c->args[i + 1]))));
            }
        }
        regions[op->name].push_back(r);
        IRVisitor::visit(op);
    }
};

// Reroll gives a vector store up to its translation lane by lane, where
// the one in a loop over its lanes is not exact (see
// Unflatten::store_rerolled).
struct Reroll {};

// RegionHints are the regions of the realizations before flattening that
// the allocations of the final statement come from, where markers
// carried them (see region_hints), and, by array, why not where they did
// not.
struct RegionHints {
    // By array: for its allocations, in the order of the statement, the
    // region, if any.
    std::map<std::string, std::vector<std::optional<Region>>> at;
    std::map<std::string, std::string> why;
    // By func: for its stores, in the order of the statement, the RVar
    // coordinates the last marker before each carried, by name.
    std::map<std::string, std::vector<std::map<std::string, Expr>>> coords;
};

// Unflatten rewrites the final statement's Allocates, Stores and Loads
// into Realizes, Provides and Calls at multi-dimensional coordinates, and
// drops what the kernel model has no counterpart for (Free, the lets that
// unpack the buffers' fields).
// stride_names are the stride variables of p's buffers (b.stride.k).
std::set<std::string> stride_names(const Pipeline_ &p) {
    std::set<std::string> out;
    for (const Buffer_ &b : p.buffers) {
        for (int d = 0; d < b.dims; d++) {
            out.insert(b.name + ".stride." + std::to_string(d));
        }
    }
    return out;
}

class Unflatten : public IRMutator {
public:
    Unflatten(const Pipeline_ &p, const std::map<std::string, std::vector<Region>> &realized,
              const std::map<std::string, std::vector<Expr>> &loop_mins,
              const std::map<std::string, std::vector<Expr>> &let_values,
              const std::map<std::string, std::set<int>> &folded, const std::set<std::string> &vectorized,
              const Unrolled &unrolled, const std::map<const Allocate *, std::pair<int, int>> &copies)
        : p_(p), buffer_strides_(stride_names(p)), realized_(realized), loop_mins_(loop_mins),
          let_values_(let_values), folded_(folded), vectorized_(vectorized), unrolled_(unrolled), copies_(copies) {
    }
    std::set<std::string> outputs_stored;  // output buffers the statement stores to
    RegionHints hints;                     // the regions markers carried (see region_hints)
    std::map<const For *, RebasedLoop> rebased_at;  // v's value in each loop v.rebased (see rebased_values)

private:
    std::map<std::string, size_t> allocated_;  // the allocations of each array visited so far
    std::map<std::string, size_t> stored_;     // the stores to each array visited so far

public:
    // The strides b.stride.k (k >= 1) the flat indices multiply by a
    // coordinate: where int32 arithmetic may overflow (see overflow_notes).
    std::set<std::string> strided;

private:
    using IRMutator::visit;

    struct Layout {
        std::vector<Expr> mins, extents;  // in func coordinates
        std::vector<std::string> stride_syms;  // a buffer's: its stride variables (dimension 0's may be absent)
        bool buffer = false;
        bool image = false;  // an input buffer
        Type type;
        // An allocation's storage order (its func's storage_dims, as
        // Halide 14's storage flattening takes them): order[0] is the
        // dimension of stride 1, each next one's stride the previous
        // one's times its extent. Empty: the dimensions' order.
        std::vector<int> order;
    };

    // storage_order is the storage order of the func name's dimensions
    // (see Layout::order), or empty where it is theirs or unknown.
    std::vector<int> storage_order(const std::string &name) const {
        auto fi = p_.funcs.find(name);
        if (fi == p_.funcs.end()) {
            return {};
        }
        const Function &f = fi->second.f;
        const std::vector<std::string> &args = f.args();
        std::vector<int> order;
        for (const StorageDim &sd : f.schedule().storage_dims()) {
            auto it = std::find(args.begin(), args.end(), sd.var);
            if (it == args.end()) {
                return {};
            }
            order.push_back((int)(it - args.begin()));
        }
        std::vector<int> sorted = order;
        std::sort(sorted.begin(), sorted.end());
        for (size_t k = 0; k < sorted.size(); k++) {
            if (sorted[k] != (int)k) {
                return {};
            }
        }
        return order.size() == args.size() ? order : std::vector<int>{};
    }

    const Pipeline_ &p_;
    // The stride variables of the pipeline's buffers (b.stride.k), which
    // buffer_cells splits a flat index by: the steps lane_at may take from
    // one vector of an interleaving to the next.
    const std::set<std::string> buffer_strides_;
    std::map<std::string, std::vector<Region>> realized_;
    std::map<std::string, std::vector<Expr>> loop_mins_;  // the mins of the loops before flattening, by name
    std::map<std::string, Expr> rebased_;                 // v -> v.rebased + its min, in the rebased loops in scope
    std::map<std::string, std::vector<Expr>> let_values_;  // the lets before flattening, expanded, by name
    std::map<std::string, std::set<int>> folded_;          // the dimensions storage folding folded, by func
    std::map<std::string, int> loops_;                     // the loop variables in scope
    std::set<std::string> vectorized_;                     // the vectorized loops before flattening
    Unrolled unrolled_;                                    // the unrolled loops before flattening
    std::map<const Allocate *, std::pair<int, int>> copies_;  // see CopyOrdinals

    // in_final_scope reports whether every variable e reads is defined
    // where the final statement's store is: a loop or let in scope, a
    // buffer's field, a parameter.
    bool in_final_scope(const Expr &e) {
        bool ok = true;
        class Vars : public IRVisitor {
        public:
            std::set<const Variable *> vs;

        private:
            using IRVisitor::visit;
            void visit(const Variable *op) override {
                vs.insert(op);
            }
        } vars;
        e.accept(&vars);
        for (const Variable *v : vars.vs) {
            bool known = loops_.count(v->name) || lets_.count(v->name) || p_.field_param.count(v->name) ||
                         (v->param.defined() && !v->param.is_buffer());
            ok = ok && known;
        }
        return ok;
    }

    // folded_coords wraps the store s to the func name in lets of the
    // stage coordinates of its folded dimensions. Their index is
    // (y + k) % F, k shifted by the simplifier by a multiple of the fold
    // F, and the annotation needs y itself: the coordinate's let before
    // flattening (unique, expanded, a rebased loop's variable read as the
    // rebased one plus its own min, see visit_loop) gives it where every
    // variable it reads is in scope. The annotation is checked like any
    // other, so a wrong guess cannot make the kernel VALID.
    Stmt folded_coords(const std::string &name, Stmt s) {
        auto fo = folded_.find(name);
        auto fi = p_.funcs.find(name);
        if (fo == folded_.end() || fi == p_.funcs.end() || fi->second.stages.size() != 1) {
            return s;
        }
        return folded_dims(fo->second, fi->second, s);
    }

    // is_rvar_coord reports whether v is the coordinate of an RVar of a
    // stage of a func of the pipeline.
    bool is_rvar_coord(const std::string &v) const {
        for (const auto &kv : p_.funcs) {
            size_t npure = kv.second.f.args().size();
            for (const Stage &st : kv.second.stages) {
                for (size_t i = npure; i < st.coords.size(); i++) {
                    if (st.coords[i] == v) {
                        return true;
                    }
                }
            }
        }
        return false;
    }

    // rvar_coords wraps the store s to the func name (lane lane of a
    // vector store, a constant or the variable of a loop over the lanes,
    // or undefined) in lets of the RVar coordinates of its update
    // stages that the final statement no longer has: a coordinate let
    // before flattening, f.s1.r = f.s1.r.r * 8 + f.s1.r.ri, whose
    // vectorized loop variable (ri) vectorize_loops replaced by the lanes
    // of a ramp, is that value at the vectorized variable's min plus the
    // lane. Each let is unique before flattening, expanded, and reads only
    // variables in scope at the store; where there is none such, the
    // value a marker carried to the store (hint, see region_hints) is
    // taken, where it reads only variables in scope. The annotation it
    // serves is checked like any other, so a wrong recovery cannot make
    // the kernel VALID.
    Stmt rvar_coords(const std::string &name, const Expr &lane, Stmt s, const std::map<std::string, Expr> &hint) {
        auto fi = p_.funcs.find(name);
        if (fi == p_.funcs.end()) {
            return s;
        }
        size_t npure = fi->second.f.args().size();
        std::set<std::string> bound;
        for (const Stage &st : fi->second.stages) {
            for (size_t i = npure; i < st.coords.size(); i++) {
                const std::string &c = st.coords[i];
                if (bound.count(c) || loops_.count(c) || lets_.count(c)) {
                    continue;
                }
                Expr v = let_coord(c, lane);
                if (!v.defined()) {
                    v = hinted_coord(hint, c, lane);
                }
                if (v.defined()) {
                    s = LetStmt::make(c, v, s);
                    bound.insert(c);
                }
            }
        }
        return s;
    }

    // let_coord is the RVar coordinate c at lane lane (or undefined)
    // from its unique let before flattening (see rvar_coords), or
    // undefined.
    Expr let_coord(const std::string &c, const Expr &lane) {
        auto lv = let_values_.find(c);
        if (lv == let_values_.end() || lv->second.size() != 1) {
            return Expr();
        }
        Expr v = substitute(rebased_, lv->second[0]);
        for (const std::string &w : vars_of(v)) {
            if (!vectorized_.count(w)) {
                continue;
            }
            auto m = loop_mins_.find(w);
            if (!lane.defined() || m == loop_mins_.end() || m->second.size() != 1) {
                return Expr();
            }
            v = substitute(w, simplify(substitute(rebased_, m->second[0])) + lane, v);
        }
        v = simplify(v);
        return in_final_scope(v) ? v : Expr();
    }

    // hinted_coord is the RVar coordinate c at lane lane (or undefined)
    // that a marker carried to the store (see coord_hints), where every
    // variable it reads is in scope, or undefined. A vector one not
    // expressible at a symbolic lane (lane_at) gives the store up to
    // lane by lane (Reroll).
    Expr hinted_coord(const std::map<std::string, Expr> &hint, const std::string &c, const Expr &lane) {
        auto h = hint.find(c);
        if (h == hint.end()) {
            return Expr();
        }
        Expr v = h->second;
        if (v.type().is_vector()) {
            const int64_t *l = lane.defined() ? as_const_int(lane) : nullptr;
            if (!lane.defined() || (l && (*l < 0 || *l >= v.type().lanes()))) {
                return Expr();
            }
            v = l ? lane_of(v, (int)*l) : lane_at(v, lane, buffer_strides_, lets_);
            if (!v.defined()) {
                throw Reroll();
            }
        }
        v = simplify(v);
        return in_final_scope(v) ? v : Expr();
    }

    // store_hint is the coordinates a marker carried to the next store to
    // name in the order of the statement (see coord_hints).
    std::map<std::string, Expr> store_hint(const std::string &name) {
        size_t k = stored_[name]++;
        auto h = hints.coords.find(name);
        store_coords_.clear();
        if (h == hints.coords.end() || k >= h->second.size()) {
            return {};
        }
        store_coords_ = h->second[k];
        return h->second[k];
    }
    // store_coords_ is what store_hint last returned: the coordinates a
    // marker carried to the store being translated.
    std::map<std::string, Expr> store_coords_;

    // folded_dims is folded_coords' work: the lets of the coordinates of
    // the dimensions dims of fi's only stage. A stage that compute_with
    // fused with another has no let of its own coordinate f.s0.y before
    // flattening but one of the fused loop's, f.s0.fused.y, which the
    // kernel reads in its place (kernel.cpp's store_coords). A coordinate
    // that is a loop's variable before flattening, a loop that
    // partition_loops split and rebase_loops_to_zero rebased (each part
    // from its own min, which the simplifier substituted), has no let:
    // the value the marker before the store carried (store_coords_, see
    // region_hints) gives it, where it reads only variables in scope.
    Stmt folded_dims(const std::set<int> &dims, const FuncInfo &fi, Stmt s) {
        const Stage &st = fi.stages[0];
        for (int d : dims) {
            if (d >= (int)st.coords.size()) {
                continue;
            }
            std::string c = st.coords[d];
            if (loops_.count(c) || lets_.count(c)) {
                continue;
            }
            if (!let_values_.count(c) && d < (int)st.fused.size()) {
                c = st.fused[d];
            }
            auto lv = let_values_.find(c);
            Expr v;
            if (!loops_.count(c) && lv != let_values_.end() && lv->second.size() == 1) {
                v = simplify(substitute(rebased_, lv->second[0]));
            }
            if (v.defined() && in_final_scope(v)) {
                s = LetStmt::make(c, v, s);
            } else if (Expr h = hinted_coord(store_coords_, st.coords[d], -1); h.defined()) {
                s = LetStmt::make(st.coords[d], h, s);
            }
        }
        return s;
    }
    std::map<std::string, Expr> lets_;   // every let in scope, expanded
    std::map<std::string, Expr> vlets_;  // the lets of vectors in scope, expanded (their uses are split into lanes)
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

    // nonlinear_atom finds a term t of the extent ext that is not linear
    // in the variables (a division, a modulo, a min or a max) with ext =
    // a * t + b for a constant a other than 0 and b free of t, found by
    // putting the variable v in t's place; it sets a and b and returns t,
    // or an undefined Expr when no term is so.
    static Expr nonlinear_atom(const Expr &ext, const Expr &v, Expr *a, Expr *b) {
        class Terms : public IRVisitor {
        public:
            std::vector<Expr> found;

        private:
            using IRVisitor::visit;
            void visit(const Div *op) override {
                found.push_back(op);
            }
            void visit(const Mod *op) override {
                found.push_back(op);
            }
            void visit(const Min *op) override {
                found.push_back(op);
            }
            void visit(const Max *op) override {
                found.push_back(op);
            }
        } terms;
        ext.accept(&terms);
        const std::string &name = v.as<Variable>()->name;
        for (const Expr &t : terms.found) {
            Linear parts;
            if (!split_linear(substitute(t, v, ext), {name}, &parts) || !parts.count(name)) {
                continue;
            }
            Expr coeff = simplify(parts[name]);
            Expr rest = parts.count("") ? simplify(parts[""]) : make_zero(Int(32));
            if (as_const_int(coeff) && !is_const_zero(coeff) && !expr_uses_var(rest, name)) {
                *a = coeff;
                *b = rest;
                return t;
            }
        }
        return Expr();
    }

    // symbolic_cells are the cells of the flat index flat of an allocation
    // whose extents ext are constant but one, e_j = a * sym + b, linear in
    // a variable sym with a constant a (b free of sym; a realized extent,
    // rounded up or not). With P = e_0 * ... * e_{j-1} and R_k = e_{j+1} *
    // ... * e_{k-1}, constant, the index is L + (a * sym + b) * P * H,
    // where L = sum_{k <= j} c_k * S_k is the low part and H = sum_{k > j}
    // c_k * R_k the high one: the index, linear in sym, is p_0 + p_1 *
    // sym, so that H = p_1 / (P * a), exactly, and L = p_0 - P * b * H,
    // each then cut into cells by constant strides. The split is a guess
    // (Grosser et al.'s optimistic delinearisation): where c_j is certainly
    // negative or certainly past e_j, as at the shifted tail of a
    // vectorised row (y * e_0 + e_0 - 8 + lane), it borrows e_j from H or
    // carries it. Any split with the index equal to sum_k c_k * S_k is
    // exact once the kernel checks the cells in bounds; this one is the one
    // that can be.
    std::vector<Expr> symbolic_cells(const std::string &name, const std::vector<Expr> &ext, const Expr &flat,
                                     const std::string &what) {
        size_t n = ext.size();
        auto fail = [&](const std::string &why) {
            unsupported("the " + what + ": the allocation " + name + " has " + std::to_string(n) + " dimensions of extents " +
                        str_list(ext) + ": " + why);
        };
        int j = -1;
        for (size_t k = 0; k + 1 < n; k++) {
            if (!as_const_int(ext[k])) {
                if (j >= 0) {
                    fail("more than one extent is not a constant");
                }
                j = (int)k;
            }
        }
        if (j < 0) {
            fail("every stride is a constant");
        }
        // sym: a variable of e_j of constant coefficient a.
        std::string sym;
        Expr a, b;
        std::set<std::string> vars = vars_of(ext[j]);
        for (const std::string &v : vars) {
            Linear parts;
            if (!split_linear(ext[j], {v}, &parts) || !parts.count(v)) {
                continue;
            }
            Expr coeff = simplify(parts[v]);
            if (as_const_int(coeff) && !is_const_zero(coeff)) {
                sym = v;
                a = coeff;
                b = parts.count("") ? simplify(parts[""]) : make_zero(Int(32));
                break;
            }
        }
        // Otherwise a term of the extent that is not linear, of which the
        // extent is a constant multiple plus a rest (8 * ((E - 1) / 8) + 8,
        // a vectorised producer's extent rounded up to whole vectors), or
        // the extent itself, max(A_.extent.1, 16) say, is the symbol: a
        // fresh variable stands for it in the index, and the cells read
        // the term again.
        Expr atom;
        if (sym.empty()) {
            sym = name + ".extent." + std::to_string(j) + "$atom";
            Expr whole = simplify(substitute(lets_, ext[j]));
            atom = nonlinear_atom(whole, Variable::make(Int(32), sym), &a, &b);
            if (!atom.defined()) {
                atom = whole;
                a = make_one(Int(32));
                b = make_zero(Int(32));
            }
        }
        Expr symv = Variable::make(Int(32), sym);
        // sym may be a let in scope: the index keeps it unexpanded, and
        // reads it where other lets expanded it; so does the rest b of the
        // extent, which then cancels against the index's.
        Expr e;
        auto sl = lets_.find(sym);
        std::map<std::string, Expr> others = lets_;
        others.erase(sym);
        b = simplify(substitute(others, b));
        if (atom.defined()) {
            e = simplify(substitute(atom, symv, simplify(substitute(lets_, flat))));
        } else if (sl != lets_.end()) {
            e = simplify(substitute(sl->second, symv, substitute(others, flat)));
        } else {
            e = simplify(substitute(lets_, flat));
        }
        Linear parts;
        if (!split_linear(e, {sym}, &parts)) {
            fail("its flat index " + str(e) + " is not linear in " + sym);
        }
        Expr p0 = parts.count("") ? parts[""] : make_zero(Int(32));
        Expr p1 = parts.count(sym) ? simplify(parts[sym]) : make_zero(Int(32));
        int64_t pconst = 1;
        for (int k = 0; k < j; k++) {
            pconst *= *as_const_int(ext[k]);
        }
        Expr P = make_const(Int(32), pconst);
        Expr H = simplify(p1 / (P * a));
        if (!is_const_zero(simplify(H * P * a - p1))) {
            fail("the coefficient " + str(p1) + " of " + sym + " in its flat index is not a multiple of " + str(simplify(P * a)));
        }
        Expr L = simplify(p0 - P * b * H);
        if (has_product(L)) {
            // A product the simplifier did not cancel (it does not
            // distribute b * H): L = p0 - P * b * H as polynomials over
            // atoms, where it does (b = 8 - min(E, 14) / 2 times H in p0
            // and in P * b * H alike).
            PolyAtoms pa;
            Poly lp = pa.of(simplify(p0));
            poly_add(&lp, poly_mul(pa.of(P * b), pa.of(H)), -1);
            L = pa.to_expr(lp);
        }
        auto low = [&](std::vector<Expr> *cells, const Expr &lo) {
            int64_t stride = 1;
            for (int k = 0; k <= j; k++) {
                Expr c = k == 0 ? lo : simplify(lo / make_const(Int(32), stride));
                (*cells)[k] = k < j ? simplify(c % ext[k]) : c;
                if (k < j) {
                    stride *= *as_const_int(ext[k]);
                }
            }
        };
        std::vector<Expr> cells(n);
        low(&cells, L);
        Expr cj = cells[j];
        for (int i = 0; i < 4; i++) {
            if (can_prove(cj < 0)) {
                cj = simplify(cj + ext[j]);
                H = simplify(H - 1);
            } else if (can_prove(cj >= ext[j])) {
                cj = simplify(cj - ext[j]);
                H = simplify(H + 1);
            } else {
                break;
            }
        }
        cells[j] = cj;
        int64_t stride = 1;
        for (size_t k = j + 1; k < n; k++) {
            Expr c = k == (size_t)j + 1 ? H : simplify(H / make_const(Int(32), stride));
            cells[k] = k + 1 < n ? simplify(c % ext[k]) : c;
            if (k + 1 < n) {
                stride *= *as_const_int(ext[k]);
            }
        }
        if (atom.defined()) {
            for (Expr &c : cells) {
                c = simplify(substitute(sym, atom, c));
            }
        }
        return cells;
    }

    // const_strides are, by dimension, the strides of a buffer of several
    // dimensions that its flat index does not read as variables because
    // its parameter's constraints fix them to positive constants (Halide's
    // set_stride, which the simplifier substituted into the index; Halide
    // checks them: the kernel lists those checks as assumed), 0 for the
    // others; dimension 0's is 1 unless constrained otherwise. Empty where
    // no dimension but 0 has such a stride, or dimension 0's is not 1.
    static std::vector<int64_t> const_strides(const Layout &l, const Linear &parts, const Parameter &param) {
        if (!param.defined() || l.stride_syms.size() < 2 || param.dimensions() != (int)l.stride_syms.size()) {
            return {};
        }
        Expr c0 = param.stride_constraint(0);
        if (parts.count(l.stride_syms[0]) || (c0.defined() && !is_const_one(simplify(c0)))) {
            return {};
        }
        std::vector<int64_t> out{1};
        bool any = false;
        for (size_t k = 1; k < l.stride_syms.size(); k++) {
            Expr c = param.stride_constraint((int)k);
            const int64_t *v = c.defined() ? as_const_int(simplify(c)) : nullptr;
            bool fixed = v && *v > 0 && !parts.count(l.stride_syms[k]);
            out.push_back(fixed ? *v : 0);
            any = any || fixed;
        }
        return any ? out : std::vector<int64_t>{};
    }

    // buffer_cells are the cells of the flat index e (its lets expanded)
    // of the buffer of layout l: e = rest + sum_k parts_k * b.stride.k,
    // linear in the stride variables it reads, gives those dimensions'
    // cells parts_k; rest, free of them, is dimension 0's (stride 1), or,
    // where the constraints fix some strides to constants (see
    // const_strides), split among dimension 0 and those by
    // const_stride_cells, so that rest == sum_k c_k * stride_k
    // identically.
    std::vector<Expr> buffer_cells(const Layout &l, const Expr &e, const std::string &name, const std::string &what,
                                   const Parameter &param) {
        size_t n = l.extents.size();
        std::vector<Expr> cells(n, make_zero(Int(32)));
        std::set<std::string> syms(l.stride_syms.begin(), l.stride_syms.end());
        Linear parts;
        if (!split_linear(e, syms, &parts)) {
            unsupported("the " + what + ": its flat index " + str(e) + " is not linear in the strides of " + name);
        }
        Expr rest = parts.count("") ? parts[""] : make_zero(Int(32));
        for (size_t k = 0; k < n; k++) {
            auto it = parts.find(l.stride_syms[k]);
            if (it != parts.end()) {
                cells[k] = it->second;
                if (k > 0) {
                    strided.insert(l.stride_syms[k]);
                }
            }
        }
        std::vector<int64_t> cs = const_strides(l, parts, param);
        if (!cs.empty()) {
            std::vector<int64_t> strides;
            std::vector<size_t> dims;
            for (size_t k = 0; k < n; k++) {
                if (cs[k] > 0) {
                    strides.push_back(cs[k]);
                    dims.push_back(k);
                }
            }
            std::vector<Expr> c = const_stride_cells(rest, strides);
            for (size_t i = 0; i < dims.size(); i++) {
                cells[dims[i]] = c[i];
            }
        } else if (parts.count(l.stride_syms[0])) {
            // No stride constraint on dimension 0: nothing may be left over.
            if (!is_const_zero(simplify(rest))) {
                unsupported("the " + what + ": its flat index " + str(e) + " is not a combination of the strides of " + name);
            }
        } else {
            cells[0] = rest;  // stride 0 is 1 (Halide's default constraint)
        }
        return cells;
    }

    // facts_ are the conditions of the ifs around the statement being
    // translated (an else's negated), their lets expanded.
    std::vector<Expr> facts_;

    Stmt visit(const IfThenElse *op) override {
        Expr c = mutate(op->condition);
        Expr fact = simplify(substitute(lets_, op->condition));
        facts_.push_back(fact);
        Stmt then_case = mutate(op->then_case);
        facts_.pop_back();
        Stmt else_case;
        if (op->else_case.defined()) {
            facts_.push_back(simplify(!fact));
            else_case = mutate(op->else_case);
            facts_.pop_back();
        }
        return IfThenElse::make(c, then_case, else_case);
    }

    // fixed reports whether v is a variable no statement binds: a buffer's
    // field or a scalar parameter, so that the facts about it hold
    // wherever they are in scope.
    bool fixed(const Variable *v) const {
        return p_.field_param.count(v->name) || (v->param.defined() && !v->param.is_buffer());
    }

    // fact_bounds narrows [*lo, *hi] by the bounds the facts put on the
    // variable v: their conjuncts c <= v, c < v, v <= c, v < c, v == c
    // (c a constant), negated or not.
    void fact_bounds(const std::string &v, int64_t *lo, int64_t *hi) const {
        std::vector<Expr> todo = facts_;
        while (!todo.empty()) {
            Expr f = todo.back();
            todo.pop_back();
            bool neg = false;
            if (const Not *n = f.as<Not>()) {
                f = n->a;
                neg = true;
            }
            const And *conj = f.as<And>();
            if (conj && !neg) {
                todo.push_back(conj->a);
                todo.push_back(conj->b);
                continue;
            }
            Expr a, b;
            bool strict = false, eq = false;
            if (const LE *x = f.as<LE>()) {
                a = x->a, b = x->b;
            } else if (const LT *x = f.as<LT>()) {
                a = x->a, b = x->b, strict = true;
            } else if (const GE *x = f.as<GE>()) {
                a = x->b, b = x->a;
            } else if (const GT *x = f.as<GT>()) {
                a = x->b, b = x->a, strict = true;
            } else if (const EQ *x = f.as<EQ>(); x && !neg) {
                a = x->a, b = x->b, eq = true;
            } else {
                continue;
            }
            if (neg) {  // !(a <= b) is b < a, !(a < b) is b <= a
                std::swap(a, b);
                strict = !strict;
            }
            const int64_t *ca = as_const_int(a), *cb = as_const_int(b);
            const Variable *va = a.as<Variable>(), *vb = b.as<Variable>();
            if (ca && vb && vb->name == v) {
                *lo = std::max(*lo, *ca + (strict ? 1 : 0));
                *hi = eq ? std::min(*hi, *ca) : *hi;
            }
            if (cb && va && va->name == v) {
                *hi = std::min(*hi, *cb - (strict ? 1 : 0));
                *lo = eq ? std::max(*lo, *cb) : *lo;
            }
        }
    }

    // decided is the operand that max(a, b) (is_max) or min(a, b) equals
    // wherever the facts hold, one operand a constant c and the other a
    // fixed variable v whose bounds the facts decide against c, or
    // undefined.
    Expr decided(const Expr &a, const Expr &b, bool is_max) const {
        const int64_t *c = as_const_int(b);
        Expr x = a;
        if (!c) {
            c = as_const_int(a);
            x = b;
        }
        const Variable *v = x.as<Variable>();
        if (!c || !v || !fixed(v)) {
            return Expr();
        }
        int64_t lo = std::numeric_limits<int64_t>::min(), hi = std::numeric_limits<int64_t>::max();
        fact_bounds(v->name, &lo, &hi);
        if (lo >= *c) {
            return is_max ? x : make_const(x.type(), *c);
        }
        if (hi <= *c) {
            return is_max ? make_const(x.type(), *c) : x;
        }
        return Expr();
    }

    // refine rewrites, in e (its lets expanded), each max or min that the
    // facts decide (see decided) into the operand it equals where the
    // statement being translated is: the result equals e there.
    Expr refine(const Expr &e) const {
        class Refine : public IRMutator {
        public:
            explicit Refine(const Unflatten *u)
                : u_(u) {
            }

        private:
            using IRMutator::visit;
            const Unflatten *u_;
            Expr visit(const Max *op) override {
                Expr a = mutate(op->a), b = mutate(op->b), d = u_->decided(a, b, true);
                return d.defined() ? d : Max::make(a, b);
            }
            Expr visit(const Min *op) override {
                Expr a = mutate(op->a), b = mutate(op->b), d = u_->decided(a, b, false);
                return d.defined() ? d : Min::make(a, b);
            }
        } r(this);
        return facts_.empty() ? e : simplify(r.mutate(e));
    }

    // refined_extents rewrites the extents ext, their lets expanded, by
    // refine where that changes any: an allocation's extent max(E, 16)
    // that the simplifier wrote E in the accesses of a branch where
    // 256 <= E, say. The strides they make are then the allocation's
    // there, and the index, refined alike, equals the final statement's.
    bool refined_extents(std::vector<Expr> *ext) const {
        std::vector<Expr> out;
        bool changed = false;
        for (const Expr &x : *ext) {
            Expr full = simplify(substitute(lets_, x)), r = refine(full);
            changed = changed || !equal(r, full);
            out.push_back(r);
        }
        if (changed) {
            *ext = out;
        }
        return changed;
    }

    // allocation_cells are the cells of the flat index flat0 (e0, its
    // lets expanded) of the allocation name of layout l, its strides the
    // products of its extents in its storage order (those the facts of
    // the ifs around refine, the index refined alike): constant ones cut
    // e Euclid's way; one symbolic extent below the last is
    // symbolic_cells' case, more (or one symbolic_cells cannot split)
    // poly_cells'.
    std::vector<Expr> allocation_cells(const std::string &name, const Layout &l, const Expr &e0, const Expr &flat0,
                                       const std::string &what) {
        size_t n = l.extents.size();
        std::vector<int> order = l.order;
        if (order.size() != n) {
            order.clear();
            for (size_t k = 0; k < n; k++) {
                order.push_back((int)k);
            }
        }
        std::vector<Expr> ext;  // in storage order
        for (int k : order) {
            ext.push_back(l.extents[k]);
        }
        Expr e = e0, flat = flat0;
        if (refined_extents(&ext)) {
            e = refine(e0);
            flat = e;
        }
        std::vector<Expr> strides{make_one(Int(32))};
        int symbolic = 0;
        for (size_t k = 1; k < n; k++) {
            strides.push_back(simplify(strides.back() * ext[k - 1]));
            symbolic += as_const_int(ext[k - 1]) ? 0 : 1;
        }
        std::vector<Expr> cs(n), cells(n);
        if (symbolic == 0) {
            std::vector<int64_t> ce;  // the last extent, which may be symbolic, is not read
            for (size_t k = 0; k < n; k++) {
                const int64_t *c = as_const_int(ext[k]);
                ce.push_back(c ? *c : 0);
            }
            Scope<Interval> bounds;  // the simplifier reads a scope's own entries only
            for (auto it = loop_bounds_.cbegin(); it != loop_bounds_.cend(); ++it) {
                bounds.push(it.name(), it.value());
            }
            if (lane_.defined()) {
                bounds.push(lane_.as<Variable>()->name, Interval(make_zero(Int(32)), make_const(Int(32), lanes_ - 1)));
            }
            cs = euclid_cells(e, ce, bounds);
        } else {
            std::string why;
            if (symbolic == 1) {
                try {
                    cs = symbolic_cells(name, ext, flat, what);
                } catch (const Unsupported &u) {
                    why = u.what();
                }
            }
            if (symbolic > 1 || !why.empty()) {
                std::vector<Expr> full;
                for (const Expr &x : ext) {
                    full.push_back(simplify(substitute(lets_, x)));
                }
                std::string pwhy;
                cs = poly_cells(e, full, &pwhy);
                if (cs.empty()) {
                    unsupported("the " + what + ": the allocation " + name + " of extents " + str_list(ext) +
                                " (in storage order): " + pwhy + (why.empty() ? "" : "; and " + why));
                }
            }
        }
        for (size_t k = 0; k < n; k++) {
            cells[order[k]] = cs[k];
        }
        return cells;
    }

    // coords are the func coordinates of the flat index e of the array
    // name (see the file's comment).
    std::vector<Expr> coords(const std::string &name, const Expr &flat, const std::string &what,
                             const Parameter &param = Parameter()) {
        Layout l = layout(name, what);
        Expr e = simplify(substitute(lets_, flat));
        for (size_t k = 0; l.buffer && param.defined() && param.dimensions() == (int)l.mins.size() && k < l.mins.size();
             k++) {
            // A min its parameter's constraints fix (Halide checks it)
            // is a constant in the flat index.
            Expr c = param.min_constraint((int)k);
            if (c.defined() && as_const_int(simplify(c))) {
                l.mins[k] = simplify(c);
            }
        }
        size_t n = l.extents.size();
        std::vector<Expr> cells(n);
        if (n == 0) {
            if (!is_const_zero(e)) {
                unsupported("the " + what + ": a 0-dimensional array at index " + str(e));
            }
        } else if (l.buffer) {
            cells = buffer_cells(l, e, name, what, param);
        } else {
            cells = allocation_cells(name, l, e, flat, what);
        }
        // The identity e == sum_k c_k * S_k holds by construction; the
        // simplifier double-checks it where it can.
        std::vector<Expr> out;
        for (size_t k = 0; k < n; k++) {
            out.push_back(simplify(cells[k] + l.mins[k]));
        }
        if (lane_.defined() && expr_uses_var(e, lane_.as<Variable>()->name)) {
            return lane_coords(name, flat, what, param, out);
        }
        return out;
    }

    // loop_bounds_ are the ranges of the loops around the statement being
    // translated whose min and extent are constants (see euclid_cells).
    Scope<Interval> loop_bounds_;

    // The loop over a vector store's lanes being translated (see
    // store_rerolled): its variable, undefined outside, and its extent.
    Expr lane_;
    int lanes_ = 0;

    // lane_coords are the coordinates of an access at flat index flat,
    // which reads the variable lane_ of a loop over the lanes: out, as
    // coords finds them, simplified within the lanes' range, or else, as
    // at the shifted tail of a row where the delinearisation borrows an
    // extent only at a constant lane, those at lane 0 plus the lane times
    // their difference between lanes 1 and 0. Either is taken only where
    // it is, at each lane i, provably the coordinates the flat index at
    // lane i alone gives, as the translation lane by lane finds them;
    // where neither is, the store is given up to lane by lane (Reroll).
    std::vector<Expr> lane_coords(const std::string &name, const Expr &flat, const std::string &what,
                                  const Parameter &param, std::vector<Expr> out) {
        const std::string v = lane_.as<Variable>()->name;
        Scope<Interval> range;
        range.push(v, Interval(make_zero(Int(32)), make_const(Int(32), lanes_ - 1)));
        for (Expr &c : out) {
            c = simplify(c, true, range);
        }
        Expr lane = lane_;
        lane_ = Expr();
        std::vector<std::vector<Expr>> alone;
        try {
            for (int i = 0; i < lanes_; i++) {
                alone.push_back(coords(name, substitute(v, make_const(Int(32), i), flat), what, param));
            }
        } catch (...) {
            lane_ = lane;
            throw;
        }
        lane_ = lane;
        auto agrees = [&](const std::vector<Expr> &cand) {
            for (int i = 0; i < lanes_; i++) {
                for (size_t k = 0; k < cand.size(); k++) {
                    if (!can_prove(substitute(v, make_const(Int(32), i), cand[k]) == alone[i][k])) {
                        return false;
                    }
                }
            }
            return true;
        };
        if (agrees(out)) {
            return out;
        }
        std::vector<Expr> step;
        for (size_t k = 0; lanes_ > 1 && k < out.size(); k++) {
            step.push_back(simplify(alone[0][k] + lane * simplify(alone[1][k] - alone[0][k])));
        }
        if (lanes_ > 1 && agrees(step)) {
            return step;
        }
        throw Reroll();
    }

    Stmt visit(const LetStmt *op) override {
        if (const Call *c = op->value.as<Call>()) {
            if (c->is_extern() && starts_with(c->name, "_halide_buffer_get_")) {
                // The unpacking of a buffer's fields: the kernel has them as
                // parameters (mins, extents) or nothing (the rest).
                return mutate(op->body);
            }
        }
        if (op->value.type().is_bool() && op->value.type().is_scalar()) {
            // A condition: the kernel has no boolean lets; it is
            // substituted into the ifs that test it.
            return mutate(substitute(op->name, op->value, op->body));
        }
        if (op->value.type().is_vector()) {
            // Substituted into the stores it feeds, which are split into
            // lanes.
            vlets_[op->name] = substitute(vlets_, op->value);
            Stmt body = mutate(op->body);
            vlets_.erase(op->name);
            if (stmt_uses_var(body, op->name)) {
                unsupported("the vector " + op->name + " = " + str(op->value) + ", used other than by a store");
            }
            return body;
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

    // realization is the region of the realization of name before
    // flattening that the allocation in scope here comes from, its mins
    // in the final statement's variables (a rebased loop's variable read
    // as the rebased one plus its own min). A func realized several times
    // before flattening (in the branches of a specialization, say) takes
    // the region a marker carried to this allocation (marked_region), or
    // else is realized at the same region in each, or in one region
    // whose variables are all in scope here: any other case is rejected.
    // The mins only name the cells: every access in the allocation is
    // delinearised to cells independent of them and read at cell plus
    // min, one value of the min throughout, so the kernel's memory is
    // the final statement's whatever the mins. They are checked like
    // everything else in the kernel: a store at mins shifted from
    // Halide's is annotated at the wrong coordinates.
    Region realization(const std::string &name) {
        auto r = realized_.find(name);
        if (r == realized_.end() || r->second.empty()) {
            unsupported("the allocation " + name + ": it is not realized before flattening, where the translation takes its mins");
        }
        std::vector<Region> found;
        for (const Region &cand : r->second) {
            Region m;
            bool in_scope = true;
            for (const Range &b : cand) {
                m.emplace_back(simplify(substitute(rebased_, b.min)), simplify(substitute(rebased_, b.extent)));
                in_scope = in_scope && in_final_scope(m.back().min);
            }
            if (!in_scope && r->second.size() > 1) {
                continue;
            }
            bool seen = false;
            for (const Region &f : found) {
                bool same = f.size() == m.size();
                for (size_t k = 0; same && k < m.size(); k++) {
                    same = equal(f[k].min, m[k].min) && equal(f[k].extent, m[k].extent);
                }
                seen = seen || same;
            }
            if (!seen) {
                found.push_back(m);
            }
        }
        if (found.size() != 1) {
            std::ostringstream o;
            o << "the allocation " << name << ": it is realized " << r->second.size() << " times before flattening, at "
              << found.size() << " different regions in scope here, where the translation takes its mins (one is needed)"
              << (hints.why.count(name) ? hints.why.at(name) : "");
            unsupported(o.str());
        }
        return found[0];
    }

    // marked_region is the region a marker carried to the allocation op
    // (see region_hints), where every variable it reads is in scope here,
    // so that it has one value throughout the allocation's body. It
    // returns false where there is none.
    bool marked_region(const Allocate *op, Region *out) {
        size_t k = allocated_[op->name]++;
        auto h = hints.at.find(op->name);
        if (h == hints.at.end() || k >= h->second.size() || !h->second[k]) {
            return false;
        }
        for (const Range &b : *h->second[k]) {
            if (!in_final_scope(b.min) || !in_final_scope(b.extent)) {
                hints.why[op->name] = " (the region its marker carried, " + str(b.min) + ", reads a variable not in scope)";
                return false;
            }
        }
        *out = *h->second[k];
        return true;
    }

    // unrolled_copy recovers, for an allocation in a copy of an unrolled
    // loop's body, the values of the unrolled loops' variables that the
    // realization's region reads and the final statement no longer has:
    // unroll_loops made copy i of a loop (v, m, n) the body with v = m + i,
    // the copies in order, so that the k-th allocation of the array in
    // its loop body (CopyOrdinals), of N = n_1 * ... * n_j for the j
    // unrolled loops around the realization, is in the copy of digits
    // k % N in base (n_1, ..., n_j), the outermost loop first. The
    // allocation is then bound in lets of those variables, so that its
    // mins, and the stage coordinates its stores are annotated at, read
    // them. The lets change no value the final statement computes: it
    // reads none of those variables. A wrong recovery shifts the
    // coordinates the stores are annotated at, which the validator
    // checks as any other, so it cannot make the kernel VALID. Nothing is
    // recovered (an empty list) where the region reads no such variable
    // or the copies do not number a multiple of N.
    std::vector<std::pair<std::string, Expr>> unrolled_copy(const Allocate *op) {
        auto r = realized_.find(op->name);
        auto a = unrolled_.around.find(op->name);
        auto c = copies_.find(op);
        if (r == realized_.end() || r->second.size() != 1 || a == unrolled_.around.end() || a->second.size() != 1 ||
            c == copies_.end()) {
            return {};
        }
        bool vanished = false;
        for (const Range &b : r->second[0]) {
            vanished = vanished || !in_final_scope(substitute(rebased_, b.min)) ||
                       !in_final_scope(substitute(rebased_, b.extent));
        }
        std::vector<std::string> vs;
        std::vector<int64_t> ns;
        int64_t total = 1;
        for (const std::string &v : a->second[0]) {
            auto l = unrolled_.loops.find(v);
            if (loops_.count(v) || lets_.count(v) || l == unrolled_.loops.end() || l->second.size() != 1) {
                continue;
            }
            vs.push_back(v);
            ns.push_back(l->second[0].second);
            total *= l->second[0].second;
        }
        if (!vanished || vs.empty() || total <= 0 || c->second.second % total != 0) {
            return {};
        }
        int64_t k = c->second.first % total;
        std::vector<int64_t> digit(vs.size());
        for (size_t i = vs.size(); i-- > 0;) {
            digit[i] = k % ns[i];
            k /= ns[i];
        }
        std::vector<std::pair<std::string, Expr>> out;
        std::map<std::string, Expr> outer;
        for (size_t i = 0; i < vs.size(); i++) {
            Expr m = simplify(substitute(outer, substitute(rebased_, unrolled_.loops.at(vs[i])[0].first)));
            if (!in_final_scope(m)) {
                return {};
            }
            Expr v = simplify(m + make_const(Int(32), digit[i]));
            outer[vs[i]] = v;
            out.emplace_back(vs[i], v);
        }
        return out;
    }

    // lane_widened reads an allocation vectorize_loops widened (op, its
    // region before flattening rb, its storage order order; see Layout)
    // as the realization of the union of its lanes' regions. A
    // realization inside a vectorized loop is, before flattening, one per
    // lane, its mins reading the loop's variable v; vectorize_loops gives
    // each lane its own copy, innermost: cell i of lane l at flat index
    // i * L + l, L the lanes (src/VectorizeLoops.cpp at tag v14.0.0,
    // Allocate and RewriteAccessToVectorAlloc, the lane l = v - its loop's
    // min). Where exactly one dimension j's min reads v, as v plus a rest
    // free of it, and j's extent is 1 (an inline reduction's scalar
    // realization, nl_means's sum), the lanes' regions are disjoint:
    // lane l's is dimension j's coordinate rest + m + l, m v's min, and
    // the copies together are the realization of extent L in j, from
    // rest + m, stored with j innermost (stride 1, the lane) and the
    // other dimensions in their order, each stride L times the lane's
    // copy's. rb and order become that region and order. It returns false
    // with why saying which condition fails, and rb and order untouched,
    // where the allocation is not such a widening. The region only names
    // the cells (see realization): a wrong one shifts the annotations,
    // which the validator checks, and every flat cell is one cell of the
    // kernel's array of L times the extents' product whatever it is.
    bool lane_widened(const Allocate *op, Region *rb, std::vector<int> *order, std::string *why) {
        int64_t total = 1, product = 1;
        for (const Expr &e : op->extents) {
            const int64_t *c = as_const_int(e);
            if (!c) {
                return false;
            }
            total *= *c;
        }
        for (const Range &b : *rb) {
            const int64_t *c = as_const_int(b.extent);
            if (!c) {
                return false;
            }
            product *= *c;
        }
        if (product <= 0 || total <= product || total % product != 0) {
            return false;
        }
        int64_t lanes = total / product;
        std::set<std::string> vs;
        for (const Range &b : *rb) {
            for (const Expr &e : {b.min, b.extent}) {
                for (const std::string &w : vars_of(e)) {
                    if (vectorized_.count(w) && !loops_.count(w) && !lets_.count(w)) {
                        vs.insert(w);
                    }
                }
            }
        }
        if (vs.size() != 1) {
            *why = "its region before flattening reads " + std::to_string(vs.size()) +
                   " vectorized loop variables (one, in one dimension's min, is needed)";
            return false;
        }
        const std::string v = *vs.begin();
        int j = -1;
        for (size_t k = 0; k < rb->size(); k++) {
            bool in_min = vars_of((*rb)[k].min).count(v) > 0, in_extent = vars_of((*rb)[k].extent).count(v) > 0;
            if (in_extent || (in_min && j >= 0)) {
                *why = "its region before flattening reads the vectorized loop variable " + v +
                       " in more than one min or in an extent";
                return false;
            }
            j = in_min ? (int)k : j;
        }
        const Range &bj = (*rb)[j];
        Expr var = Variable::make(Int(32), v);
        Expr step = simplify(substitute(v, var + 1, bj.min) - bj.min);
        auto m = loop_mins_.find(v);
        if (!is_const_one(step) || !is_const_one(bj.extent) || m == loop_mins_.end() || m->second.size() != 1) {
            *why = "its min " + str(bj.min) + " is not " + v + " plus a rest, at extent 1, of a loop of one min";
            return false;
        }
        Expr lo = simplify(substitute(v, simplify(substitute(rebased_, m->second[0])), bj.min));
        if (!in_final_scope(lo)) {
            *why = "its min at the first lane, " + str(lo) + ", reads a variable not in scope";
            return false;
        }
        std::vector<int> base = *order;
        if (base.size() != rb->size()) {
            base.clear();
            for (size_t k = 0; k < rb->size(); k++) {
                base.push_back((int)k);
            }
        }
        std::vector<int> widened{j};
        for (int k : base) {
            if (k != j) {
                widened.push_back(k);
            }
        }
        (*rb)[j] = Range(lo, make_const(Int(32), lanes));
        *order = widened;
        return true;
    }

    // collapsed_extents are the extents of an allocation of several
    // dimensions that bound_small_allocations made one, a constant upper
    // bound of their product: the realization's extents rb, whose strides
    // are the ones storage flattening used. Constant ones must multiply to
    // that size exactly (a storage alignment would round them up); others
    // must be in scope, and the kernel's bounds checks keep every cell
    // within their product, which the allocation holds. widened says why
    // lane_widened did not read it as a widening, if it did not.
    std::vector<Expr> collapsed_extents(const Allocate *op, const Region &rb, const std::string &widened) {
        std::string why;
        const int64_t *total = op->extents.size() == 1 ? as_const_int(op->extents[0]) : nullptr;
        if (total) {
            int64_t product = 1;
            bool constant = true, in_scope = true;
            std::vector<Expr> out;
            for (const Range &b : rb) {
                const int64_t *c = as_const_int(b.extent);
                constant = constant && c;
                product *= c ? *c : 1;
                in_scope = in_scope && in_final_scope(b.extent);
                out.push_back(c ? make_const(Int(32), *c) : b.extent);
            }
            if ((constant && *total == product) || (!constant && in_scope)) {
                return out;
            }
            why = constant ? ", not the product of its " + std::to_string(rb.size()) + " extents before"
                           : ", whose extents before are not in scope";
            if (constant && product > 0 && *total > product && *total % product == 0) {
                // vectorize_loops widens a realization inside a vectorized
                // loop by its lanes, each lane its own cells (index *
                // lanes + lane): the kernel's array, of the func's
                // dimensions, has one cell where the lanes have several.
                why = "; its " + std::to_string(*total) + " cells are " + std::to_string(*total / product) +
                      " times the product of its extents before: a realization inside a vectorized loop, which "
                      "vectorize_loops widens to one copy per lane, is translated only as the union of its lanes' "
                      "regions" + (widened.empty() ? std::string() : ", and " + widened);
            }
        }
        unsupported("the allocation " + op->name + ": " + std::to_string(op->extents.size()) + " extents after flattening, " +
                    std::to_string(rb.size()) + " dimensions before" + why);
        return {};
    }

    Stmt visit(const Allocate *op) override {
        if (op->new_expr.defined()) {
            unsupported("the allocation " + op->name + " with a custom allocator (new_expr)");
        }
        if (op->type.is_vector()) {
            unsupported("the allocation " + op->name + " of vectors");
        }
        std::vector<std::pair<std::string, Expr>> copy = unrolled_copy(op);
        for (const auto &kv : copy) {
            lets_[kv.first] = kv.second;
        }
        Region rb;
        if (!marked_region(op, &rb)) {
            rb = realization(op->name);
        }
        std::vector<Expr> extents = op->extents;
        std::vector<int> order = storage_order(op->name);
        std::string widened;
        if (rb.size() != extents.size() && lane_widened(op, &rb, &order, &widened)) {
            extents.clear();
            for (const Range &b : rb) {
                extents.push_back(b.extent);
            }
        } else if (rb.size() != extents.size()) {
            extents = collapsed_extents(op, rb, widened);
        }
        Layout l;
        l.type = op->type;
        Region bounds;
        for (size_t k = 0; k < rb.size(); k++) {
            l.mins.push_back(rb[k].min);
            l.extents.push_back(extents[k]);
            bounds.emplace_back(rb[k].min, extents[k]);
        }
        l.order = order;
        allocs_[op->name].push_back(l);
        Stmt body = mutate(op->body);
        allocs_[op->name].pop_back();
        // The condition (skip_stages') and the memory type change nothing
        // in the kernel model: the array is allocated unconditionally.
        Stmt r = Realize::make(op->name, {op->type}, op->memory_type, bounds, const_true(), body);
        for (auto it = copy.rbegin(); it != copy.rend(); ++it) {
            lets_.erase(it->first);
            r = LetStmt::make(it->first, it->second, r);
        }
        return r;
    }

    // A loop of constant min and extent puts its variable's range in
    // loop_bounds_ for its body.
    Stmt visit(const For *op) override {
        const int64_t *lo = as_const_int(op->min), *ext = as_const_int(op->extent);
        bool ranged = lo && ext && *ext > 0;
        if (ranged) {
            loop_bounds_.push(op->name, Interval(op->min, make_const(Int(32), *lo + *ext - 1)));
        }
        Stmt s = visit_loop(op);
        if (ranged) {
            loop_bounds_.pop(op->name);
        }
        return s;
    }

    // rebased_value is r's value of v in the variables in scope: r's lets
    // that are not in scope expanded, or undefined.
    Expr rebased_value(const RebasedLoop &r) {
        Expr e = r.value;
        for (int i = 0; i < 64 && !in_final_scope(e); i++) {
            std::map<std::string, Expr> sub;
            for (const std::string &w : vars_of(e)) {
                auto l = r.lets.find(w);
                if (l != r.lets.end() && !in_final_scope(Variable::make(Int(32), w))) {
                    sub[w] = l->second;
                }
            }
            if (sub.empty()) {
                break;
            }
            e = substitute(sub, e);
        }
        return in_final_scope(e) ? simplify(e) : Expr();
    }

    // A loop rebase_loops_to_zero rebased, for (v.rebased, 0, n), had
    // started at its own min m: v = v.rebased + m there, and realization
    // bounds before flattening that read v read that. Each part that
    // partition_loops split off a loop starts at its own min (the
    // prologue at the loop's min before flattening, the steady state and
    // the epilogue where the part before ends): rebased_at gives it,
    // where it reads only variables in scope, else the loop's one min
    // before flattening stands for it.
    Stmt visit_loop(const For *op) {
        const std::string &n = op->name;
        std::string v = rebased_var(n);
        Expr val;  // v's value in the loop, when it is a rebased one
        loops_[n]++;
        if (!v.empty()) {
            auto m = loop_mins_.find(v);
            if (auto r = rebased_at.find(op); r != rebased_at.end() && r->second.value.defined()) {
                val = rebased_value(r->second);
            }
            if (!val.defined() && m != loop_mins_.end() && m->second.size() == 1) {
                val = Variable::make(Int(32), n) + m->second[0];
            }
        }
        if (val.defined()) {
            rebased_[v] = val;
        }
        Stmt s = IRMutator::visit(op);
        bool in_scope = val.defined() && in_final_scope(val);
        loops_[n]--;
        if (loops_[n] == 0) {
            loops_.erase(n);
        }
        if (!val.defined()) {
            return s;
        }
        rebased_.erase(v);
        // Halide's rebase_loops_to_zero defined v = v.rebased + m in the
        // body, which the simplifier then substituted away: the let is
        // restored, where m reads only variables in scope and v is an
        // RVar's coordinate, so that the stores of its stage find it in
        // scope again.
        const For *f = s.as<For>();
        if (f && is_rvar_coord(v) && in_scope && !loops_.count(v) && !lets_.count(v)) {
            Stmt body = LetStmt::make(v, val, f->body);
            s = For::make(f->name, f->min, f->extent, f->for_type, f->device_api, body);
        }
        return s;
    }

    Stmt visit(const Free *) override {
        return Evaluate::make(0);
    }

    Stmt visit(const Store *op) override {
        std::string what = "store to " + op->name;
        if (p_.buffer_index.count(op->name) && p_.buffers[p_.buffer_index.at(op->name)].output) {
            outputs_stored.insert(op->name);
        }
        ReduceLanes rl;
        if (!op->value.type().is_vector()) {
            if (!is_const_one(op->predicate)) {
                unsupported("the " + what + ": a predicated scalar store");
            }
            std::vector<Expr> args = coords(op->name, op->index, what, op->param);
            Stmt st = Provide::make(op->name, {mutate(rl.mutate(substitute(vlets_, op->value)))}, args, const_true());
            return folded_coords(op->name, rvar_coords(op->name, Expr(), st, store_hint(op->name)));
        }
        // A vector store, lane by lane: every lane's value is computed
        // before any lane is stored, so storing lane after lane is the
        // same only when no lane reads what another lane writes: when
        // the value does not load from the array at all, or loads it only
        // at the store's own index, a ramp of non-zero stride (distinct
        // cells), each lane reading the one cell it writes (an update in
        // place, f[ramp] = f[ramp] + ...). Otherwise, the index still a
        // ramp of non-zero stride, the lanes are a par loop, whose
        // iterations all read the memory as it was before the loop, as
        // Halide's lanes do, and which the validator checks free of
        // races: no lane reads a cell another writes.
        LoadsFrom lf(op->name);
        Expr value = substitute(vlets_, op->value), index = substitute(vlets_, op->index),
             pred = substitute(vlets_, op->predicate);
        if (!is_const_one(pred)) {
            value = Unpredicated(pred).mutate(value);
        }
        value.accept(&lf);
        bool par = false;
        if (lf.found) {
            SelfLoads sl(op->name, index);
            value.accept(&sl);
            const Ramp *r = index.as<Ramp>();
            const int64_t *stride = r ? as_const_int(r->stride) : nullptr;
            if (!stride || *stride == 0) {
                unsupported("the " + what + ": a vector store whose value loads from the array it stores to, its index not a ramp of non-zero constant stride");
            }
            par = !sl.same;
        }
        std::map<std::string, Expr> hint = store_hint(op->name);
        Stmt s = store_rerolled(op, value, index, pred, hint, par);
        if (!s.defined() && par) {
            unsupported("the " + what + ": a vector store whose value loads from the array it stores to other than at its own index, and whose lanes are not one store in a loop over them");
        }
        if (!s.defined()) {
            s = store_lanes(op, value, index, pred, hint);
        }
        return folded_coords(op->name, s);
    }

    // store_lanes translates the vector store op (its value, index and
    // predicate, vector lets substituted) lane by lane: each lane a scalar
    // store of that lane (lane_of), under an if where its predicate is not
    // constant, the lanes in order, each of the stage of the first.
    Stmt store_lanes(const Store *op, const Expr &value, const Expr &index, const Expr &pred,
                     const std::map<std::string, Expr> &hint) {
        std::string what = "store to " + op->name;
        ReduceLanes rl;
        std::vector<Stmt> lanes;
        for (int i = 0; i < op->value.type().lanes(); i++) {
            Expr v = simplify(rl.mutate(lane_of(value, i)));
            std::vector<Expr> args = coords(op->name, lane_of(index, i), what + " (lane " + std::to_string(i) + ")", op->param);
            Stmt st = Provide::make(op->name, {mutate(v)}, args, const_true());
            Expr pi = lane_of(pred, i);
            if (!is_const_one(pi)) {
                // A predicated lane stores only where its predicate holds.
                st = IfThenElse::make(mutate(pi), st);
            }
            if (i > 0) {
                // The lanes are one store: of one stage (kernel.cpp).
                lanes.push_back(Evaluate::make(Call::make(Int(32), same_stage_marker, {StringImm::make(op->name)}, Call::Extern)));
            }
            lanes.push_back(rvar_coords(op->name, make_const(Int(32), i), st, hint));
        }
        return Block::make(lanes);
    }

    // store_rerolled translates the vector store op (its value, index and
    // predicate, vector lets substituted) as one scalar store in a loop
    // over its n lanes, for op.name@lane in [0, n) ('@' is in no Halide
    // name), its value, index and predicate those at the loop's variable
    // (lane_at), under an if where the predicate is not constant. Halide's
    // vector store computes every lane's value before it stores any; a
    // loop storing lane after lane, in order (LLVM's and Halide's order
    // of the lanes), is the same where no lane reads what another writes:
    // unless par, the caller has checked that the value reads the array
    // it stores to at most at the store's own index (each lane reads the
    // cell it writes); with par, the loop is a par loop, each lane reading
    // the memory as it was before any lane stored, and the validator's
    // race check proves that no lane reads a cell another writes. Every access's coordinates are checked, lane by lane,
    // equal to those of the translation lane by lane (lane_coords), and
    // RVar coordinates are those at the lane (rvar_coords), so that each
    // iteration is the store the translation lane by lane makes of that
    // lane. Undefined where a lane is not expressible at a symbolic lane
    // or a check fails: the caller then translates the store lane by lane.
    Stmt store_rerolled(const Store *op, const Expr &value, const Expr &index, const Expr &pred,
                        const std::map<std::string, Expr> &hint, bool par) {
        int n = op->value.type().lanes();
        std::string name = op->name + "@lane";
        Expr lane = Variable::make(Int(32), name);
        Expr v = lane_at(value, lane, buffer_strides_, lets_), i = lane_at(index, lane, buffer_strides_, lets_),
             p = lane_at(pred, lane, buffer_strides_, lets_);
        if (!v.defined() || !i.defined() || !p.defined() || lane_.defined() || loops_.count(name) || lets_.count(name)) {
            return Stmt();
        }
        std::map<std::string, Expr> lets = lets_;
        std::set<std::string> was_strided = strided;
        lane_ = lane;
        lanes_ = n;
        loops_[name]++;
        Stmt s;
        try {
            ReduceLanes rl;
            std::vector<Expr> args = coords(op->name, i, "store to " + op->name, op->param);
            Stmt st = Provide::make(op->name, {mutate(simplify(rl.mutate(v)))}, args, const_true());
            if (!is_const_one(p)) {
                st = IfThenElse::make(mutate(p), st);
            }
            s = For::make(name, 0, n, par ? ForType::Parallel : ForType::Serial, DeviceAPI::None,
                          rvar_coords(op->name, lane, st, hint));
        } catch (const Reroll &) {
            s = Stmt();
        } catch (const Unsupported &) {
            // The translation lane by lane says why, if it fails too.
            s = Stmt();
        }
        if (!s.defined()) {
            lets_ = lets;
            strided = was_strided;
        }
        lane_ = Expr();
        loops_.erase(name);
        return s;
    }

    Expr visit(const Load *op) override {
        std::string what = "load of " + op->name;
        if (op->type.is_vector() || op->index.type().is_vector()) {
            unsupported("the " + what + ": a vector load (" + str(op->index) + ") other than in a vector store's value");
        }
        if (!is_const_one(op->predicate)) {
            unsupported("the " + what + ": a predicated load");
        }
        std::vector<Expr> args = coords(op->name, op->index, what, op->param);
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
    std::map<std::string, std::vector<Expr>> loop_mins;
    std::map<std::string, std::vector<Expr>> let_values;  // every let's value, expanded, by name

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
        let_values[op->name].push_back(simplify(lets_[op->name]));
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
        unrolled.around[op->name].push_back(around_);
        IRVisitor::visit(op);
    }
    void visit(const For *op) override {
        Expr m = simplify(substitute(lets_, op->min));
        loop_mins[op->name].push_back(m);
        if (op->for_type == ForType::Vectorized) {
            vectorized.insert(op->name);
        }
        const int64_t *n = as_const_int(simplify(substitute(lets_, op->extent)));
        bool unroll = op->for_type == ForType::Unrolled && n;
        if (unroll) {
            unrolled.loops[op->name].emplace_back(m, *n);
            around_.push_back(op->name);
        }
        IRVisitor::visit(op);
        if (unroll) {
            around_.pop_back();
        }
    }
    std::vector<std::string> around_;  // the unrolled loops around, outermost first

public:
    std::set<std::string> vectorized;  // the vectorized loops' variables
    Unrolled unrolled;
};

// Plant plants a miscompilation in the final statement (see
// augur::translate), for tests of the translation's soundness.
class Plant : public IRMutator {
public:
    Plant(const Pipeline_ &p, const std::string &kind)
        : p_(p), kind_(kind) {
    }
    bool done = false;

private:
    using IRMutator::visit;
    const Pipeline_ &p_;
    std::string kind_;
    std::map<std::string, Expr> lets_;

    Stmt plant_lanes(const Store *op);
    Stmt plant_lane_stride(const Store *op);

    Stmt visit(const LetStmt *op) override {
        const Call *c = op->value.as<Call>();
        if (c && c->is_extern() && starts_with(c->name, "_halide_buffer_get_")) {
            return IRMutator::visit(op);
        }
        lets_[op->name] = substitute(lets_, op->value);
        Stmt s = IRMutator::visit(op);
        lets_.erase(op->name);
        return s;
    }
    std::map<std::string, int> symbolic_;  // the allocations in scope: how many extents are not constants
    std::vector<std::string> loops_;       // the loop variables in scope, the outermost first

    Stmt visit(const Allocate *op) override {
        int n = 0;
        for (const Expr &e : op->extents) {
            n += as_const_int(simplify(e)) ? 0 : 1;
        }
        symbolic_[op->name] = n;
        Stmt s = IRMutator::visit(op);
        symbolic_.erase(op->name);
        return s;
    }
    Stmt visit(const For *op) override {
        loops_.push_back(op->name);
        Stmt s = IRMutator::visit(op);
        loops_.pop_back();
        return s;
    }
    // plant_astride plants, in the first scalar store to an allocation
    // with two or more extents that are not constants, the stride of the
    // outermost loop variable whose coefficient in its index is not a
    // constant one too large.
    Stmt plant_astride(const Store *op) {
        auto a = symbolic_.find(op->name);
        if (a == symbolic_.end() || a->second < 2 || op->value.type().is_vector()) {
            return IRMutator::visit(op);
        }
        Expr idx = simplify(substitute(lets_, op->index));
        for (const std::string &v : loops_) {
            Linear parts;
            if (split_linear(idx, {v}, &parts) && parts.count(v) && !as_const_int(simplify(parts[v]))) {
                done = true;
                idx = idx + Variable::make(Int(32), v);
                return Store::make(op->name, op->value, idx, op->param, op->predicate, op->alignment);
            }
        }
        return IRMutator::visit(op);
    }
    // plant_aoffset plants, in the first store to an allocation whose
    // extents are all constants (aoffset), or two or more of them not
    // constants (soffset), an index one element too far.
    Stmt plant_aoffset(const Store *op) {
        auto a = symbolic_.find(op->name);
        if (a == symbolic_.end() || (kind_ == "aoffset" ? a->second != 0 : a->second < 2)) {
            return IRMutator::visit(op);
        }
        done = true;
        Expr idx = substitute(lets_, op->index);
        return Store::make(op->name, op->value, idx + make_one(idx.type()), op->param, op->predicate, op->alignment);
    }
    // visit(Load), for lstride, plants in the first load of an input
    // buffer whose constraints fix the stride of a dimension other than 0
    // the stride of the innermost loop around it one too large.
    Expr visit(const Load *op) override {
        if (kind_ != "lstride" || done || loops_.empty() || !op->param.defined() || !op->param.is_buffer() ||
            op->type.is_vector()) {
            return IRMutator::visit(op);
        }
        bool fixed = false;
        for (int k = 1; k < op->param.dimensions(); k++) {
            Expr c = op->param.stride_constraint(k);
            fixed = fixed || (c.defined() && as_const_int(simplify(c)));
        }
        if (!fixed) {
            return IRMutator::visit(op);
        }
        done = true;
        Expr idx = substitute(lets_, op->index) + Variable::make(Int(32), loops_.back());
        return Load::make(op->type, op->name, idx, op->image, op->param, op->predicate, ModulusRemainder());
    }
    Stmt visit(const Store *op) override {
        if (kind_ == "lstride") {
            return IRMutator::visit(op);
        }
        if (kind_ == "astride") {
            return done ? IRMutator::visit(op) : plant_astride(op);
        }
        if (kind_ == "aoffset" || kind_ == "soffset") {
            return done ? IRMutator::visit(op) : plant_aoffset(op);
        }
        auto b = p_.buffer_index.find(op->name);
        if (done || kind_ == "epilogue" || b == p_.buffer_index.end() || !p_.buffers[b->second].output) {
            return IRMutator::visit(op);
        }
        if (kind_ == "lane-dup" || kind_ == "lane-drop" || kind_ == "predicate") {
            return plant_lanes(op);
        }
        if (kind_ == "lane-stride") {
            return plant_lane_stride(op);
        }
        done = true;
        Expr idx = substitute(lets_, op->index);
        if (kind_ == "stride") {
            std::string s = op->name + ".stride.1";
            idx = substitute(s, Variable::make(Int(32), s) + 1, idx);
        } else {
            idx = idx + make_one(idx.type());
        }
        return Store::make(op->name, op->value, idx, op->param, op->predicate, op->alignment);
    }
};

// plant_lanes plants a miscompilation in the lanes of a vector store to
// an output (with predicate: a predicated one): its last lane stores
// the value of the lane before it (lane-dup), its last lane is not
// stored (lane-drop), or each lane stores where the lane before it may
// (predicate: one lane past the stored ones).
Stmt Plant::plant_lanes(const Store *op) {
    int n = op->value.type().lanes();
    if (n < 2 || (kind_ == "predicate" && is_const_one(op->predicate))) {
        return IRMutator::visit(op);
    }
    done = true;
    std::vector<int> lanes(n);
    for (int i = 0; i < n; i++) {
        lanes[i] = i;
    }
    Expr value = op->value, pred = op->predicate;
    if (kind_ == "lane-dup") {
        lanes[n - 1] = n - 2;
        value = Shuffle::make({value}, lanes);
    } else if (kind_ == "lane-drop") {
        pred = pred && Ramp::make(0, 1, n) < n - 1;
    } else {
        for (int i = 1; i < n; i++) {
            lanes[i] = i - 1;
        }
        pred = pred || Shuffle::make({pred}, lanes);
    }
    return Store::make(op->name, value, op->index, op->param, pred, op->alignment);
}

// plant_lane_stride plants a miscompilation in a vector store to an
// output: each vector load in its value at a ramp of stride 1 reads at a
// ramp of stride 2, so that lane i reads i elements too far.
Stmt Plant::plant_lane_stride(const Store *op) {
    class Stride : public IRMutator {
    public:
        bool done = false;

    private:
        using IRMutator::visit;
        Expr visit(const Load *l) override {
            const Ramp *r = l->index.as<Ramp>();
            if (!r || !is_const_one(r->stride) || r->base.type().is_vector()) {
                return IRMutator::visit(l);
            }
            done = true;
            return Load::make(l->type, l->name, Ramp::make(r->base, make_const(r->stride.type(), 2), r->lanes), l->image,
                              l->param, l->predicate, ModulusRemainder());
        }
    } st;
    if (!op->value.type().is_vector()) {
        return IRMutator::visit(op);
    }
    Expr value = st.mutate(op->value);
    if (!st.done) {
        return IRMutator::visit(op);
    }
    done = true;
    return Store::make(op->name, value, op->index, op->param, op->predicate, op->alignment);
}

// LastTail finds the last innermost if without else around a store.
class LastTail : public IRVisitor {
public:
    const IfThenElse *found = nullptr;

private:
    int count_ = 0;
    using IRVisitor::visit;
    void visit(const IfThenElse *op) override {
        int before = count_;
        IRVisitor::visit(op);
        if (count_ != before) {
            return;  // an inner one is innermost
        }
        class HasStore : public IRVisitor {
        public:
            bool yes = false;

        private:
            using IRVisitor::visit;
            void visit(const Store *) override {
                yes = true;
            }
        } hs;
        op->then_case.accept(&hs);
        if (!op->else_case.defined() && hs.yes) {
            found = op;
            count_++;
        }
    }
};

// DropIf drops the if which, or with late, starts the outermost loop
// inside it one iteration late.
class DropIf : public IRMutator {
public:
    DropIf(const IfThenElse *which, bool late)
        : which_(which), late_(late) {
    }
    bool done = false;

private:
    using IRMutator::visit;
    const IfThenElse *which_;
    bool late_;
    bool inside_ = false;
    Stmt visit(const IfThenElse *op) override {
        if (op != which_) {
            return IRMutator::visit(op);
        }
        if (!late_) {
            done = true;
            return Evaluate::make(0);
        }
        inside_ = true;
        Stmt s = IRMutator::visit(op);
        inside_ = false;
        return s;
    }
    Stmt visit(const For *op) override {
        if (!inside_ || done) {
            return IRMutator::visit(op);
        }
        done = true;
        return For::make(op->name, op->min + 1, op->extent - 1, op->for_type, op->device_api, op->body);
    }
};

// ShiftCopy plants a miscompilation in one allocation of an array
// (target): within it, each load of an input buffer reads one element
// further.
class ShiftCopy : public IRMutator {
public:
    ShiftCopy(const Pipeline_ &p, const Allocate *target)
        : p_(p), target_(target) {
    }
    bool done = false;

private:
    using IRMutator::visit;
    const Pipeline_ &p_;
    const Allocate *target_;
    bool inside_ = false;

    Stmt visit(const Allocate *op) override {
        if (done || inside_ || op != target_) {
            return IRMutator::visit(op);
        }
        inside_ = true;
        Stmt s = IRMutator::visit(op);
        inside_ = false;
        done = true;
        return s;
    }
    Expr visit(const Load *op) override {
        auto b = p_.buffer_index.find(op->name);
        if (!inside_ || b == p_.buffer_index.end() || p_.buffers[b->second].output) {
            return IRMutator::visit(op);
        }
        Expr one = make_one(op->index.type());
        return Load::make(op->type, op->name, mutate(op->index) + one, op->image, op->param, mutate(op->predicate),
                          ModulusRemainder());
    }
};

// copy_target is the allocation ShiftCopy plants in: for copy, the first
// second allocation of an array within one loop body (a copy of an
// unrolled loop's body); for repeat, the last allocation of an array the
// statement allocates several times (a specialization's second branch, a
// partitioned loop's epilogue). Null where there is none.
const Allocate *copy_target(const Stmt &s, const std::string &kind) {
    if (kind == "copy") {
        CopyOrdinals co;
        s.accept(&co);
        co.finish();
        class First : public IRVisitor {
        public:
            explicit First(const std::map<const Allocate *, std::pair<int, int>> &at)
                : at_(at) {
            }
            const Allocate *found = nullptr;

        private:
            using IRVisitor::visit;
            const std::map<const Allocate *, std::pair<int, int>> &at_;
            void visit(const Allocate *op) override {
                auto c = at_.find(op);
                if (!found && c != at_.end() && c->second.first == 1) {
                    found = op;
                }
                IRVisitor::visit(op);
            }
        } first(co.at);
        s.accept(&first);
        return first.found;
    }
    class All : public IRVisitor {
    public:
        std::vector<const Allocate *> order;
        std::map<std::string, int> count;

    private:
        using IRVisitor::visit;
        void visit(const Allocate *op) override {
            order.push_back(op);
            count[op->name]++;
            IRVisitor::visit(op);
        }
    } all;
    s.accept(&all);
    for (auto it = all.order.rbegin(); it != all.order.rend(); ++it) {
        if (all.count[(*it)->name] > 1) {
            return *it;
        }
    }
    return nullptr;
}

// LaneRace plants a race between the lanes of a vector store: in the
// first vector store whose value loads the array it stores to at the
// store's own index, a ramp, that load reads one cell further, so that
// each lane but the last reads the cell the next lane writes (which
// Halide's vector store reads before storing any lane).
class LaneRace : public IRMutator {
public:
    bool done = false;

private:
    using IRMutator::visit;
    const Store *store_ = nullptr;
    Expr visit(const Load *l) override {
        const Ramp *r = l->index.as<Ramp>();
        if (!store_ || l->name != store_->name || !r || !equal(l->index, store_->index)) {
            return IRMutator::visit(l);
        }
        done = true;
        return Load::make(l->type, l->name, Ramp::make(r->base + 1, r->stride, r->lanes), l->image, l->param,
                          l->predicate, ModulusRemainder());
    }
    Stmt visit(const Store *op) override {
        if (done || !op->value.type().is_vector() || !op->index.as<Ramp>()) {
            return IRMutator::visit(op);
        }
        store_ = op;
        Expr value = mutate(op->value);
        store_ = nullptr;
        if (!done) {
            return IRMutator::visit(op);
        }
        return Store::make(op->name, value, op->index, op->param, op->predicate, op->alignment);
    }
};

// LaneCopy plants a read of one lane's copy of a realization that
// vectorize_loops widened to one copy per lane from another lane's cells:
// in the first vector store to another array whose value loads an
// allocation of n cells at ramp(0, 1, n) (lane l reads its own copy,
// cell l), that load reads at ramp(n - 1, -1, n), lane l from lane
// n - 1 - l's copy.
class LaneCopy : public IRMutator {
public:
    bool done = false;

private:
    using IRMutator::visit;
    std::map<std::string, int64_t> cells_;  // the allocations in scope of constant extents: their cells
    const Store *store_ = nullptr;
    Stmt visit(const Allocate *op) override {
        int64_t n = 1;
        for (const Expr &e : op->extents) {
            const int64_t *c = as_const_int(e);
            n = c && n > 0 ? n * *c : 0;
        }
        cells_[op->name] = n;
        Stmt s = IRMutator::visit(op);
        cells_.erase(op->name);
        return s;
    }
    Expr visit(const Load *l) override {
        const Ramp *r = l->index.as<Ramp>();
        auto c = cells_.find(l->name);
        if (done || !store_ || l->name == store_->name || !r || c == cells_.end() || c->second != r->lanes ||
            !is_const_zero(r->base) || !is_const_one(r->stride)) {
            return IRMutator::visit(l);
        }
        done = true;
        Type t = r->base.type();
        return Load::make(l->type, l->name, Ramp::make(make_const(t, r->lanes - 1), make_const(t, -1), r->lanes), l->image,
                          l->param, l->predicate, ModulusRemainder());
    }
    Stmt visit(const Store *op) override {
        if (done || !op->value.type().is_vector()) {
            return IRMutator::visit(op);
        }
        store_ = op;
        Expr value = mutate(op->value);
        store_ = nullptr;
        if (!done) {
            return IRMutator::visit(op);
        }
        return Store::make(op->name, value, op->index, op->param, op->predicate, op->alignment);
    }
};

Stmt plant_in(const Pipeline_ &p, const Stmt &s, const std::string &kind) {
    if (kind == "lane-copy") {
        LaneCopy lc;
        Stmt out = lc.mutate(s);
        if (!lc.done) {
            throw std::invalid_argument("--plant lane-copy: the final statement has no vector store loading another array's per-lane copies at ramp(0, 1, n)");
        }
        return out;
    }
    if (kind == "lane-race") {
        LaneRace lr;
        Stmt out = lr.mutate(s);
        if (!lr.done) {
            throw std::invalid_argument("--plant lane-race: the final statement has no vector store loading the array it stores to at its own index");
        }
        return out;
    }
    if (kind == "epilogue" || kind == "late") {
        LastTail lt;
        s.accept(&lt);
        if (!lt.found) {
            throw std::invalid_argument("--plant " + kind + ": the final statement has no if without else around a store");
        }
        DropIf d(lt.found, kind == "late");
        Stmt out = d.mutate(s);
        if (!d.done) {
            throw std::invalid_argument("--plant late: the last tail has no loop");
        }
        return out;
    }
    if (kind == "copy" || kind == "repeat") {
        ShiftCopy sc(p, copy_target(s, kind));
        Stmt out = sc.mutate(s);
        if (!sc.done) {
            throw std::invalid_argument("--plant " + kind + ": the final statement allocates no array twice" +
                                        (kind == "copy" ? " in one loop body" : ""));
        }
        return out;
    }
    bool lanes = kind == "lane-dup" || kind == "lane-drop" || kind == "predicate" || kind == "lane-stride";
    if (kind != "stride" && kind != "offset" && kind != "astride" && kind != "aoffset" && kind != "soffset" && kind != "lstride" &&
        !lanes) {
        throw std::invalid_argument("unknown planted miscompilation " + kind +
                                    ": want stride, offset, astride, aoffset, soffset, lstride, epilogue, late, lane-dup, lane-drop, lane-stride, lane-race, lane-copy, predicate, copy or repeat");
    }
    Plant pl(p, kind);
    Stmt out = pl.mutate(s);
    if (!pl.done) {
        std::string what = kind == "predicate" ? "no predicated vector store" : lanes ? "no vector store" : "no store";
        if (kind == "lstride") {
            throw std::invalid_argument("--plant lstride: the final statement has no scalar load in a loop of an input buffer with a stride fixed by a constraint");
        }
        if (kind == "astride") {
            throw std::invalid_argument("--plant astride: the final statement has no scalar store to an allocation with two extents that are not constants");
        }
        if (kind == "aoffset") {
            throw std::invalid_argument("--plant aoffset: the final statement has no store to an allocation of constant extents");
        }
        if (kind == "soffset") {
            throw std::invalid_argument("--plant soffset: the final statement has no store to an allocation with two extents that are not constants");
        }
        throw std::invalid_argument("--plant " + kind + ": the final statement has " + what + " to an output buffer");
    }
    return out;
}

// overflow_notes reports where a flat index may overflow int32 (Clément
// 2022, section 9.5). Halide computes a buffer's flat index in int32 as
// (x_k - min_k) * stride_k summed, but after simplification as
// x_k * stride_k - min_k * stride_k: its checks bound |extent_k *
// stride_k| (halide_error_buffer_allocation_too_large), so the offset
// from the min fits, but not the products of the absolute coordinates and
// the strides, which wrap when a buffer's min is far from 0. The kernel
// does not model the wrap: its header lists each such stride, and
// index_checks (overflow.cpp) writes the conditions that no index
// overflows, which augur halide --validate decides.
std::vector<std::string> overflow_notes(const std::set<std::string> &strided) {
    std::vector<std::string> out;
    for (const std::string &s : strided) {
        out.push_back(s + " times an absolute coordinate (not bounded by Halide's checks unless the min is 0)");
    }
    return out;
}

// Counts counts the allocations of and the stores to each array.
class Counts : public IRVisitor {
public:
    std::map<std::string, size_t> allocs, stores;

private:
    using IRVisitor::visit;
    void visit(const Allocate *op) override {
        allocs[op->name]++;
        IRVisitor::visit(op);
    }
    void visit(const Store *op) override {
        stores[op->name]++;
        IRVisitor::visit(op);
    }
};

// marked_lowering lowers l to its final statement again, with the
// markers of MarkRegions, and collects what they carry; false where
// Halide's passes reject the marked statement.
bool marked_lowering(const Lowered &l, const Target &t, const std::set<std::string> &names,
                     const std::map<std::string, std::set<std::string>> &rvars, MarkedRegions *mr) {
    Lowered m = l;
    MarkRegions mark(names, rvars);
    m.s = mark.mutate(l.s);
    try {
        lower_final(m, t).accept(mr);
    } catch (const std::exception &) {
        return false;
    }
    return true;
}

// marked_funcs are the funcs whose realizations region_hints marks: those
// realized several times before flattening (in the branches of a
// specialization), and those realized once but allocated more times in
// the final statement fin (counts), where partition_loops copied the
// loop body around the realization into an epilogue and the simplifier
// substituted the loop's variable, of one iteration there, by its value,
// so that the region before flattening reads a variable the epilogue no
// longer has. A func realized once inside unrolled loops is left to
// Unflatten::unrolled_copy, which recovers the unrolled variables from the
// copies' ordinals.
std::set<std::string> marked_funcs(const RealizeBounds &rb, const Counts &counts) {
    std::set<std::string> names;
    for (const auto &kv : rb.bounds) {
        auto a = counts.allocs.find(kv.first);
        size_t allocated = a == counts.allocs.end() ? 0 : a->second;
        bool unrolled = false;
        auto u = rb.unrolled.around.find(kv.first);
        for (size_t i = 0; u != rb.unrolled.around.end() && i < u->second.size(); i++) {
            unrolled = unrolled || !u->second[i].empty();
        }
        if (kv.second.size() > 1 || (allocated > kv.second.size() && !unrolled)) {
            names.insert(kv.first);
        }
    }
    return names;
}

// marked_coords are, by func, the coordinates region_hints marks before
// each of its stores: those of its update stages' RVars, and those of
// its folded dimensions (a func of one stage) that have no let before
// flattening (the variables of loops that partition_loops may split and
// rebase_loops_to_zero rebase, see Unflatten::folded_dims).
std::map<std::string, std::set<std::string>> marked_coords(const Pipeline_ &p, const Lowered &l, const RealizeBounds &rb) {
    std::map<std::string, std::set<std::string>> out;
    for (const auto &kv : p.funcs) {
        for (const Stage &st : kv.second.stages) {
            for (size_t i = kv.second.f.args().size(); i < st.coords.size(); i++) {
                out[kv.first].insert(st.coords[i]);
            }
        }
        auto fo = l.folded.find(kv.first);
        if (fo == l.folded.end() || kv.second.stages.size() != 1) {
            continue;
        }
        const Stage &st = kv.second.stages[0];
        for (int d : fo->second) {
            if (d < (int)st.coords.size() && !rb.let_values.count(st.coords[d])) {
                out[kv.first].insert(st.coords[d]);
            }
        }
    }
    return out;
}

// region_hints finds, for the allocations of fin (Halide's final
// statement, planted or not) of the funcs marked_funcs picks, the
// realization each comes from, and for the stores of
// funcs with RVars, the values of their RVar coordinates. It lowers l
// again, each such realization marked with its region and each such
// store with its coordinates (MarkRegions): the final passes carry the
// markers with the body they copy (unrolling, loop partitioning,
// specialization branches) and substitute into them what they
// substitute into the accesses. The k-th allocation of an array in fin
// takes the region the marker of the k-th one of the marked statement
// carries, and the k-th store the coordinates of the marker last before
// the k-th one, where both statements have as many. The second lowering
// need not be the first exactly (the passes' fresh names differ): what
// it gives is only a hint, checked as the rest of the kernel is (see
// Unflatten::realization and rvar_coords).
RegionHints region_hints(const Pipeline_ &p, const Lowered &l, const Target &t, const Stmt &fin) {
    RegionHints out;
    RealizeBounds rb;
    l.s.accept(&rb);
    Counts count;
    fin.accept(&count);
    std::set<std::string> names = marked_funcs(rb, count);
    std::map<std::string, std::set<std::string>> rvars = marked_coords(p, l, rb);
    MarkedRegions mr;
    if ((names.empty() && rvars.empty()) || !marked_lowering(l, t, names, rvars, &mr)) {
        return out;
    }
    for (const auto &kv : mr.coords) {
        if (kv.second.size() == count.stores[kv.first]) {
            out.coords[kv.first] = kv.second;
        }
    }
    for (const std::string &name : names) {
        auto r = mr.regions.find(name);
        size_t marked = r == mr.regions.end() ? 0 : r->second.size(), n = count.allocs[name];
        if (n == 0) {
            continue;
        }
        if (marked != n) {
            out.why[name] = " (lowered with its realizations marked, the final statement allocates it " + std::to_string(marked) +
                            " times, not " + std::to_string(n) + ")";
            continue;
        }
        for (const auto &reg : r->second) {
            if (!reg) {
                out.why[name] = " (no marker of its region reached one of its allocations)";
            }
        }
        out.at[name] = r->second;
    }
    return out;
}

// RebasedFors lists the loops v.rebased of a statement, by name, in
// pre-order.
class RebasedFors : public IRVisitor {
public:
    std::map<std::string, std::vector<const For *>> loops;

private:
    using IRVisitor::visit;
    void visit(const For *op) override {
        if (!rebased_var(op->name).empty()) {
            loops[op->name].push_back(op);
        }
        IRVisitor::visit(op);
    }
};

// rebased_values gives each loop v.rebased of the final statement fin the
// value of v in it that rebase_loops_to_zero defined (see RebasedLoops),
// the k-th loop of a name the k-th one rebased, where the passes after
// rebase_loops_to_zero kept as many loops of that name. The value is a
// hint, checked as the rest of the kernel is.
std::map<const For *, RebasedLoop> rebased_values(const Stmt &fin, const RebasedLoops &rebased) {
    RebasedFors rf;
    fin.accept(&rf);
    std::map<const For *, RebasedLoop> out;
    for (const auto &kv : rf.loops) {
        auto r = rebased.find(kv.first);
        if (r == rebased.end() || r->second.size() != kv.second.size()) {
            continue;
        }
        for (size_t k = 0; k < kv.second.size(); k++) {
            out[kv.second[k]] = r->second[k];
        }
    }
    return out;
}

// unflatten rewrites the final statement (see Unflatten) and lists in
// assumed what the delinearisation assumes of the output buffers, and in
// overflow where int32 indices may overflow.
Stmt unflatten(const Pipeline_ &p, const Lowered &l, const Stmt &final_stmt, const RegionHints &hints,
               const RebasedLoops &rebased, std::vector<std::string> *assumed, std::vector<std::string> *overflow) {
    RealizeBounds rb;
    l.s.accept(&rb);
    CopyOrdinals co;
    final_stmt.accept(&co);
    co.finish();
    Unflatten u(p, rb.bounds, rb.loop_mins, rb.let_values, l.folded, rb.vectorized, rb.unrolled, co.at);
    u.hints = hints;
    u.rebased_at = rebased_values(final_stmt, rebased);
    Stmt s = u.mutate(final_stmt);
    *overflow = overflow_notes(u.strided);
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

std::string final_sched_text(Pipeline_ &p, const Lowered &l, const std::string &name, const Target &t,
                             const std::string &plant, std::string *checks) {
    RebasedLoops rebased;
    Stmt fin = lower_final(l, t, &rebased);
    if (!plant.empty()) {
        fin = plant_in(p, fin, plant);
    }
    if (checks) {
        *checks = index_checks(fin, t);
    }
    RegionHints hints = region_hints(p, l, t, fin);
    std::vector<std::string> assumed, overflow;
    Stmt s = unflatten(p, l, fin, hints, rebased, &assumed, &overflow);
    std::string text = sched_text(p, s, l.folded, name, t, true);
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
    if (!overflow.empty()) {
        head << "# Checked apart (index.json, augur halide --validate): int32 flat indices multiply\n";
        for (const std::string &o : overflow) {
            head << "#   " << o << "\n";
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
