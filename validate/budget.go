package validate

import (
	"fmt"

	"github.com/augur-verify/augur/symeval"
)

// The validation's budget of resource units (Options.TotalResources):
// the value conditions to discharge, in program order, each with its
// duplicates once, spend it in turn. A condition is decided only if the
// conditions before it spent less than the budget in all; it and every
// condition after it are otherwise undecided. What a condition spends is
// counted in Z3's resource units in a fresh context of its own, whatever
// ran before it or beside it, so the conditions decided are the same
// however the workers were scheduled: the order of the sum is the
// program's, not the order in which the outcomes came.
//
// Work is bounded too: discharge starts no condition once those before
// it that are over already spent the budget (they can only have spent
// more, so the condition would be cut anyway), and the workers deciding
// ahead stop once what they decided spent it. A condition that ran
// beyond the cut (its predecessors were still running) has its outcome
// dropped: keeping it would make the report depend on timing.

// spentBefore returns what the conditions todo[:k] whose outcomes are in
// outcomes spent together: a lower bound of what todo[:k] spend.
func spentBefore(todo []int, k int, outcomes map[int]*outcome) uint64 {
	var sum uint64
	for _, i := range todo[:k] {
		if o := outcomes[i]; o != nil {
			sum += o.resources
		}
	}
	return sum
}

// overBudget reports whether spent resource units exhaust the
// validation's budget (Options.TotalResources).
func (v *validation) overBudget(spent uint64) bool {
	b := v.opts.TotalResources
	return b != 0 && b != Unlimited && spent >= b
}

// cutAtBudget makes undecided, in outcomes, every condition of todo (in
// program order) that the conditions before it leave no budget for, and
// returns how many it cut.
func (v *validation) cutAtBudget(conds []*symeval.Condition, todo []int, outcomes map[int]*outcome) int {
	var spent uint64
	last, cut := 0, 0
	for _, i := range todo {
		if !v.overBudget(spent) {
			if o := outcomes[i]; o != nil {
				spent += o.resources
			}
			last = i
			continue
		}
		if outcomes[i] == nil && v.ctx.Err() != nil {
			// Cancelled: the condition stays as the cancellation
			// leaves it.
			continue
		}
		outcomes[i] = &outcome{status: symeval.Undecided,
			reason: fmt.Sprintf("%s (%d units, spent by C%d and the conditions before it)", errTotalBudget, v.opts.TotalResources, conds[last].ID)}
		cut++
	}
	return cut
}

// errTotalBudget is the reason of a condition that the validation's
// budget (Options.TotalResources) leaves undecided.
const errTotalBudget = "not decided: the validation's budget of resource units for all its conditions is spent"
