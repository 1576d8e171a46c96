package presburger

import (
	"context"
	"testing"
)

// TestColumns checks the column accessors on a relation with parameters,
// input and output dimensions and locals: every column named by kind, and
// rows built with them denote the constraints meant.
func TestColumns(t *testing.T) {
	m := mustParse(t, "[N, M] -> { A[i, j] -> B[k] : k = floor((i + j)/2) and 0 <= i < N and exists e : j = 3e }")
	sp := m.Space()
	for _, c := range []struct {
		k            DimKind
		offset, dims int
	}{{DimParam, 0, 2}, {DimIn, 2, 2}, {DimOut, 4, 1}} {
		if got := sp.Offset(c.k); got != c.offset {
			t.Errorf("Space.Offset(%s) = %d, want %d", c.k, got, c.offset)
		}
		if got := sp.Dims(c.k); got != c.dims {
			t.Errorf("Space.Dims(%s) = %d, want %d", c.k, got, c.dims)
		}
		if got := sp.Col(c.k, 1); got != c.offset+1 {
			t.Errorf("Space.Col(%s, 1) = %d, want %d", c.k, got, c.offset+1)
		}
	}
	if got := sp.TupleDims(); got != 3 {
		t.Errorf("Space.TupleDims() = %d, want 3", got)
	}
	for i, want := range []int{2, 3, 4} {
		if got := sp.TupleCol(i); got != want {
			t.Errorf("Space.TupleCol(%d) = %d, want %d", i, got, want)
		}
	}
	if got := sp.ParamCol("M"); got != 1 {
		t.Errorf("ParamCol(M) = %d, want 1", got)
	}
	if got := sp.ParamCol("K"); got != -1 {
		t.Errorf("ParamCol(K) = %d, want -1", got)
	}
	if got, want := sp.ConstCol(), 5; got != want || len(sp.NewRow()) != want+1 {
		t.Errorf("Space.ConstCol() = %d, NewRow has %d columns; want %d and %d", got, len(sp.NewRow()), want, want+1)
	}
	for _, b := range m.Basics() {
		for _, k := range []DimKind{DimParam, DimIn, DimOut} {
			if b.Offset(k) != sp.Offset(k) || b.Dims(k) != sp.Dims(k) || b.Col(k, 0) != sp.Col(k, 0) {
				t.Errorf("BasicMap and Space disagree on %s columns", k)
			}
		}
		if b.TupleDims() != sp.TupleDims() || b.TupleCol(2) != sp.TupleCol(2) {
			t.Errorf("BasicMap and Space disagree on tuple columns: %d dims, coordinate 2 at %d", b.TupleDims(), b.TupleCol(2))
		}
		if b.NumLocals() == 0 {
			t.Fatalf("%s: want locals for the division and the existential", m)
		}
		if b.LocalOffset() != 5 || b.LocalCol(b.NumLocals()-1) != 5+b.NumLocals()-1 {
			t.Errorf("LocalOffset %d, LocalCol(last) %d with %d locals", b.LocalOffset(), b.LocalCol(b.NumLocals()-1), b.NumLocals())
		}
		if b.ConstCol() != b.NumCols()-1 || len(b.NewRow()) != b.NumCols() {
			t.Errorf("ConstCol %d, NewRow %d columns, NumCols %d", b.ConstCol(), len(b.NewRow()), b.NumCols())
		}
	}

	// i = N - 1 and k = M, through the accessors: { A[N-1, j] -> B[M] }.
	b := NewBasicMap(sp)
	row := b.NewRow()
	row[b.Col(DimIn, 0)] = NewInt(1)
	row[b.Col(DimParam, 0)] = NewInt(-1)
	row[b.ConstCol()] = NewInt(1)
	b.AddEq(row)
	row = b.NewRow()
	row[b.Col(DimOut, 0)] = NewInt(1)
	row[sp.ParamCol("M")] = NewInt(-1)
	b.AddEq(row)
	row = b.NewRow() // j = i + 1, by coordinates: coordinate 1 is j
	row[b.TupleCol(1)] = NewInt(1)
	row[b.TupleCol(0)] = NewInt(-1)
	row[b.ConstCol()] = NewInt(-1)
	b.AddEq(row)
	want := mustParse(t, "[N, M] -> { A[i, j] -> B[k] : i = N - 1 and k = M and j = i + 1 }")
	eq, err := NewMap(sp, b).IsEqual(context.Background(), want)
	if err != nil || !eq {
		t.Errorf("rows built with the accessors give %s, want %s (%v)", NewMap(sp, b), want, err)
	}
}

// TestRelabel checks that Relabel keeps the constraints, divisions and
// existentials column for column and refuses a space of another shape.
func TestRelabel(t *testing.T) {
	ctx := context.Background()
	m := mustParse(t, "[N] -> { A[i] -> B[j] : j = floor(i/2) and 0 <= i < N and exists e : i = 3e }")
	got, err := m.Relabel(SetSpace([]string{"M"}, FlatTuple("S", "x", "y")))
	if err != nil {
		t.Fatal(err)
	}
	want, err := ParseSet("[M] -> { S[x, y] : y = floor(x/2) and 0 <= x < M and exists e : x = 3e }")
	if err != nil {
		t.Fatal(err)
	}
	if eq, err := got.IsEqual(ctx, want); err != nil || !eq {
		t.Errorf("Relabel gave %s, want %s (%v)", got, want, err)
	}
	if _, err := m.Relabel(SetSpace([]string{"M"}, FlatTuple("S", "x"))); err == nil {
		t.Error("Relabel to a space with fewer dimensions: no error")
	}
	if _, err := m.Relabel(SetSpace(nil, FlatTuple("S", "x", "y"))); err == nil {
		t.Error("Relabel to a space with fewer parameters: no error")
	}
}
