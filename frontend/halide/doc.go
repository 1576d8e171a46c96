// Package halide is Augur's front end for stock Halide 14: it compiles a
// Halide Generator source together with the C++ translator of cc/ against
// libHalide, runs it, and gets back the pair Augur validates: the
// pipeline's algorithm as a specification (spec.sare) and Halide's own loop
// nest, taken before storage flattening and annotated (prog.sched).
//
// The C++ sources are embedded in the package and compiled on first use
// into a cache directory, keyed by their content, the compiler, its flags
// and Halide.h; a generator is compiled and linked once per content too, so
// repeated runs only run the driver. See docs/halide.md.
//
// Files, in reading order: halide.go, sample.go, mutate.go.
package halide
