package presburger

import (
	"context"
	"testing"
)

// TestIsSubsetPiecesLeft checks the last round of IsSubset, where a piece
// left unchanged decides: a piece of the first map that normalize does
// not find empty still takes its emptiness test, a piece an earlier round
// produced is not empty, and coalescing's covering test (which knows its
// pieces are not empty) agrees.
func TestIsSubsetPiecesLeft(t *testing.T) {
	ctx := context.Background()
	cases := []struct {
		name, m, o string
		want       bool
	}{
		{"empty piece of m", "{ [i, j] : i + j = 1 and i = j }", "{ [i, j] : i >= 100; [i, j] : i <= -100 }", true},
		{"piece of an earlier round", "{ [i] : 0 <= i <= 10 }", "{ [i] : i <= 3; [i] : i >= 20 }", false},
		{"covered in two rounds", "{ [i] : 0 <= i <= 10 }", "{ [i] : i <= 3; [i] : i >= 4 }", true},
		{"disjoint", "{ [i] : 0 <= i <= 10 }", "{ [i] : i <= -3; [i] : i >= 20 }", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m, o := mustParse(t, c.m), mustParse(t, c.o)
			got, err := m.IsSubset(ctx, o)
			if err != nil {
				t.Fatal(err)
			}
			if got != c.want {
				t.Errorf("IsSubset = %v, want %v", got, c.want)
			}
			empty, err := m.IsEmpty(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if !empty {
				got, err := m.isSubset(ctx, o, true)
				if err != nil {
					t.Fatal(err)
				}
				if got != c.want {
					t.Errorf("isSubset(nonEmpty) = %v, want %v", got, c.want)
				}
			}
		})
	}
}
