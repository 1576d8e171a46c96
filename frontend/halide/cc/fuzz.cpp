// The driver of augur fuzz-halide (docs/fuzz-halide.md): it reads case
// descriptions on standard input, one request after another, builds each
// case's Halide pipeline in memory (funcs, inputs, boundary conditions,
// updates over RDoms, a schedule), and answers on standard output: the
// translation (augur::translate, with the algorithm snapshotted before
// scheduling), or the scheduled pipeline and the unscheduled algorithm
// both realised by Halide's JIT on the same inputs with every allocation
// filled with a poison byte, and the first cell where they differ, or
// Halide's lowered statement written to a file. Many cases run in one
// process: no compilation per case.
//
// The whole file is compiled only with AUGUR_FUZZ_DRIVER defined: the
// translator's build compiles every file of this directory and links them
// with each generator, whose main is driver.cpp's.
//
// A request is a case, its lines up to "end", where "end" carries the
// action: "end translate", "end jit SEED POISON MIN0 EXT0 [MIN1 EXT1]...
// [pad P]", "end stmt PATH". The answer starts "ok" or "fail CAUSE MESSAGE" and
// ends with a line "done"; texts are sent as "NAME N" and N bytes.
#ifdef AUGUR_FUZZ_DRIVER

#include "emit_internal.h"

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <memory>
#include <sstream>

namespace {

using namespace Halide;

// Node is an expression of the case format: an atom or a parenthesised
// list whose first element names the operation.
struct Node {
    std::string atom;
    std::vector<Node> kids;
    bool list = false;
};

// Bad is a malformed case.
struct Bad : std::runtime_error {
    explicit Bad(const std::string &m)
        : std::runtime_error(m) {
    }
};

std::vector<std::string> tokens(const std::string &line) {
    std::vector<std::string> out;
    std::string cur;
    for (char c : line) {
        if (c == '(' || c == ')' || std::isspace((unsigned char)c)) {
            if (!cur.empty()) {
                out.push_back(cur);
                cur.clear();
            }
            if (c == '(' || c == ')') {
                out.push_back(std::string(1, c));
            }
        } else {
            cur += c;
        }
    }
    if (!cur.empty()) {
        out.push_back(cur);
    }
    return out;
}

Node parse_node(const std::vector<std::string> &ts, size_t &i) {
    if (i >= ts.size()) {
        throw Bad("expression expected");
    }
    Node n;
    if (ts[i] == ")") {
        throw Bad("unexpected )");
    }
    if (ts[i] != "(") {
        n.atom = ts[i++];
        return n;
    }
    i++;
    n.list = true;
    while (i < ts.size() && ts[i] != ")") {
        n.kids.push_back(parse_node(ts, i));
    }
    if (i >= ts.size()) {
        throw Bad("missing )");
    }
    i++;
    if (n.kids.empty() || n.kids[0].list) {
        throw Bad("a list must start with an operation name");
    }
    return n;
}

int to_int(const std::string &s) {
    size_t used = 0;
    int v = 0;
    try {
        v = std::stoi(s, &used);
    } catch (const std::exception &) {
        throw Bad("integer expected, got " + s);
    }
    if (used != s.size()) {
        throw Bad("integer expected, got " + s);
    }
    return v;
}

Type type_of(const std::string &s) {
    if (s == "int32") return Int(32);
    if (s == "int16") return Int(16);
    if (s == "uint8") return UInt(8);
    if (s == "float32") return Float(32);
    throw Bad("unknown type " + s);
}

const Var &pure_var(int d) {
    static const Var vs[3] = {Var("x"), Var("y"), Var("z")};
    return vs[d];
}

// Case is one pipeline being built.
struct Case {
    std::map<std::string, Func> funcs;
    std::map<std::string, ImageParam> inputs;
    std::map<std::string, int> dims;
    std::string output;
    // vars holds the loop variables of each stage ("f" or "f.1") by token.
    std::map<std::string, std::map<std::string, VarOrRVar>> vars;
    std::vector<std::vector<std::string>> sched;  // the schedule's lines, applied after the snapshot
};

Expr expr_of(Case &c, const Node &n, const RDom *r);

Expr call_of(Case &c, const Node &n, const RDom *r) {
    const std::string &f = n.kids[0].atom;
    std::vector<Expr> args;
    for (size_t i = 1; i < n.kids.size(); i++) {
        args.push_back(expr_of(c, n.kids[i], r));
    }
    auto d = c.dims.find(f);
    if (d == c.dims.end()) {
        throw Bad("unknown operation or func " + f);
    }
    if ((int)args.size() != d->second) {
        throw Bad(f + " takes " + std::to_string(d->second) + " arguments");
    }
    auto in = c.inputs.find(f);
    if (in != c.inputs.end()) {
        return in->second(args);
    }
    return c.funcs.at(f)(args);
}

Expr binary(const std::string &op, Expr a, Expr b) {
    if (op == "+") return a + b;
    if (op == "-") return a - b;
    if (op == "*") return a * b;
    if (op == "/") return a / b;
    if (op == "%") return a % b;
    if (op == "min") return min(a, b);
    if (op == "max") return max(a, b);
    if (op == "<") return a < b;
    if (op == "<=") return a <= b;
    if (op == "==") return a == b;
    if (op == "&&") return a && b;
    return Expr();
}

Expr expr_of(Case &c, const Node &n, const RDom *r) {
    if (!n.list) {
        const std::string &a = n.atom;
        if (a == "x" || a == "y" || a == "z") {
            return pure_var(a[0] == 'z' ? 2 : a[0] - 'x');
        }
        if (a == "rx" || a == "ry") {
            if (r == nullptr || (a == "ry" && r->dimensions() < 2)) {
                throw Bad(a + " outside an update over an RDom of that many dimensions");
            }
            return (*r)[a == "rx" ? 0 : 1];
        }
        if (a.find('.') != std::string::npos) {
            try {
                return Expr((float)std::stod(a));
            } catch (const std::exception &) {
                throw Bad("bad number " + a);
            }
        }
        return Expr(to_int(a));
    }
    const std::string &op = n.kids[0].atom;
    size_t k = n.kids.size() - 1;
    if (k == 2) {
        Expr e = binary(op, expr_of(c, n.kids[1], r), expr_of(c, n.kids[2], r));
        if (e.defined()) {
            return e;
        }
    }
    if (op == "select" && k == 3) {
        return select(expr_of(c, n.kids[1], r), expr_of(c, n.kids[2], r), expr_of(c, n.kids[3], r));
    }
    if (op == "clamp" && k == 3) {
        return clamp(expr_of(c, n.kids[1], r), expr_of(c, n.kids[2], r), expr_of(c, n.kids[3], r));
    }
    if (op == "cast" && k == 2 && !n.kids[1].list) {
        return cast(type_of(n.kids[1].atom), expr_of(c, n.kids[2], r));
    }
    return call_of(c, n, r);
}

Expr whole_expr(Case &c, const std::vector<std::string> &ts, size_t i, const RDom *r) {
    Node n = parse_node(ts, i);
    if (i != ts.size()) {
        throw Bad("text after the expression: " + ts[i]);
    }
    return expr_of(c, n, r);
}

std::vector<Var> args_of(int dims) {
    if (dims < 1 || dims > 3) {
        throw Bad("a func has 1 to 3 dimensions");
    }
    std::vector<Var> a;
    for (int d = 0; d < dims; d++) {
        a.push_back(pure_var(d));
    }
    return a;
}

void fresh_name(Case &c, const std::string &n) {
    if (c.dims.count(n) || n.empty() || !std::isalpha((unsigned char)n[0]) || n == "x" || n == "y" || n == "z" ||
        n == "rx" || n == "ry") {
        throw Bad("bad or repeated name " + n);
    }
}

Func boundary(const std::string &kind, const ImageParam &in) {
    if (kind == "repeat_edge") return BoundaryConditions::repeat_edge(in);
    if (kind == "constant_exterior") return BoundaryConditions::constant_exterior(in, cast(in.type(), 0));
    if (kind == "mirror_image") return BoundaryConditions::mirror_image(in);
    if (kind == "mirror_interior") return BoundaryConditions::mirror_interior(in);
    if (kind == "repeat_image") return BoundaryConditions::repeat_image(in);
    throw Bad("unknown boundary condition " + kind);
}

// define handles a line of the algorithm: input, bc, func, update, output.
void define(Case &c, const std::vector<std::string> &ts) {
    const std::string &k = ts[0];
    auto need = [&](size_t n) {
        if (ts.size() < n) {
            throw Bad(k + " needs " + std::to_string(n - 1) + " fields");
        }
    };
    if (k == "input") {
        need(4);
        fresh_name(c, ts[1]);
        int d = to_int(ts[3]);
        args_of(d);
        c.inputs.emplace(ts[1], ImageParam(type_of(ts[2]), d, ts[1]));
        c.dims[ts[1]] = d;
    } else if (k == "bc") {
        need(4);
        fresh_name(c, ts[1]);
        auto in = c.inputs.find(ts[3]);
        if (in == c.inputs.end()) {
            throw Bad("bc of an unknown input " + ts[3]);
        }
        // A func of the case's own name: Func(name) would make it unique
        // with a counter over the process's life.
        Func f{Internal::Function(ts[1])};
        f(args_of(c.dims[ts[3]])) = boundary(ts[2], in->second)(args_of(c.dims[ts[3]]));
        c.funcs.emplace(ts[1], f);
        c.dims[ts[1]] = c.dims[ts[3]];
    } else if (k == "func") {
        need(5);
        fresh_name(c, ts[1]);
        int d = to_int(ts[3]);
        Func f{Internal::Function(ts[1])};
        Expr e = whole_expr(c, ts, 4, nullptr);
        f(args_of(d)) = cast(type_of(ts[2]), e);
        c.funcs.emplace(ts[1], f);
        c.dims[ts[1]] = d;
    } else if (k == "update") {
        need(4);
        auto f = c.funcs.find(ts[1]);
        if (f == c.funcs.end() || c.inputs.count(ts[1])) {
            throw Bad("update of an unknown func " + ts[1]);
        }
        int rd = to_int(ts[2]);
        if (rd < 1 || rd > 2) {
            throw Bad("an RDom has 1 or 2 dimensions");
        }
        need(4 + 2 * rd);
        std::vector<Range> ranges;
        for (int i = 0; i < rd; i++) {
            ranges.emplace_back(to_int(ts[3 + 2 * i]), to_int(ts[4 + 2 * i]));
        }
        RDom r(ranges, ts[1] + "_r" + std::to_string(f->second.num_update_definitions()));
        Expr e = whole_expr(c, ts, 3 + 2 * rd, &r);
        f->second(args_of(c.dims[ts[1]])) = cast(f->second.output_types()[0], e);
        std::map<std::string, VarOrRVar> &vs = c.vars[ts[1] + "." + std::to_string(f->second.num_update_definitions())];
        vs.emplace("rx", r[0]);
        if (rd > 1) {
            vs.emplace("ry", r[1]);
        }
    } else if (k == "output") {
        need(2);
        if (!c.funcs.count(ts[1])) {
            throw Bad("output of an unknown func " + ts[1]);
        }
        c.output = ts[1];
    } else {
        throw Bad("unknown line " + k);
    }
}

// stage_of finds the stage a token names: "f" (the pure definition) or
// "f.K" (the K-th update, from 1).
Stage stage_of(Case &c, const std::string &tok, Func *f) {
    std::string name = tok;
    int k = 0;
    size_t dot = tok.find('.');
    if (dot != std::string::npos) {
        name = tok.substr(0, dot);
        k = to_int(tok.substr(dot + 1));
    }
    auto it = c.funcs.find(name);
    if (it == c.funcs.end()) {
        throw Bad("unknown func " + name);
    }
    *f = it->second;
    if (k < 0 || k > f->num_update_definitions()) {
        throw Bad("no stage " + tok);
    }
    return k == 0 ? Stage(*f) : f->update(k - 1);
}

std::string stage_key(const std::string &tok) {
    return tok.find('.') == std::string::npos ? tok + ".0" : tok;
}

// var looks a token up among a stage's variables; unknown tokens are new
// variables, RVars when like a known RVar (starting with r).
VarOrRVar var(Case &c, const std::string &stage, const std::string &tok, bool rvar_like = false) {
    std::map<std::string, VarOrRVar> &vs = c.vars[stage_key(stage)];
    auto it = vs.find(tok);
    if (it != vs.end()) {
        return it->second;
    }
    if (tok == "x" || tok == "y" || tok == "z") {
        return pure_var(tok[0] == 'z' ? 2 : tok[0] - 'x');
    }
    VarOrRVar v = (rvar_like || tok[0] == 'r') ? VarOrRVar(RVar(tok)) : VarOrRVar(Var(tok));
    vs.emplace(tok, v);
    return v;
}

TailStrategy tail_of(const std::string &s) {
    if (s == "auto") return TailStrategy::Auto;
    if (s == "round_up") return TailStrategy::RoundUp;
    if (s == "guard_with_if") return TailStrategy::GuardWithIf;
    if (s == "shift_inwards") return TailStrategy::ShiftInwards;
    if (s == "predicate") return TailStrategy::Predicate;
    if (s == "predicate_loads") return TailStrategy::PredicateLoads;
    if (s == "predicate_stores") return TailStrategy::PredicateStores;
    throw Bad("unknown tail strategy " + s);
}

// schedule_stage applies a stage directive from ts[i] on: split, tile,
// reorder, fuse, vectorize, unroll, parallel, specialize (the rest of the
// line then applies to the specialised stage), rfactor, atomic.
void schedule_stage(Case &c, Stage st, const std::string &sk, const std::vector<std::string> &ts, size_t i) {
    const std::string &d = ts.at(i);
    auto need = [&](size_t n) {
        if (ts.size() < i + n) {
            throw Bad(d + " needs " + std::to_string(n - 1) + " fields");
        }
    };
    auto v = [&](size_t j) { return var(c, sk, ts.at(i + j)); };
    if (d == "split") {
        need(6);
        VarOrRVar old = v(1);
        st.split(old, var(c, sk, ts[i + 2], old.is_rvar), var(c, sk, ts[i + 3], old.is_rvar), to_int(ts[i + 4]),
                 tail_of(ts[i + 5]));
    } else if (d == "tile") {
        need(10);
        VarOrRVar a = v(1), b = v(2);
        st.tile(a, b, var(c, sk, ts[i + 3], a.is_rvar), var(c, sk, ts[i + 4], b.is_rvar),
                var(c, sk, ts[i + 5], a.is_rvar), var(c, sk, ts[i + 6], b.is_rvar), to_int(ts[i + 7]),
                to_int(ts[i + 8]), tail_of(ts[i + 9]));
    } else if (d == "reorder") {
        std::vector<VarOrRVar> vs;
        for (size_t j = i + 1; j < ts.size(); j++) {
            vs.push_back(var(c, sk, ts[j]));
        }
        st.reorder(vs);
    } else if (d == "fuse") {
        need(4);
        VarOrRVar a = v(1);
        st.fuse(a, v(2), var(c, sk, ts[i + 3], a.is_rvar));
    } else if ((d == "vectorize" || d == "unroll") && ts.size() == i + 2) {
        if (d == "vectorize") {
            st.vectorize(v(1));
        } else {
            st.unroll(v(1));
        }
    } else if (d == "vectorize" || d == "unroll") {
        need(3);
        int n = to_int(ts[i + 2]);
        if (d == "vectorize") {
            st.vectorize(v(1), n);
        } else {
            st.unroll(v(1), n);
        }
    } else if (d == "parallel") {
        need(2);
        st.parallel(v(1));
    } else if (d == "specialize") {
        need(3);
        Func out = c.funcs.at(c.output);
        Stage sp = st.specialize(out.output_buffer().dim(to_int(ts[i + 1])).extent() >= to_int(ts[i + 2]));
        if (ts.size() > i + 3) {
            schedule_stage(c, sp, sk, ts, i + 3);
        }
    } else if (d == "rfactor") {
        need(3);
        Func intm = st.rfactor(RVar(v(1).rvar), Var(ts[i + 2]));
        intm.compute_root();
    } else if (d == "atomic") {
        st.atomic();
    } else {
        throw Bad("unknown stage directive " + d);
    }
}

// schedule_func applies a func directive: compute_root, store_root,
// compute_at F G K V, store_at F G K V, fold F V N, bound F V MIN EXT,
// align_bounds F V MOD; any other directive is a stage's.
void schedule(Case &c, const std::vector<std::string> &ts) {
    if (ts.size() < 3) {
        throw Bad("a schedule line is s DIRECTIVE STAGE ...");
    }
    const std::string &d = ts[1];
    Func f;
    Stage st = stage_of(c, ts[2], &f);
    auto need = [&](size_t n) {
        if (ts.size() < n) {
            throw Bad(d + " needs " + std::to_string(n - 2) + " fields");
        }
    };
    auto level = [&]() {
        need(6);
        Func g;
        stage_of(c, ts[3], &g);
        int k = to_int(ts[4]);
        std::string sk = k == 0 ? ts[3] : ts[3] + "." + std::to_string(k);
        // Halide 14's schedule check matches loop levels made without a
        // stage index only: the stage serves to look the variable up.
        return LoopLevel(g, var(c, sk, ts[5]));
    };
    if (d == "compute_root") {
        f.compute_root();
    } else if (d == "store_root") {
        f.store_root();
    } else if (d == "compute_at") {
        f.compute_at(level());
    } else if (d == "store_at") {
        f.store_at(level());
    } else if (d == "fold") {
        need(5);
        f.fold_storage(Var(ts[3]), to_int(ts[4]));
    } else if (d == "bound") {
        need(6);
        f.bound(Var(ts[3]), to_int(ts[4]), to_int(ts[5]));
    } else if (d == "align_bounds") {
        need(5);
        f.align_bounds(Var(ts[3]), to_int(ts[4]));
    } else {
        std::vector<std::string> rest(ts.begin() + 1, ts.end());
        rest.erase(rest.begin() + 1);
        schedule_stage(c, st, ts[2], rest, 0);
    }
}

// build defines the algorithm of the case's lines and keeps its schedule
// lines; with scheduled, it applies them too, after snapshotting the
// algorithm into alg (when not null).
void build(Case &c, const std::vector<std::vector<std::string>> &lines, bool scheduled, augur::Algorithm *alg) {
    for (const std::vector<std::string> &ts : lines) {
        if (ts[0] == "s") {
            c.sched.push_back(ts);
        } else if (ts[0] != "case") {
            define(c, ts);
        }
    }
    if (c.output.empty()) {
        throw Bad("the case has no output line");
    }
    if (alg != nullptr) {
        *alg = augur::snapshot(Pipeline(c.funcs.at(c.output)));
    }
    if (scheduled) {
        for (const std::vector<std::string> &ts : c.sched) {
            schedule(c, ts);
        }
    }
}

// read_request reads a case's lines up to "end" and the action's tokens
// (after "end"). Returns false at the end of the input.
bool read_request(std::istream &in, std::vector<std::vector<std::string>> *lines, std::vector<std::string> *action) {
    std::string line;
    bool any = false;
    while (std::getline(in, line)) {
        std::vector<std::string> ts = tokens(line);
        if (ts.empty() || ts[0][0] == '#') {
            continue;
        }
        any = true;
        if (ts[0] == "end") {
            action->assign(ts.begin() + 1, ts.end());
            return true;
        }
        lines->push_back(ts);
    }
    if (any) {
        action->clear();
        return true;
    }
    return false;
}

void text(std::ostream &o, const std::string &name, const std::string &t) {
    o << name << " " << t.size() << "\n" << t << "\n";
}

void translate_case(std::ostream &o, const std::vector<std::vector<std::string>> &lines) {
    Case c;
    augur::Algorithm alg;
    build(c, lines, true, &alg);
    Pipeline p(c.funcs.at(c.output));
    augur::Emitted e = augur::translate(p, get_host_target(), "fuzz", &alg);
    o << "ok\n";
    for (const auto &kv : e.params) {
        o << "param " << kv.first << " " << kv.second << "\n";
    }
    for (const auto &kv : e.tensors) {
        o << "tensor " << kv.first << " " << kv.second << "\n";
    }
    text(o, "spec", e.spec);
    text(o, "sched", e.sched);
}

uint64_t mix(uint64_t z) {
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

// fill gives each input cell a value that depends on the seed, the
// input's name and the cell's coordinates only, so that two pipelines
// that query different regions read the same values.
template<typename T>
void fill(Buffer<void> &b, uint64_t seed, const std::string &name) {
    uint64_t h = seed * 0x9e3779b97f4a7c15ULL;
    for (char ch : name) {
        h = mix(h + (unsigned char)ch);
    }
    Buffer<T> t = b.as<T>();
    t.for_each_element([&](const int *pos) {
        uint64_t z = h;
        for (int d = 0; d < t.dimensions(); d++) {
            z = mix(z + (uint64_t)(int64_t)pos[d]);
        }
        if constexpr (std::is_floating_point<T>::value) {
            t(pos) = (T)((double)(z % 2001) / 1000.0 - 1.0);
        } else {
            t(pos) = (T)(z % 64);
        }
    });
}

void fill_any(Buffer<void> &b, uint64_t seed, const std::string &name) {
    if (b.type() == Float(32)) {
        fill<float>(b, seed, name);
    } else if (b.type() == Int(32)) {
        fill<int32_t>(b, seed, name);
    } else if (b.type() == Int(16)) {
        fill<int16_t>(b, seed, name);
    } else if (b.type() == UInt(8)) {
        fill<uint8_t>(b, seed, name);
    } else {
        throw Bad("inputs of this type are not filled");
    }
}

// Run is one of the two pipelines of a jit action: the case built
// (scheduled or not), its pipeline and its output buffer.
struct Run {
    Case c;
    Pipeline p;
    Buffer<void> out;
    // ctx fills the JIT's allocations with its poison byte.
    augur::detail::PoisonContext ctx;
};

// prepare builds the case's pipeline (scheduled or not) with poisoned
// allocations, an output buffer of the given mins and extents filled
// with poison, and has Halide's bounds query size its inputs.
void prepare(Run &r, const std::vector<std::vector<std::string>> &lines, bool scheduled,
             const std::vector<int> &mins, const std::vector<int> &extents, uint8_t poison) {
    build(r.c, lines, scheduled, nullptr);
    Func out = r.c.funcs.at(r.c.output);
    if ((int)extents.size() != out.dimensions()) {
        throw Bad("the jit action gives " + std::to_string(extents.size()) + " extents for " +
                  std::to_string(out.dimensions()) + " dimensions");
    }
    r.p = Pipeline(out);
    r.ctx.byte = poison;
    r.ctx.handlers.custom_malloc = augur::detail::poison_malloc;
    r.ctx.handlers.custom_free = augur::detail::poison_free;
    r.out = Buffer<void>(out.output_types()[0], extents);
    r.out.set_min(mins);
    std::memset(r.out.data(), poison, r.out.size_in_bytes());
    std::vector<Buffer<void>> bufs{r.out};
    Realization rz(bufs);
    r.p.infer_input_bounds(rz, get_host_target());
}

// share gives both runs the same input buffers, each the union of the
// regions their bounds queries asked for, filled: the algorithm's
// boundary conditions read the input's bounds, which must not differ
// between the two. With pad > 0 each input also covers, in each of the
// output's dimensions, the output region widened by pad on both sides:
// a boundary condition over the input's own bounds then has cells of
// its own to read, where bounds inference alone may ask for one.
void share(Run &a, Run &b, uint64_t seed, const std::vector<int> &omins, const std::vector<int> &oextents, int pad) {
    for (auto &kv : a.c.inputs) {
        Buffer<void> x = kv.second.get(), y = b.c.inputs.at(kv.first).get();
        if (!x.defined() && !y.defined()) {
            continue;
        }
        Buffer<void> any = x.defined() ? x : y;
        std::vector<int> mins, extents;
        for (int d = 0; d < any.dimensions(); d++) {
            int lo = any.dim(d).min(), hi = any.dim(d).max();
            if (x.defined() && y.defined()) {
                lo = std::min(x.dim(d).min(), y.dim(d).min());
                hi = std::max(x.dim(d).max(), y.dim(d).max());
            }
            if (pad > 0 && d < (int)omins.size()) {
                lo = std::min(lo, omins[d] - pad);
                hi = std::max(hi, omins[d] + oextents[d] - 1 + pad);
            }
            mins.push_back(lo);
            extents.push_back(hi - lo + 1);
        }
        Buffer<void> u(any.type(), extents);
        u.set_min(mins);
        fill_any(u, seed, kv.first);
        kv.second.set(u);
        b.c.inputs.at(kv.first).set(u);
    }
}

void realize(Run &r) {
    std::vector<Buffer<void>> bufs{r.out};
    Realization rz(bufs);
    r.p.realize(&r.ctx, rz, get_host_target());
}

template<typename T>
double as_double(const Buffer<void> &b, const int *pos) {
    return (double)b.as<T>()(pos);
}

double value_at(const Buffer<void> &b, const int *pos) {
    if (b.type() == Float(32)) return as_double<float>(b, pos);
    if (b.type() == Int(32)) return as_double<int32_t>(b, pos);
    if (b.type() == Int(16)) return as_double<int16_t>(b, pos);
    if (b.type() == UInt(8)) return as_double<uint8_t>(b, pos);
    throw Bad("outputs of this type are not compared");
}

bool same(double a, double b, bool is_float) {
    if (!is_float) {
        return a == b;
    }
    if (std::isnan(a) || std::isnan(b)) {
        return std::isnan(a) && std::isnan(b);
    }
    return std::fabs(a - b) <= 1e-4 * std::max(1.0, std::max(std::fabs(a), std::fabs(b)));
}

// jit_case realises the scheduled pipeline and the unscheduled algorithm
// on the same inputs and answers "match CELLS" or "mismatch N X... scheduled V reference V"
// for the first of the N cells that differ, after a line "reference ok"
// written as soon as the algorithm is realised.
void jit_case(std::ostream &o, const std::vector<std::vector<std::string>> &lines, std::vector<std::string> act) {
    int pad = 0;
    if (act.size() >= 7 && act[act.size() - 2] == "pad") {
        pad = to_int(act.back());
        act.resize(act.size() - 2);
    }
    if (act.size() < 5 || act.size() % 2 == 0 || pad < 0) {
        throw Bad("jit SEED POISON MIN0 EXT0 [MIN1 EXT1]... [pad P]");
    }
    uint64_t seed = (uint64_t)to_int(act[1]);
    uint8_t poison = (uint8_t)to_int(act[2]);
    std::vector<int> mins, extents;
    for (size_t i = 3; i + 1 < act.size(); i += 2) {
        mins.push_back(to_int(act[i]));
        extents.push_back(to_int(act[i + 1]));
    }
    Run ref, sched;
    prepare(ref, lines, false, mins, extents, poison);
    prepare(sched, lines, true, mins, extents, poison);
    share(ref, sched, seed, mins, extents, pad);
    // The algorithm first: once it is realised, a crash is the scheduled
    // pipeline's, and the line before it says so.
    realize(ref);
    std::cout << "reference ok" << std::endl;
    realize(sched);
    Buffer<void> want = ref.out, got = sched.out;
    bool is_float = got.type().is_float();
    long bad = 0;
    std::ostringstream first;
    got.for_each_element([&](const int *pos) {
        double a = value_at(got, pos), b = value_at(want, pos);
        if (same(a, b, is_float)) {
            return;
        }
        if (bad++ == 0) {
            for (int d = 0; d < got.dimensions(); d++) {
                first << " " << pos[d];
            }
            first << " scheduled " << a << " reference " << b;
        }
    });
    o << "ok\n";
    if (bad == 0) {
        o << "match " << got.number_of_elements() << "\n";
    } else {
        o << "mismatch " << bad << first.str() << "\n";
    }
}

void stmt_case(std::ostream &o, const std::vector<std::vector<std::string>> &lines, const std::vector<std::string> &act) {
    if (act.size() != 2) {
        throw Bad("stmt PATH");
    }
    Case c;
    build(c, lines, true, nullptr);
    Pipeline p(c.funcs.at(c.output));
    p.compile_to_lowered_stmt(act[1], p.infer_arguments(), Text, get_host_target());
    o << "ok\n";
}

std::string one_line(std::string s) {
    for (char &ch : s) {
        if (ch == '\n' || ch == '\r') {
            ch = ' ';
        }
    }
    return s;
}

// answer runs one request and writes its answer, up to "done".
void answer(std::ostream &o, const std::vector<std::vector<std::string>> &lines, const std::vector<std::string> &act) {
    std::ostringstream body;
    std::string cause, msg;
    try {
        if (act.empty()) {
            throw Bad("the case has no end line with an action");
        } else if (act[0] == "translate") {
            translate_case(body, lines);
        } else if (act[0] == "jit") {
            jit_case(body, lines, act);
        } else if (act[0] == "stmt") {
            stmt_case(body, lines, act);
        } else {
            throw Bad("unknown action " + act[0]);
        }
    } catch (const Bad &e) {
        cause = "parse", msg = e.what();
    } catch (const augur::Unsupported &e) {
        cause = "unsupported", msg = e.what();
    } catch (const Halide::InternalError &e) {
        cause = "halide-internal", msg = e.what();
    } catch (const Halide::CompileError &e) {
        cause = "halide-compile", msg = e.what();
    } catch (const Halide::RuntimeError &e) {
        cause = "halide-runtime", msg = e.what();
    } catch (const std::exception &e) {
        cause = "error", msg = e.what();
    }
    if (cause.empty()) {
        o << body.str();
    } else {
        o << "fail " << cause << " " << one_line(msg) << "\n";
    }
    o << "done" << std::endl;
}

}  // namespace

int main() {
    std::ios::sync_with_stdio(false);
    std::vector<std::vector<std::string>> lines;
    std::vector<std::string> action;
    while (read_request(std::cin, &lines, &action)) {
        answer(std::cout, lines, action);
        lines.clear();
        action.clear();
    }
    return 0;
}

#endif  // AUGUR_FUZZ_DRIVER
