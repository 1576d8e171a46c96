//go:build isl

// Package islcheck checks package presburger against isl, the integer set
// library, used as a test oracle. It is built only with the build tag isl
// and links libisl through cgo; the default build of Augur never sees it.
//
// The package has two parts:
//
//   - isl.go: a minimal binding to isl (Ctx, Set, Map, UnionSet, UnionMap):
//     objects are read from isl notation, combined with the operations the
//     engine implements, compared (IsEqual, IsSubset, IsEmpty) and printed.
//     Operations never consume their operands; every object returned must
//     be freed, and Ctx.Free reports objects that were not.
//   - the tests: differential tests that generate random sets and relations
//     as isl-notation strings (gen_test.go), apply one operation in both
//     libraries and require isl to find the two results equal
//     (harness_test.go, diff_test.go), the smallest disagreements found
//     (known_test.go), and benchmarks timing the same operations on the
//     same verifier-shaped inputs in both (bench_test.go).
//
// Results and measurements are discussed in docs/presburger-performance.md.
//
// Run them with
//
//	go test -tags isl ./presburger/islcheck/
//	go test -tags isl -run '^$' -bench . -benchmem ./presburger/islcheck/
//
// Files, in reading order: isl.go.
package islcheck
