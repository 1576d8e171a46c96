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

// nestedMin returns min(...min(min(N, 1 - N), 2 - N)..., k - N), a value
// of 2^k pieces.
func nestedMin(b *Builder, k int) QuasiAff {
	n := b.Dim(DimParam, 0)
	x := n
	for c := 1; c <= k; c++ {
		x = b.Min(x, b.Sub(b.Const(NewInt(int64(c))), n))
	}
	return x
}

// TestBuilderCountsSteps checks that a builder of NewBuilderContext
// counts what it builds against the meter of its context: floor(x / 3)
// of a value of 64 pieces adds 64 division columns, each rewriting
// every row, and counts the entries it writes (many more steps than the
// columns: the locals' cost grows with the conjunction), the pieces of
// its mins and the conjunctions of its comparison. The set is the one
// an uncounted builder builds. Within a budget of fewer steps, the
// builder stops at the first step past it (the allowance counts the
// budget plus one), the values it builds after are empty, and Err and
// Chain return ErrBudget.
func TestBuilderCountsSteps(t *testing.T) {
	sp := SetSpace([]string{"N"}, FlatTuple("", "i"))
	const k, pieces = 6, 64
	build := func(b *Builder) (QuasiAff, *Map, error) {
		x := b.FloorDiv(nestedMin(b, k), NewInt(3))
		m, err := b.Chain([][]QuasiAff{{b.Dim(DimOut, 0)}, {x}}, []Cmp{CmpEQ})
		return x, m, err
	}
	_, want, err := build(NewBuilder(sp))
	if err != nil {
		t.Fatal(err)
	}
	a := NewAllowance(0)
	b := NewBuilderContext(WithAllowance(context.Background(), a), sp)
	_, got, err := build(b)
	if err != nil || b.Err() != nil {
		t.Fatalf("counted builder: %v, %v", err, b.Err())
	}
	if got.String() != want.String() {
		t.Fatalf("counted builder built %s, want %s", got, want)
	}
	used := a.Used()
	// 126 pieces of the mins, 64 locals and 64 conjunctions, and the
	// entries of their rows (the conjunctions' 64 division columns):
	// more than 400 steps
	if used < 6*pieces {
		t.Fatalf("%d steps counted for %d division columns, want at least %d", used, pieces, 6*pieces)
	}
	for _, max := range []int{100, int(used) - 1} {
		a := NewAllowance(0)
		ctx := WithSharedBudget(WithAllowance(context.Background(), a), Budget{MaxSteps: max})
		b := NewBuilderContext(ctx, sp)
		x, m, err := build(b)
		if !errors.Is(err, ErrBudget) || !errors.Is(b.Err(), ErrBudget) || m != nil {
			t.Fatalf("within %d steps: %v, %v; want ErrBudget and no set", max, err, b.Err())
		}
		if max == 100 && x.NumPieces() != 0 {
			t.Errorf("within %d steps: floor(x / 3) of %d pieces, want none built", max, x.NumPieces())
		}
		if a.Used() != int64(max)+1 {
			t.Errorf("within %d steps: %d counted, want the first one past the budget", max, a.Used())
		}
	}
}
