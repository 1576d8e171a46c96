// Package halide is Augur's front end for stock Halide 14: it compiles a
// Halide Generator source together with the C++ translator of cc/ against
// libHalide, runs it, and gets back the pair Augur validates, a
// frontend.Pair: the pipeline's algorithm as a specification (spec.sare)
// and one kernel, frontend.Prog, Halide's own loop nest, taken before
// storage flattening (or, at StageFinal, the final statement, its
// flattened accesses delinearised) and annotated (prog.sched).
//
// The C++ sources (cc/: the public header augur_halide.h, the translator's
// files, one per concern, and driver.cpp, the driver's main) are embedded
// in the package and compiled on first use into a cache directory, keyed
// by their content, the compiler, its flags and Halide.h; a generator (a
// Generator: its sources, include directories, definitions and libraries)
// is compiled and linked once per content of its sources, flags and the
// headers they include, so repeated runs only run the driver. See
// docs/halide.md.
//
// Start reading at Toolchain.Build, then Translate.
//
// Files, in reading order: halide.go (the Toolchain, which builds the
// translator and a generator's driver, and the runs of the driver: Emit
// writes the pair's files, CapturedStmt and HalideStmt give Halide's
// statement, JIT realises the pipeline), pch.go (Halide.h precompiled
// once per toolchain, first on a generator's include path), final.go (HalideFinalStmt,
// Halide's own final statement, to compare with the one StageFinal
// captures), buildflags.go (a generator's
// flags from a compilation database, compile_commands.json, and the
// dependency files the compiler writes), translate.go (TranslateResult and
// Translate, the front end's entry points, the pair and the derived
// parameters the driver writes read back), overflow.go (the index
// overflow obligations the driver writes at the final stage, read back), timed.go (CompileTimed and
// TranslateTimed: stock Halide's compilation of the pipeline and the
// translation, as the driver times them),
// mutate.go (Mutate, miscompilations planted in a kernel's text),
// sample.go (the samples JIT returns, checked against a pair with the
// reference interpreter), confirm.go (Confirm, a counterexample run on
// Halide's compiled pipeline, scheduled and not, and compared with the
// specification), derived.go (DerivedParam, the integer parameters
// that abstract integers Halide computes from float inputs, as the driver
// writes them), checks.go
// (DroppedCheck, the run-time checks of Halide's code that the
// translation leaves out of the kernel, ExtentsTooLarge, the one on the
// product of a buffer's extents computed without running anything, and
// NeedsOverflow and OverflowReplay, whether a counterexample needs a
// signed overflow of the kernel's arithmetic, undefined in Halide).
package halide
