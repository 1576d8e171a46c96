// The declarations the translator's files share, in the order of its
// files: names (names.cpp), types and literals (types.cpp), the IR
// dispatch (here), expressions (expr.cpp), the pipeline as lowered and
// gathered (pipeline.cpp), scans (scan.cpp), reductions (reduce.cpp),
// the specification (spec.cpp) and the kernel (kernel.cpp). emit.cpp
// drives them and jit.cpp checks a translation against Halide's JIT.
// Internal to the translator: the public interface is augur_halide.h.
#ifndef AUGUR_EMIT_INTERNAL_H
#define AUGUR_EMIT_INTERNAL_H

#include <atomic>
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "Halide.h"
#include "augur_halide.h"

namespace augur {
namespace detail {

using namespace Halide;
using namespace Halide::Internal;

// ---------------------------------------------------------------- names (names.cpp)

// str prints e as Halide does.
std::string str(const Expr &e);

// unsupported throws Unsupported(what).
[[noreturn]] void unsupported(const std::string &what);

// join concatenates xs with sep between them.
std::string join(const std::vector<std::string> &xs, const std::string &sep);

// reserved_words are the words that cannot name anything in either
// format: keywords, types and built-in functions (sare.IsKeyword and
// sched.IsKeyword).
const std::set<std::string> &reserved_words();

// sanitize turns a Halide name into an identifier: every character other
// than a letter, a digit or '_' becomes '_'; a leading digit or underscore
// gets a 'v' in front; a reserved word gets a '_' after it.
std::string sanitize(const std::string &name);

// Namer maps Halide names to distinct identifiers: the same Halide name
// always gets the same identifier, two different ones never do.
class Namer {
public:
    std::string operator()(const std::string &name);
    // reserve makes id unavailable to later names.
    void reserve(const std::string &id);

private:
    std::map<std::string, std::string> ids_;
    std::set<std::string> taken_;
};

// ---------------------------------------------------------------- types (types.cpp)

// type_name is the formats' name of the scalar type t (bool, i8..i64,
// u8..u64, f32, f64); where says what has the type, for the error.
std::string type_name(const Type &t, const std::string &where);

// type_str prints t as Halide does (int32, float32x8).
std::string type_str(const Type &t);

// float_text spells the finite float v (a binary32 or binary64 value,
// held exactly in a double) as the exact decimal expansion of its binary
// value.
std::string float_text(double v);

// ---------------------------------------------------------------- the IR dispatch

// Strict is an IRVisitor that walks nothing on its own: every node its
// subclass does not visit goes to other(), which the translators make an
// error naming the construct. Its subclasses dispatch on the kind of a
// node with visit(const Add *) and the like, and recurse where they mean
// to.
class Strict : public IRVisitor {
protected:
    // other is called for every node the subclass does not visit.
    virtual void other(const IRNode *node) = 0;

    void visit(const IntImm *op) override { other(op); }
    void visit(const UIntImm *op) override { other(op); }
    void visit(const FloatImm *op) override { other(op); }
    void visit(const StringImm *op) override { other(op); }
    void visit(const Cast *op) override { other(op); }
    void visit(const Variable *op) override { other(op); }
    void visit(const Add *op) override { other(op); }
    void visit(const Sub *op) override { other(op); }
    void visit(const Mul *op) override { other(op); }
    void visit(const Div *op) override { other(op); }
    void visit(const Mod *op) override { other(op); }
    void visit(const Min *op) override { other(op); }
    void visit(const Max *op) override { other(op); }
    void visit(const EQ *op) override { other(op); }
    void visit(const NE *op) override { other(op); }
    void visit(const LT *op) override { other(op); }
    void visit(const LE *op) override { other(op); }
    void visit(const GT *op) override { other(op); }
    void visit(const GE *op) override { other(op); }
    void visit(const And *op) override { other(op); }
    void visit(const Or *op) override { other(op); }
    void visit(const Not *op) override { other(op); }
    void visit(const Select *op) override { other(op); }
    void visit(const Load *op) override { other(op); }
    void visit(const Ramp *op) override { other(op); }
    void visit(const Broadcast *op) override { other(op); }
    void visit(const Call *op) override { other(op); }
    void visit(const Let *op) override { other(op); }
    void visit(const LetStmt *op) override { other(op); }
    void visit(const AssertStmt *op) override { other(op); }
    void visit(const ProducerConsumer *op) override { other(op); }
    void visit(const For *op) override { other(op); }
    void visit(const Store *op) override { other(op); }
    void visit(const Provide *op) override { other(op); }
    void visit(const Allocate *op) override { other(op); }
    void visit(const Free *op) override { other(op); }
    void visit(const Realize *op) override { other(op); }
    void visit(const Block *op) override { other(op); }
    void visit(const IfThenElse *op) override { other(op); }
    void visit(const Evaluate *op) override { other(op); }
    void visit(const Shuffle *op) override { other(op); }
    void visit(const VectorReduce *op) override { other(op); }
    void visit(const Prefetch *op) override { other(op); }
    void visit(const Fork *op) override { other(op); }
    void visit(const Acquire *op) override { other(op); }
    void visit(const Atomic *op) override { other(op); }
};

// ---------------------------------------------------------------- expressions (expr.cpp)

// Frag is a piece of expression text with the precedence of its top
// operator (the formats' precedences, loosest first).
struct Frag {
    std::string s;
    int prec;
};

enum Prec { POr = 1,
            PAnd,
            PNot,
            PCmp,
            PAdd,
            PMul,
            PUnary,
            PAtom };

// at is f's text as an operand that needs precedence need: in
// parentheses when its own is looser.
std::string at(const Frag &f, int need);

// binary is a op b, left-associative at precedence prec.
Frag binary(const Frag &a, const std::string &op, const Frag &b, int prec);

// atom is text that needs no parentheses.
Frag atom(const std::string &s);

// int_lit is the integer literal v.
Frag int_lit(int64_t v);

// same_stage_marker names the call of an Evaluate that flatten.cpp puts
// between the lanes of a vector store it splits: the next store is of the
// stage of the last one (kernel.cpp).
constexpr const char *same_stage_marker = "augur.same_stage";

// lane_at is the lane of the vector expression e at lane, an Int(32)
// expression (a loop variable over the lanes: flatten.cpp translates a
// vector store as one store in a loop over its lanes), simplified;
// undefined where that lane is not expressible without a quotient or a
// remainder of lane (but for an interleaving or a concatenation of
// vectors, which takes them by a constant), or e is not lane by lane
// (lanes.cpp). The Int(32) parts of the vectors of an interleaving or a
// concatenation may step from one vector to the next by constant
// multiples of the variables strides (the pipeline's buffers' strides,
// which the delinearisation splits off), besides a constant, read
// through the lets in scope lets (their values expanded).
Expr lane_at(const Expr &e, const Expr &lane, const std::set<std::string> &strides = {},
             const std::map<std::string, Expr> &lets = {});

// fold_exprs folds xs, in order, with a VectorReduce's operator;
// undefined for the saturating add, which the formats do not have.
Expr fold_exprs(VectorReduce::Operator op, const std::vector<Expr> &xs);

// no_bounds_query replaces _halide_buffer_is_bounds_query(b) by false in
// e, simplified: the kernel is the pipeline called on real buffers, not as
// a bounds query.
Expr no_bounds_query(const Expr &e);

// intrinsic is Halide's intrinsic op (absd, lerp, popcount and the
// counts of leading and trailing zeros, the widening, saturating,
// halving and rounding operations, mul_shift_right) written exactly with
// operations the formats have, for target t; undefined for other calls.
Expr intrinsic(const Call *op, const Target &t);

// unwrap strips what does not change a value: likely tags, promises and
// boolean casts of booleans.
Expr unwrap(Expr e);

// PoisonContext hands Halide's JIT runtime, through its handlers, an
// allocator that fills every allocation with byte and checks when it is
// freed that the bytes around it are intact (counting overruns): a read
// of memory the pipeline never wrote then shows in its output (jit.cpp).
struct PoisonContext : Halide::JITUserContext {
    uint8_t byte = 0;
    std::atomic<int> overruns{0};
};
void *poison_malloc(Halide::JITUserContext *ctx, size_t n);
void poison_free(Halide::JITUserContext *ctx, void *q);

// exact_int returns the int32 expression equal to the float32 expression
// f where the int32 expressions it pushes into vals lie in [-2^24, 2^24]
// (expr.cpp); an undefined Expr when f is not of the form it reads.
Expr exact_int(const Expr &f, std::vector<Expr> &vals);

// const_int reads a signed or an unsigned integer constant below 2^62
// (shift.cpp).
bool const_int(const Expr &e, int64_t *v);
// reads_data reports whether e reads a func or an image (dataindex.cpp).
bool reads_data(const Expr &e);
// reads_float reports whether e reads a float variable (dataindex.cpp).
bool reads_float(const Expr &e);
// reads_stride reports whether e reads a buffer's stride (dataindex.cpp).
bool reads_stride(const Expr &e);

// Translator turns Halide expressions into text, in three modes: quasi-
// affine index expressions, affine constraints and typed values. Reads of
// funcs, images and parameters, and variables, are resolved by the
// subclass (specification or kernel).
class Translator {
public:
    virtual ~Translator() = default;

    // index translates the quasi-affine int32 expression e.
    Frag index(const Expr &e);
    // cond translates the affine constraint e.
    Frag cond(const Expr &e);
    // value translates e as a typed value.
    Frag value(const Expr &e);
    // read_index translates the coordinate e of a read: index(e), or,
    // when e is data_index, the data-dependent index value(e)
    // (dataindex.cpp).
    Frag read_index(const Expr &e);
    // data_index reports whether the coordinate e of a read is a
    // data-dependent index: it reads a func, an image or a float variable
    // (a float parameter, a 0-d input).
    virtual bool data_index(const Expr &e);
    // unshifted rewrites a shift by a non-constant amount b, a << b or
    // a >> b, whose amount lies in a small interval of constants [lo, hi]
    // within [0, width) (const_range), as select(b == lo, a << lo, ...,
    // a << hi): exact wherever b lies in [lo, hi]. An undefined Expr
    // otherwise (shift.cpp).
    Expr unshifted(const Call *op);

    // ranges bounds the variables that a shift's amount may read, where
    // every expression translated with them in scope holds them: an RVar
    // within its RDom's box, a scan's moved coordinate where its update
    // writes, a kernel's loop variable in its loop's body (shift.cpp).
    Scope<Interval> ranges;

protected:
    // range_of is e's interval under ranges (shift.cpp); the kernel first
    // expands the lets in scope.
    virtual Interval range_of(const Expr &e);
    // const_range bounds e by constants (range_of).
    bool const_range(const Expr &e, int64_t *lo, int64_t *hi);

    virtual Frag index_var(const Variable *v) = 0;
    virtual Frag value_var(const Variable *v) = 0;
    virtual Frag func_call(const Call *c) = 0;
    virtual Frag image_call(const Call *c) = 0;
    // constant folds e to an integer constant where the enclosing lets
    // make it one.
    virtual bool constant(const Expr &e, int64_t *c);
    // target is the target the pipeline is compiled for.
    virtual const Target &target() const = 0;
    // assume_exact makes the kernel assume that each int32 expression of
    // vals lies in [-2^24, 2^24], where the conversion of an index from
    // float32 in e (exact_int) is exact; by default such a conversion is
    // not an index expression.
    virtual void assume_exact(const std::vector<Expr> &vals, const Expr &e);
    // float_int translates the int32 conversion op of a float expression
    // in the index expression e, which exact_int does not read: the
    // integer parameter that abstracts it (derived_param); by default it
    // is not an index expression.
    virtual Frag float_int(const Cast *op, const Expr &e);
    // param_quotient translates q, a quotient a / b (or, with rem, a
    // remainder a % b) by a non-constant divisor b, in the index
    // expression e: in the specification, when q reads parameters alone,
    // the integer parameter that abstracts it (quotient_param); in the
    // kernel, cases over the divisor's values (KernelTranslator); by
    // default it is not an index expression.
    virtual Frag param_quotient(const Expr &q, const Expr &a, const Expr &b, bool rem, const Expr &e);

private:
    int valuing_ = 0;  // value is trying its int32 expression as an index expression
    // The visitors of the three modes (expr.cpp).
    class IndexText;
    class CondText;
    class ValueText;
};

// ---------------------------------------------------------------- the pipeline (pipeline.cpp)

// Scan is how an update moves its func's pure dimensions with its RDom
// (scan.cpp): its tensor is then indexed by the cell it writes.
struct Scan {
    bool on = false;           // some dimension of the left-hand side is not its pure variable
    std::vector<Expr> lhs;     // the update's arguments, over its RVars and the kept pure variables
    std::vector<bool> kept;    // per dimension, whether the argument is the dimension's pure variable
    std::vector<int> dim_of;   // per RVar (outermost first), the dimension it moves
    std::vector<Expr> inverse; // per RVar, its value at the cell written, over the pure variable of that dimension
    // A histogram (dataindex.cpp): an update whose moved dimensions all
    // write at data-dependent indices over its RVars; on stays false.
    bool hist = false;
    std::vector<bool> data;  // per dimension, whether it writes at a data-dependent index
    // An RDom of constant bounds whose moved dimensions are not each one
    // RVar (apps/fft's exchange(n0, s/S*R*S + s%S + r*S) = ...) is
    // enumerated instead: its iterations in the RDom's order (predicate
    // true), each with its RVars' values (outermost first) and the cell
    // it writes in the moved dimensions (the kept ones undefined).
    bool enumerated = false;
    std::vector<std::vector<int64_t>> points;
    std::vector<std::vector<Expr>> cells;
};

struct Stage {
    std::string tensor;                 // its tensor in the specification
    std::vector<std::string> coords;    // Halide names of its coordinates in the loop nest: f.sK.x, then f.sK.r (RVars outermost first)
    std::vector<std::string> fused;     // f.sK.fused.x for each pure coordinate: its name in a loop compute_with fused
    std::vector<ReductionVariable> rv;  // the RDom's variables, outermost first
    Scan scan;                          // for an update that moves a pure dimension
};

// FuncInfo is a func, or one element of a func of several values (a
// tuple): split_tuples gives element i of f its own realization and
// stores, f.i, and the specification its own tensors.
struct FuncInfo {
    Function f;
    int value_index = 0;  // the element, of a tuple
    std::string tensor;   // the final value's tensor
    std::string type;     // its element type
    std::vector<Stage> stages;
};

// element_name is the name of element i of the func f: f itself, or f.i
// for a tuple, as split_tuples names it.
std::string element_name(const Function &f, int i);

struct Buffer_ {
    std::string name;    // Halide name
    std::string tensor;  // its tensor
    std::string array;   // its array in the kernel
    std::string type;
    int dims = 0;
    bool output = false;
    std::string initial;                     // an output updated in place: the input tensor of its initial contents
    std::vector<std::string> mins, extents;  // parameter names
};

struct Scalar {
    std::string name, id, type;
    bool index = false;  // an int32 parameter; otherwise a 0-d input
    std::string array;   // for 0-d inputs
};

// Red is how a func takes part in a reduction whose order the schedule
// changed (Clément 2022, chapter 7): atomic() updates, and rfactor's
// merges and intermediates. Its cells hold partial results of the target
// func's elements, which the specification defines with reduce(...).
struct Red {
    enum Kind { Atomic,
                Merge,
                Intermediate } kind = Atomic;
    std::string target;  // the user's func (itself, unless an intermediate)
    size_t dims = 0;     // the target's dimensions: the first coordinates of the cells' funcs
    std::string op;      // + * min max & | ^
    // the user's update, for the specification (targets only)
    std::vector<ReductionVariable> rvars;  // outermost first
    Expr predicate, body;
    // Intermediate: the position of the user's RDom each accumulation
    // adds, outermost first, over the stage's coordinates (f.s1.x).
    std::vector<Expr> at;
};

// Pipeline_ gathers the funcs, buffers and scalar parameters of a lowered
// pipeline and names them.
struct Derived {
    std::string key;  // the computation, as Halide prints it, strict_float marks removed
    std::string id;   // the parameter
    std::string def;  // the computation, a value of the specification's language
};

struct Pipeline_ {
    std::map<std::string, Red> reds;
    std::vector<std::string> order;  // the funcs in realization order, a tuple as its elements f.0, f.1, ...
    std::map<std::string, FuncInfo> funcs;
    std::vector<Buffer_> buffers;  // outputs first, then inputs in order of first use
    std::map<std::string, size_t> buffer_index;
    std::vector<Scalar> scalars;
    std::map<std::string, size_t> scalar_index;
    Target target;                                   // the target it is compiled for
    std::vector<std::string> params;                 // every parameter, in declaration order
    std::map<std::string, std::string> field_param;  // "b.min.0" -> b_min_0
    Namer names;
    std::vector<Derived> derived;  // integer parameters computed from float ones (floatparam.cpp)

    std::vector<std::string> strides;  // the strides the kernel reads, "b.stride.k", in order of first read

    void add_buffer(const std::string &name, const Type &t, int dims, bool output);
    void add_scalar(const Parameter &p);
    // stride_param is the integer parameter of the stride field ("b.stride.k"
    // of a buffer of the pipeline), added to the parameters on first use,
    // or "" when field is no such stride.
    std::string stride_param(const std::string &field);
};

// Lowered is a pipeline lowered up to storage flattening.
struct Lowered {
    Stmt s;
    std::map<std::string, std::set<int>> folded;  // dimensions storage folding rewrote, by func
    std::vector<Function> outputs;
    std::map<std::string, Function> env;
    std::vector<std::string> order;
};

// lower runs the passes of Halide 14's lower_impl (src/Lower.cpp), in its
// order, up to storage flattening.
Lowered lower(const Halide::Pipeline &pipeline, const Target &t, const std::string &name);

// gather names the funcs, buffers and parameters of the lowered pipeline.
Pipeline_ gather(const Lowered &l);

// RebasedLoop is what rebase_loops_to_zero made of a loop v: the loop
// v.rebased, whose body starts with the let v = v.rebased + m, m the min
// of that loop (for the parts partition_loops split off one loop, each
// part's own). value is that let's value (undefined where the body does
// not start with it), lets the lets in scope there.
struct RebasedLoop {
    Expr value;
    std::map<std::string, Expr> lets;
};

// rebased_var returns v for the name of a loop v.rebased that
// rebase_loops_to_zero made, and the empty string for any other name.
inline std::string rebased_var(const std::string &loop) {
    const std::string suffix = ".rebased";
    if (loop.size() > suffix.size() && loop.compare(loop.size() - suffix.size(), suffix.size(), suffix) == 0) {
        return loop.substr(0, loop.size() - suffix.size());
    }
    return "";
}

// RebasedLoops lists the RebasedLoop of each loop v.rebased, by name, in
// pre-order.
using RebasedLoops = std::map<std::string, std::vector<RebasedLoop>>;

// lower_final continues l's lowering with the passes Halide 14 runs after
// bound_small_allocations, up to the statement before
// lower_parallel_tasks (final.cpp). rebased, when not null, gets the
// loops rebase_loops_to_zero rebased.
Stmt lower_final(const Lowered &l, const Target &t, RebasedLoops *rebased = nullptr);

// derived_param is the integer parameter of p that abstracts op, an int32
// conversion of a float expression of p's float parameters alone, in the
// index expression e0, added to p's parameters on first use
// (floatparam.cpp).
std::string derived_param(Pipeline_ &p, const Cast *op, const Expr &e0);
// float_of_vars reports whether e converts to an integer a float
// expression that reads a variable other than p's parameters, a pure or a
// loop variable, in a form exact_int does not read (bgu's
// int32(floor(float32(y) / float32(big_sigma)))): as a read's coordinate,
// a data-dependent index (floatparam.cpp).
bool float_of_vars(const Pipeline_ &p, const Expr &e);
// quotient_param is the integer parameter of p that abstracts q, a
// quotient (or a remainder) by a non-constant divisor of p's integer parameters alone
// (Halide's bound (pointwise_filter.extent.1 + -1)/depthwise_filter.extent.0),
// added to p's parameters on first use, as derived_param's; "" when op
// reads anything but parameters and constants (floatparam.cpp).
std::string quotient_param(Pipeline_ &p, const Expr &q);
// params_only reports whether e reads nothing but p's integer
// parameters and constants (floatparam.cpp).
bool params_only(const Pipeline_ &p, const Expr &e);
// kDivisorCases bounds a divisor of an index that is a parameter, in the
// kernel: its quotients are written as cases over [0, kDivisorCases]
// (KernelTranslator::param_quotient).
constexpr int kDivisorCases = 4;
// divides_vars reports whether e divides, or takes the remainder, by a
// non-constant divisor where the quotient reads a variable other than
// p's parameters (depthwise_convolved.s1.d/depthwise_filter.extent.0): as
// a read's coordinate, a data-dependent index (floatparam.cpp).
bool divides_vars(const Pipeline_ &p, const Expr &e);

// ---------------------------------------------------------------- scans (scan.cpp)

// scan_stage records in st how update k - 1 of f moves f's pure
// dimensions, checking that it writes each cell at most once.
void scan_stage(const Function &f, size_t k, Stage &st);
// hist_stage checks and records a histogram update (dataindex.cpp).
void hist_stage(const std::string &what, Stage &st);
// spec_value is the value e in the specification's language, its
// variables named by vars (spec.cpp).
std::string spec_value(Pipeline_ &p, const std::map<std::string, std::string> &vars, const Expr &e);

// ---------------------------------------------------------------- reductions (reduce.cpp)

// reduce_parts splits the value v of an update of fn at args into its
// reduction operator and the value folded, when v combines fn's own value
// at the updated point with one associative and commutative operator.
bool reduce_parts(const Expr &v, const std::string &fn, const std::vector<Expr> &args, std::string *op, Expr *body);

// atomic_funcs lists the funcs stored inside Atomic nodes.
std::set<std::string> atomic_funcs(const Stmt &s);

// find_reductions finds the funcs whose reduction the schedule re-orders
// and records them in p.reds.
void find_reductions(Pipeline_ &p, const Lowered &l, const Algorithm *alg);

// ---------------------------------------------------------------- the specification (spec.cpp)

// spec_text writes the specification of the pipeline p, named name.
std::string spec_text(Pipeline_ &p, const std::string &name);

// ---------------------------------------------------------------- the kernel (kernel.cpp)

// sched_text writes the annotated kernel of the lowered statement s:
// Halide's own before flattening, or, final, the final statement with its
// stores rebuilt (final_sched_text).
std::string sched_text(Pipeline_ &p, const Stmt &s, const std::map<std::string, std::set<int>> &folded,
                       const std::string &name, const Target &t, bool final = false);

// ---------------------------------------------------------------- the final statement (final.cpp, flatten.cpp)

// Poly is an integer polynomial over atoms: variables and the subterms
// that are not sums, differences or products (divisions, mins, selects),
// each named by a key (see PolyAtoms). A monomial is the sorted list of
// its atoms' keys; the empty one is the constant.
using Monomial = std::vector<std::string>;
using Poly = std::map<Monomial, int64_t>;

// PolyAtoms names the atoms of polynomials by key, with the expression
// each stands for (flatten.cpp).
struct PolyAtoms {
    std::map<std::string, Expr> expr;

    // of is e as a polynomial over atoms.
    Poly of(const Expr &e);
    // to_expr is p as an Int(32) expression.
    Expr to_expr(const Poly &p) const;
};

// poly_add adds k * x to *acc, dropping the monomials that cancel.
void poly_add(Poly *acc, const Poly &x, int64_t k);

// poly_mul is the product of x and y.
Poly poly_mul(const Poly &x, const Poly &y);

// poly_const is the constant k.
Poly poly_const(int64_t k);

// final_sched_text writes the annotated kernel of l's final statement
// (lower_final), its flattened accesses brought back to multi-dimensional
// ones under conditions the kernel checks.
// plant names a miscompilation to plant first (augur::translate).
// checks, when not null, gets the index overflow obligations of the final
// statement translated (index_checks).
std::string final_sched_text(Pipeline_ &p, const Lowered &l, const std::string &name, const Target &t,
                             const std::string &plant, std::string *checks = nullptr);

// ---------------------------------------------------------------- index overflow (overflow.cpp)

// index_checks writes, as a JSON array, the obligation of every access of
// the final statement s that its index's integer arithmetic stays within
// its type on target t (Clément 2022, section 9.5; see overflow.cpp).
std::string index_checks(const Stmt &s, const Target &t);

}  // namespace detail
}  // namespace augur

#endif  // AUGUR_EMIT_INTERNAL_H
