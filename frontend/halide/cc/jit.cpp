// The JIT sample: the pipeline realised by Halide's JIT on seeded random
// inputs, written with the names of the translation, so that the
// translated kernel and specification can be run on the same inputs and
// compared with Halide's outputs (docs/halide.md, "Checking against
// Halide's JIT"); and the confirmation of a counterexample: the pipeline
// realised on the counterexample's parameters and inputs, scheduled (its
// memory poisoned) and unscheduled (docs/halide.md, "Confirming an
// INVALID on Halide's code").
#include "emit_internal.h"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

namespace augur {

using namespace Halide;
using namespace Halide::Internal;
using detail::float_text;
using detail::poison_free;
using detail::poison_malloc;
using detail::PoisonContext;
using detail::type_name;
using detail::unsupported;

namespace {

struct Rng {
    uint64_t s;
    uint64_t next() {
        // splitmix64
        uint64_t z = (s += 0x9e3779b97f4a7c15ULL);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        return z ^ (z >> 31);
    }
    double unit() {
        return (next() >> 11) * (1.0 / 9007199254740992.0);
    }
};

template<typename T>
void fill(Buffer<void> &b, Rng &rng) {
    Buffer<T> t = b.as<T>();
    t.for_each_value([&](T &v) {
        if constexpr (std::is_floating_point<T>::value) {
            v = (T)(rng.unit() * 2 - 1);
        } else if constexpr (std::is_same<T, bool>::value) {
            v = rng.next() & 1;
        } else {
            v = (T)rng.next();
        }
    });
}

template<typename T>
std::string text_of(T v) {
    if constexpr (std::is_floating_point<T>::value) {
        return float_text(v);
    } else if constexpr (std::is_same<T, bool>::value) {
        return v ? "true" : "false";
    } else if constexpr (std::is_signed<T>::value) {
        return std::to_string((int64_t)v);
    } else {
        return std::to_string((uint64_t)v);
    }
}

template<typename T>
void dump(std::ostream &o, const std::string &dir, const std::string &tensor, const Buffer<void> &b) {
    Buffer<T> t = b.as<T>();
    t.for_each_element([&](const int *pos) {
        o << dir << " " << tensor;
        for (int d = 0; d < t.dimensions(); d++) {
            o << " " << pos[d];
        }
        o << " = " << text_of<T>(t(pos)) << "\n";
    });
}

#define AUGUR_TYPE_DISPATCH(t, F, ...)                                      \
    do {                                                                    \
        if ((t) == Float(32)) F<float>(__VA_ARGS__);                        \
        else if ((t) == Float(64)) F<double>(__VA_ARGS__);                  \
        else if ((t) == Int(8)) F<int8_t>(__VA_ARGS__);                     \
        else if ((t) == Int(16)) F<int16_t>(__VA_ARGS__);                   \
        else if ((t) == Int(32)) F<int32_t>(__VA_ARGS__);                   \
        else if ((t) == Int(64)) F<int64_t>(__VA_ARGS__);                   \
        else if ((t) == UInt(8)) F<uint8_t>(__VA_ARGS__);                   \
        else if ((t) == UInt(16)) F<uint16_t>(__VA_ARGS__);                 \
        else if ((t) == UInt(32)) F<uint32_t>(__VA_ARGS__);                 \
        else if ((t) == UInt(64)) F<uint64_t>(__VA_ARGS__);                 \
        else if ((t) == Bool()) F<bool>(__VA_ARGS__);                       \
        else unsupported("JIT sample: buffers of type " + type_name(t, "the JIT sample")); \
    } while (0)

// Params finds the input buffers and scalar parameters of a pipeline.
class Params : public IRGraphVisitor {
public:
    std::map<std::string, Parameter> buffers, scalars;

private:
    using IRGraphVisitor::visit;
    void visit(const Call *op) override {
        if (op->call_type == Call::Image && op->param.defined()) {
            buffers.emplace(op->name, op->param);
        } else if (op->call_type == Call::Image) {
            unsupported("JIT sample: the embedded buffer " + op->name);
        }
        IRGraphVisitor::visit(op);
    }
    void visit(const Variable *op) override {
        if (op->param.defined() && !op->param.is_buffer()) {
            scalars.emplace(op->param.name(), op->param);
        }
    }
};

// write_sample writes the sample: the buffers' mins and extents and the
// int32 parameters as parameters, the other parameters and the input
// buffers as inputs, the outputs' cells, named as in the translation e;
// initial holds the lines of the initial contents of the outputs updated
// in place, written first.
void write_sample(const std::string &path, const Emitted &e, const std::vector<Function> &outs,
                  const std::vector<Buffer<void>> &out_bufs, const Params &prm, const std::string &initial) {
    std::ofstream o(path);
    o << derived_text(e);
    o << initial;
    auto param = [&](const std::string &field, int v) {
        auto it = e.params.find(field);
        if (it != e.params.end()) {
            o << "param " << it->second << " = " << v << "\n";
        }
    };
    auto buffer_params = [&](const std::string &n, const Buffer<void> &b) {
        for (int d = 0; d < b.dimensions(); d++) {
            param(n + ".min." + std::to_string(d), b.dim(d).min());
            param(n + ".extent." + std::to_string(d), b.dim(d).extent());
            param(n + ".stride." + std::to_string(d), b.dim(d).stride());
        }
    };
    // out_bufs holds every element of every output, in order.
    std::vector<std::string> elems;
    for (const Function &f : outs) {
        for (int i = 0; i < f.outputs(); i++) {
            elems.push_back(detail::element_name(f, i));
        }
    }
    for (size_t i = 0; i < elems.size(); i++) {
        buffer_params(elems[i], out_bufs[i]);
    }
    for (const auto &kv : prm.buffers) {
        buffer_params(kv.first, kv.second.buffer());
    }
    for (const auto &kv : prm.scalars) {
        const Parameter &p = kv.second;
        auto it = e.tensors.find(kv.first);
        if (it == e.tensors.end()) {
            continue;
        }
        if (p.type() == Int(32)) {
            o << "param " << it->second << " = " << p.scalar<int32_t>() << "\n";
        } else if (p.type() == Float(32)) {
            o << "in " << it->second << " = " << text_of<float>(p.scalar<float>()) << "\n";
        } else {
            o << "in " << it->second << " = " << text_of<double>(p.scalar<double>()) << "\n";
        }
    }
    for (const auto &kv : prm.buffers) {
        auto it = e.tensors.find(kv.first);
        if (it == e.tensors.end()) {
            continue;
        }
        Buffer<void> b = kv.second.buffer();
        AUGUR_TYPE_DISPATCH(b.type(), dump, o, "in", it->second, b);
    }
    for (size_t i = 0; i < elems.size(); i++) {
        AUGUR_TYPE_DISPATCH(out_bufs[i].type(), dump, o, "out", e.tensors.at(elems[i]), out_bufs[i]);
    }
    o.close();
    if (!o) {
        throw std::runtime_error("cannot write " + path);
    }
}

// bind_scalars gives the scalar parameters of prm their values: int32 ones
// from the witness's parameters, floats from its 0-d inputs, by the names
// of the translation e.
void bind_scalars(Params &prm, const Emitted &e, const std::map<std::string, int64_t> &params,
                  const std::map<std::string, std::string> &scalars) {
    for (auto &kv : prm.scalars) {
        Parameter &p = kv.second;
        auto name = e.tensors.find(kv.first);
        if (name == e.tensors.end()) {
            unsupported("confirmation: the translation has no name for the parameter " + kv.first);
        }
        if (p.type() == Int(32)) {
            auto v = params.find(name->second);
            if (v == params.end()) {
                throw std::runtime_error("the counterexample gives no value for " + name->second);
            }
            p.set_scalar<int32_t>((int32_t)v->second);
            continue;
        }
        auto v = scalars.find(name->second);
        if (v == scalars.end()) {
            throw std::runtime_error("the counterexample gives no value for " + name->second + "()");
        }
        if (p.type() == Float(32)) {
            p.set_scalar<float>(std::strtof(v->second.c_str(), nullptr));
        } else if (p.type() == Float(64)) {
            p.set_scalar<double>(std::strtod(v->second.c_str(), nullptr));
        } else {
            unsupported("confirmation: the parameter " + kv.first + " of type " + type_name(p.type(), kv.first));
        }
    }
}

// Witness is a counterexample's parameter values and input elements, named
// as in the translation.
struct Witness {
    std::map<std::string, int64_t> params;
    std::map<std::string, std::vector<std::pair<std::vector<int>, std::string>>> inputs;
    std::map<std::string, std::string> scalars;  // 0-d inputs
};

Witness read_witness(const std::string &path) {
    std::ifstream f(path);
    if (!f) {
        throw std::runtime_error("cannot read " + path);
    }
    Witness w;
    std::string line;
    for (int n = 1; std::getline(f, line); n++) {
        if (line.empty()) {
            continue;
        }
        size_t eq = line.find(" = ");
        std::istringstream lhs(line.substr(0, eq));
        std::string dir, name;
        lhs >> dir >> name;
        if (eq == std::string::npos || name.empty() || (dir != "param" && dir != "in")) {
            throw std::runtime_error(path + ":" + std::to_string(n) + ": not a parameter or an input element");
        }
        std::string val = line.substr(eq + 3);
        if (dir == "param") {
            try {
                w.params[name] = std::stoll(val);
            } catch (const std::exception &) {
                throw std::runtime_error(path + ":" + std::to_string(n) + ": not an integer: " + val);
            }
            continue;
        }
        std::vector<int> idx;
        long long i;
        while (lhs >> i) {
            idx.push_back((int)i);
        }
        if (!lhs.eof()) {
            throw std::runtime_error(path + ":" + std::to_string(n) + ": not an index");
        }
        if (idx.empty()) {
            w.scalars[name] = val;
        } else {
            w.inputs[name].emplace_back(idx, val);
        }
    }
    return w;
}

template<typename T>
T parse_value(const std::string &s) {
    if constexpr (std::is_same<T, bool>::value) {
        return s == "true";
    } else if constexpr (std::is_same<T, float>::value) {
        return std::strtof(s.c_str(), nullptr);
    } else if constexpr (std::is_same<T, double>::value) {
        return std::strtod(s.c_str(), nullptr);
    } else if constexpr (std::is_signed<T>::value) {
        return (T)std::stoll(s);
    } else {
        return (T)std::stoull(s);
    }
}

using Elements = std::vector<std::pair<std::vector<int>, std::string>>;

template<typename T>
void set_elements(Buffer<void> &b, const Elements &elems, const std::string &tensor) {
    Buffer<T> t = b.as<T>();
    for (const auto &e : elems) {
        bool inside = (int)e.first.size() == t.dimensions();
        for (int d = 0; inside && d < t.dimensions(); d++) {
            inside = t.dim(d).min() <= e.first[d] && e.first[d] <= t.dim(d).max();
        }
        if (!inside) {
            throw std::runtime_error("an element of " + tensor + " outside its buffer");
        }
        try {
            t(e.first.data()) = parse_value<T>(e.second);
        } catch (const std::exception &) {
            throw std::runtime_error("an element of " + tensor + " is not a value of its type: " + e.second);
        }
    }
}

// strided is a buffer of type t with the shape's mins, extents and
// strides, which must not overlap (each positive and at least the extent
// of the dimensions of smaller strides).
Buffer<void> strided(const Type &t, std::vector<halide_dimension_t> shape) {
    std::vector<halide_dimension_t> by = shape;
    std::sort(by.begin(), by.end(), [](const halide_dimension_t &a, const halide_dimension_t &b) { return a.stride < b.stride; });
    int64_t span = 1;
    for (const halide_dimension_t &d : by) {
        if (d.stride < span) {
            throw std::runtime_error("the counterexample's strides overlap, or are not positive: no buffer has them");
        }
        span = (int64_t)d.stride * d.extent;
    }
    Runtime::Buffer<void> b(t, nullptr, (int)shape.size(), shape.data());
    b.allocate();
    return Buffer<void>(std::move(b));
}

// shaped is a buffer of type t whose mins and extents are the witness's
// values of the parameters of Halide's buffer n, of dims dimensions, and
// so are its strides where the translation reads them (parameters of
// their own), the others dense.
Buffer<void> shaped(const Type &t, const std::string &n, int dims, const Emitted &e, const Witness &w) {
    std::vector<int> mins, extents;
    bool strides = false;
    for (int d = 0; d < dims; d++) {
        strides = strides || e.params.count(n + ".stride." + std::to_string(d));
    }
    auto field = [&](const std::string &f, int d) {
        std::string h = n + "." + f + "." + std::to_string(d);
        auto name = e.params.find(h);
        if (name == e.params.end()) {
            throw std::runtime_error("the translation has no parameter for " + h);
        }
        auto v = w.params.find(name->second);
        if (v == w.params.end()) {
            throw std::runtime_error("the counterexample gives no value for " + name->second);
        }
        return (int)v->second;
    };
    for (int d = 0; d < dims; d++) {
        mins.push_back(field("min", d));
        extents.push_back(field("extent", d));
    }
    if (strides) {
        std::vector<halide_dimension_t> shape;
        int64_t dense = 1;
        for (int d = 0; d < dims; d++) {
            int s = e.params.count(n + ".stride." + std::to_string(d)) ? field("stride", d) : (int)dense;
            shape.push_back(halide_dimension_t(mins[d], extents[d], s));
            dense *= extents[d];
        }
        return strided(t, shape);
    }
    Buffer<void> b(t, extents);
    b.set_min(mins);
    return b;
}

// poison_stack fills the stack below its caller's frame with byte, where
// the next calls' frames (and Halide's stack allocations) will be.
__attribute__((noinline)) void poison_stack(uint8_t byte) {
    volatile uint8_t area[128 * 1024];
    for (size_t i = 0; i < sizeof(area); i++) {
        area[i] = byte;
    }
}

int poison_task(JITUserContext *ctx, int (*f)(JITUserContext *, int, uint8_t *), int idx, uint8_t *closure) {
    poison_stack(static_cast<PoisonContext *>(ctx)->byte);
    return f(ctx, idx, closure);
}

// realize_to realises the pipeline's outputs, shaped as the witness says
// for the outputs named names (the scheduled pipeline's, in order: another
// instance of the generator names its funcs apart), and writes them to
// path (unless empty), or Halide's error to path.error. With poison, the
// outputs and every allocation start filled with byte, and the number of
// allocations whose surrounding bytes the run changed, if any, goes to
// path.overrun.
void realize_to(Pipeline p, const std::vector<std::string> &names, const Target &target,
                const Emitted &e, const Witness &w, bool poison, uint8_t byte, const std::string &path) {
    std::vector<Function> outs;
    for (const Func &f : p.outputs()) {
        outs.push_back(f.function());
    }
    if (outs.size() != names.size()) {
        throw std::runtime_error("the unscheduled pipeline has another number of outputs");
    }
    std::vector<Buffer<void>> bufs;
    for (size_t i = 0; i < outs.size(); i++) {
        bufs.push_back(shaped(outs[i].output_types()[0], names[i], outs[i].dimensions(), e, w));
        if (poison && bufs.back().data()) {
            std::memset(bufs.back().data(), byte, bufs.back().size_in_bytes());
        }
    }
    PoisonContext ctx;
    ctx.byte = byte;
    if (poison) {
        ctx.handlers.custom_malloc = poison_malloc;
        ctx.handlers.custom_free = poison_free;
        ctx.handlers.custom_do_task = poison_task;
        poison_stack(byte);
    }
    try {
        Realization r(bufs);
        p.realize(&ctx, r, target);
    } catch (const std::exception &err) {
        if (!path.empty()) {
            std::ofstream o(path + ".error");
            o << err.what() << "\n";
        }
        return;
    }
    if (path.empty()) {
        return;
    }
    if (ctx.overruns > 0) {
        std::ofstream v(path + ".overrun");
        v << ctx.overruns << "\n";
    }
    std::ofstream o(path);
    for (size_t i = 0; i < outs.size(); i++) {
        AUGUR_TYPE_DISPATCH(bufs[i].type(), dump, o, "out", e.tensors.at(names[i]), bufs[i]);
    }
    o.close();
    if (!o) {
        throw std::runtime_error("cannot write " + path);
    }
}

// bind_inputs gives the input buffers and scalar parameters of the
// pipeline whose outputs are outs the witness's values.
void bind_inputs(const std::vector<Function> &outs, const Emitted &e, const Witness &w) {
    Params prm;
    for (auto &kv : build_environment(outs)) {
        kv.second.accept(&prm);
    }
    bind_scalars(prm, e, w.params, w.scalars);
    for (auto &kv : prm.buffers) {
        Parameter &p = kv.second;
        auto name = e.tensors.find(kv.first);
        if (name == e.tensors.end()) {
            unsupported("confirmation: the translation has no name for the buffer " + kv.first);
        }
        Buffer<void> b = shaped(p.type(), kv.first, p.dimensions(), e, w);
        auto elems = w.inputs.find(name->second);
        if (elems != w.inputs.end()) {
            AUGUR_TYPE_DISPATCH(b.type(), set_elements, b, elems->second, name->second);
        }
        p.set_buffer(b);
    }
}

std::vector<Function> functions(const std::vector<Func> &fs) {
    std::vector<Function> out;
    for (const Func &f : fs) {
        out.push_back(f.function());
    }
    return out;
}

}  // namespace

void confirm(Halide::Pipeline scheduled, Halide::Pipeline unscheduled, const Target &target,
             const std::string &name, const Algorithm *algorithm, const std::string &in_path,
             const std::string &out_prefix) {
    Emitted e = translate(scheduled, target, name, algorithm);
    Witness w = read_witness(in_path);
    std::vector<std::string> names;
    for (const Func &f : scheduled.outputs()) {
        names.push_back(f.name());
    }
    bind_inputs(functions(scheduled.outputs()), e, w);
    scheduled.compile_jit(target);
    // A first run, its outputs discarded, does the runtime's lazy set-up,
    // whose calls would otherwise overwrite the first poisoned run's stack.
    realize_to(scheduled, names, target, e, w, false, 0, "");
    realize_to(scheduled, names, target, e, w, true, 0xA5, out_prefix + ".0");
    realize_to(scheduled, names, target, e, w, true, 0x5A, out_prefix + ".1");
    bind_inputs(functions(unscheduled.outputs()), e, w);
    realize_to(unscheduled, names, target, e, w, false, 0, out_prefix + ".algorithm");
}

void jit_sample(Halide::Pipeline pipeline, const Target &target, const std::string &name,
                const JitSizes &sizes, uint64_t seed, const std::string &path) {
    // The names, from the translation itself.
    Emitted e = translate(pipeline, target, name);
    std::vector<Function> outs;
    for (const Func &f : pipeline.outputs()) {
        outs.push_back(f.function());
    }
    Params prm;
    for (auto &kv : build_environment(outs)) {
        kv.second.accept(&prm);
    }
    Rng rng{seed};
    for (auto &kv : prm.scalars) {
        Parameter &p = kv.second;
        auto sz = sizes.find(kv.first);
        if (p.type() == Int(32)) {
            p.set_scalar<int32_t>(sz != sizes.end() && !sz->second.empty() ? sz->second[0] : 3);
        } else if (p.type() == Float(32)) {
            // A size given to a float parameter is its value.
            p.set_scalar<float>(sz != sizes.end() && !sz->second.empty() ? (float)sz->second[0] : (float)(rng.unit() * 2 - 1));
        } else if (p.type() == Float(64)) {
            p.set_scalar<double>(sz != sizes.end() && !sz->second.empty() ? (double)sz->second[0] : rng.unit() * 2 - 1);
        } else {
            unsupported("JIT sample: the parameter " + kv.first + " of type " + type_name(p.type(), kv.first));
        }
    }
    // A buffer whose last dimension must have stride 1 (apps/fft's complex
    // values, interleaved: dim(2).set_stride(1)) is laid out that way; one
    // whose name.order the sizes give, in that storage order (innermost
    // dimension first: {2, 0, 1} packs colour channels).
    auto order_of = [&](const std::string &n, size_t dims) {
        auto o = sizes.find(n + ".order");
        if (o == sizes.end()) {
            return std::vector<int>{};
        }
        std::vector<int> order = o->second;
        std::vector<int> sorted = order;
        std::sort(sorted.begin(), sorted.end());
        for (size_t i = 0; i < sorted.size(); i++) {
            if (sorted[i] != (int)i || sorted.size() != dims) {
                throw std::runtime_error("JIT sample: " + n + ".order is no order of its " + std::to_string(dims) + " dimensions");
            }
        }
        return order;
    };
    auto laid_out = [&](const Type &t, const std::vector<int> &sz, const Parameter &p, const std::string &n) {
        if (std::vector<int> order = order_of(n, sz.size()); !order.empty()) {
            return Buffer<void>(t, sz, order);
        }
        int d = (int)sz.size();
        const Expr &s = d >= 2 ? p.stride_constraint(d - 1) : Expr();
        if (s.defined() && is_const_one(s)) {
            std::vector<int> order{d - 1};
            for (int i = 0; i + 1 < d; i++) {
                order.push_back(i);
            }
            return Buffer<void>(t, sz, order);
        }
        return Buffer<void>(t, sz);
    };
    for (auto &kv : prm.buffers) {
        auto sz = sizes.find(kv.first);
        if (sz != sizes.end()) {
            kv.second.set_buffer(laid_out(kv.second.type(), sz->second, kv.second, kv.first));
        } else {
            kv.second.set_buffer(Buffer<void>());
        }
    }
    std::vector<Buffer<void>> out_bufs;
    for (const Function &f : outs) {
        auto sz = sizes.find(f.name());
        if (sz == sizes.end()) {
            unsupported("JIT sample: no size for the output " + f.name());
        }
        for (size_t i = 0; i < f.output_types().size(); i++) {
            out_bufs.push_back(laid_out(f.output_types()[i], sz->second, f.output_buffers()[i], f.name()));
        }
    }
    Realization r(out_bufs);
    pipeline.infer_input_bounds(r, target);
    for (auto &kv : prm.buffers) {
        // An input the bounds query sized, in the storage order asked for.
        Buffer<void> q = kv.second.buffer();
        if (std::vector<int> order = order_of(kv.first, q.dimensions()); !order.empty() && !sizes.count(kv.first)) {
            std::vector<int> mins, extents;
            for (int d = 0; d < q.dimensions(); d++) {
                mins.push_back(q.dim(d).min());
                extents.push_back(q.dim(d).extent());
            }
            Buffer<void> b(q.type(), extents, order);
            b.set_min(mins);
            kv.second.set_buffer(b);
        }
    }
    for (auto &kv : prm.buffers) {
        Buffer<void> b = kv.second.buffer();
        AUGUR_TYPE_DISPATCH(b.type(), fill, b, rng);
    }
    // The outputs updated in place start from random contents too.
    std::ostringstream initial;
    size_t k = 0;
    for (const Function &f : outs) {
        for (int i = 0; i < f.outputs(); i++, k++) {
            auto it = e.initial.find(detail::element_name(f, i));
            if (it != e.initial.end()) {
                AUGUR_TYPE_DISPATCH(out_bufs[k].type(), fill, out_bufs[k], rng);
                AUGUR_TYPE_DISPATCH(out_bufs[k].type(), dump, initial, "in", it->second, out_bufs[k]);
            }
        }
    }
    pipeline.realize(r, target);
    write_sample(path, e, outs, out_bufs, prm, initial.str());
}

namespace detail {

// poison_malloc allocates n bytes, 32-byte aligned, with 32 bytes
// either side (Halide's contract asks for 8 readable): the size, then
// poison, before; poison after; all filled with the context's byte.
void *poison_malloc(JITUserContext *ctx, size_t n) {
    void *p = nullptr;
    if (posix_memalign(&p, 64, n + 64) != 0) {
        return nullptr;
    }
    std::memset(p, static_cast<PoisonContext *>(ctx)->byte, n + 64);
    std::memcpy(p, &n, sizeof(n));
    return (uint8_t *)p + 32;
}

// poison_free frees what poison_malloc allocated, counting an overrun
// when the bytes around it are no longer the poison.
void poison_free(JITUserContext *ctx, void *q) {
    if (!q) {
        return;
    }
    auto *pc = static_cast<PoisonContext *>(ctx);
    uint8_t *p = (uint8_t *)q - 32;
    size_t n;
    std::memcpy(&n, p, sizeof(n));
    bool intact = true;
    for (size_t i = sizeof(n); i < 32; i++) {
        intact = intact && p[i] == pc->byte;
    }
    for (size_t i = 32 + n; i < 64 + n; i++) {
        intact = intact && p[i] == pc->byte;
    }
    if (!intact) {
        pc->overruns++;
    }
    std::free(p);
}

}  // namespace detail

}  // namespace augur
