// Package symeval is Augur's verifier core: the symbolic evaluation of a
// kernel (package sched) against its specification (package sare) over
// Presburger sets and relations (package presburger), following chapter 5
// of seed 002.
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
//   - symvalue.go, symbolic.go, race.go, obligation.go (internal,
//     incomplete): the first pieces of symbolic evaluation (Fig. 5.4): the
//     value of an expression in a symbolic heap (Fig. 5.1), its read set
//     (Fig. 5.2), the heap in which each assignment runs, the Presburger
//     side conditions of S-ASSIGN (reads defined, write in bounds), of the
//     out bindings (every cell written) and of S-PARLOOP (no read-write
//     race), and the value obligations left for a solver: ⟦e⟧_h =
//     decompose(t) of S-ASSIGN, the write-write conflicts of S-PARLOOP and
//     the out bindings' values.
//   - guard.go: no panic escapes an exported function.
//
// Not here yet: the assembly of all conditions into one verdict and the
// discharge of the obligations by package smt. Nothing in this package is a verdict: a prophecy only says
// what a kernel computes if its annotations hold.
package symeval
