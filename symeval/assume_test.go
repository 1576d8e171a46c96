package symeval

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/augur-verify/augur/presburger"
)

// TestConjoinAssumptions checks that conjoining the constraints of one
// piece first gives the domain of the assume lines conjoined in order:
// the same set, on Halide-like assumptions whose selects and mins split
// into pieces that the equalities stated last contradict, and on lines
// that leave a domain of several pieces or none.
func TestConjoinAssumptions(t *testing.T) {
	ctx := context.Background()
	params := []string{"M", "N", "K", "Mmin"}
	for _, lines := range [][]string{
		{
			"Mmin <= select(min(M, N) < 256, Mmin, max(min(M + Mmin, 1) - 1, Mmin))",
			"select(min(M, N) < 256, M + Mmin, max(min(16 * ((M - 1) / 16) + 16, M + Mmin), Mmin + 1)) <= M + Mmin",
			"0 <= M",
			"K <= select(min(M, K) < 512, N, 2 * ((M + 31) / 32))",
			"Mmin == 0",
			"N == M",
		},
		// Several pieces in the end.
		{"min(M, N) < 128 or 512 <= max(M, K)", "0 <= M", "M % 4 == 0 or N == 3"},
		// Contradictory lines.
		{"max(M, N) <= 3", "M == 7"},
		// Plain constraints only, and none at all.
		{"0 <= M", "M <= N"},
		{},
	} {
		s := NewScope(params)
		var cs []*presburger.Map
		want := presburger.Universe(presburger.ParamSpace(params))
		for _, l := range lines {
			c, err := s.Constraint(mustExpr(t, l))
			if err != nil {
				t.Fatalf("%s: %v", l, err)
			}
			cs = append(cs, c)
			if want, err = want.Intersect(c); err != nil {
				t.Fatal(err)
			}
		}
		got, err := conjoinAssumptions(ctx, presburger.ParamSpace(params), cs)
		if err != nil {
			t.Fatalf("%q: %v", lines, err)
		}
		if eq, err := got.IsEqual(ctx, want); err != nil || !eq {
			t.Errorf("%q: conjoined %v, want %v (%v)", lines, got, want, err)
		}
		// Never more pieces than the order of the lines gives.
		seq, err := conjoinInOrder(ctx, presburger.ParamSpace(params), cs)
		if err != nil {
			t.Fatal(err)
		}
		if got.NumBasics() > seq.NumBasics() {
			t.Errorf("%q: %d pieces, %d in the order of the lines", lines, got.NumBasics(), seq.NumBasics())
		}
	}
}

// TestConjoinAssumptionsHalide checks conjoinAssumptions on the
// assumptions of Halide's sgemm with a transposed operand, whose three
// specialisations the constraints of one piece first would split in four:
// the same set, in no more pieces than the order of the lines gives.
func TestConjoinAssumptionsHalide(t *testing.T) {
	ctx := context.Background()
	dir := filepath.Join("..", "bench", "halide", "sgemmTB")
	sp, kp := filepath.Join(dir, "spec.sare"), filepath.Join(dir, "prog.sched")
	p := loadPair(t, sp, readFile(t, sp), kp, readFile(t, kp))
	var params []string
	for _, id := range p.kernel.Params {
		params = append(params, id.Name)
	}
	s := NewScope(params)
	var cs []*presburger.Map
	for _, a := range p.kernel.Assumes {
		c, err := s.Constraint(a.Cond)
		if err != nil {
			t.Fatal(err)
		}
		cs = append(cs, c)
	}
	space := presburger.ParamSpace(params)
	got, err := conjoinAssumptions(ctx, space, cs)
	if err != nil {
		t.Fatal(err)
	}
	seq, err := conjoinInOrder(ctx, space, cs)
	if err != nil {
		t.Fatal(err)
	}
	fast, err := conjoinPlainFirst(ctx, space, cs)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range []*presburger.Map{got, fast} {
		if eq, err := m.IsEqual(ctx, seq); err != nil || !eq {
			t.Errorf("conjoined %v, in order %v (%v)", m, seq, err)
		}
	}
	if got.NumBasics() > seq.NumBasics() || got.NumBasics() > fast.NumBasics() {
		t.Errorf("%d pieces; %d in the order of the lines, %d with the plain constraints first", got.NumBasics(), seq.NumBasics(), fast.NumBasics())
	}
}
