// Names: the identifiers the translation gives to Halide's names, distinct
// and never a word the formats reserve, and the helpers every part of the
// translator reports and spells with.
#include "emit_internal.h"

#include <sstream>

namespace augur {
namespace detail {

std::string str(const Expr &e) {
    std::ostringstream o;
    o << e;
    return o.str();
}

void unsupported(const std::string &what) {
    throw Unsupported(what);
}

std::string join(const std::vector<std::string> &xs, const std::string &sep) {
    std::string out;
    for (size_t i = 0; i < xs.size(); i++) {
        out += (i ? sep : "") + xs[i];
    }
    return out;
}

const std::set<std::string> &reserved_words() {
    static const std::set<std::string> words = {
        "param", "assume", "input", "tensor", "output", "where", "kernel", "in", "out",
        "skip", "if", "else", "let", "alloc", "for", "par", "and", "or", "not", "true",
        "false", "_", "bool", "i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64", "f32",
        "f64", "min", "max", "abs", "clamp", "select", "sqrt", "exp", "log", "pow", "floor",
        "ceil", "round", "sin", "cos", "tanh", "fast_inverse", "fast_inverse_sqrt",
        // the bit casts reinterpret_T
        "reinterpret_i8", "reinterpret_i16", "reinterpret_i32", "reinterpret_i64", "reinterpret_u8",
        "reinterpret_u16", "reinterpret_u32", "reinterpret_u64", "reinterpret_f32", "reinterpret_f64"};
    return words;
}

std::string sanitize(const std::string &name) {
    std::string s;
    for (char c : name) {
        bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
        s += ok ? c : '_';
    }
    if (s.empty() || (s[0] >= '0' && s[0] <= '9') || s[0] == '_') {
        s = "v" + s;
    }
    if (reserved_words().count(s)) {
        s += "_";
    }
    return s;
}

std::string Namer::operator()(const std::string &name) {
    auto it = ids_.find(name);
    if (it != ids_.end()) {
        return it->second;
    }
    std::string base = sanitize(name), id = base;
    for (int i = 2; taken_.count(id); i++) {
        id = base + "_" + std::to_string(i);
    }
    taken_.insert(id);
    ids_[name] = id;
    return id;
}

void Namer::reserve(const std::string &id) {
    taken_.insert(id);
}

}  // namespace detail
}  // namespace augur
