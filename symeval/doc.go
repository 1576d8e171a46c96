// Package symeval is Augur's verifier core: the symbolic evaluation of a
// kernel (package sched) against its specification (package sare) over
// Presburger sets and relations (package presburger), following chapter 5
// of Clément, "Translation Validation of Tensor Compilers" (2022).
//
// The phases, in the order a reader should take them:
//
//   - scope.go, affine.go, lower.go: the quasi-affine index language
//     (indices, bounds, conditions, lets) translated into presburger
//     objects over the parameters and loop variables in scope. min, max,
//     select and or become unions of pieces; / and % by a constant become
//     floor divisions. Start at Scope.
//   - context.go: expression contexts, values with their index parts taken
//     out into holes, such as A(□1, □2) * B(□2, □3)⟨i, k, j⟩, interned in a
//     Contexts table so that equal contexts share one tuple name, with equal
//     holes fused (Contexts.Decompose).
//   - heap.go: symbolic heaps, relations from array cells a[i, j] to
//     context tuples, with update (Definition 5.2.2), iterated update
//     (Definition 5.2.4), union over a parallel loop and ν.
//   - prophetic.go: prophetic evaluation (Fig. 5.3), the heap of every
//     statement's writes assuming its annotations; Prophesy is the entry
//     point, and Prophecy also keeps the effect of every statement and of
//     one iteration of every loop.
//   - symvalue.go, symbolic.go, race.go, obligation.go: the pieces of
//     symbolic evaluation (Fig. 5.4): the value of an expression in a
//     symbolic heap (Fig. 5.1) and its read set (Fig. 5.2); the heap in
//     which each assignment runs and the Presburger side conditions of
//     S-ASSIGN (reads defined, writes in bounds) and of the out bindings
//     (every cell written); the read-write races and the write-write
//     conflicts of S-PARLOOP; and the value obligations left for a solver:
//     ⟦e⟧_h = decompose(t) of S-ASSIGN, the agreement of conflicting
//     writes and the out bindings' values.
//   - spec.go: the specification's sanity, checked before its equations are
//     used as rewrite rules: equations of one tensor never overlap, and the
//     defined points, found as a greatest fixpoint, have well-founded
//     dependences (a lexicographic ranking function); annotations and value
//     obligations may only name tensor elements proven defined.
//   - verify.go: Analyze assembles all of it into the kernel's list of
//     verification Conditions, in program order: the Presburger ones
//     decided here (Proved, Failed with the violating points, or Undecided
//     when over budget), the value obligations left Pending, each with its
//     Obligation (printed in the notation of Fig. 5.5 by Pretty).
//   - garbage.go: the garbage writes of Clément 2022, section 9.9: an
//     assignment reading a cell never written (a round-up tail) writes the
//     undefined value ⊥ at those iterations instead of failing, found by a
//     bounded fixpoint of prophetic evaluations; ⊥ must not reach an out
//     cell (Options.NoGarbageWrites turns it off).
//   - guard.go: no panic escapes an exported function.
//
// Figure and definition numbers are those of Clément 2022. This package
// gives no verdict: package validate discharges the Pending obligations
// with Z3 (package smt) and decides the verdict. A prophecy alone only
// says what a kernel computes if its annotations hold.
//
// Files, in reading order: scope.go, affine.go, lower.go, context.go,
// heap.go, prophetic.go, symvalue.go, readloc.go, condmerge.go,
// clampread.go, offsetread.go, cellfn.go, symbolic.go, race.go,
// obligation.go, assume.go, hull.go, spec.go, verify.go, garbage.go,
// rounds.go, guard.go.
package symeval
