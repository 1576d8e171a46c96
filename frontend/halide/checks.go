package halide

import (
	"context"
	"errors"
	"fmt"
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
// that cannot finish within its steps answers false. eq and tol compare
// values as the validation did.
func NeedsOverflow(ctx context.Context, spec, prog string, w Witness, eq value.Equality, tol float64) (bool, error) {
	sp, sinfo, k, err := parsePair(spec, prog)
	if err != nil {
		return false, err
	}
	kinfo, errs := sched.Check(k, sp)
	if len(errs) > 0 {
		return false, errs
	}
	inputs, err := witnessInputs(sp, w)
	if err != nil {
		return false, err
	}
	ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	for i, o := range []value.Overflow{value.OverflowWraps, value.OverflowUnconstrained} {
		ev, err := sare.NewEvaluator(sp, sinfo, w.Params, inputs)
		if err != nil {
			return false, fmt.Errorf("the counterexample's replay: %w", err)
		}
		_, err = sched.Run(ctx, k, kinfo, ev, sched.Options{MaxSteps: overflowSteps, GarbageWrites: true,
			PoisonValueFailures: true, Equality: eq, Tolerance: tol, KernelOverflow: o})
		_, failed := errors.AsType[*sched.Failure](err)
		switch {
		case err != nil && !failed:
			// A budget, the specification's evaluator, ctx: nothing
			// shown either way.
			return false, nil
		case i == 0 && !failed:
			// The replay does not fail as the kernel wraps: the
			// counterexample needs something else.
			return false, nil
		case i == 1:
			return !failed, nil
		}
	}
	return false, nil
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
