package validate

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/augur-verify/augur/sare"
	"github.com/augur-verify/augur/smt/encode"
	"github.com/augur-verify/augur/syntax"
)

// scanValidation returns a validation of a running sum's specification,
// C(i) = C(i - 1) + A(i), with the condition's budget of resource units
// set to budget, and the access C(300) with its types.
func scanValidation(t *testing.T, budget uint64) (*validation, syntax.Expr, map[syntax.Expr]syntax.Type) {
	t.Helper()
	spec := `param N
assume N >= 1
input A(i) : f32
tensor C(i) : f32
C(i) = A(0) where i == 0
C(i) = C(i - 1) + A(i) where i >= 1
output C
`
	prog := `kernel k(N)
assume N >= 1
in  a[i] : f32[N] = A(i)
out c[i] : f32[N] = C(i)
{
  for i < N {
    c[i] {C(i)} := a[i]
  }
}
`
	in, errs := loadInput(&syntax.Source{Name: "s.sare", Text: spec}, &syntax.Source{Name: "k.sched", Text: prog})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	sh := &shared{ctx: context.Background()}
	sh.opts.defaults()
	sh.opts.ConditionResources = budget
	v := newValidation(sh, analysed{in: in}, nil)
	x := &syntax.Call{Fun: &syntax.Ident{Name: "C"}, Args: []syntax.Expr{&syntax.Lit{Kind: syntax.IntLiteral, Text: "300"}}}
	return v, x, map[syntax.Expr]syntax.Type{x: syntax.F32, x.Args[0]: syntax.I32}
}

// scanSolver returns a solver of scanValidation's validation, closed
// when the test ends, and the access C(300) with its types.
func scanSolver(t *testing.T, budget uint64) (*solver, syntax.Expr, map[syntax.Expr]syntax.Type) {
	t.Helper()
	v, x, types := scanValidation(t, budget)
	s, err := newSolver(v)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.close)
	return s, x, types
}

// TestMeterUnfolding: the encoding of a deep unfolding is charged to the
// condition's resource units, encodeNodeUnits a node, and stops, with the
// error of the condition's spent budget and its size, once it has spent
// the budget, whether or not a solver ever ran; without a budget it is
// charged all the same.
func TestMeterUnfolding(t *testing.T) {
	all := encode.ExprOptions{Unfold: func(string) bool { return true }, Axioms: true, Depth: 512}
	s, x, types := scanSolver(t, Unlimited)
	if _, _, err := s.enc.Expr(x, types, nil, all); err != nil {
		t.Fatal(err)
	}
	// C(300) unfolds to 300 additions over two accesses each, and A(0).
	if s.used < 900*encodeNodeUnits {
		t.Fatalf("the unfolding of C(300) charged %d units, want encodeNodeUnits for each of more than 900 nodes", s.used)
	}
	const budget = 100 * encodeNodeUnits
	s, x, types = scanSolver(t, budget)
	_, _, err := s.enc.Expr(x, types, nil, all)
	if !errors.Is(err, errConditionBudget) || !strings.Contains(err.Error(), fmt.Sprintf("(%d units)", budget)) {
		t.Fatalf("an unfolding past the condition's budget: %v, want %q with its size", err, errConditionBudget)
	}
	if s.used < budget || s.used > budget+contextReadNodes*encodeNodeUnits {
		t.Errorf("the unfolding stopped after %d units, want it stopped at the budget, %d", s.used, budget)
	}
	// Spent, the budget stops the next encoding at its first node.
	spent := s.used
	if _, _, err := s.enc.Expr(x, types, nil, all); !errors.Is(err, errConditionBudget) || s.used != spent+encodeNodeUnits {
		t.Errorf("an encoding after the budget was spent: %v, %d units after %d, want the budget's error after one node", err, s.used, spent)
	}
}

// TestMeterEvaluation: a concrete evaluation is charged evalPointUnits an
// element, and the condition's budget bounds its elements: an evaluation
// that needs more than what is left pays for is stopped, with the error
// of the condition's spent budget, and charged as much as it was allowed;
// one within the budget is charged the elements it computed.
func TestMeterEvaluation(t *testing.T) {
	for _, c := range []struct {
		budget uint64
		spent  bool
	}{{Unlimited, false}, {1_000 * evalPointUnits, false}, {100 * evalPointUnits, true}} {
		s, _, _ := scanSolver(t, c.budget)
		ev, err := sare.NewEvaluator(s.v.in.spec, s.v.in.sinfo, map[string]int64{"N": 400}, sare.RandomInputs(1))
		if err != nil {
			t.Fatal(err)
		}
		var capped bool
		s.meter.reset(s.z)
		ev.MaxPoints, capped = s.evalBound(confirmMaxPoints)
		_, evalErr := ev.Eval(context.Background(), "C", []int64{300})
		err = s.chargeEvaluation(ev, capped, evalErr)
		if c.spent {
			if !errors.Is(err, errConditionBudget) || !errors.Is(evalErr, sare.ErrMaxPoints) || s.used != c.budget {
				t.Errorf("budget %d: %v (evaluation: %v), %d units; want the budget's error at %d units", c.budget, err, evalErr, s.used, c.budget)
			}
			continue
		}
		// C(0..300) and A(0..300).
		if err != nil || evalErr != nil || s.used != 602*evalPointUnits {
			t.Errorf("budget %d: %v (evaluation: %v), %d units; want no error and %d units", c.budget, err, evalErr, s.used, 602*evalPointUnits)
		}
	}
}

// TestMeterCondition: a condition whose queries cost Z3 nothing (closed
// by the encoding alone) but whose encoding spends its budget ends
// undecided, the reason naming the budget; with a budget that pays for
// the encodings the kernel is valid.
func TestMeterCondition(t *testing.T) {
	spec, prog := filepath.Join("..", "testdata", "corpus", "rdinit.sare"), filepath.Join("..", "testdata", "corpus", "rdinit_rows.sched")
	rep := validateFiles(t, spec, prog, Options{Jobs: 1, NoQuickTest: true, ConditionResources: 2 * encodeNodeUnits})
	if rep.Verdict != Unknown {
		t.Fatalf("verdict %s (%s), want unknown", rep.Verdict, rep.Reason)
	}
	undecided := 0
	for _, c := range rep.Conditions {
		if c.Status != Undecided {
			continue
		}
		undecided++
		if !strings.Contains(c.Reason, fmt.Sprintf("%s (%d units)", errConditionBudget, 2*encodeNodeUnits)) {
			t.Errorf("C%d undecided: %s; want the condition's budget", c.ID, c.Reason)
		}
	}
	if undecided == 0 {
		t.Errorf("no condition undecided\n%s", reportText(rep))
	}
	if rep := validateFiles(t, spec, prog, Options{Jobs: 1, NoQuickTest: true, ConditionResources: 100_000}); rep.Verdict != Valid {
		t.Errorf("with 100,000 units a condition: verdict %s (%s), want valid", rep.Verdict, rep.Reason)
	}
}

// TestMeterContext: the work Z3 counts in a context outside the checks
// (simplifications) is charged to the condition once, and the units of a
// check in that context, which solve charges, are not charged again.
func TestMeterContext(t *testing.T) {
	s, _, _ := scanSolver(t, Unlimited)
	s.meter.reset(s.z)
	x := s.z.IntConst("x")
	tm := x
	for i := range 2000 {
		tm = tm.Add(s.z.Int(int64(i))).Mul(s.z.Int(3)).Sub(x)
	}
	_ = tm.Gt(s.z.Int(5)).Simplify()
	s.meter.charge(s)
	simplified := s.used
	if simplified < 10_000 {
		t.Fatalf("the simplification of a sum of 2,000 terms charged %d units, want Z3's count of it (tens of thousands)", simplified)
	}
	s.meter.charge(s)
	if s.used != simplified {
		t.Errorf("a charge with no work since the last: %d units after %d", s.used, simplified)
	}
	base, _ := s.meter.count()
	sol, err := s.z.NewSolver()
	if err != nil {
		t.Fatal(err)
	}
	defer sol.Close()
	y := s.z.IntConst("y")
	if err := sol.Assert(x.Mul(x).Add(y.Mul(y)).Eq(s.z.Int(1_000_003))); err != nil {
		t.Fatal(err)
	}
	before := sol.ResourcesUsed()
	if _, err := s.solve(sol, 200_000); err != nil && !errors.Is(err, errResources) {
		t.Fatal(err)
	}
	check := sol.ResourcesUsed() - before
	s.meter.charge(s)
	// The context counted the check and the assertion before it.
	if all, _ := s.meter.count(); check == 0 || s.used != simplified+all-base {
		t.Errorf("after a check of %d units: %d charged in all, want %d", check, s.used, simplified+all-base)
	}
}

// TestConditionTerms: a condition whose encodings hold more Z3 terms
// than Options.ConditionTerms makes no more queries and stays undecided,
// its reason naming that bound, not the resource units, which are far
// from spent; with the default bound the kernel is valid.
func TestConditionTerms(t *testing.T) {
	spec, prog := filepath.Join("..", "testdata", "corpus", "rdinit.sare"), filepath.Join("..", "testdata", "corpus", "rdinit_rows.sched")
	rep := validateFiles(t, spec, prog, Options{Jobs: 1, NoQuickTest: true, ConditionTerms: 20})
	if rep.Verdict != Unknown {
		t.Fatalf("verdict %s (%s), want unknown", rep.Verdict, rep.Reason)
	}
	want := "its encodings hold more than 20 Z3 terms (the condition's bound on terms)"
	undecided := 0
	for _, c := range rep.Conditions {
		if c.Status != Undecided {
			continue
		}
		undecided++
		if !strings.HasSuffix(c.Reason, want) || strings.Contains(c.Reason, "units") {
			t.Errorf("C%d undecided: %s; want the condition's bound on terms", c.ID, c.Reason)
		}
	}
	if undecided == 0 {
		t.Errorf("no condition undecided\n%s", reportText(rep))
	}
	if rep := validateFiles(t, spec, prog, Options{Jobs: 1, NoQuickTest: true}); rep.Verdict != Valid {
		t.Errorf("with the default bound on terms: verdict %s (%s), want valid", rep.Verdict, rep.Reason)
	}
}

// renewalSpec and renewalProg: a condition of five pieces, one per
// value of N that the kernel's assumptions allow (split by an if on the
// same condition: the assumptions alone are kept apart from the
// points), each its own substitution (N fixed), closed by matching
// group by group.
const renewalSpec = `param N
assume N >= 2
input A(i) : f32
tensor T(i) : f32
T(i) = 2.0 * A(i)
output T
`

const renewalProg = `kernel k(N)
assume N >= 2
assume select(N == 3, 1, select(N == 5, 1, select(N == 7, 1, select(N == 9, 1, select(N == 11, 1, 0))))) == 1
in  a[i] : f32[N] = A(i)
out t[i] : f32[N] = T(i)
{
  if select(N == 3, 1, select(N == 5, 1, select(N == 7, 1, select(N == 9, 1, select(N == 11, 1, 0))))) == 1 {
    for i < N {
      t[i] {T(i)} := a[i] + a[i]
    }
  }
}
`

// TestConditionTermsRenewal: a condition of several pieces whose
// context holds more than half of Options.ConditionTerms at a boundary
// between two pieces goes on in a fresh context (solver.shed), the
// substitutions of its groups made again there, and is proved within a
// bound of 100 terms that its five pieces together exceed (without the
// renewals it was undecided at that bound); the renewals fall before
// every piece, each closed by its group's query.
func TestConditionTermsRenewal(t *testing.T) {
	var lines []string
	rep, err := Validate(context.Background(), &syntax.Source{Name: "s.sare", Text: renewalSpec}, &syntax.Source{Name: "p.sched", Text: renewalProg},
		Options{Jobs: 1, NoQuickTest: true, ConditionTerms: 100, Trace: func(s string) { lines = append(lines, strings.TrimSpace(s)) }})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Verdict != Valid {
		t.Fatalf("verdict %s (%s), want valid\n%s", rep.Verdict, rep.Reason, reportText(rep))
	}
	joined := strings.Join(lines, "\n")
	for pi := 1; pi <= 5; pi++ {
		for _, want := range []string{fmt.Sprintf("C5: a fresh Z3 context before piece %d of 5", pi),
			fmt.Sprintf("first, piece %d of 5 (one substitution): same terms", pi)} {
			if !strings.Contains(joined, want) {
				t.Errorf("no line %q in the trace:\n%s", want, joined)
			}
		}
	}
}
