// A miscompilation of stock Halide 14, case s5002-573 (augur fuzz-halide).
// Build: g++ -std=c++17 repro.cpp -I/usr/include/halide14 -lHalide14 -lpthread -ldl -o repro
#include "Halide.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

using namespace Halide;

static unsigned char poison = 0;

static void *poison_malloc(JITUserContext *, size_t n) {
    void *p = nullptr;
    if (posix_memalign(&p, 128, n + 128) != 0) {
        return nullptr;
    }
    std::memset(p, poison, n + 128);
    return p;
}

static void poison_free(JITUserContext *, void *p) {
    std::free(p);
}

static uint64_t mix(uint64_t z) {
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

template<typename T>
static void fill(Buffer<void> &b, const std::string &name) {
    uint64_t h = 0x9e3779b97f4a7c15ULL;
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

static void fill_any(Buffer<void> &b, const std::string &name) {
    if (b.type() == Float(32)) fill<float>(b, name);
    else if (b.type() == Int(32)) fill<int32_t>(b, name);
    else if (b.type() == Int(16)) fill<int16_t>(b, name);
    else fill<uint8_t>(b, name);
}

static double at(const Buffer<void> &b, const int *pos) {
    if (b.type() == Float(32)) return b.as<float>()(pos);
    if (b.type() == Int(32)) return b.as<int32_t>()(pos);
    if (b.type() == Int(16)) return b.as<int16_t>()(pos);
    return b.as<uint8_t>()(pos);
}

Pipeline build(bool scheduled, std::vector<ImageParam> &inputs) {
    Var x("x"), y("y"), z("z");
    ImageParam in0(Int(32), 2, "in0");
    inputs.push_back(in0);
    Func f2("f2");
    f2(x, y) = cast(Int(32), in0(x, y));
    Func f3("f3");
    f3(x, y) = cast(Int(32), f2(x, y));
    Func f4("f4");
    f4(x, y) = cast(Int(32), f3(x, y));
    if (scheduled) {
        f4.vectorize(x, 4);  // vectorize f4 x 4
        f3.compute_at(LoopLevel(f4, x));  // compute_at f3 f4 0 x
        f3.store_root();  // store_root f3
        f3.split(x, Var("xo1"), Var("xi2"), 3, TailStrategy::ShiftInwards);  // split f3 x xo1 xi2 3 shift_inwards
        f2.compute_at(LoopLevel(f4, x));  // compute_at f2 f4 0 x
    }
    return Pipeline(f4);
}

int main() {
    std::vector<int> mins{0, 0}, extents{25, 25};
    int pad = 32;
    Type t = Int(32);
    bool wrong = false;
    for (int p : {0, 0x55, 0xff}) {
        poison = (unsigned char)p;
        // [0] the algorithm, realised first; [1] the scheduled pipeline.
        std::vector<ImageParam> inputs[2];
        Pipeline pipe[2];
        Buffer<void> out[2];
        for (int s = 0; s < 2; s++) {
            pipe[s] = build(s == 1, inputs[s]);
            pipe[s].jit_handlers().custom_malloc = poison_malloc;
            pipe[s].jit_handlers().custom_free = poison_free;
            out[s] = Buffer<void>(t, extents);
            out[s].set_min(mins);
            std::memset(out[s].data(), poison, out[s].size_in_bytes());
            std::vector<Buffer<void>> bufs{out[s]};
            Realization r(bufs);
            pipe[s].infer_input_bounds(r, get_host_target());
        }
        for (size_t i = 0; i < inputs[0].size(); i++) {
            Buffer<void> a = inputs[0][i].get(), b = inputs[1][i].get();
            if (!a.defined() || !b.defined()) {
                continue;
            }
            std::vector<int> lo, ext;
            for (int d = 0; d < a.dimensions(); d++) {
                int l = std::min(a.dim(d).min(), b.dim(d).min()), h = std::max(a.dim(d).max(), b.dim(d).max());
                if (pad > 0 && d < (int)mins.size()) {
                    l = std::min(l, mins[d] - pad);
                    h = std::max(h, mins[d] + extents[d] - 1 + pad);
                }
                lo.push_back(l);
                ext.push_back(h - l + 1);
            }
            Buffer<void> u(a.type(), ext);
            u.set_min(lo);
            fill_any(u, inputs[0][i].name());
            inputs[0][i].set(u);
            inputs[1][i].set(u);
        }
        if (p == 0) {
            pipe[1].compile_to_lowered_stmt("repro.stmt", pipe[1].infer_arguments(), Text, get_host_target());
        }
        for (int s = 0; s < 2; s++) {
            if (s == 1) {
                std::printf("poison 0x%02x: realizing the scheduled pipeline\n", p);
                std::fflush(stdout);
            }
            std::vector<Buffer<void>> bufs{out[s]};
            Realization r(bufs);
            pipe[s].realize(r, get_host_target());
        }
        int shown = 0;
        out[0].for_each_element([&](const int *pos) {
            double a = at(out[1], pos), b = at(out[0], pos);
            bool same = t.is_float() ? (std::isnan(a) && std::isnan(b)) || std::fabs(a - b) <= 1e-4 * std::max(1.0, std::max(std::fabs(a), std::fabs(b))) : a == b;
            if (!same && shown++ < 10) {
                std::printf("poison 0x%02x: cell (", p);
                for (int d = 0; d < out[0].dimensions(); d++) {
                    std::printf(d ? ", %d" : "%d", pos[d]);
                }
                std::printf("): scheduled %g, unscheduled %g\n", a, b);
            }
        });
        wrong = wrong || shown > 0;
    }
    std::printf(wrong ? "WRONG: the scheduled pipeline differs from its algorithm\n" : "the scheduled pipeline computes its algorithm\n");
    return wrong ? 1 : 0;
}
