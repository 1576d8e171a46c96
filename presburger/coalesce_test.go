package presburger

import (
	"context"
	"errors"
	"fmt"
	"math/rand"
	"strings"
	"testing"
)

// TestCoalesceExamples coalesces listed unions into the listed numbers of
// conjunctions.
func TestCoalesceExamples(t *testing.T) {
	for _, c := range []struct {
		src    string
		pieces int
	}{
		{"{ [i] : 0 <= i < 5; [i] : 5 <= i < 10 }", 1},
		{"[N] -> { [i, j] : 0 <= i < 5 and 0 <= j < N; [i, j] : 5 <= i < 10 and 0 <= j < N }", 1},
		{"{ [i] : 0 <= i < 10; [i] : 2 <= i < 4 }", 1},
		{"{ [i] : 0 <= i < 5; [i] : 7 <= i < 10 }", 2},
		{"{ [i, j] : 0 <= i < 5 and 0 <= j < 5; [i, j] : 0 <= i < 5 and 5 <= j < 8; [i, j] : 5 <= i < 10 and 0 <= j < 8 }", 1},
		// The four quarters of a 32 x 32 tile, two of them written with a
		// division that an equality fixes (as the symbolic heaps of tiled
		// kernels have them), coalesce into one conjunction, as in isl.
		{`[q, r] -> { S[x, y] : 32q + 16 <= x <= 32q + 31 and 32r + 16 <= y <= 32r + 31;
			S[x, y] : exists (e0 = floor(y/16): 2r = e0 and 32q + 16 <= x <= 32q + 31);
			S[x, y] : exists (e0 = floor(x/16): 2q = e0 and 32r + 16 <= y <= 32r + 31);
			S[x, y] : exists (e0 = floor(y/16), e1 = floor(x/16): 2q = e1 and 2r = e0) }`, 1},
		// With the tile index projected out (a plain existential that two
		// rows pin down). The union is 32q <= x <= 32q + 31 and y >= 0:
		// with the divisions aligned, one conjunction; isl 0.25 leaves 2.
		{`[q] -> { S[x, y] : exists (e: 32q + 16 <= x <= 32q + 31 and 32e + 16 <= y <= 32e + 31 and e >= 0);
			S[x, y] : exists (e, e1 = floor(y/16): 2e = e1 and 32q + 16 <= x <= 32q + 31 and e >= 0);
			S[x, y] : exists (e, e1 = floor(x/16): 2q = e1 and 32e + 16 <= y <= 32e + 31 and e >= 0);
			S[x, y] : exists (e, e1 = floor(y/16), e2 = floor(x/16): 2q = e2 and 2e = e1 and e >= 0) }`, 1},
	} {
		checkRewrite(t, "Coalesce", Coalesce, c.src, c.pieces)
	}
}

func TestCoalesceRandom(t *testing.T) {
	ctx := context.Background()
	r := rand.New(rand.NewSource(3))
	n, merged := 0, 0
	for k := 0; k < 450; k++ {
		// Unions of boxes and random conjunctions, likely to be adjacent.
		var src string
		switch k % 3 {
		case 0:
			a, b := r.Intn(4), r.Intn(4)
			src = fmt.Sprintf("[N] -> { [i, j] : 0 <= i < %d and 0 <= j < N; [i, j] : %d <= i < %d and 0 <= j < N; [i, j] : i = %d and %d <= j < N }", a+2, a+2, a+2+b, r.Intn(8), r.Intn(3))
		case 1:
			src = fmt.Sprintf("{ [i] : %d <= i < %d; [i] : %d <= i < %d; [i] : i = %d }", r.Intn(5), r.Intn(9), r.Intn(9), r.Intn(12), r.Intn(12))
		default:
			s := lxRandSpec{nP: 1, nO: 2, nDiv: k % 2, box: 2}
			b1, b2 := lxRandBasic(r, s), lxRandBasic(r, s)
			m := NewMap(b1.Space(), b1, b2)
			got, err := Coalesce(ctx, m)
			if err != nil {
				t.Fatal(err)
			}
			n++
			merged += m.NumBasics() - got.NumBasics()
			if !gistGridEqual(t, got, m, 3) {
				return
			}
			continue
		}
		m := mustParse(t, src)
		got, err := Coalesce(ctx, m)
		if err != nil {
			t.Fatal(err)
		}
		n++
		merged += m.NumBasics() - got.NumBasics()
		if eq, err := got.IsEqual(ctx, m); err != nil || !eq {
			t.Fatalf("coalesce(%s) = %v changes the set (%v)", src, got, err)
		}
		if !gistGridEqual(t, got, m, 3) {
			return
		}
	}
	t.Logf("%d random coalesces checked, %d conjunctions removed", n, merged)
}

// TestPieceSubsetRandom checks the containment test of coalescing against
// the general one on random conjunctions, with the same divisions, with
// different ones (which the test aligns), and containing ones.
func TestPieceSubsetRandom(t *testing.T) {
	ctx := context.Background()
	r := rand.New(rand.NewSource(5))
	in := 0
	for k := 0; k < 600; k++ {
		sa := lxRandSpec{nP: 1, nO: 2, nDiv: k % 3, box: 2}
		sb := lxRandSpec{nP: 1, nO: 2, nDiv: (k / 3) % 3, box: 2}
		a, b := lxRandBasic(r, sa), lxRandBasic(r, sb)
		if k%4 <= 1 {
			// b contains a often enough: b is a with rows dropped, and
			// (every other time) a division a lacks, used in a row.
			b = a.Copy()
			if len(b.ineqs) > 0 {
				b.ineqs = b.ineqs[:len(b.ineqs)/2]
			}
			if k%4 == 1 {
				num := b.NewRow()
				num[b.Col(DimOut, 0)] = NewInt(1)
				num[b.Col(DimOut, 1)] = NewInt(int64(r.Intn(3)))
				q := b.AddLocalDiv(num, NewInt(2))
				row := b.NewRow() // 2q <= o0 + c*o1: always true
				row[b.LocalCol(q)] = NewInt(-2)
				row[b.Col(DimOut, 0)] = NewInt(1)
				row[b.Col(DimOut, 1)] = num[b.Col(DimOut, 1)]
				b.AddIneq(row)
			}
		}
		if e, err := a.IsEmpty(ctx); err != nil || e {
			continue
		}
		sp := a.Space()
		want, err := NewMap(sp, a).IsSubset(ctx, NewMap(sp, b))
		if err != nil {
			t.Fatal(err)
		}
		got, err := pieceSubset(ctx, newMeter(ctx), sp, a, b)
		if err != nil {
			t.Fatal(err)
		}
		if got != want {
			t.Fatalf("case %d: pieceSubset = %v, IsSubset = %v\na = %v\nb = %v", k, got, want, NewMap(sp, a), NewMap(sp, b))
		}
		if want {
			in++
		}
	}
	if in < 50 {
		t.Fatalf("only %d contained cases: the test does not exercise containment", in)
	}
}

// TestCoalesceCountsPairs checks that coalescing counts a step per pair
// of pieces it tries, those decided syntactically or by a known point
// included (most of the pairs of a heap's hundreds of pieces, which ran
// for minutes within their budget), so that its budget bounds it.
func TestCoalesceCountsPairs(t *testing.T) {
	const n = 30
	var parts []string
	for i := 0; i < n; i++ {
		parts = append(parts, fmt.Sprintf("[x] : x = %d", 3*i))
	}
	m := mustParse(t, "{ "+strings.Join(parts, "; ")+" }")
	pairs := int64(n * (n - 1) / 2)
	a := NewAllowance(0)
	c, err := Coalesce(WithAllowance(context.Background(), a), m)
	if err != nil {
		t.Fatal(err)
	}
	if c.NumBasics() != n || a.Used() < pairs {
		t.Fatalf("coalescing %d points 3 apart: %d pieces, %d steps; want %d pieces, at least a step per pair (%d)", n, c.NumBasics(), a.Used(), n, pairs)
	}
	if _, err := Coalesce(WithBudget(context.Background(), Budget{MaxSteps: int(pairs) - 1}), m); !errors.Is(err, ErrBudget) {
		t.Fatalf("within %d steps: %v, want ErrBudget", pairs-1, err)
	}
}
