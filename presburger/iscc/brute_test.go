package iscc

import (
	"context"
	"flag"
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/augur-verify/augur/presburger"
	"github.com/augur-verify/augur/syntax"
)

// This file checks the operators of the calculator against enumeration:
// random sets and relations bounded by a box are combined by the
// calculator, and the membership of every point of the box in the result
// is compared with the definition of the operator.

const box = 3 // every dimension ranges over [-box, box]

var bruteTrials = flag.Int("brute.trials", 15, "random scripts checked by TestOperatorsAgainstEnumeration")

func boxed(dims ...string) string {
	var cs []string
	for _, d := range dims {
		cs = append(cs, fmt.Sprintf("-%d <= %s <= %d", box, d, box))
	}
	return strings.Join(cs, " and ")
}

// randConstraint returns a random quasi-affine constraint over dims.
func randConstraint(r *rand.Rand, dims []string) string {
	term := func() string {
		var ts []string
		for _, d := range dims {
			if c := r.Intn(5) - 2; c != 0 {
				ts = append(ts, fmt.Sprintf("%d*%s", c, d))
			}
		}
		if len(ts) == 0 {
			return dims[r.Intn(len(dims))]
		}
		return strings.Join(ts, " + ")
	}
	switch r.Intn(4) {
	case 0:
		m := 2 + r.Intn(2)
		return fmt.Sprintf("(%s) mod %d = %d", term(), m, r.Intn(m))
	case 1:
		return fmt.Sprintf("exists (e : %s = 2e + %d)", term(), r.Intn(2))
	}
	return fmt.Sprintf("%s + %d >= 0", term(), r.Intn(7)-3)
}

// randLiteral returns a union of one or two pieces of the form
// "head : box and constraints".
func randLiteral(r *rand.Rand, head string, dims []string) string {
	var pieces []string
	for n := 1 + r.Intn(2); n > 0; n-- {
		c := boxed(dims...)
		for k := r.Intn(3); k > 0; k-- {
			c += " and " + randConstraint(r, dims)
		}
		pieces = append(pieces, head+" : "+c)
	}
	return "{ " + strings.Join(pieces, "; ") + " }"
}

// points returns every integer point of the box in n dimensions.
func points(n int) [][]int64 {
	if n == 0 {
		return [][]int64{{}}
	}
	var out [][]int64
	for _, p := range points(n - 1) {
		for v := int64(-box); v <= box; v++ {
			out = append(out, append(append([]int64(nil), p...), v))
		}
	}
	return out
}

type bruteEnv struct {
	t    *testing.T
	ctx  context.Context
	calc *Calculator
}

func (b *bruteEnv) eval(text string) Value {
	b.t.Helper()
	src := &syntax.Source{Name: "brute", Text: text + ";"}
	stmts, errs := Parse(src)
	if errs != nil {
		b.t.Fatalf("%s: %v", text, errs)
	}
	v, err := b.calc.Eval(b.ctx, src, stmts[0].X)
	if err != nil {
		b.t.Fatalf("%s: %v", text, err)
	}
	return v
}

// member reports whether point (over [in | out]) is in the component of v
// in space sp.
func (b *bruteEnv) member(v Value, sp presburger.Space, point []int64) bool {
	b.t.Helper()
	m := v.Union().MapOf(sp)
	p := make([]presburger.Int, len(point))
	for i, x := range point {
		p[i] = presburger.NewInt(x)
	}
	in, err := m.ContainsPoint(b.ctx, p)
	if err != nil {
		b.t.Fatal(err)
	}
	return in
}

func lexLess(a, b []int64) bool {
	for i := range a {
		if a[i] != b[i] {
			return a[i] < b[i]
		}
	}
	return false
}

func TestOperatorsAgainstEnumeration(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	ctx := context.Background()
	setS := presburger.SetSpace(nil, presburger.FlatTuple("S", "i", "j"))
	setT := presburger.SetSpace(nil, presburger.FlatTuple("T", "k"))
	relST := presburger.MapSpace(nil, presburger.FlatTuple("S", "i", "j"), presburger.FlatTuple("T", "k"))
	relTS := presburger.MapSpace(nil, presburger.FlatTuple("T", "k"), presburger.FlatTuple("S", "i", "j"))
	relTU := presburger.MapSpace(nil, presburger.FlatTuple("T", "k"), presburger.FlatTuple("U", "l"))
	relSU := presburger.MapSpace(nil, presburger.FlatTuple("S", "i", "j"), presburger.FlatTuple("U", "l"))
	trials := *bruteTrials
	if testing.Short() {
		trials = 5
	}
	for trial := 0; trial < trials; trial++ {
		b := &bruteEnv{t: t, ctx: ctx, calc: New()}
		lits := map[string]string{
			"A": randLiteral(r, "S[i, j]", []string{"i", "j"}),
			"B": randLiteral(r, "S[i, j]", []string{"i", "j"}),
			"R": randLiteral(r, "S[i, j] -> T[k]", []string{"i", "j", "k"}),
			"Q": randLiteral(r, "T[k] -> U[l]", []string{"k", "l"}),
		}
		script := ""
		for _, n := range []string{"A", "B", "R", "Q"} {
			script += n + " := " + lits[n] + ";\n"
		}
		t.Run(fmt.Sprint(trial), func(t *testing.T) {
			b.t = t
			src := &syntax.Source{Name: "brute", Text: script}
			stmts, errs := Parse(src)
			if errs != nil {
				t.Fatal(errs)
			}
			for _, s := range stmts {
				if err := b.calc.Exec(ctx, src, s, nil); err != nil {
					t.Fatal(err)
				}
			}
			t.Logf("script:\n%s", script)
			A, B, R, Q := b.eval("A"), b.eval("B"), b.eval("R"), b.eval("Q")
			ps2, ps1, ps3 := points(2), points(1), points(3)
			a := func(p []int64) bool { return b.member(A, setS, p) }
			bb := func(p []int64) bool { return b.member(B, setS, p) }
			rr := func(p []int64) bool { return b.member(R, relST, p) }
			qq := func(p []int64) bool { return b.member(Q, relTU, p) }
			check := func(expr string, sp presburger.Space, pts [][]int64, want func([]int64) bool) {
				t.Helper()
				v := b.eval(expr)
				for _, p := range pts {
					if got, w := b.member(v, sp, p), want(p); got != w {
						t.Errorf("%s: point %v: member %v, want %v (value %v)", expr, p, got, w, v)
						return
					}
				}
			}
			checkBool := func(expr string, want bool) {
				t.Helper()
				if v := b.eval(expr); v.Kind() != Bool || v.Bool() != want {
					t.Errorf("%s = %v, want %v", expr, v, want)
				}
			}
			check("A + B", setS, ps2, func(p []int64) bool { return a(p) || bb(p) })
			check("A * B", setS, ps2, func(p []int64) bool { return a(p) && bb(p) })
			check("A - B", setS, ps2, func(p []int64) bool { return a(p) && !bb(p) })
			check("coalesce (A + B)", setS, ps2, func(p []int64) bool { return a(p) || bb(p) })
			var first, last []int64
			subset, empty := true, true
			for _, p := range ps2 {
				if a(p) {
					empty = false
					if first == nil || lexLess(p, first) {
						first = p
					}
					if last == nil || lexLess(last, p) {
						last = p
					}
					subset = subset && bb(p)
				}
			}
			eq := subset
			for _, p := range ps2 {
				eq = eq && (!bb(p) || a(p))
			}
			same := func(x []int64) func([]int64) bool {
				return func(p []int64) bool { return x != nil && fmt.Sprint(p) == fmt.Sprint(x) }
			}
			check("lexmin A", setS, ps2, same(first))
			check("lexmax A", setS, ps2, same(last))
			checkBool("A <= B", subset)
			checkBool("A = B", eq)
			checkBool("is_empty A", empty)
			// Relations: R is S[i, j] -> T[k], Q is T[k] -> U[l].
			check("R(A)", setT, ps1, func(p []int64) bool {
				for _, x := range ps2 {
					if a(x) && rr(append(append([]int64(nil), x...), p...)) {
						return true
					}
				}
				return false
			})
			check("dom R", setS, ps2, func(p []int64) bool {
				for _, k := range ps1 {
					if rr(append(append([]int64(nil), p...), k...)) {
						return true
					}
				}
				return false
			})
			check("ran R", setT, ps1, func(p []int64) bool {
				for _, x := range ps2 {
					if rr(append(append([]int64(nil), x...), p...)) {
						return true
					}
				}
				return false
			})
			check("R * A", relST, ps3, func(p []int64) bool { return rr(p) && a(p[:2]) })
			check("R - A", relST, ps3, func(p []int64) bool { return rr(p) && !a(p[:2]) })
			check("R^-1", relTS, ps3, func(p []int64) bool { return rr([]int64{p[1], p[2], p[0]}) })
			check("R . Q", relSU, ps3, func(p []int64) bool {
				for k := int64(-box); k <= box; k++ {
					if rr([]int64{p[0], p[1], k}) && qq([]int64{k, p[2]}) {
						return true
					}
				}
				return false
			})
			check("Q(R)", relSU, ps3, func(p []int64) bool {
				for k := int64(-box); k <= box; k++ {
					if rr([]int64{p[0], p[1], k}) && qq([]int64{k, p[2]}) {
						return true
					}
				}
				return false
			})
			sv := true
			check("lexmax R", relST, ps3, func(p []int64) bool {
				if !rr(p) {
					return false
				}
				for k := p[2] + 1; k <= box; k++ {
					if rr([]int64{p[0], p[1], k}) {
						sv = false
						return false
					}
				}
				return true
			})
			checkBool("is_single_valued R", sv)
		})
	}
}

// memberAt is member with the parameter N fixed to n.
func (b *bruteEnv) memberAt(v Value, sp presburger.Space, n int64, point []int64) bool {
	b.t.Helper()
	m := v.Union().MapOf(sp)
	var p []presburger.Int
	for _, name := range m.Space().Params {
		if name != "N" {
			b.t.Fatalf("unexpected parameter %s", name)
		}
		p = append(p, presburger.NewInt(n))
	}
	for _, x := range point {
		p = append(p, presburger.NewInt(x))
	}
	in, err := m.ContainsPoint(b.ctx, p)
	if err != nil {
		b.t.Fatal(err)
	}
	return in
}

// TestParametricAgainstEnumeration is TestOperatorsAgainstEnumeration with
// a parameter N in the constraints, checked at several values of N.
func TestParametricAgainstEnumeration(t *testing.T) {
	r := rand.New(rand.NewSource(2))
	ctx := context.Background()
	setS := presburger.SetSpace(nil, presburger.FlatTuple("S", "i", "j"))
	setT := presburger.SetSpace(nil, presburger.FlatTuple("T", "k"))
	relST := presburger.MapSpace(nil, presburger.FlatTuple("S", "i", "j"), presburger.FlatTuple("T", "k"))
	trials := *bruteTrials
	if testing.Short() {
		trials = 5
	}
	for trial := 0; trial < trials; trial++ {
		lit := func(head string, dims ...string) string {
			// Constraints may use N; the box bounds the dimensions only.
			var pieces []string
			for n := 1 + r.Intn(2); n > 0; n-- {
				c := boxed(dims...)
				for k := 1 + r.Intn(2); k > 0; k-- {
					c += " and " + randConstraint(r, append(dims, "N"))
				}
				pieces = append(pieces, head+" : "+c)
			}
			return "[N] -> { " + strings.Join(pieces, "; ") + " }"
		}
		script := "A := " + lit("S[i, j]", "i", "j") + ";\nB := " + lit("S[i, j]", "i", "j") + ";\nR := " + lit("S[i, j] -> T[k]", "i", "j", "k") + ";\n"
		t.Run(fmt.Sprint(trial), func(t *testing.T) {
			b := &bruteEnv{t: t, ctx: ctx, calc: New()}
			t.Logf("script:\n%s", script)
			src := &syntax.Source{Name: "brute", Text: script}
			stmts, errs := Parse(src)
			if errs != nil {
				t.Fatal(errs)
			}
			for _, s := range stmts {
				if err := b.calc.Exec(ctx, src, s, nil); err != nil {
					t.Fatal(err)
				}
			}
			A, B, R := b.eval("A"), b.eval("B"), b.eval("R")
			ps1, ps2, ps3 := points(1), points(2), points(3)
			results := map[string]Value{}
			for _, e := range []string{"A + B", "A * B", "A - B", "coalesce (A + B)", "lexmin A", "lexmax A", "R(A)", "R * A", "lexmin R", "A * [N] -> { : N >= 0 }"} {
				results[e] = b.eval(e)
			}
			for n := int64(-2); n <= 2; n++ {
				a := func(p []int64) bool { return b.memberAt(A, setS, n, p) }
				bb := func(p []int64) bool { return b.memberAt(B, setS, n, p) }
				rr := func(p []int64) bool { return b.memberAt(R, relST, n, p) }
				check := func(expr string, sp presburger.Space, pts [][]int64, want func([]int64) bool) {
					t.Helper()
					v := results[expr]
					for _, p := range pts {
						if got, w := b.memberAt(v, sp, n, p), want(p); got != w {
							t.Errorf("%s at N = %d: point %v: member %v, want %v (value %v)", expr, n, p, got, w, v)
							return
						}
					}
				}
				check("A + B", setS, ps2, func(p []int64) bool { return a(p) || bb(p) })
				check("A * B", setS, ps2, func(p []int64) bool { return a(p) && bb(p) })
				check("A - B", setS, ps2, func(p []int64) bool { return a(p) && !bb(p) })
				check("coalesce (A + B)", setS, ps2, func(p []int64) bool { return a(p) || bb(p) })
				check("A * [N] -> { : N >= 0 }", setS, ps2, func(p []int64) bool { return n >= 0 && a(p) })
				var first, last []int64
				for _, p := range ps2 {
					if a(p) {
						if first == nil || lexLess(p, first) {
							first = p
						}
						if last == nil || lexLess(last, p) {
							last = p
						}
					}
				}
				same := func(x []int64) func([]int64) bool {
					return func(p []int64) bool { return x != nil && fmt.Sprint(p) == fmt.Sprint(x) }
				}
				check("lexmin A", setS, ps2, same(first))
				check("lexmax A", setS, ps2, same(last))
				check("R(A)", setT, ps1, func(p []int64) bool {
					for _, x := range ps2 {
						if a(x) && rr(append(append([]int64(nil), x...), p...)) {
							return true
						}
					}
					return false
				})
				check("R * A", relST, ps3, func(p []int64) bool { return rr(p) && a(p[:2]) })
				check("lexmin R", relST, ps3, func(p []int64) bool {
					if !rr(p) {
						return false
					}
					for k := int64(-box); k < p[2]; k++ {
						if rr([]int64{p[0], p[1], k}) {
							return false
						}
					}
					return true
				})
			}
		})
	}
}
