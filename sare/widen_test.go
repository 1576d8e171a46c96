package sare

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/augur-verify/augur/expr"
	"github.com/augur-verify/augur/syntax"
	"github.com/augur-verify/augur/value"
)

// TestWiden checks that the widened copy computes in f64 what the
// specification computes in f32: a cancellation that binary32 rounds to
// nothing keeps its value, a well-conditioned value stays within binary32's
// rounding of its widened twin, and the original is left as it was.
func TestWiden(t *testing.T) {
	const text = `param N
assume N >= 1
input X(i) : f32
input K(i) : i32
tensor C(i) : f32
C(i) = (X(i) + 100000000.0) - f32(100000000.0) where 0 <= i < N
tensor D(i) : f32
D(i) = X(i) * 2.0 + f32(K(i)) where 0 <= i < N
output C, D
`
	sp := mustParseCheck(t, text)
	w, info, err := Widen(sp)
	if err != nil {
		t.Fatal(err)
	}
	if got := sp.Tensor("C").Type; got != syntax.F32 {
		t.Fatalf("the original's C is %s after widening, want f32", got)
	}
	for _, name := range []string{"X", "C", "D"} {
		if got := w.Tensor(name).Type; got != syntax.F64 {
			t.Errorf("widened %s is %s, want f64", name, got)
		}
	}
	if got := w.Tensor("K").Type; got != syntax.I32 {
		t.Errorf("widened K is %s, want i32", got)
	}
	in := InputMap{
		"X": func([]int64) value.Value { return value.Float(syntax.F32, 0.3) },
		"K": func([]int64) value.Value { return value.Int(syntax.I32, 5) },
	}
	params := map[string]int64{"N": 2}
	narrow, err := NewEvaluator(sp, mustCheck(t, sp), params, in)
	if err != nil {
		t.Fatal(err)
	}
	wide, err := NewEvaluator(w, info, params, WidenInputs(sp, in))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	eval := func(e *Evaluator, name string) value.Value {
		v, err := e.Eval(ctx, name, []int64{1})
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	if n, d := eval(narrow, "C"), eval(wide, "C"); n.Float64() != 0 || d.Float64() < 0.29 || d.Float64() > 0.31 {
		t.Errorf("C: f32 %v, f64 %v; want 0 (binary32 rounds 0.3 away) and about 0.3", n, d)
	}
	if n, d := eval(narrow, "D"), eval(wide, "D"); !value.Float(syntax.F32, d.Float64()).Close(n, 1e-6) || d.Type() != syntax.F64 {
		t.Errorf("D: f32 %v, f64 %v; want the same value", n, d)
	}
}

// TestWidenRepositorySpecs widens every specification of the repository
// that parses and checks: each widens, or fails only for a bit cast of an
// f32, which has no f64 twin.
func TestWidenRepositorySpecs(t *testing.T) {
	var files []string
	err := filepath.WalkDir("..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && strings.HasPrefix(d.Name(), ".") && path != ".." {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(path, ".sare") {
			files = append(files, path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	widened, bitcasts := 0, 0
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		sp, errs := Parse(&syntax.Source{Name: f, Text: string(b)})
		if len(errs) > 0 {
			continue
		}
		if _, errs := Check(sp); len(errs) > 0 {
			continue
		}
		if _, _, err := Widen(sp); err != nil {
			if bitcasts++; !strings.Contains(string(b), "reinterpret_") {
				t.Errorf("%s: %v", f, err)
			}
			continue
		}
		widened++
	}
	t.Logf("widened %d of %d specifications (%d with bit casts do not widen)", widened, len(files), bitcasts)
	if widened < 80 {
		t.Errorf("widened %d of %d specifications, want at least 10", widened, len(files))
	}
}

func mustParseCheck(t *testing.T, text string) *Spec {
	t.Helper()
	sp, errs := Parse(&syntax.Source{Name: "t.sare", Text: text})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	mustCheck(t, sp)
	return sp
}

func mustCheck(t *testing.T, sp *Spec) *expr.Info {
	t.Helper()
	info, errs := Check(sp)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	return info
}
