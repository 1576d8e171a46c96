package symeval

import (
	"context"
	"testing"

	"github.com/augur-verify/augur/presburger"
	"github.com/augur-verify/augur/sched"
	"github.com/augur-verify/augur/syntax"
)

// TestWalksShareScopes checks that the race check of a parallel loop
// reads the arrays the loop writes in the scopes of the walk, that two walks of a kernel (as the
// rounds of the garbage writes make) put every assignment in the same
// scope object, and that a read location is computed once per scope: the
// conditions of an assignment then share its read locations instead of
// pruning them again.
func TestWalksShareScopes(t *testing.T) {
	ctx := context.Background()
	checked, races := 0, 0
	for _, sk := range examplePairs(t) {
		p := loadPair(t, sk[0], readFile(t, sk[0]), sk[1], readFile(t, sk[1]))
		pr := prophesy(t, p)
		var params []string
		for _, id := range p.kernel.Params {
			params = append(params, id.Name)
		}
		g := &gen{ctx: ctx, a: &Analysis{Params: params, Assumptions: pr.Assumptions}, pr: pr, k: p.kernel,
			undMemo: map[*Prophecy]map[*sched.Assign]*presburger.UnionMap{}}
		w1, err := g.walk(pr)
		if err != nil {
			t.Fatalf("%s: %v", sk[1], err)
		}
		w2, err := g.walk(pr)
		if err != nil {
			t.Fatalf("%s: %v", sk[1], err)
		}
		// The race checks first: they fill the memos of the walk's
		// scopes.
		for l, s := range w1.loops {
			if !l.Par {
				continue
			}
			if _, err := readWriteRaces(ctx, pr, s, l); err != nil {
				t.Fatalf("%s: %s: %v", sk[1], sched.StmtLine(l), err)
			}
			// The race check reads only the arrays the loop writes.
			written := map[string]bool{}
			walkStmt(l.Body, func(x sched.Stmt) bool {
				if a, ok := x.(*sched.Assign); ok {
					written[a.Array.Name] = true
				}
				return true
			})
			walkStmt(l.Body, func(x sched.Stmt) bool {
				a, ok := x.(*sched.Assign)
				if !ok {
					return true
				}
				syntax.Inspect(a.Value, func(e syntax.Expr) bool {
					if ix, ok := e.(*syntax.Index); ok && written[ix.Array.Name] {
						if _, hit := w1.out[a].scope.locs.lookup(ix); !hit {
							t.Errorf("%s: %s: the race check of %s reads %s in another scope", sk[1], sched.StmtLine(a), sched.StmtLine(l), syntax.ExprString(ix))
						}
					}
					return true
				})
				return true
			})
			races++
		}
		for st, a := range w1.out {
			if b := w2.out[st]; b.scope != a.scope {
				t.Errorf("%s: %s: the walks have two scopes", sk[1], sched.StmtLine(st))
			}
			var first *syntax.Index
			syntax.Inspect(st.Value, func(x syntax.Expr) bool {
				if ix, ok := x.(*syntax.Index); ok && first == nil {
					first = ix
				}
				return first == nil
			})
			if first == nil {
				continue
			}
			l1, err := readLocation(ctx, a.scope, first)
			if err != nil {
				t.Fatal(err)
			}
			l2, err := readLocation(ctx, w2.out[st].scope, first)
			if err != nil {
				t.Fatal(err)
			}
			if l1 != l2 {
				t.Errorf("%s: %s: the read location of %s is computed twice", sk[1], sched.StmtLine(st), syntax.ExprString(first))
			}
			checked++
		}
	}
	if checked == 0 || races == 0 {
		t.Fatalf("checked %d reads and %d parallel loops", checked, races)
	}
}
