package presburger

import (
	"context"
	"testing"
)

// Property tests: every operation on random small sets and relations is
// checked point by point against enumeration over a box that contains all
// points of the operands.

func (g randGen) randMapSpace(params []string) Space {
	ni, no := 1, 1
	if g.r.Intn(4) == 0 {
		no = 2
	}
	return MapSpace(params, FlatTuple("A", make([]string, ni)...), FlatTuple("B", make([]string, no)...))
}

func randParams(g randGen) []string { return []string{"N"}[:g.r.Intn(2)] }

// checkPoints compares got, computed by op with error err, against want
// on every point of the box of radius r over got's dimension columns. With solver set, membership in
// got is decided with ContainsPoint (exact, via the Omega test) because its
// existentials are not boxed; otherwise by direct enumeration.
func checkPoints(t *testing.T, it int, op string, got *Map, err error, r int, solver bool, want func(p []Int) bool) {
	t.Helper()
	if err != nil {
		t.Fatalf("case %d %s: %v", it, op, err)
	}
	ctx := t.Context()
	forBox(got.space.NumDims(), r, func(p []Int) bool {
		var in bool
		if solver {
			var err error
			in, err = got.ContainsPoint(ctx, p)
			if err != nil {
				t.Fatalf("case %d %s: %v", it, op, err)
			}
		} else {
			in = bruteMapContains(got, p)
		}
		if w := want(p); in != w {
			t.Fatalf("case %d %s: point %v: got %v, want %v\nresult: %v", it, op, p, in, w, got)
		}
		return true
	})
}

func TestBooleanOpsBrute(t *testing.T) {
	g := newRandGen(4)
	ctx := t.Context()
	n := propCount(400)
	for it := 0; it < n; it++ {
		ps := randParams(g)
		var sp Space
		if g.r.Intn(2) == 0 {
			sp = g.randSetSpace(ps)
		} else {
			sp = g.randMapSpace(ps[:0])
		}
		a := g.randMap(sp, 3, 4)
		b := g.randMap(sp, 3, 4)
		inA := func(p []Int) bool { return bruteMapContains(a, p) }
		inB := func(p []Int) bool { return bruteMapContains(b, p) }
		x, err := a.Intersect(b)
		checkPoints(t, it, "intersect", x, err, boxB, false, func(p []Int) bool { return inA(p) && inB(p) })
		u, err := a.Union(b)
		checkPoints(t, it, "union", u, err, boxB, false, func(p []Int) bool { return inA(p) || inB(p) })
		d, err := a.Subtract(ctx, b)
		checkPoints(t, it, "subtract", d, err, boxB, false, func(p []Int) bool { return inA(p) && !inB(p) })
		if it%4 == 0 {
			c, err := a.Complement(ctx)
			checkPoints(t, it, "complement", c, err, boxB+1, false, func(p []Int) bool { return !inA(p) })
		}
		s, err := u.Simplify(ctx)
		checkPoints(t, it, "simplify", s, err, boxB, false, func(p []Int) bool { return inA(p) || inB(p) })
		// Decisions.
		var anyA, subset, equal = false, true, true
		forBox(sp.NumDims(), boxB, func(p []Int) bool {
			ia, ib := inA(p), inB(p)
			anyA = anyA || ia
			if ia && !ib {
				subset = false
			}
			if ia != ib {
				equal = false
			}
			return true
		})
		if e, err := a.IsEmpty(ctx); err != nil || e == anyA {
			t.Fatalf("case %d: IsEmpty = %v (%v), brute nonempty %v", it, e, err, anyA)
		}
		if s, err := a.IsSubset(ctx, b); err != nil || s != subset {
			t.Fatalf("case %d: IsSubset = %v (%v), brute %v", it, s, err, subset)
		}
		if e, err := a.IsEqual(ctx, b); err != nil || e != equal {
			t.Fatalf("case %d: IsEqual = %v (%v), brute %v", it, e, err, equal)
		}
		if e, err := a.IsEqual(ctx, s.withBasics(s.Basics())); err != nil || e != subsetOf(a, b, sp) {
			// a = a ∪ b iff b ⊆ a
			t.Fatalf("case %d: IsEqual(a, a∪b) = %v (%v)", it, e, err)
		}
		if pt, err := a.Sample(ctx); err != nil || (pt == nil) == anyA || (pt != nil && !inA(pt)) {
			t.Fatalf("case %d: Sample = %v (%v), nonempty %v", it, pt, err, anyA)
		}
	}
	t.Logf("%d cases", n)
}

// subsetOf reports by enumeration whether b ⊆ a.
func subsetOf(a, b *Map, sp Space) bool {
	ok := true
	forBox(sp.NumDims(), boxB, func(p []Int) bool {
		if bruteMapContains(b, p) && !bruteMapContains(a, p) {
			ok = false
			return false
		}
		return true
	})
	return ok
}

func TestRelationOpsBrute(t *testing.T) {
	g := newRandGen(5)
	ctx := t.Context()
	n := propCount(150)
	for it := 0; it < n; it++ {
		ps := randParams(g)
		sp := MapSpace(ps, FlatTuple("A", "i"), FlatTuple("B", "j"))
		sp2 := MapSpace(ps, FlatTuple("B", "j"), FlatTuple("C", "k"))
		r := g.randMap(sp, 2, 4)
		s := g.randMap(sp2, 2, 4)
		np := len(ps)
		inR := func(p []Int) bool { return bruteMapContains(r, p) }
		inS := func(p []Int) bool { return bruteMapContains(s, p) }
		pt := func(par []Int, xs ...Int) []Int { return append(append([]Int(nil), par...), xs...) }
		// Reverse.
		checkPoints(t, it, "reverse", r.Reverse(), nil, boxB, false, func(p []Int) bool {
			return inR(pt(p[:np], p[np+1], p[np]))
		})
		// Domain and range.
		checkPoints(t, it, "domain", r.Domain(), nil, boxB, true, func(p []Int) bool {
			found := false
			forBox(1, boxB, func(q []Int) bool { found = inR(pt(p[:np], p[np], q[0])); return !found })
			return found
		})
		checkPoints(t, it, "range", r.Range(), nil, boxB, true, func(p []Int) bool {
			found := false
			forBox(1, boxB, func(q []Int) bool { found = inR(pt(p[:np], q[0], p[np])); return !found })
			return found
		})
		// Params.
		checkPoints(t, it, "params", r.Params(), nil, boxB, true, func(p []Int) bool {
			found := false
			forBox(2, boxB, func(q []Int) bool { found = inR(pt(p[:np], q...)); return !found })
			return found
		})
		// Composition.
		c, err := r.ApplyRange(s)
		checkPoints(t, it, "apply_range", c, err, boxB, true, func(p []Int) bool {
			found := false
			forBox(1, boxB, func(q []Int) bool {
				found = inR(pt(p[:np], p[np], q[0])) && inS(pt(p[:np], q[0], p[np+1]))
				return !found
			})
			return found
		})
		// Apply a set: image of the domain of s-shaped set.
		dom := g.randMap(SetSpace(ps, FlatTuple("A", "i")), 2, 3)
		img, err := dom.Apply(r)
		checkPoints(t, it, "apply", img, err, boxB, true, func(p []Int) bool {
			found := false
			forBox(1, boxB, func(q []Int) bool {
				found = bruteMapContains(dom, pt(p[:np], q[0])) && inR(pt(p[:np], q[0], p[np]))
				return !found
			})
			return found
		})
		// Single-valuedness and injectivity.
		sv, inj := true, true
		forBox(np, boxB, func(par []Int) bool {
			forBox(1, boxB, func(x []Int) bool {
				nOut, nIn := 0, 0
				forBox(1, boxB, func(y []Int) bool {
					if inR(pt(par, x[0], y[0])) {
						nOut++
					}
					if inR(pt(par, y[0], x[0])) {
						nIn++
					}
					return true
				})
				if nOut > 1 {
					sv = false
				}
				if nIn > 1 {
					inj = false
				}
				return true
			})
			return true
		})
		if got, err := r.IsSingleValued(ctx); err != nil || got != sv {
			t.Fatalf("case %d: IsSingleValued = %v (%v), brute %v\n%v", it, got, err, sv, r)
		}
		if got, err := r.IsInjective(ctx); err != nil || got != inj {
			t.Fatalf("case %d: IsInjective = %v (%v), brute %v\n%v", it, got, err, inj, r)
		}
		// Wrap/unwrap round trip and product.
		w, err := r.Wrap()
		checkPoints(t, it, "wrap", w, err, boxB, false, inR)
		pr, err := r.Product(s)
		checkPoints(t, it, "product", pr, err, boxB-2, false, func(p []Int) bool {
			// [a -> c] -> [b -> d]
			return inR(pt(p[:np], p[np], p[np+2])) && inS(pt(p[:np], p[np+1], p[np+3]))
		})
		// Subtracting a relation with projected existentials.
		proj := c.Reverse()
		if ok, err := c.IsSubset(ctx, c); err != nil || !ok {
			t.Fatalf("case %d: c not subset of itself: %v", it, err)
		}
		if ok, err := proj.Reverse().IsEqual(ctx, c); err != nil || !ok {
			t.Fatalf("case %d: reverse twice differs: %v", it, err)
		}
		diff, err := Universe(c.space).Subtract(ctx, c)
		checkPoints(t, it, "complement_of_projection", diff, err, boxB, true, func(p []Int) bool {
			found := false
			forBox(1, boxB, func(q []Int) bool {
				found = inR(pt(p[:np], p[np], q[0])) && inS(pt(p[:np], q[0], p[np+1]))
				return !found
			})
			return !found
		})
	}
	t.Logf("%d cases", n)
}

// TestSubtractPlainContradiction checks the shortcut of Map.Subtract: when
// a piece's rows contradict a row of the subtrahend that involves no local
// of it, the pieces have no common point and subtractBasic keeps the piece
// as it is, which the shortcut does without calling it.
func TestSubtractPlainContradiction(t *testing.T) {
	g := newRandGen(7)
	ctx := t.Context()
	fired := 0
	for it := 0; it < propCount(400); it++ {
		sp := g.randSetSpace([]string{"N"})
		c := normalized(g.randBasic(sp, 3))
		if c == nil {
			continue
		}
		ds, err := g.randBasic(sp, 3).explicitDivs(newMeter(ctx))
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range ds {
			if !(validityIndexes{}).contradicts(c, plainRows(d)) {
				continue
			}
			fired++
			ps, err := subtractBasic(newMeter(ctx), c, d)
			if err != nil {
				t.Fatal(err)
			}
			if len(ps) != 1 || ps[0] != c {
				t.Fatalf("iteration %d: %s minus %s: %d pieces, want the piece itself", it, dumpBasic(c), dumpBasic(d), len(ps))
			}
			forBox(sp.NumDims(), boxB, func(p []Int) bool {
				if bruteContains(c, p) && bruteContains(d, p) {
					t.Fatalf("iteration %d: %s and %s share %v", it, dumpBasic(c), dumpBasic(d), p)
				}
				return true
			})
		}
	}
	if fired == 0 {
		t.Fatal("no contradiction found: the test needs some")
	}
}

// TestBoundParams checks that BoundParams bounds the named parameters of
// the space and ignores the others.
func TestBoundParams(t *testing.T) {
	m := mustParse(t, "[N, M] -> { [i] : 0 <= i < N }")
	got, err := m.BoundParams([]string{"N", "K"}, 3)
	if err != nil {
		t.Fatal(err)
	}
	want := mustParse(t, "[N, M] -> { [i] : 0 <= i < N and -3 <= N <= 3 }")
	if eq, err := got.IsEqual(context.Background(), want); err != nil || !eq {
		t.Errorf("BoundParams: got %s, want %s (%v)", got, want, err)
	}
}
