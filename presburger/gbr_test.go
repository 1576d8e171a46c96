package presburger

import (
	"context"
	"math/rand"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/augur-verify/augur/internal/testtier"
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

// TestEmptySc1FinalStage replays the emptiness tests that stopped sc1 at
// the final stage, one after the other: 48 and 57 inequalities with
// floor divisions by up to 3,104, periodic along a line and unbounded
// along a ray, that isl decides empty. The Omega test's splinters on the
// divisions' bounds took 2,150,772 steps on the first and more than
// 3,000,000 on the second; with the line cut to one period, the ray's
// rows dropped and the split on a thin direction of a reduced basis they
// take a few thousand. Dropping any one row, each set is non-empty
// exactly when isl says so (the rows listed, counted from 0). The third,
// 2 equalities and 71 inequalities, took 1,530,767 steps while the dark
// shadows split as the problems do; without, about 41,000 (its rows
// left out one at a time: TestLongEmptySc1FinalStageRows).
func TestEmptySc1FinalStage(t *testing.T) {
	for _, tc := range sc1FinalStageEmpty[:2] {
		checkEmptyRows(t, tc, true)
	}
	checkEmptyRows(t, sc1FinalStageEmpty[2], false)
}

// TestLongEmptySc1FinalStageRows checks the third problem of
// TestEmptySc1FinalStage with each of its 71 rows left out against isl's
// answers (about 15 s of CPU).
func TestLongEmptySc1FinalStageRows(t *testing.T) {
	testtier.Long(t)
	checkEmptyRows(t, sc1FinalStageEmpty[2], true)
}

// emptyRowsCase is an Omega test problem that isl decides empty: its
// file, its size, the rows whose removal leaves points by isl, and the
// steps each solver may take.
type emptyRowsCase struct {
	file     string
	rows, nv int
	nonEmpty []int
	maxSteps int
}

// sc1FinalStageEmpty holds the emptiness tests met by sc1 at the final
// stage (see the files' headers).
var sc1FinalStageEmpty = []emptyRowsCase{
	{"testdata/empty_sc1_final.txt", 48, 19, []int{14, 33, 38, 46}, 5000},
	{"testdata/empty_sc1_final_57.txt", 57, 21, []int{20, 37, 47}, 5000},
	{"testdata/empty_sc1_final_73.txt", 71, 32, []int{29, 33, 61, 69}, 60000},
}

// checkEmptyRows checks that both solvers find tc's problem empty within
// its steps and, with rows set, that leaving out each row in turn leaves
// points exactly where isl says so.
func checkEmptyRows(t *testing.T, tc emptyRowsCase, rows bool) {
	t.Helper()
	eqs, ineqs, nv := readRowsFile(t, tc.file)
	if len(ineqs) != tc.rows || nv != tc.nv {
		t.Fatalf("%s: read %d inequalities over %d variables, want %d over %d", tc.file, len(ineqs), nv, tc.rows, tc.nv)
	}
	for _, sv := range []struct {
		name  string
		solve func(*meter, [][]Int, [][]Int, int) (bool, error)
	}{{"omegaFeasible", omegaFeasible}, {"omegaOnly", omegaOnly}} {
		m := newMeter(WithBudget(context.Background(), Budget{MaxSteps: tc.maxSteps}))
		feas, err := sv.solve(m, eqs, ineqs, nv)
		if err != nil || feas {
			t.Fatalf("%s: %s = %v, %v after %d steps; want empty within %d steps", tc.file, sv.name, feas, err, m.steps, tc.maxSteps)
		}
		t.Logf("%s: %s: empty in %d steps", tc.file, sv.name, m.steps)
	}
	if !rows {
		return
	}
	for i := range ineqs {
		rows := slices.Delete(slices.Clone(ineqs), i, i+1)
		m := newMeter(WithBudget(context.Background(), Budget{MaxSteps: 200_000}))
		feas, err := omegaOnly(m, eqs, rows, nv)
		if err != nil {
			t.Fatalf("%s: without row %d: %v", tc.file, i, err)
		}
		if want := slices.Contains(tc.nonEmpty, i); feas != want {
			t.Errorf("%s: without row %d: feasible = %v, isl says %v", tc.file, i, feas, want)
		}
	}
}

// hideLinesAndRays returns the rows (over nv variables) of a problem
// with the same integer emptiness but a line and a ray: with a new
// variable z, every variable y_i becomes x_i + c_i*z (the line x = -c*t,
// z = t leaves every row unchanged), a new variable s enters a few new
// rows with a positive coefficient (a ray: s large satisfies them), and a
// random unimodular change of the nv+2 variables mixes all of them.
func hideLinesAndRays(r *rand.Rand, eqs, ineqs [][]Int, nv int) (heqs, hineqs [][]Int, hnv int) {
	hnv = nv + 2
	z, s := nv, nv+1
	c := make([]Int, nv)
	for i := range c {
		c[i] = NewInt(int64(r.Intn(7) - 3))
	}
	embed := func(row []Int) []Int {
		out := make([]Int, hnv+1)
		copy(out, row[:nv])
		for i := 0; i < nv; i++ {
			out[z] = out[z].Add(row[i].Mul(c[i]))
		}
		out[hnv] = row[nv]
		return out
	}
	for _, e := range eqs {
		heqs = append(heqs, embed(e))
	}
	for _, e := range ineqs {
		hineqs = append(hineqs, embed(e))
	}
	for k := r.Intn(3); k >= 0; k-- {
		row := make([]Int, hnv+1)
		for i := 0; i <= nv; i++ {
			row[i] = NewInt(int64(r.Intn(9) - 4))
		}
		row[s] = NewInt(int64(1 + r.Intn(5)))
		row[hnv] = NewInt(int64(r.Intn(9) - 4))
		hineqs = append(hineqs, row)
	}
	// Column operations col_j += k*col_i keep the integer points in
	// bijection (x = U*w with U unimodular).
	for k := 0; k < hnv; k++ {
		i, j := r.Intn(hnv), r.Intn(hnv)
		if i == j {
			continue
		}
		f := NewInt(int64(1 - 2*r.Intn(2)))
		for _, rows := range [][][]Int{heqs, hineqs} {
			for _, row := range rows {
				row[j] = row[j].Add(f.Mul(row[i]))
			}
		}
	}
	return heqs, hineqs, hnv
}

// TestEmptinessHiddenLinesBrute checks the emptiness test on bounded
// conjunctions with floor divisions (by 2 to 3, and by 17 to 40, whose
// bounds make many splinters), as drawn and with their variables mixed
// with a line and a ray (hideLinesAndRays): the answer must be the
// enumeration's of the bounded conjunction, with and without the
// branch-and-bound shortcut (and then with the Chernikov pruning
// verified). The conjunctions as drawn must be decided within the
// budget; the mixed ones, whose coefficients grow, and the Omega test
// without its shortcut may exhaust it, but must be right whenever they
// answer, and answer in most cases.
func TestEmptinessHiddenLinesBrute(t *testing.T) {
	r := rand.New(rand.NewSource(35))
	ctx := WithBudget(context.Background(), Budget{MaxSteps: 30_000})
	n := propCount(80)
	nonempty, tests, capped := 0, 0, 0
	for it := 0; it < n; it++ {
		c := randDivCaseDens(r, 2, 2)
		if it%2 == 1 {
			c = randDivCaseDens(r, 17, 24)
		}
		want := c.bruteNonEmpty()
		if want {
			nonempty++
		}
		b := c.basic(false)
		eqs, ineqs := b.flatRows()
		heqs, hineqs, hnv := hideLinesAndRays(r, eqs, ineqs, b.nVars())
		for _, tc := range []struct {
			name  string
			solve func(*meter, [][]Int, [][]Int, int) (bool, error)
		}{{"omegaFeasible", omegaFeasible}, {"omegaOnly", omegaOnly}} {
			for k, rows := range []struct {
				eqs, ineqs [][]Int
				nv         int
			}{{eqs, ineqs, b.nVars()}, {heqs, hineqs, hnv}} {
				feas, err := tc.solve(newMeter(ctx), rows.eqs, rows.ineqs, rows.nv)
				if k == 1 || tc.name == "omegaOnly" {
					tests++
					if errorsIs(err, ErrBudget) {
						capped++
						continue
					}
				}
				if err != nil {
					t.Fatalf("case %d: %s over %d variables: %v\n%v", it, tc.name, rows.nv, err, dumpBasic(b))
				}
				if feas != want {
					t.Fatalf("case %d: %s over %d variables: feasible = %v, enumeration %v\n%v", it, tc.name, rows.nv, feas, want, dumpBasic(b))
				}
			}
		}
	}
	if nonempty == 0 || nonempty == n {
		t.Errorf("%d of %d cases non-empty: the cases do not test both answers", nonempty, n)
	}
	if capped*5 > tests {
		t.Errorf("%d of %d tests of the mixed conjunctions or without the shortcut over budget", capped, tests)
	}
	t.Logf("%d cases, %d non-empty; %d of %d tests of the mixed ones or without the shortcut over budget", n, nonempty, capped, tests)
}
