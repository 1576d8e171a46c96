// The translator's entry points (augur_halide.h): a pipeline is lowered
// (pipeline.cpp), its funcs, buffers and parameters gathered and named,
// its re-ordered reductions found (reduce.cpp), and the specification
// (spec.cpp) and the annotated kernel (kernel.cpp) written. See
// docs/halide.md for the scheme; the semantics follow Clément 2022,
// "Translation Validation of Tensor Compilers", section 2.4.4 (Halide
// algorithms as SAREs) and section 6.1 (annotations from the loop nest
// Halide builds before flattening).
#include "emit_internal.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>
#include <sys/stat.h>
#include <time.h>

namespace augur {

using namespace Halide;
using namespace Halide::Internal;

namespace {

void write_file(const std::string &path, const std::string &text) {
    std::ofstream f(path);
    f << text;
    f.close();
    if (!f) {
        throw std::runtime_error("cannot write " + path + ": " + std::strerror(errno));
    }
}

void make_dir(const std::string &dir) {
    std::string cur;
    std::stringstream ss(dir);
    std::string part;
    if (!dir.empty() && dir[0] == '/') {
        cur = "/";
    }
    while (std::getline(ss, part, '/')) {
        if (part.empty()) {
            continue;
        }
        cur += part + "/";
        if (mkdir(cur.c_str(), 0755) != 0 && errno != EEXIST) {
            throw std::runtime_error("cannot create " + cur + ": " + std::strerror(errno));
        }
    }
}

Emitted translate_lowered(const detail::Lowered &l, const Target &t, const std::string &name, const Algorithm *alg,
                          Stage stage, const std::string &plant) {
    detail::Pipeline_ p = detail::gather(l);
    p.target = t;
    detail::find_reductions(p, l, alg);
    Emitted e;
    e.spec = detail::spec_text(p, name);
    size_t params = p.params.size();
    e.sched = stage == Stage::Final ? detail::final_sched_text(p, l, name, t, plant, &e.index_checks) : detail::sched_text(p, l.s, l.folded, name, t);
    if (p.params.size() != params) {
        // The kernel abstracted integers computed from float parameters
        // that the specification does not compute: it declares them too.
        e.spec = detail::spec_text(p, name);
    }
    for (const detail::Buffer_ &b : p.buffers) {
        e.tensors[b.name] = b.tensor;
        if (!b.initial.empty()) {
            e.initial[b.name] = b.initial;
        }
    }
    for (const detail::Scalar &s : p.scalars) {
        e.tensors[s.name] = s.id;
    }
    e.params = p.field_param;
    for (const detail::Derived &d : p.derived) {
        e.derived.push_back({d.id, d.def});
    }
    return e;
}

// now reads the process's CPU time and the monotonic clock.
Elapsed now() {
    timespec cpu{}, wall{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &cpu);
    clock_gettime(CLOCK_MONOTONIC, &wall);
    return Elapsed{double(cpu.tv_sec) + double(cpu.tv_nsec) * 1e-9, double(wall.tv_sec) + double(wall.tv_nsec) * 1e-9};
}

}  // namespace

Stopwatch::Stopwatch()
    : start_(now()) {
}

Elapsed Stopwatch::elapsed() const {
    Elapsed t = now();
    return Elapsed{t.cpu - start_.cpu, t.wall - start_.wall};
}

std::string derived_text(const Emitted &e) {
    std::string t;
    for (const DerivedParam &d : e.derived) {
        t += "derived " + d.name + " = " + d.def + "\n";
    }
    return t;
}

Stmt lower_before_flattening(const Halide::Pipeline &pipeline, const Target &target, const std::string &name) {
    return detail::lower(pipeline, target, name).s;
}

Stmt lower_final(const Halide::Pipeline &pipeline, const Target &target, const std::string &name) {
    return detail::lower_final(detail::lower(pipeline, target, name), target);
}

Algorithm snapshot(const Halide::Pipeline &pipeline) {
    std::vector<Function> outs;
    for (const Func &f : pipeline.outputs()) {
        outs.push_back(f.function());
    }
    Algorithm a;
    for (const auto &kv : build_environment(outs)) {
        std::vector<Algorithm::Update> &us = a.updates[kv.first];
        for (const Definition &d : kv.second.updates()) {
            Algorithm::Update u;
            u.args = d.args();
            u.values = d.values();
            u.predicate = d.predicate();
            u.rvars = d.schedule().rvars();
            us.push_back(u);
        }
    }
    return a;
}

Emitted translate(const Halide::Pipeline &pipeline, const Target &target, const std::string &name, const Algorithm *algorithm,
                  Stage stage, const std::string &plant) {
    if (stage != Stage::Final && !plant.empty()) {
        throw std::invalid_argument("a planted miscompilation (" + plant + ") needs the final stage");
    }
    Stopwatch clock;
    detail::Lowered l = detail::lower(pipeline, target, name);
    Elapsed lowering = clock.elapsed();
    Emitted e = translate_lowered(l, target, name, algorithm, stage, plant);
    e.lowering = lowering;
    return e;
}

Emitted emit(const Halide::Pipeline &pipeline, const Target &target, const std::string &dir, const std::string &name,
             const Algorithm *algorithm, Stage stage, const std::string &plant) {
    Emitted e = translate(pipeline, target, name, algorithm, stage, plant);
    make_dir(dir);
    write_file(dir + "/spec.sare", e.spec);
    write_file(dir + "/prog.sched", e.sched);
    if (stage == Stage::Final) {
        write_file(dir + "/index.json", e.index_checks);
    }
    return e;
}

}  // namespace augur
