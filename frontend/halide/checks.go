package halide

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/big"
	"slices"
	"strings"
	"time"

	"github.com/augur-verify/augur/sare"
	"github.com/augur-verify/augur/sched"
	"github.com/augur-verify/augur/value"
)

// droppedChecks are the run-time checks of Halide's code that the
// translation leaves out of the kernel, storage folding's (docs/halide.md,
// "Prefetches and storage folding's dynamic checks"): each a phrase of
// the error message Halide's runtime gives when the check fails, and the
// runtime function that reports it.
var droppedChecks = []struct{ phrase, check string }{
	{"is too small to store the required region", "halide_error_fold_factor_too_small"},
	{"was accessed out of order by loop", "halide_error_bad_fold"},
	// AddImageChecks' bound on the product of a buffer's extents, a
	// product of parameters that the kernel's assumptions, Presburger
	// constraints, cannot state.
	{"Product of extents for buffer", "halide_error_buffer_extents_too_large"},
}

// ExtentsTooLarge is the message of Halide's run-time error
// halide_error_buffer_extents_too_large when the parameters params (named
// as in the translation, a buffer b's extents b_extent_0, b_extent_1, ...
// beside its mins b_min_0, ...) fail the check AddImageChecks puts at the
// start of every pipeline on each input and output buffer (Halide 14,
// src/AddImageChecks.cpp): the product of its first k extents, for each
// k >= 2, at most the target's maximum buffer size (2^31 - 1, 2^63 - 1
// with the large_buffers feature); empty when every buffer passes. A
// buffer's extents are read from dimension 0 up to the first one it
// lacks.
func ExtentsTooLarge(params map[string]int64, target string) string {
	maxSize := big.NewInt(math.MaxInt32)
	if slices.Contains(strings.FieldsFunc(target, func(r rune) bool { return r == '-' }), "large_buffers") {
		maxSize = big.NewInt(math.MaxInt64)
	}
	var buffers []string
	for name := range params {
		if b, ok := strings.CutSuffix(name, "_extent_0"); ok {
			if _, ok := params[b+"_min_0"]; ok {
				buffers = append(buffers, b)
			}
		}
	}
	slices.Sort(buffers)
	for _, b := range buffers {
		product := big.NewInt(1)
		for k := 0; ; k++ {
			e, ok := params[fmt.Sprintf("%s_extent_%d", b, k)]
			if _, haveMin := params[fmt.Sprintf("%s_min_%d", b, k)]; !ok || !haveMin || e < 0 {
				// A negative extent fails another check first.
				break
			}
			product.Mul(product, big.NewInt(e))
			if k > 0 && product.Cmp(maxSize) > 0 {
				return fmt.Sprintf("Product of extents for buffer %s is %s, which exceeds the maximum size of %s", b, product, maxSize)
			}
		}
	}
	return ""
}

// DroppedCheck names the check the translation leaves out of the kernel
// at which Halide's compiled code stopped with the run-time error
// message msg, or is empty when msg is no such check's. The kernel goes
// on where Halide's code stops there: an INVALID verdict whose
// counterexample stops Halide's code so shows no wrong output of
// Halide's.
func DroppedCheck(msg string) string {
	for _, d := range droppedChecks {
		if strings.Contains(msg, d.phrase) {
			return d.check
		}
	}
	return ""
}

// DroppedCheckReason is the reason of the UNKNOWN verdict that an
// INVALID becomes when its counterexample stops Halide's code at the
// check named check (as DroppedCheck names it).
func DroppedCheckReason(check string) string {
	return "the counterexample stops Halide's code at its check " + check +
		", which the translation leaves out; Augur's invalid verdict on the kernel shows no wrong output of Halide's"
}

// OverflowReason is the reason of the UNKNOWN verdict that an INVALID
// not confirmed on Halide's code becomes when its counterexample needs a
// signed overflow of the kernel's arithmetic (NeedsOverflow). Halide 14
// leaves the overflow of Int(32) and Int(64) arithmetic undefined (its
// Type::can_overflow is false for them, the simplifier rewrites under
// that assumption, and LLVM is told the operations do not wrap), and its
// simplifier may introduce such an overflow where the algorithm has none
// (min(a, b) - b computed as min(a - b, 0)).
const OverflowReason = "the counterexample needs a signed 32- or 64-bit integer overflow in the kernel's arithmetic, " +
	"undefined in Halide; Augur's invalid verdict on the kernel shows no wrong output of Halide's"

// UndefinedReason is the reason of the UNKNOWN verdict an INVALID becomes
// when its counterexample lies where the algorithm itself has no value
// (Confirmation's cause Undefined).
const UndefinedReason = "the counterexample lies where the algorithm itself has no value (an operation undefined in Halide there); " +
	"Augur's invalid verdict on the kernel shows no wrong output of Halide's"

// RoundingReason is the reason of the UNKNOWN verdict an INVALID becomes
// when Halide's code differs from the algorithm on its counterexample
// only at output cells whose values are sensitive to rounding
// (Confirmation's cause Rounding).
const RoundingReason = "the counterexample's failing values are sensitive to rounding (the algorithm's own values in binary32 and binary64 differ there), where Halide's code may compute any value close to the real one; " +
	"Augur's invalid verdict on the kernel shows no wrong output of Halide's"

// overflowSteps bounds each of NeedsOverflow's runs, as validation
// bounds the replay of a counterexample.
const overflowSteps = 5_000_000

// NeedsOverflow reports whether the counterexample w of an INVALID
// verdict on the translation (spec, prog) needs the kernel's signed
// arithmetic to overflow: the reference interpreter, run at w's
// parameters and inputs with garbage writes and ⊥ in place of every
// stored value that fails its check (so that only a failure reaching an
// output counts, as validation's replay counts it), fails as the kernel
// wraps, and passes when the kernel's i32 and i64 overflow is
// unconstrained, as Halide's is (sched.Options.KernelOverflow). A run
// that cannot finish within its steps answers false (OverflowReplay says
// why). eq and tol compare values as the validation did.
func NeedsOverflow(ctx context.Context, spec, prog string, w Witness, eq value.Equality, tol float64) (bool, error) {
	needs, _, err := OverflowReplay(ctx, spec, prog, w, eq, tol)
	return needs, err
}

// OverflowReplay is NeedsOverflow, and when a run of the replay could not
// finish (its steps, the specification's evaluator, ctx), undecided says
// why, needs then false.
func OverflowReplay(ctx context.Context, spec, prog string, w Witness, eq value.Equality, tol float64) (needs bool, undecided string, err error) {
	sp, sinfo, k, err := parsePair(spec, prog)
	if err != nil {
		return false, "", err
	}
	kinfo, errs := sched.Check(k, sp)
	if len(errs) > 0 {
		return false, "", errs
	}
	inputs, err := witnessInputs(sp, w)
	if err != nil {
		return false, "", err
	}
	ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	for i, o := range []value.Overflow{value.OverflowWraps, value.OverflowUnconstrained} {
		ev, err := sare.NewEvaluator(sp, sinfo, w.Params, inputs)
		if err != nil {
			return false, "", fmt.Errorf("the counterexample's replay: %w", err)
		}
		_, err = sched.Run(ctx, k, kinfo, ev, sched.Options{MaxSteps: overflowSteps, GarbageWrites: true,
			PoisonValueFailures: true, Equality: eq, Tolerance: tol, KernelOverflow: o})
		_, failed := errors.AsType[*sched.Failure](err)
		switch {
		case err != nil && !failed:
			// A budget, the specification's evaluator, ctx: nothing
			// shown either way.
			return false, fmt.Sprintf("the reference interpreter's replay (%s) did not finish: %v", o, err), nil
		case i == 0 && !failed:
			// The replay does not fail as the kernel wraps: the
			// counterexample needs something else.
			return false, "", nil
		case i == 1:
			return !failed, "", nil
		}
	}
	return false, "", nil
}

// NotRunReason is the reason of the UNKNOWN verdict that an INVALID
// becomes when its counterexample could not be run on Halide's code (why)
// and the replay that would tell whether it needs a signed overflow did
// not finish either (undecided, as OverflowReplay says).
func NotRunReason(why, undecided string) string {
	return "the counterexample could not be run on Halide's code (" + why + "), and whether its failure needs a signed integer overflow, undefined in Halide, is not decided: " +
		undecided + "; Augur's invalid verdict on the kernel is no claim about Halide's output"
}

// EmptyOutputReason is the reason of the UNKNOWN verdict that an
// INVALID not confirmed on Halide's code becomes when its
// counterexample's output is empty (an extent of 0: no cell can be
// wrong) and Halide's compiled pipeline, realised over non-empty output
// regions, stops at the check named check (as DroppedCheck names it),
// which the translation leaves out. Such a failure of the kernel lies in
// what Halide's code computes for no output, or where its check stops it.
func EmptyOutputReason(check string) string {
	return "the counterexample's output is empty, so no output cell of Halide's can be wrong there, and over non-empty output regions Halide's code stops at its check " +
		check + ", which the translation leaves out; Augur's invalid verdict on the kernel shows no wrong output of Halide's"
}
