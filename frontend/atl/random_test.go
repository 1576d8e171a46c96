package atl

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/augur-verify/augur/sare"
	"github.com/augur-verify/augur/sched"
	"github.com/augur-verify/augur/syntax"
	"github.com/augur-verify/augur/validate"
)

// randomExpr writes a random rank-1 expression of padding, truncation,
// concatenation, guards, splits and sums; depth bounds its size.
func randomExpr(r *rand.Rand, depth int, fresh *int) string {
	amount := []string{"0", "1", "2", "k"}[r.IntN(4)]
	v := func() string { *fresh++; return fmt.Sprintf("v%d", *fresh) }
	if depth == 0 || r.IntN(5) == 0 {
		i := v()
		size := []string{"n", "k", "3", "n + 1"}[r.IntN(4)]
		cond := []string{"true", i + " >= k", i + " < n - 1", i + " >= 1", i + " < 2", i + " >= k and " + i + " < n"}[r.IntN(6)]
		return fmt.Sprintf("gen [%s < %s] guard [%s] %s * 2 + 1", i, size, cond, i)
	}
	x := randomExpr(r, depth-1, fresh)
	switch r.IntN(10) {
	case 8:
		return fmt.Sprintf("flatten(transpose(split(2, %s)))", x)
	case 9:
		i, t := v(), v()
		return fmt.Sprintf("let %s = %s in gen [%s < 2] guard [%s >= 1] %s[0] + %s", t, x, i, i, t, i)
	case 0:
		return fmt.Sprintf("padl(%s, %s)", amount, x)
	case 1:
		return fmt.Sprintf("padr(%s, %s)", amount, x)
	case 2:
		return fmt.Sprintf("truncl(%s, %s)", amount, x)
	case 3:
		return fmt.Sprintf("truncr(%s, %s)", amount, x)
	case 4:
		return fmt.Sprintf("(%s) ++ (%s)", x, randomExpr(r, depth-1, fresh))
	case 5:
		return fmt.Sprintf("flatten(split(2, %s))", x)
	case 6:
		return fmt.Sprintf("sum [%s < 2] %s", v(), x)
	}
	return fmt.Sprintf("truncl(1, padl(1, %s))", x)
}

// TestRandomPadTyping compiles random programs of padding and
// truncation: every program the pad type system accepts must run clean
// (no store out of bounds, every annotation and output cell right)
// under augur run's interpreter at several sizes, and its specification
// must agree with ATL's semantics. Programs it rejects are lowered
// anyway: most then go wrong (the system is conservative, so not all).
func TestRandomPadTyping(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	ctx := context.Background()
	n := 2000
	if testing.Short() {
		n = 300
	}
	accepted, rejected, runs, caught := 0, 0, 0, 0
	for trial := 0; trial < n; trial++ {
		fresh := 0
		text := "param n, k\nassume n >= 1 and k >= 1 and n >= k\ndef p = " + randomExpr(r, 3, &fresh) + "\n"
		src := &syntax.Source{Name: "random.atl", Text: text}
		prog, err := Parse(src)
		if err != nil {
			t.Fatalf("%s: %v", text, err)
		}
		c, err := Check(prog, src)
		if err != nil {
			continue // a negative size, say
		}
		if c.Rules(ctx, Options{NoPadCheck: true}) != nil {
			continue // a read out of bounds, say: not about padding
		}
		opts := Options{}
		if err := c.Rules(ctx, Options{}); err != nil {
			rejected++
			opts.NoPadCheck = true
		} else {
			accepted++
		}
		res, err := c.Compile(opts)
		if err != nil {
			t.Fatalf("%s: %v", text, err)
		}
		spec, sinfo, err := sare.Load(&syntax.Source{Name: "spec.sare", Text: res.Spec})
		if err != nil {
			t.Fatal(err)
		}
		kernel, kinfo, err := sched.Load(&syntax.Source{Name: "prog.sched", Text: res.Kernels[0].Text}, spec)
		if err != nil {
			t.Fatal(err)
		}
		for _, ps := range [][2]int64{{1, 1}, {3, 1}, {5, 2}, {4, 4}, {6, 3}} {
			params := map[string]int64{"n": ps[0], "k": ps[1]}
			atlVal, err := c.Eval(ctx, params, func(string, []int64) float64 { return 0 })
			if err != nil {
				continue // a negative size at these values: no program
			}
			ev, err := sare.NewEvaluator(spec, sinfo, params, sare.RandomInputs(1))
			if err != nil {
				t.Fatal(err)
			}
			runs++
			_, err = sched.Run(ctx, kernel, kinfo, ev, sched.Options{})
			var fail *sched.Failure
			if errors.As(err, &fail) && opts.NoPadCheck {
				caught++ // the truncation bug, at these sizes
				break
			}
			if errors.As(err, &fail) {
				t.Fatalf("accepted by the pad type system, but at %v:\n%s\n%v\n%s", params, text, err, res.Kernels[0].Text)
			}
			if err != nil {
				t.Fatalf("%s at %v: %v", text, params, err)
			}
			if opts.NoPadCheck {
				continue
			}
			forEachIndex(atlVal.Shape, func(off int, idx []int64) {
				want, err := ev.Eval(ctx, res.Name, idx)
				if err != nil {
					t.Fatal(err)
				}
				if !close32(atlVal.Data[off], want.Float64()) {
					t.Fatalf("%s at %v: ATL gives %v = %g, the specification %g\n%s", text, params, idx, atlVal.Data[off], want.Float64(), res.Spec)
				}
			})
		}
	}
	t.Logf("%d programs accepted, %d rejected by the pad type system (%d of them caught by augur run at small sizes when lowered anyway); %d runs", accepted, rejected, caught, runs)
	if accepted < n/10 || rejected < n/10 || runs < accepted || caught < rejected/2 {
		t.Errorf("too few of one kind: %d accepted, %d rejected", accepted, rejected)
	}
}

// TestRandomPadTypingValidates validates random programs for all
// parameter values: those the pad type system accepts are VALID, those
// it rejects and that go wrong when lowered anyway are INVALID.
func TestRandomPadTypingValidates(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	ctx := context.Background()
	want := 5
	if testing.Short() {
		want = 2
	}
	valid, invalid := 0, 0
	for trial := 0; trial < 500 && (valid < want || invalid < want); trial++ {
		fresh := 0
		text := "param n, k\nassume n >= 1 and k >= 1 and n >= k\ndef p = " + randomExpr(r, 3, &fresh) + "\n"
		src := &syntax.Source{Name: "random.atl", Text: text}
		prog, err := Parse(src)
		if err != nil {
			t.Fatal(err)
		}
		c, err := Check(prog, src)
		if err != nil || c.Rules(ctx, Options{NoPadCheck: true}) != nil {
			continue
		}
		accepted := c.Rules(ctx, Options{}) == nil
		if accepted && valid >= want || !accepted && invalid >= want {
			continue
		}
		res, err := c.Compile(Options{NoPadCheck: !accepted})
		if err != nil {
			t.Fatal(err)
		}
		rep, err := validate.Validate(ctx, &syntax.Source{Name: "spec.sare", Text: res.Spec},
			&syntax.Source{Name: "prog.sched", Text: res.Kernels[0].Text}, validate.Options{Jobs: 1})
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case accepted && rep.Verdict != validate.Valid:
			t.Fatalf("accepted by the pad type system, but %s (%s):\n%s", rep.Verdict, rep.Reason, text)
		case accepted:
			valid++
		case rep.Verdict == validate.Valid:
			// Conservative: rejected, yet correct as lowered.
		case rep.Verdict != validate.Invalid:
			t.Fatalf("rejected, and %s (%s) when lowered anyway:\n%s", rep.Verdict, rep.Reason, text)
		default:
			invalid++
		}
	}
	if valid < want || invalid < want {
		t.Errorf("%d valid and %d invalid programs, want %d of each", valid, invalid, want)
	}
}
