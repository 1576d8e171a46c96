// Package symeval is Augur's verifier core: the symbolic evaluation of a
// kernel (package sched) against its specification (package sare) over
// Presburger sets and relations (package presburger), following chapter 5
// of Clément, "Translation Validation of Tensor Compilers" (2022), and the
// conditions of its reductions, following chapter 7. It turns a pair into
// its list of verification Conditions; the kernel is correct when every
// one holds. Start at Analyze (verify.go).
//
// # Where a verification condition comes from
//
// Every condition is built here, and every set in it through the engine's
// constructors (never by printing isl text and reading it back). Analyze
// returns them in this order, each with the failure it rules out (its
// sched.Kind), its place, and a status: Presburger conditions are decided
// here (Proved, Failed with the violating points, or Undecided when over
// budget, by gen.decided in verify.go, under the assumptions of assume.go
// and with the pieces outside their hull dropped by hull.go); value
// obligations are left Pending for package validate, which discharges them
// with Z3.
//
//   - Specification sanity ("ill-defined specification"), first: two
//     equations of one tensor overlap, a recursion is not well founded, an
//     equation reads an undefined element (spec.go, analyzeSpec; recorded
//     by specChecks in verify.go). An in binding that loads a computed
//     tensor must load defined elements ("undefined read" at the binding:
//     inBindings in verify.go, over spec.go's defined points).
//   - For each assignment and each par loop, in program order. An
//     assignment (rule S-ASSIGN, assign in verify.go), in the heap it runs
//     in (symbolic.go, from the prophecy of prophetic.go), has
//     "out-of-bounds read" and "undefined read", the
//     cells its value reads outside its arrays or where the heap holds
//     nothing (undefinedReads in symbolic.go, with the read locations of
//     readloc.go, condmerge.go, offsetread.go, clampread.go and cellfn.go;
//     split by bounds in verify.go; with garbage writes, restricted to the
//     iterations that are not garbage by garbage.go), and for a read at a
//     data-dependent index the same two conditions over the index's
//     value (dataread_conds.go); "out-of-bounds
//     write" (outOfBoundsWrites, symbolic.go); "undefined annotation", an
//     annotation naming an element the specification does not define
//     (undefinedSpecReads, spec.go, on the annotation's contexts of
//     context.go); "annotation mismatch", the value obligations ⟦e⟧_h =
//     decompose(t) (valueObligations, obligation.go, over the symbolic
//     values of symvalue.go), Proved at once when both sides are the same
//     expression. A par loop (rule S-PARLOOP, parLoop in verify.go) has
//     "read-write race", decided (readWriteRaces, race.go), and
//     "write-write conflict", the value obligations that two iterations
//     writing one cell agree (writeConflicts, race.go). An obligation one
//     of whose sides is the undefined value ⊥ of a garbage write is
//     decided by garbageObligation (garbage.go).
//   - For the out bindings: "output not written" (missingOutputs,
//     symbolic.go; with garbage writes also the out cells holding the
//     undefined value ⊥, garbageOutputs in garbage.go), and "output wrong
//     value", the obligations that every out cell holds its tensor element
//     (outputObligations, obligation.go).
//   - Reductions, for a pair whose specification has any: the pair is first
//     transformed (TransformReductions, reduce_transform.go) so that each
//     accumulation's value is an ordinary "annotation mismatch" obligation
//     of Analyze against the body at its position, and a position outside
//     the reduction's domain an "undefined annotation"; then
//     Analysis.AddReductionConditions (reduce.go) adds the conditions on
//     the positions, decided over the instance model of reduce_model.go
//     with the sets of reduce_sets.go: "not an accumulator", "position
//     accumulated twice", "incomplete reduction", "write-write conflict"
//     (a par loop's iteration writing a cell another accumulates into),
//     "wrong identity", "wrong reduction operator" and, in the ieee value
//     model, "re-ordered float reduction"; reduce_witness.go gives a
//     failed one its violating instance.
//
// # The phases
//
// The index language (scope.go, affine.go, lower.go) is translated into
// presburger objects over the parameters and loop variables in scope: min,
// max, select and or become unions of pieces; / and % by a constant become
// floor divisions; the linear forms refer to typed variables
// (presburger.Var), and lower.go builds them with the engine's builder of
// quasi-affine constraints (presburger.Builder). A let over the
// parameters whose value has too many pieces is kept as a symbol, a fresh
// parameter with the facts of its bounds (opaque.go); so is a let inside
// a loop whose translation is too large or too costly, a symbol of the
// iteration that its block's heap loses by an exact projection. The translation's
// own work, the products of pieces and of conjunctions, counts against
// the evaluation's step budget (affine.go, work), as the engine's
// operations do. Expression contexts (context.go) take the index parts
// out of a value into holes, such as A(□1, □2) * B(□2, □3)⟨i, k, j⟩,
// interned in a Contexts table so that equal contexts share one tuple
// name. Symbolic heaps (heap.go) are relations from array cells to context
// tuples, with update (Definition 5.2.2), iterated update (Definition
// 5.2.4), union over a parallel loop and ν. Prophetic evaluation
// (prophetic.go, Fig. 5.3; Prophesy) computes the heap of every
// statement's writes assuming its annotations. Symbolic evaluation (Fig.
// 5.4) then walks the kernel in that prophecy: the value of an expression
// in a heap (Fig. 5.1) and its read set (Fig. 5.2), and the conditions
// above. The garbage writes of Clément 2022, section 9.9 (garbage.go,
// rounds.go) let an assignment reading a cell never written (a round-up
// tail) write ⊥ instead of failing, found by a bounded fixpoint of
// prophetic evaluations; ⊥ must not reach an out cell
// (Options.NoGarbageWrites turns them off).
//
// Figure and definition numbers are those of Clément 2022. This package
// gives no verdict: package validate discharges the Pending obligations
// with Z3 (package smt) and decides the verdict. A prophecy alone only
// says what a kernel computes if its annotations hold.
//
// Files, in reading order: scope.go, affine.go, cancel.go, minmaxcmp.go,
// opaque.go and lower.go (the index language; a sum's equal atoms
// cancelled before its pieces are built; a comparison of too many pieces split
// at the min and max of its operands; a let of too many pieces kept as a
// symbol); assume.go (the assumptions' domain); context.go (expression
// contexts); heap.go (symbolic heaps); heapform.go (a heap component
// too large to coalesce at once, coalesced a form at a time); prophetic.go (prophetic
// evaluation); carry.go (a store's floor divisions that its scope fixes
// to zero, the carry of a delinearised column); symvalue.go (values and read sets in a heap); symvalue_shared.go
// (the reads an expression repeats, evaluated once); readloc.go,
// condmerge.go, offsetread.go, clampread.go and cellfn.go (the locations
// and contents of reads, in few pieces); dataread.go, dataread_conds.go,
// dataread_copies.go and dataread_spec.go (reads at data-dependent
// indices, Clément 2022, section 9.6.1: their values, their conditions,
// cells of two forms that the specification's copy equations make one,
// and the specification's accesses at such indices); datawrite.go (writes at data-dependent
// indices, section 9.6.3, lowered to writes of every cell of their
// array); symbolic.go (the heap of each
// assignment, undefined reads, bounds, missing outputs); race.go (par
// loops); obligation.go (value obligations); spec.go (the specification's
// sanity); verify.go (Analyze, the list of conditions); hull.go (violations
// outside the assumptions' hull); garbage.go and rounds.go (garbage
// writes); dead.go (dead stores: the iterations whose written cell
// nothing reads); reduce_transform.go, reduce_model.go, reduce_sets.go,
// reduce.go and reduce_witness.go (reductions); guard.go (no panic
// escapes an exported function).
package symeval
