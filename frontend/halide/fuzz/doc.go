// Package fuzz is the engine of augur fuzz-halide: it draws random Halide
// pipelines under random legal schedules, has stock Halide 14 build and
// lower each in one long-running fuzz driver process (cc/fuzz.cpp of
// package halide, linked with the translator and libHalide), gets the
// translation, has it validated (by a Validator the caller passes:
// validation lives above the front ends), confirms every invalid verdict
// by realising the scheduled pipeline and its unscheduled algorithm with
// Halide's JIT on poisoned allocations, minimises each confirmed
// miscompilation by delta debugging and writes it as a bug bundle with a
// standalone C++ repro. See docs/fuzz-halide.md.
//
// Start reading at Case and Generate, then Campaign.
//
// Files, in reading order: case.go (Case, the case format's model and
// text), parse.go (Parse, the case format read back, with positioned
// errors), gen.go (Generate: the pipeline, and where each func is
// computed and stored), genstage.go (each stage's loop transformations,
// reductions, vectorization and parallelism), driver.go (BuildDriver,
// which compiles the fuzz driver once into the cache, and Driver, its
// process and protocol), campaign.go (Campaign and RunCase: translate,
// validate, confirm), sizes.go (the output sizes a confirmation tries
// past the counterexample's, from the schedule's factors), minimise.go (Minimise, delta debugging over
// directives, updates, funcs and terms), bundle.go (Bundle, a confirmed
// miscompilation's files), repro.go (Repro, the case as a standalone C++
// program), summary.go (Summary, the campaign's account in text and
// JSON).
package fuzz
