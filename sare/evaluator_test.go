package sare

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"strings"
	"testing"

	"github.com/augur-verify/augur/syntax"
	"github.com/augur-verify/augur/value"
)

func readFile(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// TestMatmul evaluates the matrix product of the format's contract and
// compares it with a direct float32 computation in the same order.
func TestMatmul(t *testing.T) {
	spec, info := load(t, "matmul.sare", readFile(t, "../examples/matmul/matmul.sare"))
	const n, m, p = 4, 3, 5
	inputs := RandomInputs(42)
	ev, err := NewEvaluator(spec, info, map[string]int64{"N": n, "M": m, "P": p}, inputs)
	if err != nil {
		t.Fatal(err)
	}
	in := func(name string, idx ...int64) float32 {
		v, err := inputs.Input(spec.Tensor(name), idx)
		if err != nil {
			t.Fatal(err)
		}
		return float32(v.Float64())
	}
	ctx := context.Background()
	for i := int64(0); i < n; i++ {
		for j := int64(0); j < m; j++ {
			var want float32
			for k := int64(0); k < p; k++ {
				want = want + in("A", i, k)*in("B", k, j)
			}
			got, err := ev.Eval(ctx, "C", []int64{i, j})
			if err != nil {
				t.Fatal(err)
			}
			if !got.Equal(value.Float(syntax.F32, float64(want))) {
				t.Errorf("C(%d, %d) = %v, want %v", i, j, got, want)
			}
		}
	}
	// R(i, j, k) outside every equation's domain is undefined.
	for _, idx := range [][]int64{{0, 0, -2}, {0, 0, p}} {
		v, err := ev.Eval(ctx, "R", idx)
		if err != nil || !v.IsUndef() || v.Type() != syntax.F32 {
			t.Errorf("R%v = %#v, %v; want undefined f32", idx, v, err)
		}
	}
	// With P = 0, C(i, j) = R(i, j, -1) = 0.
	ev0, err := NewEvaluator(spec, info, map[string]int64{"N": 1, "M": 1, "P": 0}, inputs)
	if err != nil {
		t.Fatal(err)
	}
	if v, err := ev0.Eval(ctx, "C", []int64{0, 0}); err != nil || !v.Equal(value.Float(syntax.F32, 0)) {
		t.Errorf("C(0, 0) with P = 0 is %v, %v", v, err)
	}
}

func TestDeepRecurrence(t *testing.T) {
	spec, info := load(t, "deep.sare", `
param K
input A(k) : i32
tensor S(k) : i32
S(k) = 0 where k == -1
S(k) = S(k - 1) + A(k) * 3 where 0 <= k < K
output S
`)
	const k = 100000
	ev, err := NewEvaluator(spec, info, map[string]int64{"K": k}, InputFunc(func(t *Tensor, idx []int64) (value.Value, error) {
		return value.Int(syntax.I32, idx[0]), nil
	}))
	if err != nil {
		t.Fatal(err)
	}
	got, err := ev.Eval(context.Background(), "S", []int64{k - 1})
	if err != nil {
		t.Fatal(err)
	}
	var want int32
	for i := int32(0); i < k; i++ {
		want += i * 3 // wraps like i32
	}
	if got.Int64() != int64(want) {
		t.Errorf("S(%d) = %v, want %d", k-1, got, want)
	}
}

func TestWrappingIntegers(t *testing.T) {
	spec, info := load(t, "wrap.sare", `
param N
input X(i) : u8
tensor Fib(i) : i8
Fib(i) = 1 where i == 0 or i == 1
Fib(i) = Fib(i - 1) + Fib(i - 2) where i >= 2
tensor Sum(i) : u8
Sum(i) = X(0) where i == 0
Sum(i) = Sum(i - 1) + X(i) where i > 0
tensor D(i) : i16
D(i) = i16(i) / -3 + i16(i) % -3 * 100 + (i16(-7) >> 1) * 1000
output Fib, Sum, D
`)
	ev, err := NewEvaluator(spec, info, map[string]int64{"N": 0}, InputMap{
		"X": func(idx []int64) value.Value { return value.Uint(syntax.U8, 250) },
	})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	var a, b int8 = 1, 1
	for i := 2; i <= 20; i++ {
		a, b = b, a+b
	}
	if v, _ := ev.Eval(ctx, "Fib", []int64{20}); v.Int64() != int64(b) {
		t.Errorf("Fib(20) = %v, want %d (i8 wrapping)", v, b)
	}
	if v, _ := ev.Eval(ctx, "Sum", []int64{3}); v.Uint64() != (4*250)%256 {
		t.Errorf("Sum(3) = %v, want %d", v, (4*250)%256)
	}
	// -7 / -3 = 3 (Euclidean: -7 = 3 * -3 + 2), -7 % -3 = 2; -7 >> 1 = -4.
	if v, _ := ev.Eval(ctx, "D", []int64{-7}); v.Int64() != 3+200-4000 {
		t.Errorf("D(-7) = %v, want %d", v, 3+200-4000)
	}
}

func TestCycle(t *testing.T) {
	spec, info := load(t, "cycle.sare", readFile(t, "testdata/cycle.sare"))
	ev, err := NewEvaluator(spec, info, map[string]int64{"N": 3}, RandomInputs(1))
	if err != nil {
		t.Fatal(err)
	}
	_, err = ev.Eval(context.Background(), "R", []int64{2})
	want := "evaluate R(2): cycle.sare:4:1: cyclic dependency: R(0) (equation at 4:1) needs R(0)"
	if err == nil || err.Error() != want {
		t.Errorf("error %v\nwant  %s", err, want)
	}
	var se *syntax.Error
	if !errors.As(err, &se) {
		t.Fatalf("%v is not a positioned error", err)
	}
	wantDetail := "cycle.sare:4:1: cyclic dependency: R(0) (equation at 4:1) needs R(0)\n    R(i) = R(i) + 1 where i == 0\n    ^"
	if se.Detail() != wantDetail {
		t.Errorf("detail:\n%s\nwant:\n%s", se.Detail(), wantDetail)
	}
	spec2, info2 := load(t, "cycle2.sare", `
tensor A(i) : f32
A(i) = B(i + 1)
tensor B(i) : f32
B(i) = A(i - 1) + 1
`)
	ev2, _ := NewEvaluator(spec2, info2, nil, RandomInputs(1))
	_, err = ev2.Eval(context.Background(), "A", []int64{0})
	want = "evaluate A(0): cycle2.sare:3:1: cyclic dependency: A(0) (equation at 3:1) needs B(1) (equation at 5:1) needs A(0)"
	if err == nil || err.Error() != want {
		t.Errorf("error %v\nwant  %s", err, want)
	}
}

func TestOverlap(t *testing.T) {
	spec, info := load(t, "overlap.sare", readFile(t, "testdata/overlap.sare"))
	ev, err := NewEvaluator(spec, info, map[string]int64{"N": 3}, RandomInputs(1))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if v, err := ev.Eval(ctx, "R", []int64{4}); err != nil || v.Int64() != 1 {
		t.Errorf("R(4) = %v, %v", v, err)
	}
	_, err = ev.Eval(ctx, "R", []int64{5})
	if err == nil || !strings.Contains(err.Error(), "ill-defined specification: R(5) is in the domains of two equations of R (at 4:1 and 5:1)") {
		t.Errorf("R(5): %v", err)
	}
}

func TestEvaluatorSetup(t *testing.T) {
	spec, info := load(t, "matmul.sare", readFile(t, "../examples/matmul/matmul.sare"))
	for _, c := range []struct {
		params map[string]int64
		err    string
	}{
		{map[string]int64{"N": 1, "M": 1}, "no value for parameter P"},
		{map[string]int64{"N": 1, "M": 1, "P": 1, "Q": 2}, "Q is not a parameter of the specification"},
		{map[string]int64{"N": 0, "M": 1, "P": 1}, "matmul.sare:3:8: the parameters N=0 M=1 P=1 violate the assumption N >= 1 and M >= 1 and P >= 0"},
	} {
		_, err := NewEvaluator(spec, info, c.params, RandomInputs(0))
		if err == nil || err.Error() != c.err {
			t.Errorf("%v: error %v, want %s", c.params, err, c.err)
		}
	}
	ev, _ := NewEvaluator(spec, info, map[string]int64{"N": 1, "M": 1, "P": 1}, RandomInputs(0))
	if _, err := ev.Eval(context.Background(), "C", []int64{0}); err == nil {
		t.Error("wrong arity accepted")
	}
	if _, err := ev.Eval(context.Background(), "Nope", nil); err == nil {
		t.Error("unknown tensor accepted")
	}
	bad := InputFunc(func(*Tensor, []int64) (value.Value, error) { return value.Int(syntax.I32, 1), nil })
	ev, _ = NewEvaluator(spec, info, map[string]int64{"N": 1, "M": 1, "P": 1}, bad)
	if _, err := ev.Eval(context.Background(), "C", []int64{0, 0}); err == nil || !strings.Contains(err.Error(), "has type i32, want f32") {
		t.Errorf("input of the wrong type: %v", err)
	}
}

func TestCancel(t *testing.T) {
	spec, info := load(t, "deep.sare", `
param K
tensor S(k) : i64
S(k) = 0 where k <= 0
S(k) = S(k - 1) + 1 where k > 0
`)
	ev, _ := NewEvaluator(spec, info, map[string]int64{"K": 0}, RandomInputs(0))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := ev.Eval(ctx, "S", []int64{1 << 20}); err == nil || !strings.Contains(err.Error(), "context canceled") {
		t.Errorf("cancelled evaluation: %v", err)
	}
	ev.MaxPoints = 1000
	if _, err := ev.Eval(context.Background(), "S", []int64{5000}); err == nil || !strings.Contains(err.Error(), "more than 1000") {
		t.Errorf("MaxPoints: %v", err)
	}
}

func TestIndexOverflowInSpec(t *testing.T) {
	spec, info := load(t, "ovf.sare", `
param N
input A(i) : f32
tensor B(i) : f32
B(i) = A(2 * i + N)
`)
	ev, _ := NewEvaluator(spec, info, map[string]int64{"N": 1 << 62}, RandomInputs(0))
	_, err := ev.Eval(context.Background(), "B", []int64{1 << 61})
	if err == nil || !strings.Contains(err.Error(), "ovf.sare:5:10: index overflow in 2 * i + N") {
		t.Errorf("overflow: %v", err)
	}
}

func TestRandomInputsDeterministic(t *testing.T) {
	a := &Tensor{Name: &syntax.Ident{Name: "A"}, Vars: idents("i"), Type: syntax.F32}
	b := &Tensor{Name: &syntax.Ident{Name: "B"}, Vars: idents("i"), Type: syntax.F32}
	in1, in2 := RandomInputs(9), RandomInputs(9)
	same := 0
	for i := int64(0); i < 50; i++ {
		x, _ := in1.Input(a, []int64{i})
		y, _ := in2.Input(a, []int64{i})
		z, _ := in1.Input(b, []int64{i})
		if !x.Equal(y) {
			t.Fatalf("A(%d) differs between two generators with one seed", i)
		}
		if x.Equal(z) {
			same++
		}
	}
	if same > 20 {
		t.Errorf("A and B agree at %d of 50 points", same)
	}
}

func TestNoBaseCase(t *testing.T) {
	spec, info := load(t, "nobase.sare", "tensor R(i) : i32\nR(i) = R(i - 1)\n")
	ev, _ := NewEvaluator(spec, info, nil, RandomInputs(0))
	ev.MaxPoints = 10000
	if _, err := ev.Eval(context.Background(), "R", []int64{0}); err == nil || !strings.Contains(err.Error(), "more than 10000 tensor elements") {
		t.Errorf("unbounded descent: %v", err)
	}
}

func euclid16(a, b int16) (int16, int16) {
	q, r := a/b, a%b
	if r < 0 {
		if b > 0 {
			q, r = q-1, r+b
		} else {
			q, r = q+1, r-b
		}
	}
	return q, r
}

// TestFeatures evaluates testdata/features.sare against direct Go
// computations with int16 wrapping.
func TestFeatures(t *testing.T) {
	spec, info := load(t, "features.sare", readFile(t, "testdata/features.sare"))
	x := func(i int64) int16 { return int16(i*1000 + 7) }
	a := func(i, j int64) float32 { return float32(i-j) / 4 }
	inputs := InputMap{
		"A":    func(idx []int64) value.Value { return value.Float(syntax.F32, float64(a(idx[0], idx[1]))) },
		"X":    func(idx []int64) value.Value { return value.Int(syntax.I16, int64(x(idx[0]))) },
		"U":    func([]int64) value.Value { return value.Uint(syntax.U32, 4000000000) },
		"Flag": func(idx []int64) value.Value { return value.Bool(idx[0]%3 == 0) },
	}
	ev, err := NewEvaluator(spec, info, map[string]int64{"N": 4, "M": 3}, inputs)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for i := int64(-40); i <= 40; i++ {
		var want int16
		if i >= 0 {
			want = (x(i)<<3 | x(i+1)>>2) ^ ^x(-i)&0x7F
		} else {
			q, _ := euclid16(x(i), -3)
			_, r := euclid16(x(i), 5)
			abs := x(i)
			if abs < 0 {
				abs = -abs
			}
			want = q + r - abs
		}
		got, err := ev.Eval(ctx, "Bits", []int64{i})
		if err != nil {
			t.Fatal(err)
		}
		if got.Int64() != int64(want) {
			t.Errorf("Bits(%d) = %v, want %d", i, got, want)
		}
		mix, err := ev.Eval(ctx, "Mix", []int64{i})
		if err != nil || mix.IsUndef() {
			t.Errorf("Mix(%d) = %v, %v", i, mix, err)
		}
	}
	var acc float64
	for k := int64(0); k < 3; k++ {
		acc += float64(a(2, k)) * 0.5
	}
	if got, _ := ev.Eval(ctx, "Acc", []int64{2, 2}); got.Float64() != acc {
		t.Errorf("Acc(2, 2) = %v, want %v", got, acc)
	}
	// U() * 3 wraps in u32; i16(Acc(0, 2)) = i16(-0.375) = 0 < X(0) = 7.
	u := uint32(4000000000)
	want := u*3 + 1
	if got, _ := ev.Eval(ctx, "Scalar", nil); got.Uint64() != uint64(want) {
		t.Errorf("Scalar() = %v, want %d", got, want)
	}
}

func idents(names ...string) []*syntax.Ident {
	out := make([]*syntax.Ident, len(names))
	for i, n := range names {
		out[i] = &syntax.Ident{Name: n}
	}
	return out
}

// TestKeyDistinct checks that the memo table's keys of distinct elements
// differ: indices of any sign and magnitude, ranks that differ, names
// that are prefixes of others.
func TestKeyDistinct(t *testing.T) {
	a, ab := &Tensor{Name: &syntax.Ident{Name: "a"}}, &Tensor{Name: &syntax.Ident{Name: "ab"}}
	vals := []int64{0, 1, -1, 63, -64, 64, -65, 127, 128, 1 << 31, -1 << 31, math.MaxInt64, math.MinInt64}
	var idxs [][]int64
	idxs = append(idxs, nil)
	for _, x := range vals {
		idxs = append(idxs, []int64{x})
		for _, y := range vals {
			idxs = append(idxs, []int64{x, y})
		}
	}
	seen := map[string]string{}
	for _, tn := range []*Tensor{a, ab} {
		for _, idx := range idxs {
			k, el := key(tn, idx), fmt.Sprint(tn.Name.Name, idx)
			if other, dup := seen[k]; dup {
				t.Fatalf("%s and %s have the same key %q", other, el, k)
			}
			seen[k] = el
		}
	}
}

// histSpec is a histogram computed as Halide's updates are translated: a
// scan over the pixels per bin, read at its last step.
const histSpec = `
param N
input A(i) : u8
tensor H(b, i) : i32
H(b, i) = 0 where i == -1
H(b, i) = select(i32(A(i)) % 8 == i32(b), H(b, i - 1) + 1, H(b, i - 1)) where 0 <= i < N
tensor Hist(b) : i32
Hist(b) = H(b, N - 1)
output Hist
`

// TestRecurrenceEvaluatedOnce checks that each link of a recurrence
// reached from its end has its right-hand side evaluated once: the
// elements it reads are looked up before (prefetch.go), not found
// missing by a first evaluation. The histogram's values are those of a
// direct count.
func TestRecurrenceEvaluatedOnce(t *testing.T) {
	spec, info := load(t, "hist.sare", histSpec)
	const n = 200
	inputs := RandomInputs(3)
	ev, err := NewEvaluator(spec, info, map[string]int64{"N": n}, inputs)
	if err != nil {
		t.Fatal(err)
	}
	want := make([]int64, 8)
	for i := int64(0); i < n; i++ {
		v, err := inputs.Input(spec.Tensor("A"), []int64{i})
		if err != nil {
			t.Fatal(err)
		}
		want[v.Uint64()%8]++
	}
	for b := int64(0); b < 8; b++ {
		got, err := ev.Eval(context.Background(), "Hist", []int64{b})
		if err != nil {
			t.Fatal(err)
		}
		if got.Int64() != want[b] {
			t.Errorf("Hist(%d) = %v, want %d", b, got, want[b])
		}
	}
	// The elements computed by an equation (all but the inputs), each
	// evaluated once, but for Hist(b) and H(b, N - 1), reached from
	// another tensor, evaluated a first time to find what they read:
	// not twice every link of H.
	computed := ev.Points() - n
	if want := computed + 2*8; ev.evals != want {
		t.Errorf("%d evaluations of right-hand sides for %d elements computed, want %d", ev.evals, computed, want)
	}
}
