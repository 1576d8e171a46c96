package presburger

import (
	"context"
	"fmt"
	"math/rand"
	"testing"
)

// TestHoldsKeepsTableau checks that simplifier.holds answers as the exact
// test does and leaves its tableau as it found it: coalescing asks one
// conjunction's tableau about the rows of every partner, and a tableau
// that kept them would grow with every pair.
func TestHoldsKeepsTableau(t *testing.T) {
	ctx := t.Context()
	checked := 0
	forSmallRand(5, 60, func(k int, more func() *BasicMap) bool {
		a, b := more(), more()
		if e, err := a.IsEmpty(ctx); err != nil || e || !coalesceSameLocals(a, b) {
			return true
		}
		s := newKnownSimplifier(newMeter(ctx), a)
		if s.t == nil {
			return true
		}
		unknowns := len(s.t.isRow)
		for _, row := range asInequalities(b, copyRow) {
			holds, decided, err := s.holds(row)
			if err != nil {
				t.Fatal(err)
			}
			if s.t == nil {
				break // rolling back failed: the exact tests take over
			}
			if n := len(s.t.isRow); n != unknowns {
				t.Fatalf("%v: the tableau has %d unknowns after holds, %d before", a, n, unknowns)
			}
			if !decided {
				continue
			}
			n := negRow(row)
			n[len(n)-1] = n[len(n)-1].Sub(NewInt(1))
			empty, err := a.emptyWith(newMeter(ctx), a.eqs, withRow(a.ineqs, n))
			if err != nil {
				t.Fatal(err)
			}
			if holds != empty {
				t.Fatalf("%v: holds(%v) = %v, exact test %v", a, row, holds, empty)
			}
			checked++
		}
		return true
	})
	if checked == 0 {
		t.Fatal("no row decided")
	}
}

// TestCoalescePairInfos checks that coalescePair merges the same pairs
// with the rows and indexes of the conjunctions kept across calls
// (coalesceMergeTab) as without.
func TestCoalescePairInfos(t *testing.T) {
	ctx := context.Background()
	r := rand.New(rand.NewSource(9))
	merged := 0
	for _, spec := range smallRandSpecs {
		var pieces []*BasicMap
		for len(pieces) < 8 {
			b := lxRandBasic(r, spec)
			if e, err := b.IsEmpty(ctx); err == nil && !e {
				pieces = append(pieces, b)
			}
		}
		sp := pieces[0].Space()
		merged += pairsAgree(t, sp, pieces, nil, map[*BasicMap]*pieceRows{}, false)
	}
	t.Logf("%d pairs merged", merged)
}

// TestCoalescePairTestedRows checks that the answers coalescePair keeps
// for the rows of one piece's partners (pieceRows.tested) are reused and
// give the same merges as fresh tests: tiles of one domain share their
// bounds, so the same rows are asked of the same piece in many pairs.
func TestCoalescePairTestedRows(t *testing.T) {
	ctx := context.Background()
	m := mustParse(t, "[N] -> { [i, j] : 0 <= i <= 3 and 0 <= j <= 3 and N >= 8 and 4 <= N - j; "+
		"[i, j] : 4 <= i <= 7 and 0 <= j <= 3 and N >= 8 and 4 <= N - j; "+
		"[i, j] : 0 <= i <= 3 and 5 <= j <= 7 and N >= 8 and 4 <= N - j; "+
		"[i, j] : 9 <= i <= 11 and 4 <= j <= 7 and N >= 8 and 4 <= N - j; "+
		"[i, j] : 0 <= i <= 3 and 8 <= j <= 11 and N >= 9 and 2*i <= N; "+
		"[i, j] : 4 <= i <= 7 and 3 * j >= 2 * i and N >= 9 and 2*i <= N + 1 }")
	pieces := m.Basics()
	sp := m.Space()
	infos := map[*BasicMap]*pieceRows{}
	merged := pairsAgree(t, sp, pieces, nil, infos, true)
	if merged == 0 {
		t.Fatal("no pair merged")
	}
	// Every piece was asked about the rows of all the others: the rows
	// they share were tested once.
	hits := 0
	for _, p := range infos {
		hits += p.hits
	}
	if hits == 0 {
		t.Fatal("no kept answer was reused")
	}
	// A kept answer is what is read: poisoning every one of them
	// changes what merges.
	for _, p := range infos {
		for h, ts := range p.tested {
			for i := range ts {
				p.tested[h][i].holds = !ts[i].holds
			}
		}
	}
	changed := false
	for _, a := range pieces {
		for _, b := range pieces {
			if a == b {
				continue
			}
			want, _ := coalescePair(ctx, sp, a, b, nil, nil)
			got, _ := coalescePair(ctx, sp, a, b, nil, infos)
			if (got == nil) != (want == nil) {
				changed = true
			}
		}
	}
	if !changed {
		t.Fatal("poisoned answers changed no merge: the kept answers are not read")
	}
}

// TestCoalescePairOutsidePoints checks that the points kept from refuted
// merges (pieceRows.outside) refute later pairs, and only pairs that the
// full test refutes too: pieces of a grid of tiles with bounds on a
// parameter, most of whose pairs do not merge.
func TestCoalescePairOutsidePoints(t *testing.T) {
	ctx := context.Background()
	src := "[N] -> { "
	k := 0
	for i := 0; i < 4; i++ {
		for j := 0; j < 4; j++ {
			if k > 0 {
				src += "; "
			}
			// Tiles of the same row and kind merge; others do not.
			if j%2 == 0 {
				src += fmt.Sprintf("[x, y] : %d <= x <= %d and %d <= y <= %d and N >= 10", 4*i, 4*i+3, 3*j, 3*j+2)
			} else {
				src += fmt.Sprintf("[x, y] : %d <= x <= %d and %d <= y <= %d and N >= 11 and x + y <= N + %d", 4*i, 4*i+2, 3*j, 3*j+2, k)
			}
			k++
		}
	}
	m := mustParse(t, src+" }")
	pieces := m.Basics()
	sp := m.Space()
	tabs := map[*BasicMap]*simplifier{}
	for _, b := range pieces {
		tabs[b] = newKnownSimplifier(newMeter(ctx), b)
	}
	infos := map[*BasicMap]*pieceRows{}
	merged := pairsAgree(t, sp, pieces, tabs, infos, true)
	if merged == 0 {
		t.Fatal("no pair merged")
	}
	refuted := 0
	for _, p := range infos {
		refuted += p.refuted
	}
	if refuted == 0 {
		t.Fatal("no merge was refuted by a kept point")
	}
	t.Logf("%d pairs merged, %d merges refuted by kept points", merged, refuted)
}

// pairsAgree checks that coalescePair merges the same pairs of pieces,
// into the same sets, with the conjunctions' simplifiers tabs and the
// answers and points kept in infos as without them, and returns the
// number of pairs merged: every ordered pair, or each pair once unless
// ordered.
func pairsAgree(t *testing.T, sp Space, pieces []*BasicMap, tabs map[*BasicMap]*simplifier, infos map[*BasicMap]*pieceRows, ordered bool) int {
	t.Helper()
	ctx := context.Background()
	merged := 0
	for i, a := range pieces {
		for j, b := range pieces {
			if i == j || (!ordered && j < i) {
				continue
			}
			want, err := coalescePair(ctx, sp, a, b, nil, nil)
			if err != nil {
				t.Fatal(err)
			}
			got, err := coalescePair(ctx, sp, a, b, tabs, infos)
			if err != nil {
				t.Fatal(err)
			}
			if (got == nil) != (want == nil) {
				t.Fatalf("coalescePair(%v, %v): %v with the kept rows, answers and points, %v without", a, b, got, want)
			}
			if want == nil {
				continue
			}
			merged++
			if eq, err := NewMap(sp, got).IsEqual(ctx, NewMap(sp, want)); err != nil || !eq {
				t.Fatalf("coalescePair(%v, %v): %v with the kept rows, answers and points, %v without", a, b, got, want)
			}
		}
	}
	return merged
}
