// Index overflow (Clément 2022, section 9.5): the verification conditions
// that every integer an index of the final statement computes stays
// within its type.
//
// Halide 14 computes a flat index in the type of Int(32) (Int(64) with
// the large_buffers feature) and leaves its overflow undefined. For every
// Load and Store of the final statement, index_checks lists, as one
// obligation, the index's arithmetic (each Add, Sub and Mul, and each lane
// of a Ramp, of the index and of the lets it reads, as the statement
// writes them) and the facts that hold where the access runs: the loops'
// ranges, the conditions of the ifs around it, its predicate, the values
// of the lets in scope, the assertions that precede it (Halide's checks
// on the buffers) and the size checks code generation puts before each
// allocation around it. The obligation holds when no point of those facts puts
// a term outside its type. The obligations are written as JSON for the Go
// side, which decides them with Z3 (frontend/halide/overflow.go). A
// translation of a fact is exact or the fact is left out (the domain then
// wider: a proof stays sound, a witness is marked approximate); an index
// term that cannot be translated leaves the obligation undecided.
#include "emit_internal.h"

#include <optional>
#include <sstream>

namespace augur {
namespace detail {

namespace {

// json_string quotes s as a JSON string.
std::string json_string(const std::string &s) {
    std::string out = "\"";
    for (char c : s) {
        switch (c) {
        case '"':
            out += "\\\"";
            break;
        case '\\':
            out += "\\\\";
            break;
        case '\n':
            out += "\\n";
            break;
        case '\t':
            out += "\\t";
            break;
        default:
            if ((unsigned char)c < 0x20) {
                char buf[8];
                snprintf(buf, sizeof buf, "\\u%04x", c);
                out += buf;
            } else {
                out += c;
            }
        }
    }
    return out + "\"";
}

// one_line is e printed on one line.
std::string one_line(const Expr &e) {
    std::ostringstream o;
    o << e;
    std::string s = o.str();
    for (char &c : s) {
        if (c == '\n') {
            c = ' ';
        }
    }
    return s;
}

// smt_int writes the integer v in SMT-LIB (negative numbers as (- n)).
std::string smt_int(int64_t v) {
    if (v < 0) {
        // -v overflows for INT64_MIN: write it through uint64.
        return "(- " + std::to_string((uint64_t)0 - (uint64_t)v) + ")";
    }
    return std::to_string(v);
}

std::string smt_uint(uint64_t v) {
    return std::to_string(v);
}

// type_range is the fact that the integer x is a value of type t.
std::string type_range(const std::string &x, const Type &t) {
    if (t.is_uint()) {
        return "(and (<= 0 " + x + ") (<= " + x + " " + smt_uint(t.bits() >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << t.bits()) - 1) + "))";
    }
    int64_t lo = t.bits() >= 64 ? INT64_MIN : -((int64_t)1 << (t.bits() - 1));
    int64_t hi = t.bits() >= 64 ? INT64_MAX : ((int64_t)1 << (t.bits() - 1)) - 1;
    return "(and (<= " + smt_int(lo) + " " + x + ") (<= " + x + " " + smt_int(hi) + "))";
}

// magnitude bounds log2 of |e|'s exact value from the types of its
// leaves (|e| <= 2^magnitude): below 63, e's exact arithmetic cannot
// leave Int(64).
int magnitude(const Expr &e) {
    if (e.as<Variable>()) {
        return e.type().is_int() ? e.type().bits() - 1 : e.type().bits();
    }
    if (const IntImm *i = e.as<IntImm>()) {
        int b = 0;
        for (uint64_t v = i->value < 0 ? (uint64_t)0 - (uint64_t)i->value : (uint64_t)i->value; v; v >>= 1) {
            b++;
        }
        return b;
    }
    if (const UIntImm *u = e.as<UIntImm>()) {
        int b = 0;
        for (uint64_t v = u->value; v; v >>= 1) {
            b++;
        }
        return b;
    }
    if (const Cast *c = e.as<Cast>()) {
        return std::min(magnitude(c->value), c->type.bits());
    }
    if (e.as<Let>()) {
        return e.type().bits();
    }
    if (const Add *a = e.as<Add>()) {
        return std::max(magnitude(a->a), magnitude(a->b)) + 1;
    }
    if (const Sub *a = e.as<Sub>()) {
        return std::max(magnitude(a->a), magnitude(a->b)) + 1;
    }
    if (const Mul *a = e.as<Mul>()) {
        return magnitude(a->a) + magnitude(a->b);
    }
    if (const Min *a = e.as<Min>()) {
        return std::max(magnitude(a->a), magnitude(a->b));
    }
    if (const Max *a = e.as<Max>()) {
        return std::max(magnitude(a->a), magnitude(a->b));
    }
    if (const Div *a = e.as<Div>()) {
        return magnitude(a->a);
    }
    if (const Mod *a = e.as<Mod>()) {
        return magnitude(a->b);
    }
    if (const Call *c = e.as<Call>()) {
        if (c->is_intrinsic(Call::abs) || c->is_intrinsic(Call::likely) || c->is_intrinsic(Call::likely_if_innermost)) {
            return magnitude(c->args[0]) + (c->is_intrinsic(Call::abs) ? 1 : 0);
        }
    }
    return e.type().bits();
}

// Obligations collects the obligations of the accesses of a statement.
class Obligations : public IRVisitor {
public:
    explicit Obligations(const Target &t)
        : target_(t) {
    }
    std::ostringstream out;  // the JSON array's elements, comma-separated
    int count = 0;

private:
    using IRVisitor::visit;

    struct Var {
        std::string smt, halide, kind;  // kind: param, loop, let, lane
        Type type;
    };
    std::vector<Var> scope_;                 // the variables in scope, innermost last
    std::map<std::string, size_t> names_;    // Halide name -> index in scope_ (innermost binding)
    std::vector<std::string> facts_;         // the facts in scope
    std::vector<std::string> dropped_;       // the facts in scope left out (why)
    std::map<std::string, Expr> let_values_; // a scalar let's value, by Halide name
    std::map<std::string, Expr> vector_lets_;  // a vector let's value, by Halide name
    std::map<std::string, Var> params_;      // the free variables (parameters), by Halide name
    int fresh_ = 0;
    Target target_;
    std::string lane_;  // the lane variable of the access being translated, if a vector
    std::set<std::string> seen_;  // the obligations written, to write each once

    std::string fresh() {
        return "v" + std::to_string(fresh_++);
    }

    // bind puts the variable name in scope, as the SMT-LIB constant smt,
    // in its type's range when ranged.
    void bind(const std::string &name, const std::string &kind, const Type &t, const std::string &smt, bool ranged = true) {
        names_[name] = scope_.size();
        scope_.push_back(Var{smt, name, kind, t});
        if (ranged) {
            facts_.push_back(type_range(smt, t));
        }
    }

    // Mark is the state of the scope to restore when leaving a let, a
    // loop, a branch or an allocation.
    struct Mark {
        size_t scope, facts, dropped;
        std::map<std::string, size_t> names;
        std::map<std::string, Expr> lets, vlets;
    };
    Mark mark() const {
        return Mark{scope_.size(), facts_.size(), dropped_.size(), names_, let_values_, vector_lets_};
    }
    void restore(const Mark &m) {
        scope_.resize(m.scope);
        facts_.resize(m.facts);
        dropped_.resize(m.dropped);
        names_ = m.names;
        let_values_ = m.lets;
        vector_lets_ = m.vlets;
    }

    // var is the SMT name of the variable name, a parameter when not
    // bound (declared on first use, in its type's range).
    std::optional<std::string> var(const std::string &name, const Type &t) {
        auto it = names_.find(name);
        if (it != names_.end()) {
            return scope_[it->second].smt;
        }
        if (!t.is_int() && !t.is_uint()) {
            return std::nullopt;
        }
        auto p = params_.find(name);
        if (p == params_.end()) {
            p = params_.emplace(name, Var{fresh(), name, "param", t}).first;
        }
        return p->second.smt;
    }

    // int_type says whether t is an integer type the translation reads
    // exactly.
    static bool int_type(const Type &t) {
        return (t.is_int() || t.is_uint()) && t.bits() <= 64;
    }

    // tr_leaf translates e when it is a literal or a name: true with out
    // set (nothing when it cannot be read), false when e is neither.
    bool tr_leaf(const Expr &e, std::optional<std::string> &out) {
        if (const IntImm *i = e.as<IntImm>()) {
            out = smt_int(i->value);
            return true;
        }
        if (const UIntImm *u = e.as<UIntImm>()) {
            out = u->type.is_bool() ? (u->value ? "true" : "false") : smt_uint(u->value);
            return true;
        }
        const Variable *v = e.as<Variable>();
        if (!v) {
            return false;
        }
        out = std::nullopt;
        if (v->type.is_vector()) {
            auto it = vector_lets_.find(v->name);
            if (it != vector_lets_.end() && !lane_.empty()) {
                out = tr(it->second);
            }
        } else if (v->type.is_bool()) {
            auto it = let_values_.find(v->name);
            if (it != let_values_.end()) {
                out = tr(it->second);
            }
        } else if (int_type(v->type)) {
            out = var(v->name, v->type);
        }
        return true;
    }

    // tr_logic translates e when it is a comparison or a logical
    // operator: true with out set (nothing when an operand cannot be
    // read), false when e is none.
    bool tr_logic(const Expr &e, std::optional<std::string> &out) {
        auto bin = [&](const std::string &op, const Expr &a, const Expr &b) -> std::optional<std::string> {
            auto x = tr(a), y = tr(b);
            if (!x || !y) {
                return std::nullopt;
            }
            return "(" + op + " " + *x + " " + *y + ")";
        };
        if (const EQ *a = e.as<EQ>()) {
            out = bin("=", a->a, a->b);
            return true;
        }
        if (const NE *a = e.as<NE>()) {
            auto x = bin("=", a->a, a->b);
            out = x ? std::optional<std::string>("(not " + *x + ")") : std::nullopt;
            return true;
        }
        if (const LT *a = e.as<LT>()) {
            out = bin("<", a->a, a->b);
            return true;
        }
        if (const LE *a = e.as<LE>()) {
            out = bin("<=", a->a, a->b);
            return true;
        }
        if (const GT *a = e.as<GT>()) {
            out = bin(">", a->a, a->b);
            return true;
        }
        if (const GE *a = e.as<GE>()) {
            out = bin(">=", a->a, a->b);
            return true;
        }
        if (const And *a = e.as<And>()) {
            out = bin("and", a->a, a->b);
            return true;
        }
        if (const Or *a = e.as<Or>()) {
            out = bin("or", a->a, a->b);
            return true;
        }
        if (const Not *a = e.as<Not>()) {
            auto x = tr(a->a);
            out = x ? std::optional<std::string>("(not " + *x + ")") : std::nullopt;
            return true;
        }
        return false;
    }

    // tr translates e (at the lane lane_, a vector) into an SMT-LIB term
    // over the integers, exact; nothing when it cannot.
    std::optional<std::string> tr(const Expr &e) {
        std::optional<std::string> out;
        if (tr_leaf(e, out) || tr_logic(e, out)) {
            return out;
        }
        auto bin = [&](const std::string &op, const Expr &a, const Expr &b) -> std::optional<std::string> {
            auto x = tr(a), y = tr(b);
            if (!x || !y) {
                return std::nullopt;
            }
            return "(" + op + " " + *x + " " + *y + ")";
        };
        if (!e.type().is_bool() && !int_type(e.type())) {
            return std::nullopt;
        }
        if (const Let *l = e.as<Let>()) {
            // The simplifier's common subexpressions: the value in place
            // of the name (Halide's lets have no effects).
            return tr(substitute(l->name, l->value, l->body));
        }
        if ((e.as<Add>() || e.as<Sub>() || e.as<Mul>()) && !(e.type().is_int() && e.type().bits() >= 32)) {
            // Unsigned arithmetic, and signed arithmetic narrower than 32
            // bits, wrap in Halide: their exact reading is not their value.
            return std::nullopt;
        }
        if (const Add *a = e.as<Add>()) {
            return bin("+", a->a, a->b);
        }
        if (const Sub *a = e.as<Sub>()) {
            return bin("-", a->a, a->b);
        }
        if (const Mul *a = e.as<Mul>()) {
            return bin("*", a->a, a->b);
        }
        // A quotient or remainder (guarded: Halide's x / 0 and x % 0 are
        // 0), and a min or max (the operand the comparison picks).
        auto quotient = [&](const std::string &op, const Expr &a, const Expr &b) -> std::optional<std::string> {
            auto x = tr(a), y = tr(b);
            if (!x || !y || !e.type().is_int()) {
                return std::nullopt;
            }
            return "(ite (= " + *y + " 0) 0 (" + op + " " + *x + " " + *y + "))";
        };
        auto pick = [&](const std::string &cmp, const Expr &a, const Expr &b) -> std::optional<std::string> {
            auto x = tr(a), y = tr(b);
            if (!x || !y) {
                return std::nullopt;
            }
            return "(ite (" + cmp + " " + *x + " " + *y + ") " + *x + " " + *y + ")";
        };
        if (const Div *a = e.as<Div>()) {
            return quotient("div", a->a, a->b);
        }
        if (const Mod *a = e.as<Mod>()) {
            return quotient("mod", a->a, a->b);
        }
        if (const Min *a = e.as<Min>()) {
            return pick("<=", a->a, a->b);
        }
        if (const Max *a = e.as<Max>()) {
            return pick(">=", a->a, a->b);
        }
        if (const Select *s = e.as<Select>()) {
            auto c = tr(s->condition), x = tr(s->true_value), y = tr(s->false_value);
            if (!c || !x || !y) {
                return std::nullopt;
            }
            return "(ite " + *c + " " + *x + " " + *y + ")";
        }
        if (const Cast *c = e.as<Cast>()) {
            const Type &from = c->value.type(), &to = c->type;
            if (!int_type(from) || !int_type(to)) {
                return std::nullopt;
            }
            auto x = tr(c->value);
            if (!x) {
                return std::nullopt;
            }
            if (to.can_represent(from)) {
                return x;
            }
            if (from.is_int() && to.is_uint() && to.bits() >= from.bits()) {
                // Two's complement: a negative value wraps to itself plus
                // 2^bits.
                std::string m = to.bits() >= 64 ? "18446744073709551616" : smt_uint((uint64_t)1 << to.bits());
                return "(ite (< " + *x + " 0) (+ " + *x + " " + m + ") " + *x + ")";
            }
            return std::nullopt;
        }
        if (const Ramp *r = e.as<Ramp>()) {
            if (lane_.empty() || r->base.type().is_vector() || r->stride.type().is_vector()) {
                return std::nullopt;
            }
            auto b = tr(r->base), s = tr(r->stride);
            if (!b || !s) {
                return std::nullopt;
            }
            return "(+ " + *b + " (* " + *s + " " + lane_ + "))";
        }
        if (const Broadcast *b = e.as<Broadcast>()) {
            if (b->value.type().is_vector()) {
                return std::nullopt;
            }
            std::string saved = lane_;
            lane_.clear();
            auto x = tr(b->value);
            lane_ = saved;
            return x;
        }
        if (const Call *c = e.as<Call>()) {
            if (c->is_intrinsic(Call::likely) || c->is_intrinsic(Call::likely_if_innermost) ||
                c->is_intrinsic(Call::promise_clamped) || c->is_intrinsic(Call::unsafe_promise_clamped)) {
                // promise_clamped(v, lo, hi) is v (the promise is not
                // used as a fact).
                return tr(c->args[0]);
            }
            if (c->is_intrinsic(Call::abs) && c->args[0].type().is_int()) {
                auto x = tr(c->args[0]);
                return x ? std::optional<std::string>("(ite (< " + *x + " 0) (- 0 " + *x + ") " + *x + ")") : std::nullopt;
            }
        }
        return std::nullopt;
    }

    // exact says whether e's exact reading is its value: every Int(64)
    // term's magnitude is below 2^63 (see magnitude). Int(32) arithmetic
    // is read exactly: its overflow is undefined in Halide (tr reads no
    // arithmetic that wraps, unsigned or narrower).
    static bool exact(const Expr &e) {
        bool ok = true;
        visit_with(e, [&](const Expr &x) {
            if ((x.as<Add>() || x.as<Sub>() || x.as<Mul>()) && x.type().bits() >= 64 && magnitude(x) >= 63) {
                ok = false;
            }
        });
        return ok;
    }

    // ring says whether e is built of Int(64) sums, differences and
    // products of signed names, literals and widening casts of them
    // alone: its value is its exact reading
    // modulo 2^64, and so equals that reading wherever the reading is
    // within Int(64).
    static bool ring(const Expr &e) {
        if (e.as<Variable>() || e.as<IntImm>()) {
            return e.type().is_int();
        }
        if (const Cast *c = e.as<Cast>()) {
            return c->type.is_int() && c->type.can_represent(c->value.type()) && ring(c->value);
        }
        if (const Add *a = e.as<Add>()) {
            return e.type() == Int(64) && ring(a->a) && ring(a->b);
        }
        if (const Sub *a = e.as<Sub>()) {
            return e.type() == Int(64) && ring(a->a) && ring(a->b);
        }
        if (const Mul *a = e.as<Mul>()) {
            return e.type() == Int(64) && ring(a->a) && ring(a->b);
        }
        return false;
    }

    // visit_with calls f on e and on every subexpression of it.
    template<typename F>
    static void visit_with(const Expr &e, F f) {
        struct V : IRGraphVisitor {
            F &f;
            explicit V(F &f)
                : f(f) {
            }
            using IRGraphVisitor::include;
            void include(const Expr &x) override {
                f(x);
                IRGraphVisitor::include(x);
            }
        } v(f);
        e.accept(&v);
        f(e);
    }

    // fact adds the boolean c to the facts in scope, or records it left
    // out where it reads an integer variable (a fact of pointers and
    // flags alone, a buffer's host not null, says nothing of the
    // integers).
    void fact(const Expr &c, const std::string &what) {
        if (const And *a = c.as<And>()) {
            // Each conjunct holds where the conjunction does: one that
            // cannot be read leaves out itself only.
            fact(a->a, what);
            fact(a->b, what);
            return;
        }
        if (const Let *l = c.as<Let>()) {
            // A let inside a check (the simplifier's common
            // subexpressions): its value in place of its name.
            fact(substitute(l->name, l->value, l->body), what);
            return;
        }
        auto t = exact(c) ? tr(c) : std::nullopt;
        if (t) {
            facts_.push_back(*t);
            return;
        }
        bool ints = false;
        visit_with(c, [&](const Expr &x) {
            const Variable *v = x.as<Variable>();
            ints = ints || (v && int_type(v->type.element_of()) && !v->type.is_bool());
        });
        if (ints) {
            dropped_.push_back(what + ": " + one_line(c));
        }
    }

    // Term is one term of an index: its SMT-LIB reading, its Halide
    // text, its type's width (a signed integer's).
    struct Term {
        std::string smt, halide;
        int bits;
    };

    // terms collects the arithmetic of e that can overflow: every Add,
    // Sub and Mul of a signed integer type (Halide's overflow of Int(32)
    // and Int(64) is undefined; unsigned arithmetic wraps by definition),
    // every Ramp's lanes, and those of the scalar lets e reads, once
    // each; undecided gets the first term that cannot be translated.
    void terms(const Expr &e, std::vector<Term> *out, std::set<std::string> *lets, std::string *undecided) {
        if (const Variable *v = e.as<Variable>()) {
            auto it = let_values_.find(v->name);
            if (it == let_values_.end()) {
                it = vector_lets_.find(v->name);
                if (it == vector_lets_.end()) {
                    return;
                }
            }
            if (lets->insert(v->name).second) {
                terms(it->second, out, lets, undecided);
            }
            return;
        }
        if (e.as<Load>()) {
            if (undecided->empty()) {
                *undecided = "the index reads memory: " + one_line(e);
            }
            return;
        }
        if (const Broadcast *b = e.as<Broadcast>()) {
            std::string saved = lane_;
            lane_.clear();
            terms(b->value, out, lets, undecided);
            lane_ = saved;
            return;
        }
        bool arith = e.as<Add>() || e.as<Sub>() || e.as<Mul>() || e.as<Ramp>();
        if (arith && e.type().is_int()) {
            auto t = tr(e);
            if (!t) {
                if (undecided->empty()) {
                    *undecided = "a term of the index cannot be translated: " + one_line(e);
                }
            } else {
                out->push_back(Term{*t, one_line(e), e.type().bits()});
            }
        }
        // The operands.
        if (const Add *a = e.as<Add>()) {
            terms(a->a, out, lets, undecided);
            terms(a->b, out, lets, undecided);
        } else if (const Sub *a = e.as<Sub>()) {
            terms(a->a, out, lets, undecided);
            terms(a->b, out, lets, undecided);
        } else if (const Mul *a = e.as<Mul>()) {
            terms(a->a, out, lets, undecided);
            terms(a->b, out, lets, undecided);
        } else if (const Div *a = e.as<Div>()) {
            terms(a->a, out, lets, undecided);
            terms(a->b, out, lets, undecided);
        } else if (const Mod *a = e.as<Mod>()) {
            terms(a->a, out, lets, undecided);
            terms(a->b, out, lets, undecided);
        } else if (const Min *a = e.as<Min>()) {
            terms(a->a, out, lets, undecided);
            terms(a->b, out, lets, undecided);
        } else if (const Max *a = e.as<Max>()) {
            terms(a->a, out, lets, undecided);
            terms(a->b, out, lets, undecided);
        } else if (const Select *s = e.as<Select>()) {
            terms(s->condition, out, lets, undecided);
            terms(s->true_value, out, lets, undecided);
            terms(s->false_value, out, lets, undecided);
        } else if (const Cast *c = e.as<Cast>()) {
            terms(c->value, out, lets, undecided);
        } else if (const Ramp *r = e.as<Ramp>()) {
            terms(r->base, out, lets, undecided);
            terms(r->stride, out, lets, undecided);
        } else if (const Call *c = e.as<Call>()) {
            for (const Expr &a : c->args) {
                terms(a, out, lets, undecided);
            }
        } else if (e.as<Let>()) {
            if (undecided->empty()) {
                *undecided = "the index has a let: " + one_line(e);
            }
        }
    }

    // access writes the obligation of the access to buffer name at index
    // (of lanes lanes, under predicate).
    void access(const std::string &kind, const std::string &name, const Expr &index, const Expr &predicate) {
        Mark m = mark();
        if (index.type().is_vector()) {
            lane_ = fresh();
            bind(lane_ + "@lane", "lane", Int(32), lane_);
            facts_.push_back("(< " + lane_ + " " + std::to_string(index.type().lanes()) + ")");
            facts_.push_back("(<= 0 " + lane_ + ")");
        }
        if (predicate.defined() && !is_const_one(predicate)) {
            fact(predicate, "the access's predicate");
        }
        std::vector<Term> ts;
        std::set<std::string> lets;
        std::string undecided;
        terms(index, &ts, &lets, &undecided);
        lane_.clear();
        if (ts.empty() && undecided.empty()) {
            restore(m);
            return;
        }
        std::ostringstream o;
        o << "{\"access\":" << json_string(kind) << ",\"buffer\":" << json_string(name)
          << ",\"index\":" << json_string(one_line(index)) << ",\"vars\":[";
        bool first = true;
        auto var_json = [&](const Var &v) {
            o << (first ? "" : ",") << "{\"smt\":" << json_string(v.smt) << ",\"name\":" << json_string(v.halide)
              << ",\"kind\":" << json_string(v.kind) << "}";
            first = false;
        };
        for (const auto &kv : params_) {
            var_json(kv.second);
        }
        for (const Var &v : scope_) {
            var_json(v);
        }
        o << "],\"facts\":[";
        first = true;
        for (const auto &kv : params_) {
            o << (first ? "" : ",") << json_string(type_range(kv.second.smt, kv.second.type));
            first = false;
        }
        for (const std::string &f : facts_) {
            o << (first ? "" : ",") << json_string(f);
            first = false;
        }
        o << "],\"terms\":[";
        first = true;
        for (const Term &t : ts) {
            o << (first ? "" : ",") << "{\"smt\":" << json_string(t.smt) << ",\"halide\":" << json_string(t.halide)
              << ",\"bits\":" << t.bits << "}";
            first = false;
        }
        o << "],\"dropped\":[";
        first = true;
        for (const std::string &d : dropped_) {
            o << (first ? "" : ",") << json_string(d);
            first = false;
        }
        o << "]";
        if (!undecided.empty()) {
            o << ",\"undecided\":" << json_string(undecided);
        }
        o << "}";
        restore(m);
        std::string text = o.str();
        // Accesses whose obligations are the same but for the access and
        // the index's text (a value's several loads of one cell) are
        // written once.
        if (!seen_.insert(text.substr(text.find(",\"vars\":"))).second) {
            return;
        }
        out << (count++ ? ",\n" : "") << text;
    }

    void visit(const LetStmt *op) override {
        op->value.accept(this);
        Mark m = mark();
        let(op->name, op->value);
        op->body.accept(this);
        restore(m);
    }
    void visit(const Let *op) override {
        op->value.accept(this);
        Mark m = mark();
        let(op->name, op->value);
        op->body.accept(this);
        restore(m);
    }

    // let binds a let's variable: a scalar integer one to its value (a
    // parameter when the value is a buffer's field), a vector one read
    // lane by lane, a boolean one through its value.
    void let(const std::string &name, const Expr &value) {
        const Type &t = value.type();
        if (t.is_vector()) {
            vector_lets_[name] = value;
            names_.erase(name);
            return;
        }
        if (t.is_bool()) {
            let_values_[name] = value;
            names_.erase(name);
            return;
        }
        if (!int_type(t)) {
            names_.erase(name);
            let_values_.erase(name);
            return;
        }
        const Call *c = value.as<Call>();
        if (c && starts_with(c->name, "_halide_buffer_get_")) {
            // A buffer's field: a parameter.
            std::string v = fresh();
            bind(name, "param", t, v);
            let_values_.erase(name);
            return;
        }
        std::string v = fresh();
        auto x = exact(value) ? tr(value) : std::nullopt;
        // A let read exactly equals its value, which may leave its type
        // (what the terms check); one left out holds some value of it.
        bind(name, "let", t, v, !x);
        if (x) {
            facts_.push_back("(= " + v + " " + *x + ")");
        } else if (auto r = ring(value) ? tr(value) : std::nullopt) {
            // Sums, differences and products wrap modulo 2^bits: where
            // the exact value is within the let's type, it is the let's
            // value (AddImageChecks' total extents, a product of an
            // Int(64) and an extent, within Int(64) wherever its checks
            // of the previous total extent and of the extents pass).
            facts_.push_back("(or (not " + type_range(*r, t) + ") (= " + v + " " + *r + "))");
        } else {
            dropped_.push_back("the value of " + name + ": " + one_line(value));
        }
        let_values_[name] = value;
    }

    void visit(const For *op) override {
        op->min.accept(this);
        op->extent.accept(this);
        Mark m = mark();
        std::string v = fresh();
        auto lo = tr(op->min), n = tr(op->extent);
        bind(op->name, "loop", Int(32), v);
        if (lo && n && exact(op->min) && exact(op->extent)) {
            facts_.push_back("(<= " + *lo + " " + v + ")");
            facts_.push_back("(< " + v + " (+ " + *lo + " " + *n + "))");
        } else {
            dropped_.push_back("the range of " + op->name);
        }
        let_values_.erase(op->name);
        op->body.accept(this);
        restore(m);
    }
    void visit(const IfThenElse *op) override {
        op->condition.accept(this);
        Mark m = mark();
        fact(op->condition, "the condition");
        op->then_case.accept(this);
        restore(m);
        if (op->else_case.defined()) {
            fact(!op->condition, "the condition");
            op->else_case.accept(this);
            restore(m);
        }
    }
    void visit(const Allocate *op) override {
        for (const Expr &e : op->extents) {
            e.accept(this);
        }
        op->condition.accept(this);
        Mark m = mark();
        allocation_check(op);
        op->body.accept(this);
        restore(m);
    }

    // allocation_check adds the check that code generation puts before
    // a heap allocation (CodeGen_Posix's allocation size check in Halide
    // 14): the product of its extents times its element's size is at most
    // the target's maximum buffer size, each extent read as uint64 (a
    // negative one wraps), unless the allocation's condition is false.
    // The product is read exactly: Halide's check also fails where a
    // partial product passes 2^64, which the exact reading may not, so the
    // fact is at worst weaker than the check.
    void allocation_check(const Allocate *op) {
        if (op->new_expr.defined()) {
            return;
        }
        std::string size = smt_uint((uint64_t)op->type.lanes() * (uint64_t)op->type.bytes());
        for (const Expr &e : op->extents) {
            auto x = exact(e) ? tr(e) : std::nullopt;
            if (!x || !int_type(e.type()) || e.type().bits() > 32) {
                return;
            }
            std::string u = "(ite (< " + *x + " 0) (+ " + *x + " 18446744073709551616) " + *x + ")";
            size = "(* " + size + " " + u + ")";
        }
        std::string check = "(<= " + size + " " + smt_uint(target_.maximum_buffer_size()) + ")";
        if (!is_const_one(op->condition)) {
            auto c = exact(op->condition) ? tr(op->condition) : std::nullopt;
            if (!c) {
                return;
            }
            check = "(or (not " + *c + ") " + check + ")";
        }
        facts_.push_back(check);
    }

    void visit(const AssertStmt *op) override {
        // Holds for the rest of the enclosing scope.
        fact(op->condition, "Halide's check");
    }
    void visit(const Store *op) override {
        op->value.accept(this);
        op->index.accept(this);
        access("store", op->name, op->index, op->predicate);
    }
    void visit(const Load *op) override {
        op->index.accept(this);
        access("load", op->name, op->index, op->predicate);
    }
};

}  // namespace

std::string index_checks(const Stmt &s, const Target &t) {
    Obligations o(t);
    s.accept(&o);
    return "[\n" + o.out.str() + "\n]\n";
}

}  // namespace detail
}  // namespace augur
