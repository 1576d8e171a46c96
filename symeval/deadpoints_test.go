package symeval

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/augur-verify/augur/presburger"
	"github.com/augur-verify/augur/sched"
)

// TestDeadPointsManyPieces checks that the dead points of an obligation
// of many pieces, whose product with the dead iterations DeadPoints
// builds a pair of pieces at a time, are those of the same obligation in
// one piece: lanes_dead's store of zeros past N, its points cut in 100
// pieces by the residue of x.
func TestDeadPointsManyPieces(t *testing.T) {
	ctx := context.Background()
	dir := filepath.Join("..", "validate", "testdata", "dead")
	a := analyzeFilesWith(t, filepath.Join(dir, "lanes.sare"), filepath.Join(dir, "lanes_dead.sched"), AnalyzeOptions{})
	checked := 0
	for i := range a.Conditions {
		c := *a.Conditions[i]
		if c.Kind != sched.WrongValue || c.Obligation == nil {
			continue
		}
		want, err := a.DeadPoints(ctx, &c)
		if err != nil {
			t.Fatal(err)
		}
		if want == nil {
			continue
		}
		pts := c.Obligation.Points
		var cut []*presburger.BasicMap
		for k := range 100 {
			r, err := presburger.ParseMap(fmt.Sprintf("[N, x] -> { : exists (e: x = 100e + %d) }", k))
			if err != nil {
				t.Fatal(err)
			}
			p, err := pts.IntersectParams(r)
			if err != nil {
				t.Fatal(err)
			}
			cut = append(cut, p.Basics()...)
		}
		many := presburger.NewMap(pts.Space(), cut...)
		if many.NumBasics()*want.NumBasics() <= maxKnownProduct {
			t.Fatalf("C%d: %d pieces, too few to be built a pair at a time", c.ID, many.NumBasics())
		}
		o := *c.Obligation
		o.Points = many
		c.Obligation = &o
		got, err := a.DeadPoints(ctx, &c)
		if err != nil || got == nil {
			t.Fatalf("C%d: dead points of %d pieces: %v, %v", c.ID, many.NumBasics(), got, err)
		}
		if eq, err := got.IsEqual(ctx, want); err != nil || !eq {
			t.Errorf("C%d: dead points %v of %d pieces, want %v (%v)", c.ID, got, many.NumBasics(), want, err)
		}
		checked++
	}
	if checked == 0 {
		t.Fatal("no annotation mismatch at dead stores")
	}
}
