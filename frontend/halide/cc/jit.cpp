// The JIT sample: the pipeline realised by Halide's JIT on seeded random
// inputs, written with the names of the translation, so that the
// translated kernel and specification can be run on the same inputs and
// compared with Halide's outputs (docs/halide.md, "Checking against
// Halide's JIT").
#include "emit_internal.h"

#include <fstream>
#include <sstream>

namespace augur {

using namespace Halide;
using namespace Halide::Internal;
using detail::float_text;
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

}  // namespace

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
            p.set_scalar<float>((float)(rng.unit() * 2 - 1));
        } else if (p.type() == Float(64)) {
            p.set_scalar<double>(rng.unit() * 2 - 1);
        } else {
            unsupported("JIT sample: the parameter " + kv.first + " of type " + type_name(p.type(), kv.first));
        }
    }
    for (auto &kv : prm.buffers) {
        auto sz = sizes.find(kv.first);
        if (sz != sizes.end()) {
            kv.second.set_buffer(Buffer<void>(kv.second.type(), sz->second));
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
        for (const Type &t : f.output_types()) {
            out_bufs.emplace_back(t, sz->second);
        }
    }
    Realization r(out_bufs);
    pipeline.infer_input_bounds(r, target);
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

}  // namespace augur
