package sched

import (
	"testing"

	"github.com/augur-verify/augur/syntax"
)

// TestIndexIdentFollowsScope looks identifiers up as the scope changes
// under them: a variable that leaves the scope and comes back at another
// depth, another declaration of its name at the depth remembered, two
// identifiers of one slot of the table, and a parameter. Each lookup
// must give what the lookup by name gives.
func TestIndexIdentFollowsScope(t *testing.T) {
	sc := &indexScope{params: map[string]int64{"N": 7}}
	x := &syntax.Ident{NamePos: syntax.Pos{Line: 3, Col: 5}, Name: "x"}
	n := &syntax.Ident{NamePos: syntax.Pos{Line: 4, Col: 2}, Name: "N"}
	// Another position of the same slot as x's.
	var y *syntax.Ident
	for line := 5; y == nil; line++ {
		if p := (syntax.Pos{Line: line, Col: 1}); resolvedSlot(p) == resolvedSlot(x.NamePos) {
			y = &syntax.Ident{NamePos: p, Name: "y"}
		}
	}
	check := func(step string, id *syntax.Ident) {
		t.Helper()
		want, wok := sc.Index(id.Name)
		got, ok := sc.IndexIdent(id)
		if got != want || ok != wok {
			t.Fatalf("%s: IndexIdent(%s) = %d, %v; Index gives %d, %v", step, id.Name, got, ok, want, wok)
		}
	}
	// The declarations' names are other strings than the uses'.
	xName, yName := string([]byte("x")), string([]byte("y"))
	sc.vars = []Var{{Name: "a", Value: 1}, {Name: xName, Value: 2}}
	check("x at depth 1", x)
	check("N", n)
	sc.vars = []Var{{Name: xName, Value: 3}}
	check("x back at depth 0", x)
	sc.vars = []Var{{Name: "b", Value: 4}, {Name: string([]byte("x")), Value: 5}}
	check("another x at depth 1", x)
	sc.vars[1].Value = 6
	check("x's new value", x)
	sc.vars = append(sc.vars, Var{Name: yName, Value: 8})
	check("y in x's slot", y)
	check("x after y", x)
	check("y after x", y)
	sc.vars = sc.vars[:1]
	check("x out of scope", x)
	check("y out of scope", y)
	check("N again", n)
}
