package presburger

import "testing"

// TestApplyRangeSharedRows checks the compositions whose pieces ApplyRange
// may skip by their shared rows: a pair is skipped only when an
// inequality over the parameters and the middle tuple contradicts one of
// the other piece, never for rows that also involve the outer tuples or
// that meet at a point.
func TestApplyRangeSharedRows(t *testing.T) {
	checkPieceCases(t, (*Map).ApplyRange, []pieceCase{
		{
			name:   "contradicting shared rows",
			m:      "[N] -> { A[i] : i >= N + 5 }",
			o:      "[N] -> { A[i] -> B[j] : i <= N + 3 and j = i; A[i] -> B[j] : i >= N and j = 2i }",
			want:   "[N] -> { B[j] : exists (i : j = 2i and i >= N + 5) }",
			pieces: 1,
		},
		{
			name:   "opposite rows meeting at a point",
			m:      "[N] -> { A[i] : i >= N + 5 }",
			o:      "[N] -> { A[i] -> B[j] : i <= N + 5 and j = i }",
			want:   "[N] -> { B[j] : j = N + 5 }",
			pieces: 1,
		},
		{
			name:   "a row of the range is not shared",
			m:      "[N] -> { A[i] : i >= N + 5 }",
			o:      "[N] -> { A[i] -> B[j] : i + j <= N + 3 }",
			want:   "[N] -> { B[j] : j <= -2 }",
			pieces: 1,
		},
		{
			name:   "a row of the domain is not shared",
			m:      "{ A[a] -> B[b] : a >= 10 and 0 <= b <= 3 }",
			o:      "{ B[b] -> C[c] : c = b and b <= 8 }",
			want:   "{ A[a] -> C[c] : a >= 10 and 0 <= c <= 3 }",
			pieces: 1,
		},
		{
			name:   "contradiction over the middle tuple of relations",
			m:      "{ A[a] -> B[b] : b >= a and b >= 10 }",
			o:      "{ B[b] -> C[c] : c = b and b <= 8; B[b] -> C[c] : c = -b and b >= 9 }",
			want:   "{ A[a] -> C[c] : c <= -10 and c <= -a }",
			pieces: 1,
		},
	})
}

// TestIntersectSharedRows checks the pairs of pieces Intersect may skip,
// in a product of unions, by their inequalities over the dimensions:
// never for a row with a local, or for opposite rows that meet at a
// point.
func TestIntersectSharedRows(t *testing.T) {
	checkPieceCases(t, (*Map).Intersect, []pieceCase{
		{
			name:   "contradicting rows",
			m:      "[N] -> { [i] : i >= N + 10; [i] : i <= -20 }",
			o:      "[N] -> { [i] : i <= N + 8; [i] : i >= 12 }",
			want:   "[N] -> { [i] : i >= N + 10 and i >= 12; [i] : i <= -20 and i <= N + 8 }",
			pieces: 2,
		},
		{
			name:   "opposite rows meeting at a point",
			m:      "[N] -> { [i] : i >= N + 10; [i] : i <= -20 }",
			o:      "[N] -> { [i] : i <= N + 10; [i] : i >= -20 }",
			want:   "[N] -> { [i] : i = N + 10; [i] : i >= N + 10 and i >= -20; [i] : i <= -20 and i <= N + 10; [i] : i = -20 }",
			pieces: 4,
		},
		{
			name:   "a row with a local is not compared",
			m:      "{ [i] : exists (e = floor(i/2) : i + e >= 5); [i] : i <= -20 }",
			o:      "{ [i] : i <= 4; [i] : i >= 100 }",
			want:   "{ [i] : i = 4; [i] : i >= 100; [i] : i <= -20 }",
			pieces: 3,
		},
	})
}

// pieceCase is an operation's operands m and o, and the set want it
// gives, in the given number of pieces.
type pieceCase struct {
	name, m, o, want string
	pieces           int
}

// checkPieceCases checks op on every case, each in a subtest.
func checkPieceCases(t *testing.T, op func(m, o *Map) (*Map, error), cases []pieceCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := op(mustParse(t, c.m), mustParse(t, c.o))
			if err != nil {
				t.Fatal(err)
			}
			w := mustParse(t, c.want)
			eq, err := got.IsEqual(t.Context(), w)
			if err != nil {
				t.Fatal(err)
			}
			if !eq {
				t.Errorf("got %s, want %s", got, w)
			}
			if got.NumBasics() != c.pieces {
				t.Errorf("got %d pieces (%s), want %d", got.NumBasics(), got, c.pieces)
			}
		})
	}
}
