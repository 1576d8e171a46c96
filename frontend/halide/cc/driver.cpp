// The main of augur halide's generator driver: linked with a Halide
// Generator source, it instantiates the generator, builds its pipeline and
// translates it (see docs/halide.md).
//
//   driver -g NAME [-p key=value]... [-t TARGET] -o DIR       write DIR/spec.sare and DIR/prog.sched
//   driver ... -o DIR --derived FILE                          also write the derived parameters ("derived NAME = DEF")
//   driver ... [--stage final|before-flattening]              the statement captured (default before-flattening)
//   driver ... --stage final --plant KIND                     plant a miscompilation in the final statement (tests)
//   driver ... --stmt FILE                                    write the captured statement
//   driver ... --halide-lower                                 lower with Halide's own compile_to_module (for HL_DEBUG_CODEGEN=2)
//   driver ... --halide-compile OBJ                           compile as stock Halide does: compile_to_module, then code to OBJ
//   driver ... --times FILE                                   write the time of each phase run ("PHASE CPU WALL", seconds)
//   driver ... --jit FILE --size NAME=E0,E1... [--seed N]     JIT-realise on random inputs, write the sample
//   driver ... --confirm FILE --result PREFIX                 realise on a counterexample's values, scheduled and not
//   driver --list                                             list the registered generators
//
// Exit status: 0 success, 1 a construct that cannot be translated or any
// other error (printed on standard error), 2 a usage error.
#include "augur_halide.h"

#include <cstdlib>
#include <fstream>
#include <iostream>

namespace {

// build_pipeline calls GeneratorBase::build_pipeline, protected in Halide
// 14, through a pointer to member named via a derived class.
struct Builder : Halide::Internal::GeneratorBase {
    // build runs the generator's generate() and schedule(), recording the
    // algorithm in between (rfactor rewrites it; see augur::Algorithm).
    static Halide::Pipeline build(Halide::Internal::GeneratorBase &g, augur::Algorithm *alg) {
        void (Halide::Internal::GeneratorBase::*generate)() = &Builder::call_generate;
        void (Halide::Internal::GeneratorBase::*schedule)() = &Builder::call_schedule;
        (g.*generate)();
        *alg = augur::snapshot(g.get_pipeline());
        (g.*schedule)();
        return g.get_pipeline();
    }
    // algorithm runs the generator's generate() only: the algorithm with
    // the default schedule.
    static Halide::Pipeline algorithm(Halide::Internal::GeneratorBase &g) {
        void (Halide::Internal::GeneratorBase::*generate)() = &Builder::call_generate;
        (g.*generate)();
        return g.get_pipeline();
    }
};

// Times are the phases a run of the driver timed, in the order they ran.
using Times = std::vector<std::pair<std::string, augur::Elapsed>>;

// halide_compile compiles the pipeline as stock Halide compiles a
// generator's: its lowering (compile_to_module) and, when object is not
// empty, its code generation into that object file, each timed.
void halide_compile(Halide::Pipeline &p, const Halide::Target &target, const std::string &gen, const std::string &object,
                    Times *times) {
    augur::Stopwatch lowering;
    Halide::Module m = p.compile_to_module(p.infer_arguments(), gen, target);
    times->push_back({"halide_lower", lowering.elapsed()});
    if (!object.empty()) {
        augur::Stopwatch codegen;
        m.compile({{Halide::OutputFileType::object, object}});
        times->push_back({"halide_codegen", codegen.elapsed()});
    }
}

// emit_timed translates the pipeline into dir (and its derived parameters
// into derived_path, when not empty), timing the lowering for the capture
// and the rest of the translation.
void emit_timed(const Halide::Pipeline &p, const Halide::Target &target, const std::string &dir, const std::string &gen,
                const augur::Algorithm &alg, augur::Stage stage, const std::string &plant, const std::string &derived_path,
                Times *times) {
    augur::Stopwatch clock;
    augur::Emitted e = augur::emit(p, target, dir, gen, &alg, stage, plant);
    augur::Elapsed all = clock.elapsed();
    times->push_back({"capture_lower", e.lowering});
    times->push_back({"translate", {all.cpu - e.lowering.cpu, all.wall - e.lowering.wall}});
    if (!derived_path.empty()) {
        std::ofstream f(derived_path);
        f << augur::derived_text(e);
        if (!f) {
            throw std::runtime_error("cannot write " + derived_path);
        }
    }
}

// write_times writes the timed phases, "PHASE CPU WALL" a line.
void write_times(const std::string &path, const Times &times) {
    std::ofstream f(path);
    for (const auto &t : times) {
        f << t.first << " " << t.second.cpu << " " << t.second.wall << "\n";
    }
    if (!f) {
        throw std::runtime_error("cannot write " + path);
    }
}

int usage(const std::string &msg) {
    std::cerr << "augur-halide: " << msg << "\n"
              << "usage: driver -g NAME [-p key=value]... [-t TARGET] [-o DIR] [--stage S] [--stmt FILE] [--halide-lower] [--halide-compile OBJ]\n"
              << "              [--jit FILE --size NAME=E0,E1,... [--seed N]] [--confirm FILE --result PREFIX] [--times FILE] | --list\n";
    return 2;
}

bool split_kv(const std::string &s, std::string *k, std::string *v) {
    size_t eq = s.find('=');
    if (eq == std::string::npos || eq == 0) {
        return false;
    }
    *k = s.substr(0, eq);
    *v = s.substr(eq + 1);
    return true;
}

// parse_extents reads a comma-separated list of extents, E0,E1,...
std::vector<int> parse_extents(const std::string &v) {
    std::vector<int> ext;
    size_t p = 0;
    while (p < v.size()) {
        size_t c = v.find(',', p);
        if (c == std::string::npos) {
            c = v.size();
        }
        ext.push_back(std::stoi(v.substr(p, c - p)));
        p = c + 1;
    }
    return ext;
}

}  // namespace

int main(int argc, char **argv) {
    std::string plant, gen, out, derived_path, stmt_path, jit_path, confirm_path, result_prefix, object, times_path,
        target_str = "host";
    bool list = false, halide_lower = false;
    augur::Stage stage = augur::Stage::BeforeFlattening;
    uint64_t seed = 1;
    Halide::Internal::GeneratorParamsMap params;
    augur::JitSizes sizes;
    for (int i = 1; i < argc; i++) {
        std::string a = argv[i];
        auto next = [&]() -> std::string {
            if (i + 1 >= argc) {
                throw std::invalid_argument(a + " needs a value");
            }
            return argv[++i];
        };
        try {
            if (a == "-g") {
                gen = next();
            } else if (a == "-o") {
                out = next();
            } else if (a == "-t") {
                target_str = next();
            } else if (a == "-p") {
                std::string k, v, kv = next();
                if (!split_kv(kv, &k, &v)) {
                    return usage("-p takes key=value, got " + kv);
                }
                params[k] = v;
            } else if (a == "--derived") {
                derived_path = next();
            } else if (a == "--stmt") {
                stmt_path = next();
            } else if (a == "--stage") {
                std::string v = next();
                if (v == "final") {
                    stage = augur::Stage::Final;
                } else if (v == "before-flattening") {
                    stage = augur::Stage::BeforeFlattening;
                } else {
                    return usage("--stage takes final or before-flattening, got " + v);
                }
            } else if (a == "--plant") {
                plant = next();
            } else if (a == "--halide-lower") {
                halide_lower = true;
            } else if (a == "--halide-compile") {
                object = next();
            } else if (a == "--times") {
                times_path = next();
            } else if (a == "--jit") {
                jit_path = next();
            } else if (a == "--confirm") {
                confirm_path = next();
            } else if (a == "--result") {
                result_prefix = next();
            } else if (a == "--seed") {
                seed = std::stoull(next());
            } else if (a == "--size") {
                std::string k, v, kv = next();
                if (!split_kv(kv, &k, &v)) {
                    return usage("--size takes NAME=E0,E1,..., got " + kv);
                }
                sizes[k] = parse_extents(v);
            } else if (a == "--list") {
                list = true;
            } else {
                return usage("unknown argument " + a);
            }
        } catch (const std::exception &e) {
            return usage(e.what());
        }
    }
    auto names = Halide::Internal::GeneratorRegistry::enumerate();
    if (list) {
        for (const std::string &n : names) {
            std::cout << n << "\n";
        }
        return 0;
    }
    if (gen.empty()) {
        if (names.size() != 1) {
            return usage("-g NAME is needed: the source registers " + std::to_string(names.size()) + " generators");
        }
        gen = names[0];
    }
    if (std::find(names.begin(), names.end(), gen) == names.end()) {
        std::string known;
        for (const std::string &n : names) {
            known += (known.empty() ? "" : ", ") + n;
        }
        return usage("no generator named " + gen + " (registered: " + known + ")");
    }
    if (out.empty() && stmt_path.empty() && jit_path.empty() && confirm_path.empty() && !halide_lower && object.empty()) {
        return usage("nothing to do: give -o DIR, --stmt FILE, --jit FILE, --confirm FILE, --halide-lower or --halide-compile");
    }
    if (!derived_path.empty() && out.empty()) {
        return usage("--derived FILE needs -o DIR");
    }
    if (confirm_path.empty() != result_prefix.empty()) {
        return usage("--confirm FILE and --result PREFIX go together");
    }
    try {
        Halide::Target target(target_str);
        auto g = Halide::Internal::GeneratorRegistry::create(gen, Halide::GeneratorContext(target));
        g->set_generator_param_values(params);
        augur::Algorithm alg;
        Halide::Pipeline p = Builder::build(*g, &alg);
        Times times;
        if (halide_lower || !object.empty()) {
            // Halide's own lowering (for comparing HL_DEBUG_CODEGEN=2's
            // output with the captured statement), and its code.
            halide_compile(p, target, gen, object, &times);
        }
        if (!stmt_path.empty()) {
            std::ofstream f(stmt_path);
            if (stage == augur::Stage::Final) {
                f << augur::lower_final(p, target, gen) << "\n";
            } else {
                f << augur::lower_before_flattening(p, target, gen) << "\n";
            }
            if (!f) {
                throw std::runtime_error("cannot write " + stmt_path);
            }
        }
        if (!out.empty()) {
            emit_timed(p, target, out, gen, alg, stage, plant, derived_path, &times);
        }
        if (!jit_path.empty()) {
            augur::jit_sample(p, target, gen, sizes, seed, jit_path);
        }
        if (!confirm_path.empty()) {
            auto fresh = Halide::Internal::GeneratorRegistry::create(gen, Halide::GeneratorContext(target));
            fresh->set_generator_param_values(params);
            augur::confirm(p, Builder::algorithm(*fresh), target, gen, &alg, confirm_path, result_prefix);
        }
        if (!times_path.empty()) {
            write_times(times_path, times);
        }
    } catch (const augur::Unsupported &e) {
        std::cerr << "augur-halide: cannot translate " << gen << ": " << e.what() << "\n";
        return 1;
    } catch (const std::exception &e) {
        std::cerr << "augur-halide: " << gen << ": " << e.what() << "\n";
        return 1;
    }
    return 0;
}
