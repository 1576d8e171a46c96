package halide

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/augur-verify/augur/frontend"
	"github.com/augur-verify/augur/smt/encode"
	"github.com/augur-verify/augur/validate"
)

// TestMutate checks that miscompilations planted in what stock Halide
// compiled are caught: each mutated kernel is INVALID, with a
// counterexample the reference interpreter reproduces.
func TestMutate(t *testing.T) {
	t.Parallel()
	tc := toolchain(t)
	cases := []struct {
		app    string
		params map[string]string
		kind   string
	}{
		// blur_x's fold of 4 rows down to 2: the consumer reads 3 rows.
		{"blur", nil, "fold:2"},
		// The consumer's wait for the sliding window to fill.
		{"blur", nil, "guard"},
		// blur_x's last vector of columns not computed.
		{"blur", nil, "compute-at"},
		// The first row of each strip's window not computed.
		{"blur", nil, "sliding"},
		// The GuardWithIf of the partial tiles of C.
		{"matmul", nil, "guard"},
	}
	built := map[string]*frontend.Pair{}
	for _, c := range cases {
		c := c
		t.Run(c.app+"_"+c.kind, func(t *testing.T) {
			ctx := context.Background()
			key := name(c.app, c.params)
			pair, ok := built[key]
			if !ok {
				d := driver(t, tc, c.app)
				var err error
				if pair, err = Translate(ctx, d, Options{Params: c.params, Target: SuiteTarget}); err != nil {
					t.Fatal(err)
				}
				built[key] = pair
			}
			mutated, desc, err := Mutate(pair.Kernel(frontend.Prog).Text, c.kind)
			if err != nil {
				t.Fatal(err)
			}
			mutant := &frontend.Pair{Spec: pair.Spec, Kernels: []frontend.Kernel{{Name: frontend.Prog, Text: mutated}}}
			vctx, cancel := context.WithTimeout(ctx, 3*time.Minute)
			defer cancel()
			start := time.Now()
			rep, err := validatePair(vctx, mutant, encode.Real, 2)
			if err != nil {
				t.Fatal(err)
			}
			if rep.Verdict != validate.Invalid || rep.Counterexample == nil {
				t.Fatalf("%s: %s, want invalid with a counterexample (%s)", desc, rep.Verdict, rep.Reason)
			}
			cx := rep.Counterexample
			if !cx.Reproduced {
				t.Errorf("%s: the counterexample is not reproduced by the reference interpreter: %+v", desc, cx)
			}
			t.Logf("%s: INVALID in %.1fs, %s at %s line %d: %s", desc, time.Since(start).Seconds(), cx.Kind, filepath.Base(cx.File), cx.Line,
				strings.TrimSpace(cx.Stmt))
		})
	}
}

func TestMutateText(t *testing.T) {
	t.Parallel()
	prog := `kernel k(n)
in  buf_in[d0] : u16[n] = in_(d0)
out buf_out[d0, d1] : u16[n, n] = out(d0, d1)
{
  par y < n {
    alloc buf_f : u16[n, 4] {
      for yi in -2 .. n {
        for x < n {
          buf_f[x, (yi + 2) % 4] {f(x, yi + 2)} := buf_in[x]
        }
        if 0 <= yi {
          buf_out[0, yi] {out(0, yi)} := buf_f[0, (yi + 1) % 4] + buf_f[0, yi % 4]
        }
      }
    }
  }
}
`
	for _, c := range []struct{ kind, want string }{
		{"fold", "alloc buf_f : u16[n, 3] {"},
		{"fold:2", "buf_f[0, yi % 2]"},
		{"guard", "        {\n          buf_out"},
		{"compute-at", "for x < n - 1 {"},
		{"sliding", "for yi in -2 + 1 .. n {"},
	} {
		got, _, err := Mutate(prog, c.kind)
		if err != nil {
			t.Fatalf("%s: %v", c.kind, err)
		}
		if !strings.Contains(got, c.want) {
			t.Errorf("%s: no %q in\n%s", c.kind, c.want, got)
		}
	}
	if _, _, err := Mutate(prog, "nonsense"); err == nil {
		t.Error("an unknown mutation is accepted")
	}
}
