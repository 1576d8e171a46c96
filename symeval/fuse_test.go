package symeval

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/augur-verify/augur/presburger"
	"github.com/augur-verify/augur/syntax"
)

// holeCall returns the template f(□1, ..., □n).
func holeCall(n int) syntax.Expr {
	args := make([]syntax.Expr, n)
	for i := range args {
		args[i] = &syntax.Ident{Name: HoleName(i + 1)}
	}
	return &syntax.Call{Fun: &syntax.Ident{Name: "f"}, Args: args}
}

// exactFuse is fuseHoles without its shortcuts (the pieces' definitions,
// the samples and their witnesses): every pair of holes, in fuseHoles's
// order, takes the exact test that the set has no point where they
// differ, and the first equal pair fuses as fuseHoles fuses it. It
// returns the template and the set.
func exactFuse(ctx context.Context, tmpl string, set *presburger.Map) (string, *presburger.Map, error) {
	holes := set.Space().NumOut()
	names := make([]string, holes) // the argument at each hole
	for i := range names {
		names[i] = HoleName(i + 1)
	}
	for j := holes - 1; j >= 1; j-- {
		for i := 0; i < j; i++ {
			equal := true
			for _, b := range set.Basics() {
				for _, sign := range []int64{1, -1} {
					c := b.Copy()
					row := c.NewRow()
					row[c.Col(presburger.DimOut, i)] = presburger.NewInt(sign)
					row[c.Col(presburger.DimOut, j)] = presburger.NewInt(-sign)
					row[c.ConstCol()] = presburger.NewInt(-1)
					c.AddIneq(row)
					empty, err := c.IsEmpty(ctx)
					if err != nil {
						return "", nil, err
					}
					equal = equal && empty
				}
			}
			if !equal {
				continue
			}
			var err error
			if set, err = set.ProjectOut(presburger.DimOut, j, 1); err != nil {
				return "", nil, err
			}
			tmpl = strings.ReplaceAll(tmpl, names[j], names[i])
			names = append(names[:j:j], names[j+1:]...)
			break
		}
	}
	// Renumber the holes left: the k-th name left is hole k+1.
	for k, n := range names {
		tmpl = strings.ReplaceAll(tmpl, n+")", HoleName(k+1)+"#)")
		tmpl = strings.ReplaceAll(tmpl, n+",", HoleName(k+1)+"#,")
	}
	return strings.ReplaceAll(tmpl, "#", ""), set, nil
}

// TestFuseHoles fuses the holes of f(□1, ..., □n) over small sets of hole
// values and checks the result against the fusion by exact tests alone
// (exactFuse), and the number of exact tests fuseHoles needed: holes
// equal though defined differently (fused after a test), holes that
// differ at one point only (a test finds it), and holes that the point
// of an earlier test tells apart without one.
func TestFuseHoles(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name, set string
		want      string // the fused template
		tests     int    // exact tests run by fuseHoles
	}{
		{"defined alike", "[x, y] -> { [h1, h2, h3] : h1 = x and h2 = y and h3 = x }",
			"f(□1, □2, □1)", 1},
		{"equal where defined", "[x, y] -> { [h1, h2] : h1 = x and h2 = y and x <= y <= x }",
			"f(□1, □1)", 1},
		{"equal by the set", "[x] -> { [h1, h2] : 0 <= h1 <= x and h1 <= h2 and 2h2 <= h1 + h1 }",
			"f(□1, □1)", 1},
		{"differ at one point", "[x] -> { [h1, h2] : 0 <= x <= 10 and h1 = x and h2 = x - floor(x/10) }",
			"f(□1, □2)", 1},
		{"told apart by a witness", "[x, y] -> { [h1, h2, h3] : 0 <= x and 0 <= y and h1 = x and h2 = y and h3 = x + y }",
			"f(□1, □2, □3)", 2},
		{"pieces", "[x] -> { [h1, h2, h3] : 0 <= x <= 4 and h1 = x and h2 = x and h3 = 4 - x; [h1, h2, h3] : 5 <= x <= 9 and h1 = x and h2 = 9 - x and h3 = 9 - x }",
			"f(□1, □2, □3)", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			set, err := presburger.ParseMap(tc.set)
			if err != nil {
				t.Fatal(err)
			}
			n := set.Space().NumOut()
			a := alternative{tmpl: holeCall(n), types: map[syntax.Expr]syntax.Type{}, holes: n, set: set}
			hs := &holeSampler{ctx: ctx, set: set}
			got, err := fuseWith(ctx, a, hs)
			if err != nil {
				t.Fatal(err)
			}
			wantTmpl, wantSet, err := exactFuse(ctx, syntax.ExprString(a.tmpl), set)
			if err != nil {
				t.Fatal(err)
			}
			if s := syntax.ExprString(got.tmpl); s != wantTmpl || s != tc.want {
				t.Errorf("fused %s, exact tests fuse %s, want %s", s, wantTmpl, tc.want)
			}
			if eq, err := got.set.IsEqual(ctx, wantSet); err != nil || !eq {
				t.Errorf("set %s, want %s (%v)", got.set, wantSet, err)
			}
			if hs.tests != tc.tests {
				t.Errorf("%d exact tests, want %d", hs.tests, tc.tests)
			}
		})
	}
}

// BenchmarkFuseHoles fuses the holes of the values in testdata/fuse (a
// line of template, for the reader, and a line of set each; the fusion
// depends on the set alone, and runs on the template f(□1, ..., □n)):
// camera_pipe, a value of Halide's camera_pipe app (apps/camera_pipe.cpp
// in frontend/halide, as augur halide translates it) with 18 holes in 3
// pieces, the first that large in its symbolic evaluation, and stencil5,
// the 17 holes of a 5-point stencil read through a clamp, in three pieces
// (the first column, the interior, the last), with duplicated reads. Besides the
// time, it reports the Presburger steps of one fusion (steps/op), which
// do not depend on the machine or its load, and the exact tests that the
// samples did not spare (tests/op).
func BenchmarkFuseHoles(b *testing.B) {
	files, err := filepath.Glob(filepath.Join("testdata", "fuse", "*.txt"))
	if err != nil || len(files) == 0 {
		b.Fatalf("no values in testdata/fuse (%v)", err)
	}
	for _, f := range files {
		b.Run(strings.TrimSuffix(filepath.Base(f), ".txt"), func(b *testing.B) {
			text, err := os.ReadFile(f)
			if err != nil {
				b.Fatal(err)
			}
			lines := strings.SplitN(strings.TrimSpace(string(text)), "\n", 2)
			if len(lines) != 2 {
				b.Fatalf("%s: want a template line and a set line", f)
			}
			set, err := presburger.ParseMap(lines[1])
			if err != nil {
				b.Fatalf("%s: %v", f, err)
			}
			n := set.Space().NumOut()
			var steps, tests int64
			for b.Loop() {
				allow := presburger.NewAllowance(0)
				ctx := presburger.WithAllowance(context.Background(), allow)
				a := alternative{tmpl: holeCall(n), types: map[syntax.Expr]syntax.Type{}, holes: n, set: set}
				hs := &holeSampler{ctx: ctx, set: set}
				if _, err := fuseWith(ctx, a, hs); err != nil {
					b.Fatal(err)
				}
				steps += allow.Used()
				tests += int64(hs.tests)
			}
			b.ReportMetric(float64(steps)/float64(b.N), "steps/op")
			b.ReportMetric(float64(tests)/float64(b.N), "tests/op")
		})
	}
}
