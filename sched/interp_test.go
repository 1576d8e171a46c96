package sched

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/augur-verify/augur/sare"
	"github.com/augur-verify/augur/syntax"
)

const outerSpec = `param N, M
assume N >= 0 and M >= 0
input A(i) : f32
input B(j) : f32
tensor C(i, j) : f32
C(i, j) = A(i) * B(j)
output C
`

const matmulKernelHead = `kernel matmul(N, M, P)
assume N >= 1 and M >= 1 and P >= 0
in  a[i, k] : f32[N, P] = A(i, k)
in  b[k, j] : f32[P, M] = B(k, j)
out c[i, j] : f32[N, M] = C(i, j)
`

// run parses, checks and runs a kernel against a specification with
// random inputs.
func run(t *testing.T, specText, kernelText string, params map[string]int64, opts Options) (*Result, error) {
	t.Helper()
	spec, sinfo, err := sare.Load(&syntax.Source{Name: "s.sare", Text: specText})
	if err != nil {
		t.Fatalf("spec: %v", err)
	}
	k := mustParse(t, kernelText)
	info, errs := Check(k, spec)
	if len(errs) > 0 {
		t.Fatalf("check:\n%s", errs.Detail())
	}
	ev, err := sare.NewEvaluator(spec, sinfo, params, sare.RandomInputs(1))
	if err != nil {
		t.Fatalf("evaluator: %v", err)
	}
	return Run(context.Background(), k, info, ev, opts)
}

func matmulSpecText(t *testing.T) string {
	return matmulSpec(t).String()
}

// wantFailure checks that err is a Failure of the given kind whose
// message is exactly msg.
func wantFailure(t *testing.T, err error, kind Kind, msg string) *Failure {
	t.Helper()
	var f *Failure
	if !errors.As(err, &f) {
		t.Fatalf("want a %s failure, got %v", kind, err)
	}
	if f.Kind != kind {
		t.Fatalf("want a %s failure, got %s", kind, f.Detail())
	}
	if msg != "" && f.Error() != msg {
		t.Errorf("failure:\n got %s\nwant %s", f.Error(), msg)
	}
	return f
}

func TestRunMatmul(t *testing.T) {
	k := parseFile(t, "testdata/matmul.sched")
	res, err := run(t, matmulSpecText(t), Print(k), map[string]int64{"N": 3, "M": 4, "P": 5}, Options{})
	if err != nil {
		t.Fatalf("run: %v", err)
	}
	if res.OutputCells != 12 || res.Assignments != 3*4*6 {
		t.Errorf("result %+v", res)
	}
	// P = 0: the reduction is empty and c is all zeros.
	if _, err := run(t, matmulSpecText(t), Print(k), map[string]int64{"N": 2, "M": 2, "P": 0}, Options{}); err != nil {
		t.Fatalf("run with P = 0: %v", err)
	}
}

func TestRunTiled(t *testing.T) {
	src := matmulKernelHead + `{
  par io < (N + 7) / 8 {
    for jo < (M + 7) / 8 {
      for ii < 8 {
        let i = 8 * io + ii
        if i < N {
          par ji < 8 {
            let j = 8 * jo + ji
            if j < M {
              c[i, j] {R(i, j, -1)} := 0
            }
          }
        }
      }
      for k < P {
        for ii < 8 {
          let i = 8 * io + ii
          if i < N {
            par ji in 0 .. 8 {
              let j = 8 * jo + ji
              if j < M { c[i, j] {R(i, j, k)} := c[i, j] + a[i, k] * b[k, j] }
            }
          }
        }
      }
    }
  }
}
`
	if _, err := run(t, matmulSpecText(t), src, map[string]int64{"N": 19, "M": 13, "P": 6}, Options{}); err != nil {
		t.Fatalf("run: %v", err)
	}
}

// A benign race: when N is not a multiple of 4 the shifted last tile
// overlaps the one before it, and two iterations write equal values.
func TestRunBenignRace(t *testing.T) {
	src := `kernel outer(N, M)
assume N >= 4 and M >= 1
in  a[i] : f32[N] = A(i)
in  b[j] : f32[M] = B(j)
out c[i, j] : f32[N, M] = C(i, j)
{
  par i0 < (N + 3) / 4 {
    for j < M {
      for i1 < 4 {
        let i = min(4 * i0, N - 4) + i1
        c[i, j] {C(i, j)} := b[j] * a[i]
      }
    }
  }
}
`
	if _, err := run(t, outerSpec, src, map[string]int64{"N": 10, "M": 6}, Options{}); err != nil {
		t.Fatalf("run: %v", err)
	}
	// Writing different values into the overlap is a conflict.
	bad := strings.Replace(src, "b[j] * a[i]", "b[j] * a[i] + f32(i0)", 1)
	bad = strings.Replace(bad, "{C(i, j)}", "{C(i, j) + f32(i0)}", 1)
	_, err := run(t, outerSpec, bad, map[string]int64{"N": 10, "M": 6}, Options{})
	f := wantFailure(t, err, WriteWriteConflict, "")
	if f.LoopVar != "i0" || f.Iters != [2]int64{1, 2} || f.Cell() != "c[6, 0]" || f.Pos != (syntax.Pos{Line: 7, Col: 3}) {
		t.Errorf("conflict: %s (%+v)", f.Detail(), f)
	}
}

func TestRunRace(t *testing.T) {
	src := matmulKernelHead + `{
  for i < N {
    for j < M {
      c[i, j] {R(i, j, -1)} := 0
      par k < P {
        c[i, j] {R(i, j, k)} := c[i, j] + a[i, k] * b[k, j]
      }
    }
  }
}
`
	_, err := run(t, matmulSpecText(t), src, map[string]int64{"N": 2, "M": 2, "P": 3}, Options{})
	f := wantFailure(t, err, ReadWriteRace,
		"k.sched:10:7: read-write race: iteration k=0 writes c[0, 0] (c[i, j] {R(i, j, k)} := c[i, j] + a[i, k] * b[k, j], at 11:9) and iteration k=1 reads it (c[i, j] {R(i, j, k)} := c[i, j] + a[i, k] * b[k, j], at 11:9) (at i=0 j=0)")
	if f.Iters != [2]int64{0, 1} || f.LoopVar != "k" || f.Stmt != "par k < P" {
		t.Errorf("race: %+v", f)
	}
	want := "k.sched:10:7: read-write race: iteration k=0 writes c[0, 0] (c[i, j] {R(i, j, k)} := c[i, j] + a[i, k] * b[k, j], at 11:9) and iteration k=1 reads it (c[i, j] {R(i, j, k)} := c[i, j] + a[i, k] * b[k, j], at 11:9) (at i=0 j=0)\n          par k < P {\n          ^"
	if f.Detail() != want {
		t.Errorf("detail:\n%s\nwant:\n%s", f.Detail(), want)
	}
}

// A cell read by one iteration after it wrote it itself is still a race
// when another iteration writes it too, even with the same value.
func TestRunRaceOwnWrite(t *testing.T) {
	src := `kernel outer(N, M)
in  a[i] : f32[N] = A(i)
in  b[j] : f32[M] = B(j)
out c[i, j] : f32[N, M] = C(i, j)
{
  alloc t : f32[] {
    par i < N {
      t[] {A(0)} := a[0]
      for j < M {
        c[i, j] {C(i, j)} := b[j] * a[i] + (t[] - t[])
      }
    }
  }
}
`
	_, err := run(t, outerSpec, src, map[string]int64{"N": 2, "M": 1}, Options{})
	f := wantFailure(t, err, ReadWriteRace, "")
	if f.Cell() != "t[]" || f.Iters != [2]int64{0, 1} {
		t.Errorf("race: %s", f.Detail())
	}
}

func TestRunOutOfBoundsWrite(t *testing.T) {
	src := `kernel outer(N, M)
assume N >= 4 and M >= 1
in  a[i] : f32[N] = A(i)
in  b[j] : f32[M] = B(j)
out c[i, j] : f32[N, M] = C(i, j)
{
  for i0 < (N + 3) / 4 {
    for j < M {
      for i1 < 4 {
        let i = 4 * i0 + i1
        c[i, j] {C(i, j)} := b[j] * a[min(i, N - 1)]
      }
    }
  }
}
`
	_, err := run(t, outerSpec, src, map[string]int64{"N": 10, "M": 6}, Options{})
	f := wantFailure(t, err, OutOfBoundsWrite,
		"k.sched:11:9: out-of-bounds write: c[10, 0] is outside c[10, 6] (at i0=2 j=0 i1=2 i=10)")
	if f.Stmt != "c[i, j] {C(i, j)} := b[j] * a[min(i, N - 1)]" {
		t.Errorf("stmt %q", f.Stmt)
	}
	// Reading out of bounds is found first: the value's reads come before
	// the written cell.
	bad := strings.Replace(src, "a[min(i, N - 1)]", "a[i]", 1)
	_, err = run(t, outerSpec, bad, map[string]int64{"N": 10, "M": 6}, Options{})
	wantFailure(t, err, OutOfBoundsRead, "k.sched:11:9: out-of-bounds read: a[10] is outside a[10] (at i0=2 j=0 i1=2 i=10)")
}

func TestRunUndefinedRead(t *testing.T) {
	src := `kernel outer(N, M)
in  a[i] : f32[N] = A(i)
in  b[j] : f32[M] = B(j)
out c[i, j] : f32[N, M] = C(i, j)
{
  alloc t : f32[N] {
    for i in 1 .. N { t[i] {A(i)} := a[i] }
    for i < N {
      for j < M { c[i, j] {C(i, j)} := t[i] * b[j] }
    }
  }
}
`
	_, err := run(t, outerSpec, src, map[string]int64{"N": 3, "M": 2}, Options{})
	f := wantFailure(t, err, UndefinedRead, "k.sched:9:19: undefined read: t[0] holds no defined value (at i=0 j=0)")
	if f.Cell() != "t[0]" {
		t.Errorf("cell %q", f.Cell())
	}
	// Cells of an in array outside its binding's where hold no value.
	src2 := `kernel outer(N, M)
in  a[i] : f32[N] = A(i) where i >= 1
in  b[j] : f32[M] = B(j)
out c[i, j] : f32[N, M] = C(i, j)
{
  par i < N { for j < M { c[i, j] {C(i, j)} := a[i] * b[j] } }
}
`
	_, err = run(t, outerSpec, src2, map[string]int64{"N": 3, "M": 2}, Options{})
	wantFailure(t, err, UndefinedRead, "k.sched:6:27: undefined read: a[0] holds no defined value (at i=0 j=0)")
}

func TestRunOutputNotWritten(t *testing.T) {
	src := matmulKernelHead + `{
  par io < N / 8 {
    for ii < 8 {
      let i = 8 * io + ii
      for j < M {
        c[i, j] {R(i, j, -1)} := 0
        for k < P {
          c[i, j] {R(i, j, k)} := c[i, j] + a[i, k] * b[k, j]
        }
      }
    }
  }
}
`
	_, err := run(t, matmulSpecText(t), src, map[string]int64{"N": 10, "M": 3, "P": 2}, Options{})
	f := wantFailure(t, err, OutputNotWritten, "")
	if f.Cell() != "c[8, 0]" || f.Tensor != "C(8, 0)" || f.Pos != (syntax.Pos{Line: 5, Col: 1}) {
		t.Errorf("failure: %s", f.Detail())
	}
	if !strings.HasPrefix(f.Error(), "k.sched:5:1: output not written: c[8, 0] holds no value when the kernel ends; it should hold C(8, 0) = ") {
		t.Errorf("message: %s", f.Error())
	}
}

func TestRunWrongAnnotation(t *testing.T) {
	// The loop is shifted by one: k runs from 1, and the annotation says
	// R(i, j, k) where the value computed is the sum up to k - 1... The
	// first assignment already disagrees.
	src := matmulKernelHead + `{
  par i < N {
    for j < M {
      c[i, j] {R(i, j, -1)} := 0
      for k < P {
        c[i, j] {R(i, j, k + 1)} := c[i, j] + a[i, k] * b[k, j]
      }
    }
  }
}
`
	_, err := run(t, matmulSpecText(t), src, map[string]int64{"N": 2, "M": 2, "P": 3}, Options{})
	f := wantFailure(t, err, WrongValue, "")
	if f.Tensor != "R(0, 0, 1)" || f.Cell() != "c[0, 0]" || f.Pos != (syntax.Pos{Line: 11, Col: 9}) {
		t.Errorf("failure: %s", f.Detail())
	}
	if !strings.HasPrefix(f.Error(), "k.sched:11:9: annotation mismatch: c[0, 0] := ") ||
		!strings.Contains(f.Error(), "but the annotation R(i, j, k + 1) = R(0, 0, 1) is ") ||
		!strings.HasSuffix(f.Error(), "(at i=0 j=0 k=0)") {
		t.Errorf("message: %s", f.Error())
	}
	// An annotation outside every equation's domain is undefined.
	bad := strings.Replace(src, "R(i, j, k + 1)", "R(i, j, k + P)", 1)
	_, err = run(t, matmulSpecText(t), bad, map[string]int64{"N": 2, "M": 2, "P": 3}, Options{})
	wantFailure(t, err, UndefinedAnnotation, "k.sched:11:9: undefined annotation: the annotation R(i, j, k + P) = R(0, 0, 3) of c[0, 0] is undefined (at i=0 j=0 k=0)")
}

// A race is reported before a wrong annotation in the racing iterations.
func TestRunRaceBeforeFailure(t *testing.T) {
	src := `kernel outer(N, M)
in  a[i] : f32[N] = A(i)
in  b[j] : f32[M] = B(j)
out c[i, j] : f32[N, M] = C(i, j)
{
  par i < N {
    c[i, 0] {C(0, 0)} := a[0] * b[0]
    c[0, 0] {C(0, 0)} := c[1, 0]
  }
}
`
	_, err := run(t, outerSpec, src, map[string]int64{"N": 2, "M": 1}, Options{})
	wantFailure(t, err, ReadWriteRace, "")
}

func TestRunBudget(t *testing.T) {
	k := parseFile(t, "testdata/matmul.sched")
	_, err := run(t, matmulSpecText(t), Print(k), map[string]int64{"N": 100, "M": 100, "P": 100}, Options{MaxSteps: 1000})
	if !errors.Is(err, ErrBudget) {
		t.Errorf("want a budget error, got %v", err)
	}
	_, err = run(t, matmulSpecText(t), Print(k), map[string]int64{"N": 1 << 20, "M": 1 << 20, "P": 1}, Options{})
	if !errors.Is(err, ErrBudget) {
		t.Errorf("want a budget error for huge arrays, got %v", err)
	}
}

func TestRunIndexOverflow(t *testing.T) {
	src := `kernel outer(N, M)
in  a[i] : f32[N] = A(i)
in  b[j] : f32[M] = B(j)
out c[i, j] : f32[N, M] = C(i, j)
{
  let big = 9223372036854775807
  c[0, 0] {C(0, 0)} := a[big + N] * b[0]
}
`
	_, err := run(t, outerSpec, src, map[string]int64{"N": 1, "M": 1}, Options{})
	wantFailure(t, err, IndexError, "k.sched:7:3: index error: index overflow in big + N (9223372036854775807 + 1) (at big=9223372036854775807)")
}

func TestRunTolerance(t *testing.T) {
	spec := `param N
input A(i) : f64
tensor S(i) : f64
S(i) = A(i) * 3.0
output S
`
	src := `kernel k(N)
in  a[i] : f64[N] = A(i)
out s[i] : f64[N] = S(i)
{
  for i < N { s[i] {S(i)} := a[i] + a[i] + a[i] + 0.000000001 }
}
`
	_, err := run(t, spec, src, map[string]int64{"N": 4}, Options{})
	wantFailure(t, err, WrongValue, "")
	if _, err := run(t, spec, src, map[string]int64{"N": 4}, Options{Tolerance: 1e-6}); err != nil {
		t.Errorf("with a tolerance: %v", err)
	}
}

func TestRunEmptyLoopBudget(t *testing.T) {
	src := `kernel outer(N, M)
in  a[i] : f32[N] = A(i)
in  b[j] : f32[M] = B(j)
out c[i, j] : f32[N, M] = C(i, j)
{
  for i < 4611686018427387904 { }
}
`
	_, err := run(t, outerSpec, src, map[string]int64{"N": 1, "M": 1}, Options{MaxSteps: 100000})
	if !errors.Is(err, ErrBudget) {
		t.Errorf("want a budget error, got %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	spec, sinfo, _ := sare.Load(&syntax.Source{Name: "s.sare", Text: outerSpec})
	k := mustParse(t, src)
	info, _ := Check(k, spec)
	ev, _ := sare.NewEvaluator(spec, sinfo, map[string]int64{"N": 1, "M": 1}, sare.RandomInputs(1))
	if _, err := Run(ctx, k, info, ev, Options{}); !errors.Is(err, context.Canceled) {
		t.Errorf("want cancellation, got %v", err)
	}
}

func TestRunBindings(t *testing.T) {
	// Two in bindings of one array with disjoint domains, and an in-place
	// update: c starts as zeros where j == 0 and ones elsewhere.
	spec := `param N
input A(i) : f32
tensor Z(i, j) : f32
Z(i, j) = 0 where j == 0
Z(i, j) = 1 where j >= 1
tensor C(i, j) : f32
C(i, j) = Z(i, j) + A(i)
output C
`
	src := `kernel k(N)
in  a[i] : f32[N] = A(i)
in  c[i, j] : f32[N, 2] = Z(i, j) where j == 0
in  c[i, j] : f32[N, 2] = Z(i, j) where j >= 1
out c[i, j] : f32[N, 2] = C(i, j)
{
  par i < N { par j < 2 { c[i, j] {C(i, j)} := c[i, j] + a[i] } }
}
`
	if _, err := run(t, spec, src, map[string]int64{"N": 3}, Options{}); err != nil {
		t.Fatalf("run: %v", err)
	}
	overlap := strings.Replace(src, "where j >= 1", "where j >= 0 and i >= 1", 1)
	_, err := run(t, spec, overlap, map[string]int64{"N": 3}, Options{})
	wantFailure(t, err, BindingOverlap, "k.sched:4:1: overlapping bindings: c[1, 0] is covered by this in binding and the one at 3:1 (at i=1 j=0)")
}

func TestMarshalShape(t *testing.T) {
	k := mustParse(t, "kernel k(N)\nin  a[i] : f32[N] = A(i) where i > 0\n{\n  for i in 1 .. N { a[i] {A(i)} := a[i] }\n}\n")
	data, err := Marshal(k)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"name":"k","params":["N"],"bindings":[{"dir":"in","array":"a","vars":["i"],"type":"f32","extents":[{"kind":"ident","name":"N","pos":{"line":2,"col":16}}],"tensor":{"kind":"call","name":"A","args":[{"kind":"ident","name":"i","pos":{"line":2,"col":23}}],"pos":{"line":2,"col":21}},"where":{"kind":"binary","op":"gt","x":{"kind":"ident","name":"i","pos":{"line":2,"col":32}},"y":{"kind":"int","value":"0","pos":{"line":2,"col":36}}},"pos":{"line":2,"col":1}}],"body":[{"kind":"for","var":"i","lo":{"kind":"int","value":"1","pos":{"line":4,"col":12}},"hi":{"kind":"ident","name":"N","pos":{"line":4,"col":17}},"body":[{"kind":"assign","array":"a","indices":[{"kind":"ident","name":"i","pos":{"line":4,"col":23}}],"annot":{"kind":"call","name":"A","args":[{"kind":"ident","name":"i","pos":{"line":4,"col":29}}],"pos":{"line":4,"col":27}},"value":{"kind":"index","name":"a","args":[{"kind":"ident","name":"i","pos":{"line":4,"col":38}}],"pos":{"line":4,"col":36}},"pos":{"line":4,"col":21}}],"pos":{"line":4,"col":3}}],"pos":{"line":1,"col":1}}`
	if string(data) != want {
		t.Errorf("json:\n%s\nwant:\n%s", data, want)
	}
}

// Local arrays allocated in different iterations of a par loop do not
// alias; inner par loops see the local array of their own iteration.
func TestRunLocalArrays(t *testing.T) {
	src := `kernel outer(N, M)
in  a[i] : f32[N] = A(i)
in  b[j] : f32[M] = B(j)
out c[i, j] : f32[N, M] = C(i, j)
{
  par i < N {
    alloc t : f32[] {
      t[] {A(i)} := a[i]
      par j < M {
        if j == 0 {
          c[i, j] {C(i, j)} := t[] * b[j]
        } else if j == 1 {
          let jj = j
          c[i, jj] {C(i, jj)} := b[jj] * t[]
        } else {
          c[i, j] {C(i, j)} := t[] * b[j]
        }
      }
    }
  }
}
`
	if _, err := run(t, outerSpec, src, map[string]int64{"N": 4, "M": 3}, Options{}); err != nil {
		t.Fatalf("run: %v", err)
	}
	// An inner iteration overwriting the local array races with the
	// others, which read it.
	bad := strings.Replace(src, "let jj = j\n", "let jj = j\n          t[] {A(i)} := a[i]\n", 1)
	_, err := run(t, outerSpec, bad, map[string]int64{"N": 4, "M": 3}, Options{})
	f := wantFailure(t, err, ReadWriteRace, "")
	if f.LoopVar != "j" || f.Cell() != "t[]" || f.Iters != [2]int64{1, 0} || len(f.Env) != 1 || f.Env[0] != (Var{"i", 0}) {
		t.Errorf("race: %s", f.Detail())
	}
}

// TestRunBitCast runs fast_exp's construction of 2^k from its bits,
// written with a shift in the specification and a product in the kernel
// (as Halide's lowering rewrites it), and a wrong exponent bias, which
// the interpreter catches.
func TestRunBitCast(t *testing.T) {
	spec := `param N
input K(i) : i32
tensor P(i) : f32
P(i) = reinterpret_f32(clamp(K(i) % 200 - 100 + 127, 0, 255) << 23)
tensor B(i) : u32
B(i) = reinterpret_u32(P(i))
output B
`
	src := `kernel k(N)
assume N >= 1
in  kk[i] : i32[N] = K(i)
out b[i] : u32[N] = B(i)
{
  alloc p : f32[N] {
    for i < N {
      p[i] {P(i)} := reinterpret_f32(max(min(kk[i] % 200 - 100, 128), -127) * 8388608 + 1065353216)
    }
    for i < N {
      b[i] {B(i)} := reinterpret_u32(p[i])
    }
  }
}
`
	res, err := run(t, spec, src, map[string]int64{"N": 50}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Assignments != 100 {
		t.Errorf("%d assignments, want 100", res.Assignments)
	}
	bad := strings.Replace(src, "1065353216", "1056964608", 1) // bias 126
	_, err = run(t, spec, bad, map[string]int64{"N": 50}, Options{})
	wantFailure(t, err, WrongValue, "")
}

// tailKernel computes T in tiles of 4, rounded up past N (Halide's
// round-up tail): for N not a multiple of 4 the last tile squares cells of
// s that the copy never wrote, garbage that c reads only when leak is set.
func tailKernel(leak bool) string {
	bound := "N"
	if leak {
		bound = "N - 1"
	}
	return `kernel tail(N)
assume N >= 1
in  a[i] : f32[N] = A(i)
out c[i] : f32[N] = C(i)
{
  alloc s : f32[(N + 3) / 4 * 4] {
    alloc t : f32[(N + 3) / 4 * 4] {
      for i < ` + bound + ` { s[i] {A(i)} := a[i] }
      for i0 < (N + 3) / 4 {
        for i1 < 4 {
          t[4 * i0 + i1] {T(4 * i0 + i1)} := s[4 * i0 + i1] * s[4 * i0 + i1]
        }
      }
      for i < N { c[i] {C(i)} := t[i] + a[i] }
    }
  }
}
`
}

const tailSpec = `param N
assume N >= 1
input A(i) : f32
tensor T(i) : f32
T(i) = A(i) * A(i)
tensor C(i) : f32
C(i) = T(i) + A(i)
output C
`

// TestRunGarbageWrites runs round-up tails with and without garbage
// writes: strictly, the tile past N reads unwritten cells; with garbage
// writes those iterations write ⊥, which fails only where it reaches c.
func TestRunGarbageWrites(t *testing.T) {
	params := map[string]int64{"N": 5}
	_, err := run(t, tailSpec, tailKernel(false), params, Options{})
	wantFailure(t, err, UndefinedRead, "k.sched:11:11: undefined read: s[5] holds no defined value (at i0=1 i1=1)")

	res, err := run(t, tailSpec, tailKernel(false), params, Options{GarbageWrites: true})
	if err != nil {
		t.Fatalf("with garbage writes: %v", err)
	}
	if res.GarbageWrites != 3 {
		t.Errorf("%d garbage writes, want 3 (t[5], t[6], t[7])", res.GarbageWrites)
	}

	_, err = run(t, tailSpec, tailKernel(true), params, Options{GarbageWrites: true})
	f := wantFailure(t, err, OutputNotWritten, "")
	if f.Cell() != "c[4]" {
		t.Errorf("failure at %s, want c[4]: %s", f.Cell(), f.Detail())
	}
	// The failure says by which path ⊥ reached c[4]: the tile's read of
	// s[4], never written, then c's read of t[4].
	wantPath := "s[4] (never written) read at 11:11 (at i0=1 i1=0), ⊥ written into t[4]; t[4] read at 14:19 (at i=4), ⊥ written into c[4]"
	if f.Garbage == nil || f.Garbage.String() != wantPath {
		t.Errorf("garbage path %v, want %q", f.Garbage, wantPath)
	} else if o := f.Garbage.Origin(); o.Pos.Line != 11 || o.Read != "s[4]" || len(f.Garbage.Path()) != 2 {
		t.Errorf("origin %+v (path of %d steps), want the read of s[4] at line 11", o, len(f.Garbage.Path()))
	} else {
		// Each step names its own statement (the run computes each
		// statement's text once).
		wantStmts := []string{"t[4 * i0 + i1] {T(4 * i0 + i1)} := s[4 * i0 + i1] * s[4 * i0 + i1]", "c[i] {C(i)} := t[i] + a[i]"}
		for i, st := range f.Garbage.Path() {
			if st.Stmt != wantStmts[i] {
				t.Errorf("garbage step %d: statement %q, want %q", i, st.Stmt, wantStmts[i])
			}
		}
	}
	if !strings.Contains(f.Msg, "holds the undefined value ⊥ of garbage writes") {
		t.Errorf("message %q, want it to say that c[4] holds ⊥", f.Msg)
	}
	// The output check comes after every statement: the failure's work
	// is at least the passing run's statements.
	if f.Steps < res.Steps-int64(5) || f.Steps > res.Steps+int64(5) {
		t.Errorf("failure after %d steps, want about the %d of the passing run", f.Steps, res.Steps)
	}
	// A multiple of the tile needs no garbage.
	res, err = run(t, tailSpec, tailKernel(false), map[string]int64{"N": 8}, Options{GarbageWrites: true})
	if err != nil || res.GarbageWrites != 0 {
		t.Errorf("N = 8: %v, %+v", err, res)
	}
}
