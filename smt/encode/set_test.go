package encode

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/augur-verify/augur/expr"
	"github.com/augur-verify/augur/presburger"
	"github.com/augur-verify/augur/sare"
	"github.com/augur-verify/augur/smt"
)

// randomFormula writes a small random quasi-affine formula over i, j and
// the parameter N, with floor divisions, mod, existentials and negation.
func randomFormula(r *rand.Rand, d int) string {
	pick := func(xs ...string) string { return xs[r.IntN(len(xs))] }
	aff := func() string {
		return fmt.Sprintf("%d*i + %d*j + %d*N + %d", r.IntN(5)-2, r.IntN(5)-2, r.IntN(3)-1, r.IntN(7)-3)
	}
	if d > 0 {
		switch r.IntN(5) {
		case 0:
			return "(" + randomFormula(r, d-1) + pick(" and ", " or ") + randomFormula(r, d-1) + ")"
		case 1:
			return "not (" + randomFormula(r, d-1) + ")"
		case 2:
			return fmt.Sprintf("exists (e : %s = %d*e + %s and %s)", pick("i", "j", "i + j"), 2+r.IntN(3), pick("0", "1", "j", "N"), randomFormula(r, d-1))
		}
	}
	switch r.IntN(4) {
	case 0:
		return fmt.Sprintf("floor((%s)/%d) %s %s", aff(), 2+r.IntN(3), pick("<=", ">=", "="), aff())
	case 1:
		return fmt.Sprintf("(%s) mod %d = %d", aff(), 2+r.IntN(3), r.IntN(2))
	}
	return aff() + pick(" >= 0", " <= 0", " = 0", " != 0")
}

// TestSetMembership checks, for random sets and relations with divisions
// and existentials, that Set is satisfiable at exactly the points of a
// small box that the presburger package says are members.
func TestSetMembership(t *testing.T) {
	z := newContext(t)
	e := New(z, &sare.Spec{}, expr.NewInfo(), IEEE)
	s, err := z.NewSolverForLogic("QF_LIA")
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	r := rand.New(rand.NewPCG(3, 4))
	sets, points, members, divs, exists := 0, 0, 0, 0, 0
	for sets < 24 {
		body := randomFormula(r, 2) + " and -3 <= i <= 3 and -3 <= j <= 3"
		text := "[N] -> { S[i, j] : " + body + " }"
		if sets%3 == 0 {
			text = "[N] -> { S[i] -> T[j] : " + body + "; S[i] -> T[j] : " + randomFormula(r, 1) + " and 0 <= i <= 2 and j = i }"
		}
		m, err := presburger.ParseMap(text)
		if err != nil {
			t.Fatalf("parse %s: %v", text, err)
		}
		sets++
		hasDiv := false
		for _, b := range m.Basics() {
			for k := range b.NumLocals() {
				hasDiv = true
				if b.IsDiv(k) {
					divs++
				} else {
					exists++
				}
			}
		}
		for n := int64(-1); n <= 1; n++ {
			param := func(name string) (*smt.Term, bool) { return z.Int(n), name == "N" }
			for i := int64(-4); i <= 4; i++ {
				for j := int64(-4); j <= 4; j++ {
					pt := []presburger.Int{presburger.NewInt(n), presburger.NewInt(i), presburger.NewInt(j)}
					want, err := m.ContainsPoint(ctx, pt)
					if err != nil {
						t.Fatal(err)
					}
					f, err := e.Set(m, param, []*smt.Term{z.Int(i), z.Int(j)})
					if err != nil {
						t.Fatalf("encode %s: %v", m, err)
					}
					got := check(t, s, f)
					points++
					if want {
						members++
					}
					if got == smt.Unknown || (got == smt.Sat) != want {
						t.Fatalf("%s (%v divisions) at N=%d, (%d, %d): Z3 %v, member %v", m, hasDiv, n, i, j, got, want)
					}
				}
			}
		}
	}
	t.Logf("%d sets (%d division locals, %d existentials), %d points, %d members", sets, divs, exists, points, members)
	if divs == 0 || exists == 0 {
		t.Error("the random sets lack divisions or existentials")
	}
}

// TestSetErrors: wrong dimension counts and unknown parameters are errors.
func TestSetErrors(t *testing.T) {
	z := newContext(t)
	e := New(z, &sare.Spec{}, expr.NewInfo(), IEEE)
	m, err := presburger.ParseMap("[N] -> { S[i] : 0 <= i < N }")
	if err != nil {
		t.Fatal(err)
	}
	none := func(string) (*smt.Term, bool) { return nil, false }
	if _, err := e.Set(m, none, []*smt.Term{z.Int(0)}); err == nil || !strings.Contains(err.Error(), "N") {
		t.Errorf("unknown parameter: %v", err)
	}
	if _, err := e.Set(m, nil, nil); err == nil {
		t.Error("no dimensions: no error")
	}
}
