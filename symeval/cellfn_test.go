package symeval

import (
	"context"
	"strings"
	"testing"

	"github.com/augur-verify/augur/presburger"
	"github.com/augur-verify/augur/sched"
	"github.com/augur-verify/augur/syntax"
)

// squaresSpec is a specification of a 3-point stencil S, whose sum is
// given, over the squares B of the input A.
func squaresSpec(sum string) string {
	return `
param N
assume N >= 8
input A(i, j) : f32
tensor B(i, j) : f32
B(i, j) = A(i, j) * A(i, j)
tensor S(i, j) : f32
S(i, j) = ` + sum + `
output S
`
}

var tilesSpec = squaresSpec("B(i, j) + B(i + 1, j) + B(i, j + 2)")

// tilesKernel fills b with a parallel loop over tiles of 4 cells, the
// last one shifted back over its neighbour (as Halide's root stages do),
// then reads b with a 3-point stencil. TILE is the tile's write: its
// cell, annotation and value.
const tilesKernel = `
kernel tiles(N)
assume N >= 8
in  a[i, j] : f32[N + 2, N + 2] = A(i, j)
out s[i, j] : f32[N, N] = S(i, j)
{
  let m = min(N, 8) - 8
  alloc b : f32[N + 2, N + 2] {
    par u < (N + 5) / 4 {
      par t < (N + 5) / 4 {
        let ubase = min(4 * u, N - 2)
        let base = min(4 * t, LAST)
        for e < 4 {
          for d < 4 {
            TILE
          }
        }
      }
    }
    par jo < (N + 3) / 4 {
      par io < (N + 3) / 4 {
        let jb = min(4 * jo, N - 4)
        let ib = min(4 * io, N - 4)
        for jj < 4 {
          for ii < 4 {
            s[ib + ii, jb + jj] {S(ib + ii, jb + jj)} := b[ib + ii - m, jb + jj] + b[ib + ii + 1 - m, jb + jj] + b[ib + ii - m, jb + jj + 2]
          }
        }
      }
    }
  }
}
`

func tilesPair(t *testing.T, last, tile string) *pair {
	t.Helper()
	k := strings.NewReplacer("LAST", last, "TILE", tile).Replace(tilesKernel)
	return loadPair(t, "tiles.sare", tilesSpec, "tiles.sched", k)
}

// stencilSite returns the assignment to s with the site it runs in, and
// its reads of b.
func stencilSite(t *testing.T, ctx context.Context, p *pair, pr *Prophecy) (*sched.Assign, site, []*syntax.Index) {
	t.Helper()
	hb, err := heapsBefore(ctx, pr, p.kernel)
	if err != nil {
		t.Fatal(err)
	}
	for st, at := range hb {
		if st.Array.Name != "s" {
			continue
		}
		var reads []*syntax.Index
		syntax.Inspect(st.Value, func(x syntax.Expr) bool {
			if ix, ok := x.(*syntax.Index); ok && ix.Array.Name == "b" {
				reads = append(reads, ix)
			}
			return true
		})
		return st, at, reads
	}
	t.Fatal("no assignment to s")
	return nil, site{}, nil
}

const tileWrite = "b[base + d - m, ubase + e] {B(base + d, ubase + e)} := a[base + d, ubase + e] * a[base + d, ubase + e]"

// TestFunctionalRead checks the reads of a buffer that overlapping
// parallel tiles fill: the heap holds b's cells in several pieces (which
// tile wrote the cell), but its content is B(cell) in all of them, so a
// read of b has as many pieces as its location, and the same points as
// the exact image wherever the scope's facts and the assumptions hold.
// The kernel is valid and every condition is decided.
func TestFunctionalRead(t *testing.T) {
	ctx := context.Background()
	p := tilesPair(t, "N - 2", tileWrite)
	pr := prophesy(t, p)
	_, at, reads := stencilSite(t, ctx, p, pr)
	var comp *presburger.Map
	for _, m := range at.heap.Maps() {
		if m.Space().In.Name == "b" {
			comp = m
		}
	}
	if comp == nil || comp.NumBasics() < 2 {
		t.Fatalf("b's component of the heap is %v: the test needs pieces that differ in the tile", comp)
	}
	eachExactRead(t, ctx, p, pr, at, reads, func(x *syntax.Index, alt alternative, loc *presburger.Map, _ *presburger.UnionMap) {
		// The tile that wrote the cell is an existential of the heap's
		// pieces; the read's pieces are the location's, whose locals are
		// divisions.
		if got, want := alt.set.NumBasics(), loc.NumBasics(); got > want {
			t.Errorf("read %s: %d pieces, more than the location's %d: %s", syntax.ExprString(x), got, want, alt.set)
		}
		for _, b := range alt.set.Basics() {
			for l := 0; l < b.NumLocals(); l++ {
				if !b.IsDiv(l) {
					t.Errorf("read %s: a piece has an existential: %s", syntax.ExprString(x), b)
				}
			}
		}
	})
	requireValid(t, ctx, p, map[string]int64{"N": 9})
}

// TestFunctionalReadUndefined checks that reading a buffer through the
// function of its cells hides no undefined read: the tiles stop one cell
// short of what the stencil reads, and the read's undefined-read
// condition fails.
func TestFunctionalReadUndefined(t *testing.T) {
	ctx := context.Background()
	p := tilesPair(t, "N - 4", tileWrite)
	a, err := Analyze(ctx, p.kernel, p.kinfo, p.spec, p.sinfo, AnalyzeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	undefined := false
	for _, c := range a.Conditions {
		if as, ok := c.Stmt.(*sched.Assign); ok && c.Status == Failed && c.Kind == sched.UndefinedRead && as.Array.Name == "s" {
			undefined = true
		}
	}
	if !undefined {
		t.Error("the undefined read of b[N + 1] is not reported")
	}
}

// TestFunctionalReadRace checks a genuine write-write race between the
// overlapping tiles: the shifted last tile claims B(4t + d) for the cell
// base + d. The conflict is reported, its obligation fails on some
// point, and b's content is no function of the cell, so the stencil reads
// it exactly.
func TestFunctionalReadRace(t *testing.T) {
	ctx := context.Background()
	p := tilesPair(t, "N - 2", "b[base + d - m, ubase + e] {B(4 * t + d, ubase + e)} := a[base + d, ubase + e] * a[base + d, ubase + e]")
	pr := prophesy(t, p)
	var obs []obligation
	for l, site := range parLoops(t, p.kernel) {
		o, err := writeConflicts(ctx, pr, site.scope, l)
		if err != nil {
			t.Fatal(err)
		}
		obs = append(obs, o...)
	}
	if len(obs) == 0 {
		t.Fatal("no write-write conflict reported")
	}
	if n, failed := evalObligations(t, ctx, p, obs, map[string]int64{"N": 9}); failed == 0 {
		t.Errorf("none of the %d points of the conflicts fails", n)
	}
	_, at, _ := stencilSite(t, ctx, p, pr)
	requireNoCellFunction(t, ctx, at, pr, cellFunction)
}

// TestReadByLocation checks the reads of a buffer folded modulo 2: the
// cell read holds A(y) whether the previous iteration wrote it or the
// statement before the loop did, two pieces of the heap that give the
// same value. The read has one piece, as its location, equal to the exact
// image wherever the facts and the assumptions hold, and the kernel is
// valid.
func TestReadByLocation(t *testing.T) {
	ctx := context.Background()
	p := loadPair(t, "fold.sare", vecSpec, "fold.sched", `
kernel fold(N)
assume N >= 4
in  a[i] : f32[N + 1] = A(i)
out s[i] : f32[N] = S(i)
{
  alloc b : f32[2] {
    b[0] {A(0)} := a[0]
    for y < N {
      b[(y + 1) % 2] {A(y + 1)} := a[y + 1]
      s[y] {S(y)} := b[y % 2] + b[(y + 1) % 2]
    }
  }
}
`)
	pr := prophesy(t, p)
	_, at, _ := stencilSite(t, ctx, p, pr)
	st, _, _ := stencilSite(t, ctx, p, pr)
	var x *syntax.Index
	syntax.Inspect(st.Value, func(e syntax.Expr) bool {
		if ix, ok := e.(*syntax.Index); ok && x == nil {
			x = ix
		}
		return true
	})
	loc, img := readImage(t, at, x)
	if n := img.Maps()[0].NumBasics(); n < 2 {
		t.Fatalf("the image of %s has %d pieces: the test needs the heap to split it", syntax.ExprString(x), n)
	}
	ev := &valueEval{ctx: ctx, cs: pr.Contexts, info: p.kinfo.Types, s: at.scope, h: at.heap}
	alts, err := ev.read(x)
	if err != nil {
		t.Fatal(err)
	}
	if len(alts) != 1 || alts[0].set.NumBasics() != loc.NumBasics() {
		t.Fatalf("read %s: %d alternatives, want one of %d pieces", syntax.ExprString(x), len(alts), loc.NumBasics())
	}
	within, err := at.scope.Facts().Intersect(pr.Assumptions)
	if err != nil {
		t.Fatal(err)
	}
	requireExactRead(t, ctx, x, alts[0], img, within)
	requireValid(t, ctx, p, map[string]int64{"N": 6})
}

// requireValid checks that every condition of p's analysis holds and that
// its obligations hold at the points of params.
func requireValid(t *testing.T, ctx context.Context, p *pair, params map[string]int64) {
	t.Helper()
	a, err := Analyze(ctx, p.kernel, p.kinfo, p.spec, p.sinfo, AnalyzeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range a.Conditions {
		if c.Status == Failed || c.Status == Undecided {
			t.Errorf("C%d %s %s: %v %s", c.ID, c.Kind, c.Text, c.Status, c.Reason)
		}
	}
	if n, failed := checkObligations(t, ctx, p, params); n == 0 || failed > 0 {
		t.Errorf("%d of %d obligation points fail", failed, n)
	}
}

// requireNoCellFunction checks that fn finds no function giving the
// content of b's component of the heap at the site at.
func requireNoCellFunction(t *testing.T, ctx context.Context, at site, pr *Prophecy, fn func(context.Context, *presburger.Map, *presburger.Map) (*presburger.Map, error)) {
	t.Helper()
	for _, m := range at.heap.Maps() {
		if m.Space().In.Name != "b" {
			continue
		}
		g, err := fn(ctx, m, pr.Assumptions)
		if err != nil {
			t.Fatal(err)
		}
		if g != nil {
			t.Errorf("b's content %s is read as the function %s", m, g)
		}
	}
}

// readImage returns the location of the read x at the site at and its
// image through the heap there.
func readImage(t *testing.T, at site, x *syntax.Index) (*presburger.Map, *presburger.UnionMap) {
	t.Helper()
	loc, err := location(at.scope, x)
	if err != nil {
		t.Fatal(err)
	}
	img, err := presburger.NewUnionMap(loc).Apply(at.heap.UnionMap())
	if err != nil {
		t.Fatal(err)
	}
	return loc, img
}

// eachExactRead reads each of reads at the site at, requires one
// alternative, hands it to check with the read's location and its image
// through the heap, and requires it exact against that image wherever
// the scope's facts and the assumptions hold (requireExactRead).
func eachExactRead(t *testing.T, ctx context.Context, p *pair, pr *Prophecy, at site, reads []*syntax.Index, check func(x *syntax.Index, alt alternative, loc *presburger.Map, img *presburger.UnionMap)) {
	t.Helper()
	within, err := at.scope.Facts().Intersect(pr.Assumptions)
	if err != nil {
		t.Fatal(err)
	}
	ev := &valueEval{ctx: ctx, cs: pr.Contexts, info: p.kinfo.Types, s: at.scope, h: at.heap}
	for _, x := range reads {
		alts, err := ev.read(x)
		if err != nil {
			t.Fatal(err)
		}
		if len(alts) != 1 {
			t.Fatalf("read %s: %d alternatives", syntax.ExprString(x), len(alts))
		}
		loc, img := readImage(t, at, x)
		check(x, alts[0], loc, img)
		requireExactRead(t, ctx, x, alts[0], img, within)
	}
}

// requireExactRead checks that the read x's alternative alt holds, within
// the parameter domain within, exactly the cells of img, the image of
// the read's location through the heap.
func requireExactRead(t *testing.T, ctx context.Context, x syntax.Expr, alt alternative, img *presburger.UnionMap, within *presburger.Map) {
	t.Helper()
	got, err := alt.set.IntersectParams(within)
	if err != nil {
		t.Fatal(err)
	}
	exact, err := respace(img.Maps()[0], holeSpace(nil, "", alt.holes))
	if err != nil {
		t.Fatal(err)
	}
	if exact, err = exact.IntersectParams(within); err != nil {
		t.Fatal(err)
	}
	if eq, err := got.IsEqual(ctx, exact); err != nil || !eq {
		t.Errorf("read %s: %s, want %s (%v)", syntax.ExprString(x), got, exact, err)
	}
}

var rowsSpec = squaresSpec("B(i, j) + B(i + 1, j) + B(i + 2, j)")

// rowsKernel computes b one row at a time, in row tiles of 4 rows, the
// last tile shifted back over its neighbour, then reads b with a 3-point
// stencil. WRITES are the statements that fill b's row.
const rowsKernel = `
kernel rows(N)
assume N >= 8
in  a[i, j] : f32[N + 2, N] = A(i, j)
out s[i, j] : f32[N, N] = S(i, j)
{
  par yo < (N + 3) / 4 {
    let yb = min(4 * yo, N - 4)
    alloc b : f32[N + 2, 1] {
      for yi < 4 {
        WRITES
        par x < N {
          s[x, yb + yi] {S(x, yb + yi)} := b[x, 0] + b[x + 1, 0] + b[x + 2, 0]
        }
      }
    }
  }
}
`

// TestPiecewiseFunctionalRead checks the reads of a buffer whose content
// is an affine function of the cell on each row tile, another one on the
// last tile: no single function gives the content, one per parameter
// domain does, and the reads through it have fewer pieces than through
// the heap, the same points wherever the facts and the assumptions hold.
// The kernel is valid.
func TestPiecewiseFunctionalRead(t *testing.T) {
	ctx := context.Background()
	// b's row in overlapping column tiles, the last one shifted back.
	p := loadPair(t, "rows.sare", rowsSpec, "rows.sched", strings.Replace(rowsKernel, "WRITES", `
        par t < (N + 5) / 4 {
          let base = min(4 * t, N - 2)
          for d < 4 {
            b[base + d, 0] {B(base + d, yb + yi)} := a[base + d, yb + yi] * a[base + d, yb + yi]
          }
        }`, 1))
	pr := prophesy(t, p)
	_, at, reads := stencilSite(t, ctx, p, pr)
	var comp *presburger.Map
	for _, m := range at.heap.Maps() {
		if m.Space().In.Name == "b" {
			comp = m
		}
	}
	if comp == nil {
		t.Fatal("no component of b in the heap")
	}
	if g, err := cellFunction(ctx, comp, pr.Assumptions); err != nil || g != nil {
		t.Fatalf("b's content %s is one function %v (%v): the test needs one per row tile", comp, g, err)
	}
	g, err := piecewiseCellFunction(ctx, comp, pr.Assumptions)
	if err != nil {
		t.Fatal(err)
	}
	if g == nil {
		t.Fatalf("no piecewise function for b's content %s", comp)
	}
	eachExactRead(t, ctx, p, pr, at, reads, func(x *syntax.Index, alt alternative, _ *presburger.Map, img *presburger.UnionMap) {
		if got, heap := alt.set.NumBasics(), img.Maps()[0].NumBasics(); got >= heap {
			t.Errorf("read %s: %d pieces, the heap's image has %d", syntax.ExprString(x), got, heap)
		}
	})
	requireValid(t, ctx, p, map[string]int64{"N": 9})
}

// TestPiecewiseFunctionalReadOverlap checks that contents given by
// functions on the same parameters, one for the first cells and one for
// the others, are not read through their union, which would give each
// cell both contents: the annotation of the first cells claims the next
// row. The kernel is invalid and its obligations fail on some point.
func TestPiecewiseFunctionalReadOverlap(t *testing.T) {
	ctx := context.Background()
	p := loadPair(t, "rows.sare", rowsSpec, "rows.sched", strings.Replace(rowsKernel, "WRITES", `
        par x < 4 {
          b[x, 0] {B(x, yb + yi + 1)} := a[x, yb + yi] * a[x, yb + yi]
        }
        par x < N - 2 {
          b[x + 4, 0] {B(x + 4, yb + yi)} := a[x + 4, yb + yi] * a[x + 4, yb + yi]
        }`, 1))
	pr := prophesy(t, p)
	_, at, _ := stencilSite(t, ctx, p, pr)
	requireNoCellFunction(t, ctx, at, pr, piecewiseCellFunction)
	if n, failed := checkObligations(t, ctx, p, map[string]int64{"N": 9}); failed == 0 {
		t.Errorf("none of the %d obligation points fails", n)
	}
}
