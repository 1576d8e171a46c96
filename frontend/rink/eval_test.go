package rink

import (
	"math"
	"testing"

	"github.com/augur-verify/augur/syntax"
)

func mustLoad(t *testing.T, text string) (*Program, *Info) {
	t.Helper()
	p, info, err := Load(&syntax.Source{Name: "t.rink", Text: text})
	if err != nil {
		t.Fatal(err)
	}
	return p, info
}

// counting initialises every logical cell of every variable with 1, 2, 3,
// ... in row-major order.
func counting(name string, idx []int64) Value {
	x := float64(len(name))
	for _, i := range idx {
		x = 10*x + float64(i+1)
	}
	return Num(x)
}

// TestEvalStatementReadsOldStore: rule ev-stmt computes every element from
// the store before the statement, so an in-place transposition transposes.
func TestEvalStatementReadsOldStore(t *testing.T) {
	p, info := mustLoad(t, "var A : [3 3]\nA = A ^ [1 2]\n")
	store, err := Eval(p, info, counting, EvalOptions{})
	if err != nil {
		t.Fatal(err)
	}
	forEach(Shape{3, 3}, func(idx []int64) {
		want := counting("A", []int64{idx[1], idx[0]})
		if got := store["A"].At(idx); got != want {
			t.Errorf("A%v = %v, want %v", idx, got, want)
		}
	})
}

// TestEvalMatmul: Fig. 4 at small sizes is the matrix product.
func TestEvalMatmul(t *testing.T) {
	p, info := mustLoad(t, "var A : [2 3]\nvar B : [3 2]\nvar C : [2 2]\nC = (A # B) . [2 3]\n")
	store, err := Eval(p, info, counting, EvalOptions{F64: true})
	if err != nil {
		t.Fatal(err)
	}
	forEach(Shape{2, 2}, func(idx []int64) {
		var want float64
		for k := int64(0); k < 3; k++ {
			want += counting("A", []int64{idx[0], k}).X * counting("B", []int64{k, idx[1]}).X
		}
		if got := store["C"].At(idx); got != Num(want) {
			t.Errorf("C%v = %v, want %v", idx, got, want)
		}
	})
}

// TestEvalControlledDivision: Definition 8 makes 0/0 and 0/• zero, and
// keeps every other division by zero or by • undefined.
func TestEvalControlledDivision(t *testing.T) {
	p, info := mustLoad(t, "var a : [4]\nvar b : [4]\nvar c : [4]\nc = a / b\n")
	in := map[string][]Value{
		"a": {Num(0), Num(0), Num(1), Num(6)},
		"b": {Num(0), {}, Num(0), Num(3)},
		"c": {{}, {}, {}, {}},
	}
	store, err := Eval(p, info, func(name string, idx []int64) Value { return in[name][idx[0]] }, EvalOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := []Value{Num(0), Num(0), {}, Num(2)}
	for i, w := range want {
		if got := store["c"].Cells[i]; got != w {
			t.Errorf("c[%d] = %v, want %v", i, got, w)
		}
	}
}

// TestSimulation checks Theorem 3 on defined values: the padded store
// agrees with the reference one on the logical extents and is 0 on the
// padding, for every M.
func TestSimulation(t *testing.T) {
	p, info := mustLoad(t, "var A : [3 5]\nvar B : [5 3]\nvar s : []\nvar C : [3 3]\n"+
		"C = (A # B) . [2 3]\ns = (C . [1 2]) / s\nC = (s * C ^ [1 2]) - C / s\n")
	ref, err := Eval(p, info, counting, EvalOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range []int64{1, 2, 4, 8} {
		pad, err := Eval(p, info, counting, EvalOptions{VectorLength: m})
		if err != nil {
			t.Fatal(err)
		}
		for name, x := range pad {
			forEach(x.Alloc, func(idx []int64) {
				want := Num(0)
				if inside(idx, x.Type) {
					want = ref[name].At(idx)
				}
				if got := x.At(idx); got != want {
					t.Errorf("M=%d: %s%v = %v, want %v", m, name, idx, got, want)
				}
			})
		}
	}
}

// TestLemma5Gap: with an uninitialised operand, the padding of an outer
// product is • * 0 = • (Definition 4), not 0 as Lemma 5(ii) claims; and
// with IEEE floats an infinite operand makes it NaN, which a contraction
// then carries into the logical extents.
func TestLemma5Gap(t *testing.T) {
	p, info := mustLoad(t, "var a : [3]\nvar b : [3]\nvar c : [3 3]\nc = a # b\n")
	undefA := func(name string, idx []int64) Value {
		if name == "a" {
			return Value{}
		}
		return Num(1)
	}
	pad, err := Eval(p, info, undefA, EvalOptions{VectorLength: 4})
	if err != nil {
		t.Fatal(err)
	}
	if got := pad["c"].At([]int64{0, 3}); got.Defined {
		t.Errorf("padded c[0, 3] = %v, want •", got)
	}

	p, info = mustLoad(t, "var A : [3]\nvar B : [3]\nvar w : [3]\nvar C : [3 3]\nvar D : [3]\nC = A # B\nD = (C # w) . [2 3]\n")
	infA := func(name string, idx []int64) Value {
		if name == "A" && idx[0] == 0 {
			return Num(math.Inf(1))
		}
		return Num(1)
	}
	ref, err := Eval(p, info, infA, EvalOptions{})
	if err != nil {
		t.Fatal(err)
	}
	pad, err = Eval(p, info, infA, EvalOptions{VectorLength: 4})
	if err != nil {
		t.Fatal(err)
	}
	if r, q := ref["D"].At([]int64{0}), pad["D"].At([]int64{0}); !math.IsInf(r.X, 1) || !math.IsNaN(q.X) {
		t.Errorf("D[0] = %v in the reference, %v padded; want +Inf and NaN", r, q)
	}
}

// TestEvalTooLarge: Eval refuses what it cannot hold.
func TestEvalTooLarge(t *testing.T) {
	p, info := mustLoad(t, "var A : [1000 1000 1000]\nA = A\n")
	if _, err := Eval(p, info, counting, EvalOptions{}); err == nil {
		t.Error("no error for 10^9 cells")
	}
}

// TestEvalLongContraction: contractions too long to evaluate stop at the
// work bound instead of running to their end.
func TestEvalLongContraction(t *testing.T) {
	p, info := mustLoad(t, "var A : [64 64]\nvar B : [64 64]\nB = (((A # A) # A) . [2 3]) . [2 3]\n")
	if _, err := Eval(p, info, counting, EvalOptions{MaxCells: 1 << 12}); err == nil {
		t.Error("no error")
	}
}
