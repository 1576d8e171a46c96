package rink

import (
	"context"
	"errors"
	"math"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/augur-verify/augur/sare"
	"github.com/augur-verify/augur/sched"
	"github.com/augur-verify/augur/syntax"
	"github.com/augur-verify/augur/value"
)

// resize returns a copy of p whose extents are replaced by small ones: the
// k-th smallest distinct extent becomes size(k). Distinct extents stay
// distinct, so the copy is well-typed when p is.
func resize(t *testing.T, p *Program, size func(k int) int64) (*Program, *Info, map[int64]int64) {
	t.Helper()
	var ext []int64
	seen := map[int64]bool{}
	for _, d := range p.Decls {
		for _, n := range d.Extents {
			if !seen[n] {
				seen[n] = true
				ext = append(ext, n)
			}
		}
	}
	sort.Slice(ext, func(i, j int) bool { return ext[i] < ext[j] })
	to := map[int64]int64{}
	for k, n := range ext {
		to[n] = size(k)
	}
	q := *p
	q.Decls = nil
	for _, d := range p.Decls {
		c := *d
		c.Extents = nil
		for _, n := range d.Extents {
			c.Extents = append(c.Extents, to[n])
		}
		q.Decls = append(q.Decls, &c)
	}
	info, errs := Check(&q)
	if len(errs) > 0 {
		t.Fatalf("resized program: %v", errs)
	}
	return &q, info, to
}

// sizes are the two sets of small sizes the semantics are compared at.
var sizes = []func(k int) int64{
	func(k int) int64 { return int64(k + 2) },
	func(k int) int64 { return int64(2*k + 3) },
}

// TestAgreesWithRun runs every example at two sizes: the reference
// interpreter of augur run (the specification's evaluator and the kernel
// interpreter) runs both generated kernels on random inputs, checking every
// annotation and output, and the package's reference semantics (Figs.
// 10-12) and padded semantics (Figs. 13-14), on the same inputs, must give
// exactly the specification's outputs.
func TestAgreesWithRun(t *testing.T) {
	ctx := context.Background()
	for _, path := range examples(t) {
		name := strings.TrimSuffix(filepath.Base(path), ".rink")
		p, _, out := load(t, path, Options{})
		spec, sinfo, err := sare.Load(&syntax.Source{Name: name + ".sare", Text: out.Spec})
		if err != nil {
			t.Fatalf("%s: generated specification: %v", name, err)
		}
		kernels := map[string]string{"ref": out.Kernel(Ref).Text, "padded": out.Kernel(Padded).Text}
		for si, size := range sizes {
			q, qinfo, to := resize(t, p, size)
			params := map[string]int64{}
			for prm, n := range out.Params {
				params[prm] = to[n]
			}
			inputs := sare.RandomInputs(uint64(si + 1))
			ev, err := sare.NewEvaluator(spec, sinfo, params, inputs)
			if err != nil {
				t.Fatal(err)
			}
			for impl, text := range kernels {
				k, kinfo, err := sched.Load(&syntax.Source{Name: name + "." + impl + ".sched", Text: text}, spec)
				if err != nil {
					t.Fatalf("%s: generated %s kernel: %v", name, impl, err)
				}
				if _, err := sched.Run(ctx, k, kinfo, ev, sched.Options{}); err != nil {
					t.Errorf("%s %s at %v: %v", name, impl, params, err)
				}
			}
			init := func(v string, idx []int64) Value {
				tensor := spec.Tensor(out.Inputs[v])
				if tensor == nil {
					return Value{} // never read before it is assigned
				}
				x, err := inputs.Input(tensor, idx)
				if err != nil {
					t.Fatal(err)
				}
				return Num(x.Float64())
			}
			compared := 0
			for _, m := range []int64{0, 4} {
				store, err := Eval(q, qinfo, init, EvalOptions{VectorLength: m})
				if err != nil {
					t.Fatal(err)
				}
				for v, tensor := range out.Outputs {
					x := store[v]
					forEach(x.Type, func(idx []int64) {
						want, err := ev.Eval(ctx, tensor, idx)
						if err != nil {
							t.Fatal(err)
						}
						compared++
						if got := x.At(idx); !same(got, want) {
							t.Errorf("%s at %v, M=%d: %s%v = %v, augur run's specification gives %v", name, params, m, v, idx, got, want)
						}
					})
				}
			}
			if len(out.Outputs) > 0 && compared == 0 {
				t.Errorf("%s: no output cell compared", name)
			}
			t.Logf("%s at %v: %d output cells agree", name, params, compared)
		}
	}
}

// same compares a value of the package with one of augur run, bit for
// bit (NaN equal to NaN).
func same(a Value, b value.Value) bool {
	if !a.Defined || b.IsUndef() {
		return !a.Defined && b.IsUndef()
	}
	x, y := a.X, b.Float64()
	return math.Float64bits(x) == math.Float64bits(y) || x != x && y != y
}

// TestPaddedInfinity: with an infinite input, augur run finds the padded
// kernel of padding_infinity.rink wrong (the padding holds inf * 0 = NaN,
// which the contraction adds into the logical result) and the reference
// kernel right, at the declared sizes.
func TestPaddedInfinity(t *testing.T) {
	ctx := context.Background()
	_, _, out := load(t, filepath.Join(exampleDir, "padding_infinity.rink"), Options{})
	spec, sinfo, err := sare.Load(&syntax.Source{Name: "spec.sare", Text: out.Spec})
	if err != nil {
		t.Fatal(err)
	}
	inf := sare.InputFunc(func(tensor *sare.Tensor, idx []int64) (value.Value, error) {
		if tensor.Name.Name == "A" && idx[0] == 0 {
			return value.Float(syntax.F32, math.Inf(1)), nil
		}
		return value.Float(syntax.F32, 1), nil
	})
	ev, err := sare.NewEvaluator(spec, sinfo, out.Params, inf)
	if err != nil {
		t.Fatal(err)
	}
	for impl, text := range map[string]string{"ref": out.Kernel(Ref).Text, "padded": out.Kernel(Padded).Text} {
		k, kinfo, err := sched.Load(&syntax.Source{Name: impl + ".sched", Text: text}, spec)
		if err != nil {
			t.Fatal(err)
		}
		_, err = sched.Run(ctx, k, kinfo, ev, sched.Options{})
		var fail *sched.Failure
		switch {
		case impl == "ref" && err != nil:
			t.Errorf("reference kernel: %v", err)
		case impl == "padded" && !errors.As(err, &fail):
			t.Errorf("padded kernel with A(0) = +Inf: got %v, want a failure", err)
		case impl == "padded":
			t.Logf("padded kernel with A(0) = +Inf: %v", fail)
		}
	}
}
