package presburger

import (
	"context"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// readRowsFile reads an Omega test problem written as in
// testdata/empty_sc1_final.txt: "nv N", then one row per line, "ge" (row
// >= 0) or "eq" (row = 0) followed by the N coefficients and the
// constant, brackets ignored; "#" starts a comment line.
func readRowsFile(t *testing.T, name string) (eqs, ineqs [][]Int, nv int) {
	t.Helper()
	src, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	for i, l := range strings.Split(string(src), "\n") {
		f := strings.Fields(strings.NewReplacer("[", " ", "]", " ").Replace(l))
		if len(f) == 0 || strings.HasPrefix(f[0], "#") {
			continue
		}
		if f[0] == "nv" {
			if nv, err = strconv.Atoi(f[1]); err != nil {
				t.Fatalf("%s:%d: %v", name, i+1, err)
			}
			continue
		}
		if len(f) != nv+2 {
			t.Fatalf("%s:%d: %d entries, want %d", name, i+1, len(f)-1, nv+1)
		}
		r := make([]Int, nv+1)
		for k, x := range f[1:] {
			v, err := strconv.ParseInt(x, 10, 64)
			if err != nil {
				t.Fatalf("%s:%d: %v", name, i+1, err)
			}
			r[k] = NewInt(v)
		}
		switch f[0] {
		case "eq":
			eqs = append(eqs, r)
		case "ge":
			ineqs = append(ineqs, r)
		default:
			t.Fatalf("%s:%d: unknown row kind %q", name, i+1, f[0])
		}
	}
	return eqs, ineqs, nv
}

// TestEmptySc1FinalStage is the emptiness test that stopped sc1 at the
// final stage: 48 inequalities with floor divisions by up to 3,104,
// periodic along a line and unbounded along a ray, that isl decides
// empty. The Omega test's splinters on the divisions' bounds took
// 2,150,772 steps; with the line cut to one period, the ray's rows
// dropped and the split on a thin direction of a reduced basis it takes
// about 1,300. Dropping any one row, the set is non-empty exactly when
// isl says so (rows 14, 33, 38 and 46, counted from 0).
func TestEmptySc1FinalStage(t *testing.T) {
	eqs, ineqs, nv := readRowsFile(t, "testdata/empty_sc1_final.txt")
	if len(ineqs) != 48 || nv != 19 {
		t.Fatalf("read %d inequalities over %d variables, want 48 over 19", len(ineqs), nv)
	}
	const maxSteps = 5000
	for _, tc := range []struct {
		name  string
		solve func(*meter, [][]Int, [][]Int, int) (bool, error)
	}{{"omegaFeasible", omegaFeasible}, {"omegaOnly", omegaOnly}} {
		m := newMeter(WithBudget(context.Background(), Budget{MaxSteps: maxSteps}))
		feas, err := tc.solve(m, eqs, ineqs, nv)
		if err != nil || feas {
			t.Fatalf("%s = %v, %v after %d steps; want empty within %d steps", tc.name, feas, err, m.steps, maxSteps)
		}
		t.Logf("%s: empty in %d steps", tc.name, m.steps)
	}
	nonEmpty := []int{14, 33, 38, 46} // isl's answers
	for i := range ineqs {
		rows := slices.Delete(slices.Clone(ineqs), i, i+1)
		m := newMeter(WithBudget(context.Background(), Budget{MaxSteps: 200_000}))
		feas, err := omegaOnly(m, eqs, rows, nv)
		if err != nil {
			t.Fatalf("without row %d: %v", i, err)
		}
		if want := slices.Contains(nonEmpty, i); feas != want {
			t.Errorf("without row %d: feasible = %v, isl says %v", i, feas, want)
		}
	}
}
