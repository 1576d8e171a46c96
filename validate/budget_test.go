package validate

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/augur-verify/augur/smt/encode"
	"github.com/augur-verify/augur/symeval"
)

// TestBudgetDefaults: options that leave the budgets unset get
// DefaultConditionResources and DefaultTotalResources, and a condition
// that has spent the default per-condition budget makes no further query,
// the error naming that budget and its size.
func TestBudgetDefaults(t *testing.T) {
	var o Options
	o.defaults()
	if o.ConditionResources != DefaultConditionResources || o.TotalResources != DefaultTotalResources {
		t.Fatalf("defaults: condition %d, total %d; want %d and %d", o.ConditionResources, o.TotalResources,
			DefaultConditionResources, DefaultTotalResources)
	}
	if DefaultTotalResources < DefaultConditionResources {
		t.Errorf("budgets out of order: condition %d, total %d", DefaultConditionResources, DefaultTotalResources)
	}
	v := &validation{shared: &shared{ctx: context.Background()}}
	v.opts.defaults()
	s := &solver{v: v, ctx: v.ctx, guard: &v.guardHit}
	if left, ok := s.conditionLeft(); !ok || left != DefaultConditionResources {
		t.Errorf("a fresh condition has (%d, %v) left, want (%d, true)", left, ok, uint64(DefaultConditionResources))
	}
	s.used = DefaultConditionResources
	// The budget is spent: no solver is needed, none is touched.
	if _, err := s.solve(nil, DefaultResources); !errors.Is(err, errConditionBudget) ||
		!strings.Contains(err.Error(), fmt.Sprintf("(%d units)", DefaultConditionResources)) {
		t.Errorf("a query past the default condition budget: %v, want %q with its size", err, errConditionBudget)
	}
	v.opts.ConditionResources = Unlimited
	if _, ok := s.conditionLeft(); ok {
		t.Errorf("an Unlimited condition budget bounds the queries")
	}
}

// TestCutAtBudget: the validation's budget is spent in program order,
// whatever order the outcomes came in: a condition is kept only if those
// before it spent less than the budget, one not started past it is cut
// too, and an Unlimited budget cuts nothing.
func TestCutAtBudget(t *testing.T) {
	conds := []*symeval.Condition{{ID: 1}, {ID: 2}, {ID: 3}, {ID: 4}}
	todo := []int{0, 1, 2, 3}
	for _, c := range []struct {
		budget uint64
		want   string // per condition: k kept, c cut, ? left as it was
	}{
		{10, "kkcc"}, {11, "kkkc"}, {1, "kccc"}, {Unlimited, "kkk?"},
	} {
		v := &validation{shared: &shared{ctx: context.Background()}}
		v.opts.TotalResources = c.budget
		outcomes := map[int]*outcome{}
		for i := range 3 { // the fourth was never started
			outcomes[i] = &outcome{status: symeval.Proved, resources: 5}
		}
		if v.overBudget(spentBefore(todo, 3, outcomes)) != (c.want[3] == 'c') {
			t.Errorf("budget %d: the fourth condition's start is not decided as its cut", c.budget)
		}
		n := v.cutAtBudget(conds, todo, outcomes)
		got := ""
		for i := range todo {
			o := outcomes[i]
			switch {
			case o != nil && o.status == symeval.Undecided && strings.HasPrefix(o.reason, errTotalBudget):
				got += "c"
			case o != nil && o.status == symeval.Proved:
				got += "k"
			default:
				got += "?"
			}
		}
		if got != c.want || n != strings.Count(c.want, "c") {
			t.Errorf("budget %d: %s (%d cut), want %s", c.budget, got, n, c.want)
		}
	}
}

// TestTotalResources: with a validation's budget of one unit, the first
// value condition that needs the solver is decided and the next one is
// undecided, its reason naming the budget and the condition that spent
// it, with one job as with two (the same kernel is VALID without that
// budget: TestAbstractedBitVectors).
func TestTotalResources(t *testing.T) {
	for _, jobs := range []int{1, 2} {
		rep := validateFiles(t, filepath.Join("..", "testdata", "corpus", "ediv.sare"), filepath.Join("..", "testdata", "corpus", "ediv_negated.sched"),
			Options{ValueModel: encode.Real, Resources: 3_000_000, TotalResources: 1, Jobs: jobs, NoQuickTest: true})
		if rep.Verdict != Unknown {
			t.Fatalf("jobs %d: verdict %s (%s), want unknown", jobs, rep.Verdict, rep.Reason)
		}
		var first *ConditionResult
		cut := 0
		for i, c := range rep.Conditions {
			switch {
			case c.Resources > 0 && c.Status == Proved && first == nil:
				first = &rep.Conditions[i]
			case c.Status == Undecided:
				if first == nil || c.Reason != fmt.Sprintf("%s (1 units, spent by C%d and the conditions before it)", errTotalBudget, first.ID) {
					t.Errorf("jobs %d: C%d undecided: %s", jobs, c.ID, c.Reason)
				}
				cut++
			}
		}
		if first == nil || cut != 1 {
			t.Errorf("jobs %d: %v proved with the solver first, %d cut by the budget; want one each\n%s", jobs, first, cut, reportText(rep))
		}
	}
}
