package presburger

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// TestSubtractVisitsMeetingPieces checks that a subtraction tests a piece
// of the minuend only against the pieces of the subtrahend its index
// finds: k rows of cells, x fixed in each, minus one cell of each row (a
// heap updated by the stores of unrolled lanes) counts steps in k, not a
// step for each of the k² pairs, and the difference is right.
func TestSubtractVisitsMeetingPieces(t *testing.T) {
	const k = 40
	var rows, cells, left []string
	for i := range k {
		rows = append(rows, fmt.Sprintf("[x, y] : x = %d and 0 <= y <= 9", i))
		cells = append(cells, fmt.Sprintf("[x, y] : x = %d and y = %d", i, i%10))
		left = append(left, fmt.Sprintf("[x, y] : x = %d and 0 <= y <= 9 and y != %d", i, i%10))
	}
	m := mustParse(t, "[n] -> { "+strings.Join(rows, "; ")+" }")
	o := mustParse(t, "[n] -> { "+strings.Join(cells, "; ")+" }")
	a := NewAllowance(0)
	r, err := m.Subtract(WithAllowance(context.Background(), a), o)
	if err != nil {
		t.Fatal(err)
	}
	if a.Used() >= k*k/2 {
		t.Fatalf("subtracting %d cells from %d rows they split one each took %d steps, want fewer than %d", k, k, a.Used(), k*k/2)
	}
	want := mustParse(t, "[n] -> { "+strings.Join(left, "; ")+" }")
	if eq, err := r.IsEqual(t.Context(), want); err != nil || !eq {
		t.Fatalf("difference %s, want %s (%v)", r, want, err)
	}
	// Cells fixed by a form of two dimensions, bounded by the minuend's
	// inequalities only, and a subtrahend piece that fixes nothing.
	m = mustParse(t, "[n] -> { [x, y] : 0 <= x + y <= 3 and 0 <= x <= 3 }")
	o = mustParse(t, "[n] -> { [x, y] : x + y = 2 and x = 1; [x, y] : x + y = 7 and x = 1; [x, y] : x = 0 and y >= n }")
	r, err = m.Subtract(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	want = mustParse(t, "[n] -> { [x, y] : 0 <= x + y <= 3 and 0 <= x <= 3 and not (x = 1 and y = 1) and not (x = 0 and y >= n) }")
	if eq, err := r.IsEqual(t.Context(), want); err != nil || !eq {
		t.Fatalf("difference %s, want %s (%v)", r, want, err)
	}
}

// TestMeetingKeepsMeetingPieces checks that Meeting keeps exactly the
// pieces of a map that have a point in the other: those the index leaves
// out, those an emptiness test drops (no integer point in common), and
// those it keeps.
func TestMeetingKeepsMeetingPieces(t *testing.T) {
	m := mustParse(t, "[n] -> { [x, y] : x = 0 and 0 <= y <= 9; [x, y] : x = 1 and y = 2n + 1; [x, y] : x = 1 and 0 <= y <= 9 and y = 2n; [x, y] : x = 5 and y >= 0; [x, y] : x + y = 20 }")
	o := mustParse(t, "[n] -> { [x, y] : 1 <= x <= 2 and y = 2n and n >= 0; [x, y] : x = 1 and y = -4 }")
	r, err := m.Meeting(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	want := mustParse(t, "[n] -> { [x, y] : x = 1 and 0 <= y <= 9 and y = 2n; [x, y] : x + y = 20 }")
	if eq, err := r.IsEqual(t.Context(), want); err != nil || !eq || r.NumBasics() != 2 {
		t.Fatalf("pieces of %s meeting %s: %s, want %s (%v)", m, o, r, want, err)
	}
}
