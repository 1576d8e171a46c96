package compiler

import (
	"context"
	"strings"
	"testing"

	"github.com/augur-verify/augur/internal/quasiaffine"
	"github.com/augur-verify/augur/syntax"
)

// TestAttached checks which loops bounds inference leaves out of an
// access's set: those unrelated to the coordinate, and only when the
// assumptions and the site's context make them run.
func TestAttached(t *testing.T) {
	parse := func(text string) syntax.Expr {
		t.Helper()
		x, err := syntax.ParseExprString(text)
		if err != nil {
			t.Fatal(err)
		}
		return x
	}
	cases := []struct {
		name    string
		assume  []string
		outer   []string // the site's context
		cons    []string // between the site and the access
		bound   []string
		arg     string
		want    []string // the constraints kept, by index into cons
		wantVar []string
	}{
		{
			name:    "reduction that runs",
			assume:  []string{"K >= 1"},
			cons:    []string{"0 <= buf_v1 < N", "0 <= buf_v2 < K"},
			bound:   []string{"buf_v1", "buf_v2"},
			arg:     "buf_v1 + 1",
			want:    []string{"0 <= buf_v1 < N"},
			wantVar: []string{"buf_v1"},
		},
		{
			// K = 0 empties the set: the reduction's loop stays
			name:    "reduction that may not run",
			cons:    []string{"0 <= buf_v1 < N", "0 <= buf_v2 < K"},
			bound:   []string{"buf_v1", "buf_v2"},
			arg:     "buf_v1",
			want:    []string{"0 <= buf_v1 < N", "0 <= buf_v2 < K"},
			wantVar: []string{"buf_v1", "buf_v2"},
		},
		{
			// a tile of an independent dimension, guarded: it runs
			// wherever its outer tile loop does
			name:    "guarded tile of another dimension",
			assume:  []string{"M >= 1"},
			outer:   []string{"0 <= buf_v9 < (M + 3) / 4"},
			cons:    []string{"0 <= buf_v1 < N", "0 <= buf_v2 < 4", "buf_v3 == 4 * buf_v9 + buf_v2", "buf_v3 < M"},
			bound:   []string{"buf_v1", "buf_v2", "buf_v3"},
			arg:     "buf_v1",
			want:    []string{"0 <= buf_v1 < N"},
			wantVar: []string{"buf_v1"},
		},
		{
			// the context lets the inner loop be empty (buf_v9 = 0)
			name:    "inner loop empty in some iterations",
			outer:   []string{"0 <= buf_v9 < N"},
			cons:    []string{"0 <= buf_v1 < N", "0 <= buf_v2 < buf_v9"},
			bound:   []string{"buf_v1", "buf_v2"},
			arg:     "buf_v1",
			want:    []string{"0 <= buf_v1 < N", "0 <= buf_v2 < buf_v9"},
			wantVar: []string{"buf_v1", "buf_v2"},
		},
		{
			// every loop is related to the coordinate
			name:    "coupled loops",
			assume:  []string{"K >= 1"},
			cons:    []string{"0 <= buf_v1 < N", "0 <= buf_v2 < K", "buf_v3 == buf_v1 + buf_v2"},
			bound:   []string{"buf_v1", "buf_v2", "buf_v3"},
			arg:     "buf_v3",
			want:    []string{"0 <= buf_v1 < N", "0 <= buf_v2 < K", "buf_v3 == buf_v1 + buf_v2"},
			wantVar: []string{"buf_v1", "buf_v2", "buf_v3"},
		},
	}
	for _, tc := range cases {
		t.Run(strings.ReplaceAll(tc.name, " ", "_"), func(t *testing.T) {
			var assumed []quasiaffine.Formula
			for _, a := range tc.assume {
				assumed = append(assumed, quasiaffine.Constraint(parse(a)))
			}
			c := &compiler{params: []string{"M", "N", "K"}, assumed: quasiaffine.And(append(assumed, quasiaffine.True())...)}
			var outer []quasiaffine.Formula
			for _, o := range tc.outer {
				outer = append(outer, quasiaffine.Constraint(parse(o)))
			}
			a := accessAt{bound: tc.bound}
			byText := map[quasiaffine.Formula]string{}
			for _, s := range tc.cons {
				f := quasiaffine.Constraint(parse(s))
				byText[f] = s
				a.cons = append(a.cons, f)
			}
			cons, vars, err := c.attached(context.Background(), a, parse(tc.arg), outer)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, f := range cons {
				got = append(got, byText[f])
			}
			if strings.Join(got, "; ") != strings.Join(tc.want, "; ") {
				t.Errorf("kept %q, want %q", got, tc.want)
			}
			if strings.Join(vars, " ") != strings.Join(tc.wantVar, " ") {
				t.Errorf("bound %q, want %q", vars, tc.wantVar)
			}
		})
	}
}
