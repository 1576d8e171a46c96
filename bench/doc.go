// Package bench is Augur's benchmark suite: the benchmarks of Clément 2022
// (Translation Validation of Tensor Compilers), Table 6.1, with the time
// the published prototype took on each and the time Augur aims at (a tenth
// of it), plus the stencil chain at 1 to 32 stages for the depth curve.
//
// Every benchmark exists in up to two versions:
//
//   - Halide: the pipeline of halide/apps compiled by stock Halide 14 and
//     translated by the Halide front end (package halide). The pairs are
//     generated once and checked in under halide/NAME/ (spec.sare and
//     prog.sched), so that running the suite does not need Halide;
//     Regenerate rebuilds them.
//   - Bundled: the same algorithm written for the bundled compiler (an
//     .alg file under alg/, or generated, for the stencil chain), compiled
//     when the benchmark runs.
//
// Run validates one benchmark under a wall-clock guard; `augur bench` runs
// the suite and prints the table, and BenchmarkValidate (go test -bench)
// times the checked-in pairs.
//
// The apps' bench (apps.go, the table of Halide's apps that translate;
// appsrun.go, RunApp; appstable.go, WriteAppTable) times, for each app,
// stock Halide's compilation of its generator's pipeline against the
// translation and the validation, in the same run.
//
// Files, in reading order: suite.go, run.go, chain.go, table.go, regen.go,
// apps.go, appsrun.go, appstable.go.
package bench
