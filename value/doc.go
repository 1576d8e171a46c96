// Package value computes the scalar semantics shared by specifications and
// kernels: typed values (bool, i8 to i64, u8 to u64, f32, f64) or the
// undefined value, and every operation of the two languages on them, as
// docs/formats.md describes them.
//
// Integers wrap to their width after every operation; / and % are
// Euclidean on signed types and total (x / 0 == x % 0 == 0); f32 results
// are rounded to binary32 after every operation; undefined operands give
// undefined results. Under a specification's OverflowUnconstrained
// (Halide's meaning), an i32 or i64 operation that overflows gives an
// unconstrained value (Value.IsUnconstrained), which any kernel value
// satisfies (Equality.Accepts). Start reading at Value, then Binary and
// Call.
//
// Inexact marks the values the real value model may disagree with, and
// DeriveReadings the kernel literals that model reads as constants derived
// from the specification's (a compiler's x / 3 folded to x * 0.333333343).
//
// Files, in reading order: value.go, literal.go, builtin.go, ops.go,
// equality.go, overflow.go, exact.go, derived.go, random.go, interval.go
// (interval arithmetic over floats, rounded as each value model rounds).
package value
