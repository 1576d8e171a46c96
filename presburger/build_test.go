package presburger

import (
	"context"
	"errors"
	"testing"
)

// TestBuilderChain builds sets with the builder and checks each against
// the same set written in isl notation: the printed pieces match (the
// reader builds through the same builder) and the sets are equal.
func TestBuilderChain(t *testing.T) {
	sp := SetSpace([]string{"N"}, FlatTuple("", "i", "j"))
	tests := []struct {
		name  string
		build func(b *Builder) *Map
		isl   string
	}{
		{"floor and mod", func(b *Builder) *Map {
			i, j, n := b.Dim(DimOut, 0), b.Dim(DimOut, 1), b.Dim(DimParam, 0)
			lhs := b.Add(b.Scale(b.FloorDiv(i, NewInt(4)), NewInt(4)), b.Mod(i, NewInt(4)))
			m, err := b.Chain([][]QuasiAff{{b.Const(NewInt(0))}, {i, j}, {n}}, []Cmp{CmpLE, CmpLT})
			if err != nil {
				t.Fatal(err)
			}
			e, err := b.Chain([][]QuasiAff{{lhs}, {j}}, []Cmp{CmpEQ})
			if err != nil {
				t.Fatal(err)
			}
			out, err := m.Intersect(e)
			if err != nil {
				t.Fatal(err)
			}
			return out
		}, "[N] -> { [i, j] : 0 <= i, j < N and 4 * floor(i / 4) + i mod 4 = j }"},
		{"min and max", func(b *Builder) *Map {
			i, j, n := b.Dim(DimOut, 0), b.Dim(DimOut, 1), b.Dim(DimParam, 0)
			m, err := b.Chain([][]QuasiAff{{b.Max(i, j)}, {b.Min(n, b.Const(NewInt(7)))}}, []Cmp{CmpGT})
			if err != nil {
				t.Fatal(err)
			}
			return m
		}, "[N] -> { [i, j] : max(i, j) > min(N, 7) }"},
		{"not equal", func(b *Builder) *Map {
			i, j := b.Dim(DimOut, 0), b.Dim(DimOut, 1)
			m, err := b.Chain([][]QuasiAff{{b.Sub(i, j)}, {b.Neg(b.Const(NewInt(3)))}}, []Cmp{CmpNE})
			if err != nil {
				t.Fatal(err)
			}
			return m
		}, "[N] -> { [i, j] : i - j != -3 }"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := tc.build(NewBuilder(sp))
			want, err := ParseSet(tc.isl)
			if err != nil {
				t.Fatal(err)
			}
			got, err = got.Relabel(want.Space())
			if err != nil {
				t.Fatal(err)
			}
			if got.String() != want.String() {
				t.Errorf("built %s, read %s", got, want)
			}
			if eq, err := got.IsEqual(context.Background(), want); err != nil || !eq {
				t.Errorf("built %s, want the set %s (err %v)", got, want, err)
			}
		})
	}
}

// TestBuilderConstrain builds one conjunction with Var and Constrain.
func TestBuilderConstrain(t *testing.T) {
	sp := MapSpace([]string{"N"}, FlatTuple("A", "i"), FlatTuple("B", "j"))
	b := NewBuilder(sp)
	n, err := b.Var(ParamVar("N"))
	if err != nil {
		t.Fatal(err)
	}
	i, err := b.Var(InVar(0))
	if err != nil {
		t.Fatal(err)
	}
	j, err := b.Var(OutVar(0))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.Var(ParamVar("M")); err == nil {
		t.Error("Var(M): no error for a missing parameter")
	}
	if _, err := b.Var(OutVar(1)); err == nil {
		t.Error("Var(out 1): no error for a missing dimension")
	}
	if k, ok := b.Scale(b.Const(NewInt(3)), NewInt(2)).Constant(); !ok || k.String() != "6" {
		t.Errorf("Constant of 3 * 2 = %v, %v", k, ok)
	}
	if _, ok := b.Min(i, j).Constant(); ok {
		t.Error("min(i, j) is a constant")
	}
	b.Constrain(b.Sub(j, b.FloorDiv(i, NewInt(2))), true)
	b.Constrain(i, false)
	b.Constrain(b.Sub(n, i), false)
	got := NewMap(sp, b.BasicMap())
	want, err := ParseMap("[N] -> { A[i] -> B[j] : j = floor(i / 2) and 0 <= i <= N }")
	if err != nil {
		t.Fatal(err)
	}
	if eq, err := got.IsEqual(context.Background(), want); err != nil || !eq {
		t.Errorf("built %s, want %s (err %v)", got, want, err)
	}
}

// TestCheckDisjuncts counts the pieces of nested min and max, and bounds
// them by the budget's disjuncts: min(min(i, j), N) has 4 pieces, the
// comparison of it with max(i, j) 8 conjunctions, beyond a budget of 6.
func TestCheckDisjuncts(t *testing.T) {
	b := NewBuilder(SetSpace([]string{"N"}, FlatTuple("", "i", "j")))
	i, j, n := b.Dim(DimOut, 0), b.Dim(DimOut, 1), b.Dim(DimParam, 0)
	x, y := b.Min(b.Min(i, j), n), b.Max(i, j)
	if got := [...]int{i.NumPieces(), x.NumPieces(), y.NumPieces()}; got != [...]int{1, 4, 2} {
		t.Fatalf("pieces %v, want [1 4 2]", got)
	}
	ctx := WithBudget(context.Background(), Budget{MaxDisjuncts: 6})
	if err := CheckDisjuncts(ctx, x.NumPieces()); err != nil {
		t.Errorf("4 pieces within 6: %v", err)
	}
	if err := CheckDisjuncts(ctx, x.NumPieces()*y.NumPieces()); !errors.Is(err, ErrBudget) {
		t.Errorf("8 pieces beyond 6: %v, want ErrBudget", err)
	}
	if err := CheckDisjuncts(context.Background(), DefaultBudget().MaxDisjuncts+1); !errors.Is(err, ErrBudget) {
		t.Errorf("beyond the default budget: %v, want ErrBudget", err)
	}
}
