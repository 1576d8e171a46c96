// Package presburger is Augur's exact engine for Presburger sets and
// relations over the integers, in the style of isl: named (possibly nested)
// tuples, symbolic parameters, quasi-affine constraints with integer
// divisions and existential quantifiers, and finite unions.
//
// The package is organised in layers; read them in this order:
//
//   - arith.go: Int, exact integers (int64 fast path, math/big fallback).
//   - space.go: Tuple and Space, the shape of an object (parameters by name,
//     input and output tuples; a set is a relation without input tuple).
//   - basic.go: BasicMap, one conjunction of affine equalities and
//     inequalities over [params | in | out | locals | constant], where locals
//     are integer divisions floor(aff/d) or plain existential variables;
//     normalisation.
//   - empty.go: exact integer emptiness (the Omega test) and Sample.
//   - lineality.go: the rays and lines of an Omega test problem, dropped
//     or cut to one period exactly.
//   - gbr.go: generalized basis reduction, a thin direction of a bounded
//     problem whose hyperplanes replace the Omega test's splinters.
//   - lp.go: an exact rational simplex and a bounded branch-and-bound
//     search, used as shortcuts inside the Omega test.
//   - elim.go: exact elimination of existential variables into divisions
//     (needed to negate a conjunction).
//   - map.go: Map, a finite union of BasicMaps in one space, and every
//     set/relation operation (intersect, subtract, apply, product, ...);
//     subtract_index.go: the index by which a subtraction finds the
//     pieces of the subtrahend that may meet a piece of the minuend.
//   - redundant.go: Simplify (empty pieces, contained pieces, redundant
//     constraints, implicit equalities), all exact over the integers, and
//     SimplifyBestEffort, piece by piece within a budget per piece; the
//     tests on single constraints run on one incremental rational simplex
//     tableau per conjunction (simplex.go), with the Omega test as the
//     fallback.
//   - union.go: UnionMap, maps over several spaces (isl's union_map and
//     union_set).
//   - build.go: Builder, the one translation of quasi-affine expressions
//     into constraints (isl's aff over a local space): constants,
//     variables (Var), sums, constant multiples, floor division and
//     remainder by a constant (each division a local of the conjunction
//     under construction), min and max (piecewise values, QuasiAff), and
//     comparisons (Cmp) into conjunctions and sets. The reader of isl
//     notation and every front end build their sets through it.
//   - print.go, parse.go: isl text notation in both directions (ParseMap,
//     ParseSet, ParseUnionMap, ParseUnionSet, and String on every object);
//     reading is split into a lexer, a parser and an evaluator of the
//     syntax tree through Builder (parse_lexer.go, parse_parser.go,
//     parse_builder.go).
//   - budget.go: context-carried budgets for the exponential operations;
//     shared_budget.go: one budget shared by a sequence of operations.
//
// On top of these layers sit lexicographic optimisation and piecewise
// quasi-affine functions (lexopt*.go, aff.go, pw.go), substitution,
// gist and coalescing (subst.go, gist.go, coalesce.go).
//
// A typical use: parse two relations, compose them and test a property:
//
//	w, _ := presburger.ParseMap("[N] -> { S[i] -> A[floor(i/2)] : 0 <= i < N }")
//	conflict, _ := w.ApplyRange(w.Reverse())      // pairs of iterations writing one cell
//	lt, _ := presburger.LexLT(w.Space().Domain())  // i < i'
//	race, _ := conflict.Intersect(lt)
//	empty, err := race.IsEmpty(ctx)                // false: S[0] and S[1] race
//
// Sets are relations whose space has no input tuple; the same types and
// method names serve both (there are no separate Set types: a "set" is a
// *Map whose Space().IsSet() holds, a "union set" a *UnionMap of sets). Every operation is exact over the integers;
// operations that can take exponential time take a context.Context that
// also carries a Budget (see WithBudget) and fail with an error wrapping
// ErrBudget or the context's error rather than running away. Methods
// without a context (Intersect, Union, Reverse, ApplyRange, ...) are
// polynomial in the sizes of their operands and never test emptiness, so
// their results may contain empty pieces; Simplify removes them.
//
// Programming errors (a constraint row of the wrong width, a division with
// a non-positive denominator, pieces of different shapes in NewMap) panic,
// like an out-of-range slice index; every other failure is an error value.
//
// Files, in reading order: arith.go, space.go, columns.go, basic.go,
// empty.go, lineality.go, gbr.go, lp.go, elim.go, map.go, subtract_index.go,
// simplify_quick.go, redundant.go, simplex.go, hull.go, union.go, print.go, parse.go, parse_lexer.go,
// parse_parser.go, build.go, parse_builder.go, budget.go, shared_budget.go, lexopt.go,
// lexopt_problem.go, lexopt_tableau.go, lexopt_context.go,
// lexopt_disjoint.go, aff.go, pw.go,
// subst.go, gist.go, coalesce.go, coalesce_divs.go, trace.go.
package presburger
