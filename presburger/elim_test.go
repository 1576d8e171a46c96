package presburger

import "testing"

func TestExplicitDivsBrute(t *testing.T) {
	g := newRandGen(3)
	ctx := t.Context()
	n := propCount(1500)
	maxPieces := 0
	for it := 0; it < n; it++ {
		params := []string{"N"}[:g.r.Intn(2)]
		sp := g.randSetSpace(params)
		b := g.randBasic(sp, 4)
		// Add a second existential with a non-unit coefficient now and then.
		if g.r.Intn(2) == 0 {
			l := b.AddExistential()
			w := b.NumCols()
			c := b.locCol(l)
			addBox(b, c, boxE)
			r := make([]Int, w)
			r[c] = NewInt(int64(2 + g.r.Intn(3)))
			r[g.r.Intn(b.nDims())] = g.coef(3)
			r[w-1] = g.coef(3)
			if g.r.Intn(2) == 0 {
				b.AddEq(r)
			} else {
				b.AddIneq(r)
				b.AddIneq(negRow(addScaled(r, NewInt(0), r)))
				row := b.ineqs[len(b.ineqs)-1]
				row[w-1] = row[w-1].Add(NewInt(int64(g.r.Intn(4))))
			}
		}
		pieces, err := b.ExplicitDivs(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if len(pieces) > maxPieces {
			maxPieces = len(pieces)
		}
		for _, p := range pieces {
			if p.hasPlainLocals() {
				t.Fatalf("case %d: plain local left", it)
			}
		}
		m := NewMap(sp, pieces...)
		forBox(b.nDims(), boxB, func(pt []Int) bool {
			want := bruteContains(b, pt)
			got := bruteMapContains(m, pt)
			if want != got {
				t.Fatalf("case %d: point %v: original %v, explicit %v\n%s", it, pt, want, got, dumpBasic(b))
			}
			return true
		})
	}
	t.Logf("%d cases, at most %d pieces", n, maxPieces)
}

// TestExplicitDivsCoupled checks elimination when existentials share
// inequalities with non-unit coefficients (the dark shadow and splinter
// path), against enumeration.
func TestExplicitDivsCoupled(t *testing.T) {
	g := newRandGen(9)
	ctx := t.Context()
	n := propCount(400)
	for it := 0; it < n; it++ {
		sp := SetSpace(nil, FlatTuple("S", "x"))
		b := NewBasicMap(sp)
		la, lb := b.AddExistential(), b.AddExistential()
		w := b.NumCols()
		addBox(b, 0, boxB)
		addBox(b, b.locCol(la), boxE)
		addBox(b, b.locCol(lb), boxE)
		for k := 0; k < 2+g.r.Intn(3); k++ {
			row := make([]Int, w)
			row[0] = g.coef(3)
			row[b.locCol(la)] = NewInt(int64(2 + g.r.Intn(4)))
			row[b.locCol(lb)] = NewInt(int64(2 + g.r.Intn(4)))
			if g.r.Intn(2) == 0 {
				row[b.locCol(la)] = row[b.locCol(la)].Neg()
			}
			if g.r.Intn(2) == 0 {
				row[b.locCol(lb)] = row[b.locCol(lb)].Neg()
			}
			row[w-1] = g.coef(6)
			if g.r.Intn(3) == 0 {
				// An equality between the existentials (mod-hat path).
				b.AddEq(row)
				continue
			}
			b.AddIneq(row)
			// A band: the opposite row with some slack.
			opp := negRow(row)
			opp[w-1] = opp[w-1].Add(NewInt(int64(g.r.Intn(6))))
			b.AddIneq(opp)
		}
		pieces, err := b.ExplicitDivs(ctx)
		if err != nil {
			t.Fatal(err)
		}
		m := NewMap(sp, pieces...)
		forBox(1, boxB+2, func(p []Int) bool {
			if want, got := bruteContains(b, p), bruteMapContains(m, p); want != got {
				t.Fatalf("case %d: point %v: original %v, explicit %v\n%s\nresult %v", it, p, want, got, dumpBasic(b), m)
			}
			return true
		})
	}
}
