package validate

import (
	"context"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/augur-verify/augur/presburger"
	"github.com/augur-verify/augur/sched"
	"github.com/augur-verify/augur/symeval"
	"github.com/augur-verify/augur/syntax"
)

// quickPointEager is quickPoint as it was, sampling the points left at
// every choice: the reference of TestQuickPointLazy.
func quickPointEager(ctx context.Context, dom *presburger.Map, in *input, rng *rand.Rand, hi int64) (map[string]int64, error) {
	pt, err := dom.Sample(ctx)
	if err != nil || pt == nil {
		return nil, err
	}
	params := map[string]int64{}
	for i, p := range in.kernel.Params {
		tried := false
		for _, c := range []int64{1 + rng.Int64N(hi)} {
			fixed, err := dom.FixParam(p.Name, presburger.NewInt(c))
			if err != nil {
				return nil, err
			}
			q, err := fixed.Sample(ctx)
			if err != nil {
				return nil, err
			}
			if q != nil {
				dom, pt, tried = fixed, q, true
				break
			}
		}
		if !tried {
			pos, err := positive(dom, p.Name)
			if err != nil {
				return nil, err
			}
			if q, err := pos.Sample(ctx); err != nil {
				return nil, err
			} else if q != nil {
				pt = q
			}
			if dom, err = dom.FixParam(p.Name, pt[i]); err != nil {
				return nil, err
			}
		}
		x, ok := pt[i].Int64()
		if !ok || x > quickMaxParam || x < -quickMaxParam {
			return nil, errTooLarge
		}
		params[p.Name] = x
	}
	return params, nil
}

// TestQuickPointLazy checks that quickPoint, which samples the points
// left only when a parameter falls back to them, picks the points that
// sampling at every choice picks, on Halide pairs whose assumptions fix
// some parameters (the random values fail there) and bound others.
func TestQuickPointLazy(t *testing.T) {
	ctx := context.Background()
	fallbacks := 0
	// A parameter that cannot be positive takes the value of the last
	// point, which depends on the values before it: a = -n.
	dom, err := presburger.ParseMap("[n, a] -> { : n >= 1 and n <= 50 and a <= -n and a >= -n - 3 }")
	if err != nil {
		t.Fatal(err)
	}
	in := &input{kernel: &sched.Kernel{Params: []*syntax.Ident{{Name: "n"}, {Name: "a"}}}}
	for seed := uint64(0); seed < 4; seed++ {
		got, err := quickPoint(ctx, dom, kernelParams(in), rand.New(rand.NewPCG(seed, 1)), 40)
		if err != nil {
			t.Fatal(err)
		}
		if got["a"] != -got["n"] {
			t.Fatalf("seed %d: %v, want a = -n", seed, got)
		}
	}
	for _, name := range []string{"dsc", "sgemm1024", "blur"} {
		dir := filepath.Join("..", "bench", "halide", name)
		src := func(f string) *syntax.Source {
			text, err := os.ReadFile(filepath.Join(dir, f))
			if err != nil {
				t.Fatal(err)
			}
			return &syntax.Source{Name: f, Text: string(text)}
		}
		in, errs := loadInput(src("spec.sare"), src("prog.sched"))
		if len(errs) > 0 {
			t.Fatalf("%s: %v", name, errs)
		}
		dom, err := symeval.Assumptions(ctx, in.kernel)
		if err != nil {
			t.Fatal(err)
		}
		for seed := uint64(0); seed < 3; seed++ {
			for _, hi := range quickRanges {
				r1, r2 := rand.New(rand.NewPCG(seed, 1)), rand.New(rand.NewPCG(seed, 1))
				got, err1 := quickPoint(ctx, dom, kernelParams(in), r1, hi)
				want, err2 := quickPointEager(ctx, dom, in, r2, hi)
				if (err1 == nil) != (err2 == nil) {
					t.Fatalf("%s: seed %d, hi %d: error %v, eager %v", name, seed, hi, err1, err2)
				}
				if len(got) != len(want) {
					t.Fatalf("%s: seed %d, hi %d: %v, eager %v", name, seed, hi, got, want)
				}
				for p, v := range want {
					if got[p] != v {
						t.Fatalf("%s: seed %d, hi %d: %s = %d, eager %d", name, seed, hi, p, got[p], v)
					}
				}
				for _, p := range in.kernel.Params {
					if v, ok := want[p.Name]; ok && (v < 1 || v > hi) {
						fallbacks++
					}
				}
			}
		}
	}
	if fallbacks == 0 {
		t.Fatal("no parameter fell back to the points left")
	}
	t.Logf("%d parameters fell back", fallbacks)
}
