package compiler

import (
	"context"
	"strings"
	"testing"

	"github.com/augur-verify/augur/frontend/compiler/alg"
	"github.com/augur-verify/augur/syntax"
	"github.com/augur-verify/augur/validate"
)

// withHead is an algorithm of two independent producers, A and B, read by
// Out at different rows (schedules on line 7).
const withHead = `param W, H
input In(x, y) : f32
func A(x, y) : f32 = In(x, y) * 2
func B(x, y) : f32 = In(x + 1, y) + 1
func Out(x, y) : f32 = A(x, y) + B(x, y - 1) + B(x, y + 2)
output Out over x in 0 .. W, y in 0 .. H
schedule {`

// TestComputeWith checks B.compute_with(A, y): one loop over the union of
// the two stages' rows, A's body first, guarded by A's rows, then B's. The
// kernel runs and validates; a fused loop over fewer rows than the union
// (B's last rows never computed) and a guard wider than A's rows (A
// written out of its buffer) are invalid.
func TestComputeWith(t *testing.T) {
	r := compileText(t, "with", withHead+"\n  B.compute_with(A, y)\n}\n")
	k := r.Kernels[0].Text
	const nest = `      for y in -1 .. H + 2 {
        let y2 = y
        if 0 <= y and y < H {
          for x < W {
            buf_A[x, y] {A(x, y)} := buf_In[x, y + 1] * 2
          }
        }
        for x < W {
          buf_B[x, y2 + 1] {B(x, y2)} := buf_In[x + 1, y2 + 1] + 1
        }
      }
`
	if !strings.Contains(k, nest) {
		t.Fatalf("kernel\n%s\nwant the fused nest\n%s", k, nest)
	}
	for i, params := range []map[string]int64{{"W": 1, "H": 1}, {"W": 3, "H": 5}} {
		if err := runKernel(r, params, uint64(i+1)); err != nil {
			t.Fatalf("params %v: %v", params, err)
		}
	}
	validAndMutantInvalid(t, r, "for y in -1 .. H + 2", "for y in -1 .. H", "the fused loop over A's last row")
	validAndMutantInvalid(t, r, "if 0 <= y and y < H {", "if 0 <= y and y < H + 1 {", "A's guard one row wider")
}

// TestComputeWithHarris checks that harris_app fuses Ix's loops into Iy's
// down to the vector loop, as apps/harris's Ix.compute_with(Iy, x).
func TestComputeWithHarris(t *testing.T) {
	r := compileBench(t, "harris_app")
	k := r.Kernels[0].Text
	iy, ix := strings.Index(k, "{Iy(x, y)}"), strings.Index(k, "{Ix(x, y2)}")
	loop := strings.Index(k, "for xv < (W + 2 + 7) / 8 {\n                let xv2 = xv")
	if iy < 0 || ix < 0 || loop < 0 || !(loop < iy && iy < ix) || strings.Count(k, "for xv < (W + 2 + 7) / 8") != 1 {
		t.Fatalf("Ix and Iy not fused down to xv:\n%s", k)
	}
}

// compileBench compiles bench/alg/NAME.alg.
func compileBench(t *testing.T, name string) *Result {
	t.Helper()
	p := loadExampleB(t, "../bench/alg/"+name)
	r, err := Compile(context.Background(), p, name, Options{})
	if err != nil {
		t.Fatal(detail(err))
	}
	return r
}

// TestComputeWithErrors checks the rules of compute_with, each error
// positioned at the directive.
func TestComputeWithErrors(t *testing.T) {
	const dep = `param W, H
input In(x, y) : f32
func A(x, y) : f32 = In(x, y) * 2
func B(x, y) : f32 = A(x, y + 1) + 1
func Out(x, y) : f32 = A(x, y) + B(x, y)
output Out over x in 0 .. W, y in 0 .. H
schedule {`
	for _, tc := range []struct {
		name, head, dirs, want string
		code                   syntax.Code
	}{
		{"dependent", dep, "B.compute_with(A, y)",
			"t.alg:8:5: B.compute_with(A, y): B and A depend on each other: the stages computed with each other must be independent", syntax.CodeSchedule},
		{"levels", withHead, "A.compute_at(Out, y)\n  B.compute_with(A, y)",
			"t.alg:9:5: B.compute_with(A, y): B is computed at the root and A at loop y of Out: stages computed with each other are computed at the same level", syntax.CodeSchedule},
		{"no loop", withHead, "B.compute_with(A, z)",
			"t.alg:8:5: B.compute_with(A, z): A has no loop z (its loops, outermost first: y, x)", syntax.CodeSchedule},
		{"other loops", withHead, "A.split(y, yo, yi, 2)\n  B.compute_with(A, yo)",
			"t.alg:9:5: B.compute_with(A, yo): the loops of A from the outermost down to yo are yo, those of B y, x: compute_with fuses the same loops of both stages", syntax.CodeSchedule},
		{"kinds", withHead, "A.parallel(y)\n  B.compute_with(A, y)",
			"t.alg:9:5: B.compute_with(A, y): loop y is not the same kind of loop in B and A", syntax.CodeSchedule},
		{"inline", withHead, "A.compute_inline()\n  B.compute_with(A, y)",
			"t.alg:9:5: B.compute_with(A, y): A is computed inline: it has no loops to fuse", syntax.CodeSchedule},
		{"itself", withHead, "B.compute_with(B, y)",
			"t.alg:8:5: B.compute_with(B, y): a func cannot be computed with itself", syntax.CodeSchedule},
		{"not a func", withHead, "B.compute_with(In, y)",
			"t.alg:8:5: B.compute_with(In, y): In is not a func", syntax.CodeSchedule},
		{"one relation", withHead, "B.compute_with(A, y)\n  Out.compute_with(A, y)",
			"t.alg:9:7: Out.compute_with(A, y): A is already computed with B: a func takes part in one compute_with", syntax.CodeUnsupported},
		{"placed at a fused loop", gradients + "schedule {", "Ix.compute_with(Iy, y)\n  Gray.compute_at(Iy, y)",
			"t.alg:10:8: Gray is placed at loop y of Iy, which compute_with fuses with the loops of Ix", syntax.CodeUnsupported},
		{"specialised", withHead, "A.specialize(W >= 4).parallel(x)\n  B.compute_with(A, y)",
			"t.alg:9:5: B.compute_with(A, y): A is specialised: compute_with fuses stages without specializations", syntax.CodeUnsupported},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := tc.head + "\n  " + tc.dirs + "\n}\n"
			p, err := alg.Load(&syntax.Source{Name: "t.alg", Text: src})
			if err != nil {
				t.Fatalf("%s: %v", src, detail(err))
			}
			_, err = Compile(context.Background(), p, "t", Options{})
			el, ok := err.(syntax.ErrorList)
			if !ok || len(el) == 0 || !strings.HasPrefix(el[0].Error(), tc.want) {
				t.Fatalf("for\n%s\ngot  %v\nwant %s", src, err, tc.want)
			}
			if el[0].Code != tc.code {
				t.Errorf("code %q, want %q", el[0].Code, tc.code)
			}
		})
	}
}

// gradients is harris's gradients: Ix and Iy, independent, computed from
// Gray and read by Out, the algorithm compute_with applies to.
const gradients = `param W, H
input In(x, y) : f32
func Gray(x, y) : f32 = In(x, y) * 0.5
func Iy(x, y) : f32 = Gray(x - 1, y - 1) + Gray(x + 1, y + 1)
func Ix(x, y) : f32 = Gray(x - 1, y) - Gray(x + 1, y)
func Out(x, y) : f32 = Ix(x, y) * Ix(x, y + 1) + Iy(x, y) * Iy(x - 1, y)
output Out over x in 0 .. W, y in 0 .. H
`

// TestFuzzComputeWith runs the kernels of random schedules of gradients,
// which draw compute_with among the funcs computed at the same level, and
// validates the first with compute_with.
func TestFuzzComputeWith(t *testing.T) {
	p, err := alg.Load(&syntax.Source{Name: "gradients.alg", Text: gradients})
	if err != nil {
		t.Fatal(detail(err))
	}
	n := 40
	if testing.Short() {
		n = 10
	}
	with, validated := 0, false
	got, err := FuzzSchedules(context.Background(), p, n, 36, func(tr Trial) bool {
		for i, params := range []map[string]int64{{"W": 1, "H": 2}, {"W": 7, "H": 5}} {
			if err := runKernel(tr.Result, params, uint64(i)); err != nil {
				t.Errorf("schedule %d at %v: %v\n%s\n%s", tr.Index, params, err, tr.Text, tr.Result.Kernels[0].Text)
				return false
			}
		}
		if !strings.Contains(tr.Text, "compute_with") {
			return true
		}
		with++
		if !validated {
			validated = true
			if rep := validatePair(t, tr.Result); rep.Verdict != validate.Valid {
				t.Errorf("schedule %d: verdict %s (%s)\n%s\n%s", tr.Index, rep.Verdict, rep.Reason, tr.Text, tr.Result.Kernels[0].Text)
			}
		}
		return true
	})
	if err != nil {
		t.Fatal(err)
	}
	if got != n || with == 0 {
		t.Errorf("%d distinct schedules (want %d), %d with compute_with", got, n, with)
	}
	t.Logf("%d schedules, %d with compute_with", got, with)
}
