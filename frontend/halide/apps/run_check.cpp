// A tiny generic runner for one ahead-of-time compiled generator of this
// folder. Build it with the generator's static library and the
// registration file GenGen writes (-e static_library,h,registration):
//
//   g++ -std=c++17 -I<halide include> run_check.cpp NAME.registration.cpp NAME.a -lpthread -ldl
//
// and run it with one argument per filter argument:
//
//   ./run_check a_=1.5 A_=[40,24] B_=[0:24,0:56] result=[40,56]
//
// Scalars are given by value. Buffers (inputs and outputs alike) are given by
// their per-dimension bounds, each either EXTENT (min 0) or MIN:EXTENT; the
// buffers are dense with dimension 0 innermost. Inputs are filled with a fixed
// pseudo-random sequence (floats in [0, 1), integers in [0, 16)). The runner
// calls the filter once and prints, for each output, a checksum (the sum of
// its elements as a double); a non-zero return code means the filter failed
// (for instance a bounds or specialisation check).
#include "HalideBuffer.h"
#include "HalideRuntime.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <vector>

namespace {

int (*filter_call)(void **) = nullptr;
const halide_filter_metadata_t *filter_md = nullptr;

using Buf = Halide::Runtime::Buffer<void>;

bool parse_bounds(const std::string &s, std::vector<int> &mins, std::vector<int> &extents) {
    if (s.size() < 2 || s.front() != '[' || s.back() != ']') {
        return false;
    }
    std::string body = s.substr(1, s.size() - 2);
    size_t pos = 0;
    while (pos <= body.size()) {
        size_t comma = body.find(',', pos);
        if (comma == std::string::npos) {
            comma = body.size();
        }
        std::string item = body.substr(pos, comma - pos);
        size_t colon = item.find(':');
        if (colon == std::string::npos) {
            mins.push_back(0);
            extents.push_back(std::atoi(item.c_str()));
        } else {
            mins.push_back(std::atoi(item.substr(0, colon).c_str()));
            extents.push_back(std::atoi(item.substr(colon + 1).c_str()));
        }
        pos = comma + 1;
    }
    return true;
}

uint64_t rng_state = 0x2545F4914F6CDD1Dull;
uint64_t next_random() {
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

template<typename T>
void fill(Buf &b) {
    Halide::Runtime::Buffer<T> t(b);
    t.for_each_value([](T &v) {
        uint64_t r = next_random();
        if (std::is_floating_point<T>::value) {
            v = (T)((double)(r >> 11) / (double)(1ull << 53));
        } else {
            v = (T)(r % 16);
        }
    });
}

template<typename T>
double checksum(Buf &b) {
    Halide::Runtime::Buffer<T> t(b);
    double s = 0;
    t.for_each_value([&](T &v) { s += (double)v; });
    return s;
}

#define DISPATCH(TYPE, FN, BUF)                                                    \
    do {                                                                           \
        halide_type_t ty = (TYPE);                                                 \
        if (ty == halide_type_of<float>()) FN<float>(BUF);                        \
        else if (ty == halide_type_of<double>()) FN<double>(BUF);                 \
        else if (ty == halide_type_of<uint8_t>()) FN<uint8_t>(BUF);               \
        else if (ty == halide_type_of<uint16_t>()) FN<uint16_t>(BUF);             \
        else if (ty == halide_type_of<uint32_t>()) FN<uint32_t>(BUF);             \
        else if (ty == halide_type_of<int8_t>()) FN<int8_t>(BUF);                 \
        else if (ty == halide_type_of<int16_t>()) FN<int16_t>(BUF);               \
        else if (ty == halide_type_of<int32_t>()) FN<int32_t>(BUF);               \
        else {                                                                     \
            std::fprintf(stderr, "unsupported buffer type\n");                    \
            std::exit(2);                                                          \
        }                                                                          \
    } while (0)

union Scalar {
    float f32;
    double f64;
    int8_t i8;
    int16_t i16;
    int32_t i32;
    int64_t i64;
    uint8_t u8;
    uint16_t u16;
    uint32_t u32;
    uint64_t u64;
    bool b;
};

bool set_scalar(const halide_type_t &t, const std::string &text, Scalar &s) {
    std::memset(&s, 0, sizeof(s));
    if (t.code == halide_type_float) {
        if (t.bits == 32) s.f32 = std::strtof(text.c_str(), nullptr);
        else s.f64 = std::strtod(text.c_str(), nullptr);
        return true;
    }
    long long v = std::strtoll(text.c_str(), nullptr, 10);
    if (t.code == halide_type_uint && t.bits == 1) {
        s.b = v != 0;
        return true;
    }
    switch (t.bits) {
    case 8: s.i8 = (int8_t)v; break;
    case 16: s.i16 = (int16_t)v; break;
    case 32: s.i32 = (int32_t)v; break;
    case 64: s.i64 = (int64_t)v; break;
    default: return false;
    }
    return true;
}

}  // namespace

extern "C" void halide_register_argv_and_metadata(int (*call)(void **),
                                                  const halide_filter_metadata_t *md,
                                                  const char *const *) {
    filter_call = call;
    filter_md = md;
}

int main(int argc, char **argv) {
    if (!filter_call) {
        std::fprintf(stderr, "no filter registered\n");
        return 2;
    }
    std::map<std::string, std::string> given;
    for (int i = 1; i < argc; i++) {
        std::string a = argv[i];
        size_t eq = a.find('=');
        if (eq == std::string::npos) {
            std::fprintf(stderr, "expected NAME=VALUE, got %s\n", argv[i]);
            return 2;
        }
        given[a.substr(0, eq)] = a.substr(eq + 1);
    }

    const int n = filter_md->num_arguments;
    std::vector<Buf> bufs(n);
    std::vector<Scalar> scalars(n);
    std::vector<void *> args(n);
    for (int i = 0; i < n; i++) {
        const halide_filter_argument_t &arg = filter_md->arguments[i];
        auto it = given.find(arg.name);
        if (it == given.end()) {
            std::fprintf(stderr, "missing argument %s\n", arg.name);
            return 2;
        }
        if (arg.kind == halide_argument_kind_input_scalar) {
            if (!set_scalar(arg.type, it->second, scalars[i])) {
                std::fprintf(stderr, "bad scalar %s\n", arg.name);
                return 2;
            }
            args[i] = &scalars[i];
            continue;
        }
        std::vector<int> mins, extents;
        if (!parse_bounds(it->second, mins, extents) || (int)extents.size() != arg.dimensions) {
            std::fprintf(stderr, "argument %s needs %d bounds\n", arg.name, arg.dimensions);
            return 2;
        }
        bufs[i] = Buf(arg.type, extents);
        bufs[i].set_min(mins);
        if (arg.kind == halide_argument_kind_input_buffer) {
            DISPATCH(arg.type, fill, bufs[i]);
        }
        args[i] = bufs[i].raw_buffer();
    }

    int rc = filter_call(args.data());
    if (rc != 0) {
        std::fprintf(stderr, "%s returned %d\n", filter_md->name, rc);
        return 1;
    }
    for (int i = 0; i < n; i++) {
        const halide_filter_argument_t &arg = filter_md->arguments[i];
        if (arg.kind == halide_argument_kind_output_buffer) {
            double s = 0;
            halide_type_t ty = arg.type;
            if (ty == halide_type_of<float>()) s = checksum<float>(bufs[i]);
            else if (ty == halide_type_of<double>()) s = checksum<double>(bufs[i]);
            else if (ty == halide_type_of<uint16_t>()) s = checksum<uint16_t>(bufs[i]);
            else if (ty == halide_type_of<uint8_t>()) s = checksum<uint8_t>(bufs[i]);
            else if (ty == halide_type_of<int32_t>()) s = checksum<int32_t>(bufs[i]);
            std::printf("%s %s checksum %.9g\n", filter_md->name, arg.name, s);
        }
    }
    return 0;
}
