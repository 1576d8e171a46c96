// Augur's front end for stock Halide 14: a Halide pipeline to the pair of
// files Augur validates, a specification (spec.sare) and Halide's own loop
// nest, annotated (prog.sched). See docs/halide.md.
//
// Usage, for a pipeline built in code:
//
//   #include "augur_halide.h"
//   ...
//   Halide::Pipeline p(out);
//   augur::emit(p, Halide::get_host_target(), "out");   // writes out/spec.sare, out/prog.sched
//
// Build with -std=c++17 against Halide 14 (Halide.h) and link with the
// objects of this directory and -lHalide14.
#ifndef AUGUR_HALIDE_H
#define AUGUR_HALIDE_H

#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "Halide.h"

namespace augur {

// Unsupported is thrown for any construct of the pipeline or of its lowered
// statement that the front end cannot translate. Its message names the
// construct. Nothing is ever silently dropped.
class Unsupported : public std::runtime_error {
public:
    explicit Unsupported(const std::string &what)
        : std::runtime_error(what) {
    }
};

// Elapsed is a duration, in seconds: of the process's CPU time (all its
// threads, CLOCK_PROCESS_CPUTIME_ID) and of wall-clock time.
struct Elapsed {
    double cpu = 0, wall = 0;
};

// Stopwatch measures the Elapsed time since its construction.
class Stopwatch {
public:
    Stopwatch();
    Elapsed elapsed() const;

private:
    Elapsed start_;
};

// Emitted is the translation of one pipeline.
// DerivedParam is an integer parameter of both sides that abstracts an
// integer Halide computes from float parameters (docs/halide.md,
// "Integers computed from float parameters"): its name, and its
// computation, an expression of the specification's language.
struct DerivedParam {
    std::string name, def;
};

struct Emitted {
    std::string spec;   // the .sare text
    std::string sched;  // the .sched text
    // At the final stage, the index overflow obligations (JSON), written
    // to index.json.
    std::string index_checks;
    // The integer parameters computed from float ones, in declaration order.
    std::vector<DerivedParam> derived;
    // Names of the translation, for tools that feed the files with values:
    // the specification's tensor of each input buffer and of each output,
    // and the parameter names of each buffer's mins and extents, by Halide
    // name ("input" -> "input_"; "input.min.0" -> "input_min_0").
    std::map<std::string, std::string> tensors;
    std::map<std::string, std::string> params;
    // The outputs a pipeline updates in place (their pure definition is
    // undef(): the updates start from what the buffer holds), by Halide
    // name: the specification's input tensor of their initial contents.
    std::map<std::string, std::string> initial;
    // lowering is the time translate took to lower the pipeline for the
    // capture (Halide's passes up to the captured statement), the first
    // part of its work.
    Elapsed lowering;
};

// Algorithm is a pipeline's algorithm as generate() left it, before its
// schedule: rfactor() rewrites the update it applies to in place (the
// update then merges the partial results of a new intermediate func), and
// the specification must stay the user's algorithm. Take it with
// snapshot() once the algorithm is defined and before it is scheduled, and
// pass it to translate or emit; without it, an rfactor'd update is
// specified as Halide rewrote it.
struct Algorithm {
    struct Update {
        std::vector<Halide::Expr> args, values;
        Halide::Expr predicate;
        std::vector<Halide::Internal::ReductionVariable> rvars;
    };
    std::map<std::string, std::vector<Update>> updates;  // by func name, every func of the pipeline
};

// snapshot records the definitions of every func of the pipeline.
Algorithm snapshot(const Halide::Pipeline &pipeline);

// lower_before_flattening drives libHalide's lowering passes in Halide 14's
// order (src/Lower.cpp) and returns the statement as it stands before
// storage flattening: the one HL_DEBUG_CODEGEN=2 prints under "Lowering
// after bounding small realizations:". name is the pipeline's name (the
// generator's, or "pipeline").
Halide::Internal::Stmt lower_before_flattening(const Halide::Pipeline &pipeline,
                                               const Halide::Target &target,
                                               const std::string &name);

// Stage is where the translated statement is captured: before storage
// flattening (multi-dimensional realizations, stores and loads), or the
// final statement, after every lowering pass Halide 14 runs for a CPU
// target before lower_parallel_tasks (flattened buffers, vectors,
// unrolled and partitioned loops), which the translation brings back to
// multi-dimensional accesses (docs/halide.md, "Stages").
enum class Stage { BeforeFlattening, Final };

// lower_final drives libHalide's lowering passes in Halide 14's order up
// to the final statement (see Stage) and returns it: the one
// HL_DEBUG_CODEGEN=2 prints under "Lowering after final simplification:".
Halide::Internal::Stmt lower_final(const Halide::Pipeline &pipeline, const Halide::Target &target,
                                   const std::string &name);

// translate lowers the pipeline and translates it. At Stage::Final, plant
// (for tests) names a miscompilation planted in the final statement before
// it is translated: "stride" (the first store to an output buffer with its
// stride of dimension 1 one too large), "offset" (that store one element
// further), "epilogue" (the last if without else around a store
// dropped: a partitioned loop's or a vectorised row's tail) or "late"
// (that tail's outermost loop started one iteration late). kernel names the kernel
// (a sanitised copy of name is used); throws Unsupported.
Emitted translate(const Halide::Pipeline &pipeline, const Halide::Target &target,
                  const std::string &name, const Algorithm *algorithm = nullptr,
                  Stage stage = Stage::BeforeFlattening, const std::string &plant = "");

// emit translates the pipeline and writes dir/spec.sare and dir/prog.sched
// (dir is created if missing). Throws Unsupported, or std::runtime_error
// when the files cannot be written.
Emitted emit(const Halide::Pipeline &pipeline, const Halide::Target &target,
             const std::string &dir, const std::string &name = "pipeline",
             const Algorithm *algorithm = nullptr, Stage stage = Stage::BeforeFlattening,
             const std::string &plant = "");

// derived_text is the derived parameters of e, a line "derived NAME =
// DEF" each, as the driver's --derived file and JIT samples hold them.
std::string derived_text(const Emitted &e);

// JitSizes gives the extents of buffers by Halide name: every output's, and
// optionally some inputs' (the others are sized by Halide's bounds query);
// "NAME.order", a buffer's storage order, innermost dimension first
// (dense in the order of the dimensions without it).
using JitSizes = std::map<std::string, std::vector<int>>;

// jit_sample JIT-compiles and realises the pipeline on seeded random inputs
// and writes, to path, the inputs, the parameters and the outputs in the
// text format of docs/halide.md ("Checking against Halide's JIT"), named
// as in the translation.
void jit_sample(Halide::Pipeline pipeline, const Halide::Target &target,
                const std::string &name, const JitSizes &sizes, uint64_t seed,
                const std::string &path);

// confirm realises a pipeline on the parameters and inputs of a
// counterexample, read from in_path (lines "param NAME = V" and
// "in TENSOR I... = V", named as in the translation; every element of every
// input buffer given), and writes the outputs, in the sample's format
// ("out TENSOR I... = V"), to out_prefix.0 and out_prefix.1: the scheduled
// pipeline run twice, its output buffers and every allocation filled first
// with one poison byte, then another; and to out_prefix.algorithm: the
// unscheduled pipeline (the same algorithm without its schedule). A run
// that Halide's runtime rejects (a failed check) writes its message to
// out_prefix.RUN.error instead (docs/halide.md, "Confirming an INVALID on
// Halide's code").
void confirm(Halide::Pipeline scheduled, Halide::Pipeline unscheduled,
             const Halide::Target &target, const std::string &name,
             const Algorithm *algorithm, const std::string &in_path,
             const std::string &out_prefix);

}  // namespace augur

#endif  // AUGUR_HALIDE_H
