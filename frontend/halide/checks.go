package halide

import "strings"

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
