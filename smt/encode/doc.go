// Package encode translates Augur's value expressions, index expressions,
// constraints and Presburger sets into Z3 terms (package smt), so that the
// verifier can discharge obligations of the form "for every point of a
// Presburger set, value expression Impl equals value expression Spec" by
// asserting Points ∧ Impl ≠ Spec and asking Z3 for unsat.
//
// Start reading at Encoder (encoder.go) and Encoder.Expr (expr.go); the
// operations of each theory live in bv.go (integers), float.go (both float
// models), cast.go and builtin.go; tensor accesses and their unfolding in
// access.go, their data-dependent indices in dataindex.go; index expressions and constraints in index.go; Presburger sets
// in set.go; equality and reading models back in model.go. The package
// example shows a whole verification condition.
//
// # Value models
//
// Integers are always bit-vectors of their type's width, with exactly the
// semantics of package value: wrapping + - *, Euclidean / and % on signed
// types, x/0 = x%0 = 0, shifts by out-of-range amounts giving 0 or -1.
// Those that are conversions of integers (of indices, and of truncated
// reals in the Real model) keep their divisions by constants and their
// equalities in the integers (intform.go), exactly.
// Booleans are Z3 booleans. Floats have two models:
//
//   - IEEE: f32 and f64 are Z3's FloatingPoint(8, 24) and (11, 53), every
//     operation rounds to nearest-even, and the encoding agrees bit for bit
//     with package value (NaN payloads aside, which value does not model
//     either): min and max reproduce Go's math.Min and math.Max on NaN,
//     infinities and signed zeros, % is value's a - b*floor(a/b) with
//     a rounding after each step, float-to-integer casts truncate and are
//     undefined out of range. This is what a bit-exact proof needs.
//   - Real: floats are mathematical reals, every operation exact; casts
//     between f32 and f64 are the identity. This proves what the author's
//     prototype proved: equality up to real arithmetic (reassociation,
//     fast-math), not bit-exactness. x/0 is Z3's unspecified but functional
//     division by zero: a/0 = a/0, but nothing else is known of it. A float
//     literal is the exact rational of the float it denotes in its type
//     (0.1 in f32 is 13421773/134217728); an index cast f32(i) is i itself;
//     floor, ceil and round (half to even) are exact; a float-to-integer
//     cast truncates and is defined when the result fits the type.
//
// exp, log, pow, sin, cos, tanh, fast_inverse and fast_inverse_sqrt are
// uninterpreted functions, one per function and type (in the Real model,
// sqrt too): sound, since both sides of an obligation apply the same
// function, and only as complete as syntactic agreement allows. In the
// Real model sqrt's definition on the non-negative reals and log's bounds
// (Encoder.logBounds) are among the axioms of the applications encoded.
//
// A bit cast reinterpret_T(x) between integers of one width is the
// identity on the bit-vector. In the IEEE model, bits become a float by
// Z3's to_fp of the bit-vector, exactly, and a float becomes bits by
// fp.to_ieee_bv, defined when it is not NaN (value leaves a NaN's bits
// undefined). In the Real model each direction is an uninterpreted
// function, one per float type, counted among the uninterpreted builtins.
//
// # Definedness
//
// Expr returns, beside each value, a boolean term def that holds exactly when
// the value is defined: false for a float-to-integer cast out of range (or of
// NaN or an infinity, in the IEEE model), and false for anything computed from
// an undefined value (select is eager: both branches count). The value term of
// an undefined value is unspecified and must not be relied upon.
//
// Tensor accesses are the exception: T(args) is the application of the
// uninterpreted function Tensor(T), taken to be defined. An element outside
// every equation's domain, or whose equation's body is undefined there, is
// undefined in the language, and this encoding cannot see it. The verifier
// must prove separately that every tensor element an obligation reads is
// defined: that it lies in its tensor's domain (over Presburger sets), and
// that the body of its equation is defined there (the def of Expr applied to
// the body, with the equation's variables bound to the element's indices).
// Given those checks, the uninterpreted function stands for the true tensor,
// whatever it is, so an equality proved for every interpretation of the
// function holds for the true one.
//
// # Ranges of float tensors
//
// A computed float tensor bounded by interval arithmetic over its
// equations (value.Interval, rangefacts.go) has its range assumed of every
// access, among the axioms, when a query has a float-to-integer conversion
// the ranges do not decide; a conversion whose operand's range fits the
// target type is defined outright.
//
// # Unconstrained values
//
// Under a specification's value.OverflowUnconstrained, every i32 and i64
// + - *, negation and division of an equation's body that unfolding
// substitutes carries, beside def, a Bool term free that holds where it
// overflows (signedOverflow: from the operands' and the result's sign
// bits, or, for *, the product of the operands sign-extended to twice the
// width; for operands that are conversions of integers, the exact result
// of their integers, intOverflow), propagated as package value propagates unconstrained values
// (select: its condition and the chosen branch). The expression itself
// (a kernel's value or annotation) wraps; its freedom is that of the
// elements it unfolds. Where a body is free, the unfolded element's value
// is the tensor's application, not the body: a kernel may have stored any
// value for it. ExprFree returns the term; Expr drops it, and a caller
// that ignores it asks for the wrapped value wherever the element is
// constrained and for the application elsewhere, which is sound.
//
// # Unfolding
//
// With ExprOptions.Unfold, an access to a computed tensor is replaced by its
// equations: ite(where₁(args), body₁(args), ite(where₂(args), ..., T(args))).
// This is sound for the same reason: at a point inside an equation's domain
// the tensor equals the equation's body, and at a point outside every domain
// the fallback T(args) is what the access was before unfolding. Every access
// to an unfoldable tensor with the same arguments (after Z3's simplification)
// gets the same term within one Encoder (see Encoder.ResetUnfoldings), so that
// both sides of an obligation, encoded separately, unfold alike.
//
// # Solving
//
// Use smt.Context.NewSolver for these formulas. NewSolverForLogic("QF_FP")
// decides satisfiable IEEE queries much faster, but in Z3 4.8.12 it treats
// Int, + and <= as uninterpreted symbols and returns bogus models of
// formulas with index terms. Satisfiable IEEE queries over unfolded tensors
// (several f32 products to bit-blast) may take the default solver tens of
// seconds: give the solver a time limit.
//
// # Sets
//
// Encoder.Set encodes membership in a Presburger set with fresh Z3 constants
// for its integer divisions and existential variables. The formula is only
// meaningful asserted positively: negating it, or putting it under an ite
// condition, turns its existentials into universals and is unsound.
//
// Files, in reading order: encoder.go, index.go, intform.go, expr.go,
// access.go, dataindex.go, rangefacts.go, builtin.go, cast.go, bv.go,
// float.go, set.go, model.go.
package encode
