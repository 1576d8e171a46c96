package structure

import (
	"go/ast"
	"go/token"
	"strings"
	"testing"
)

// TestTierNaming checks the convention `make test-long` relies on: a
// test function calls testtier.Long as its first statement exactly when
// its name starts with TestLong, so that selecting tests by that prefix runs
// the whole long tier and nothing else.
func TestTierNaming(t *testing.T) {
	long := 0
	walkGoFiles(t, true, func(rel string, f *ast.File, fset *token.FileSet) {
		for _, decl := range f.Decls {
			fd, ok := decl.(*ast.FuncDecl)
			if !ok || fd.Body == nil || fd.Recv != nil || !strings.HasPrefix(fd.Name.Name, "Test") {
				continue
			}
			named := strings.HasPrefix(fd.Name.Name, "TestLong")
			first := len(fd.Body.List) > 0 && callsLong(fd.Body.List[0])
			line := fset.Position(fd.Pos()).Line
			switch {
			case named && !first:
				t.Errorf("%s:%d: %s must call testtier.Long(t) first", rel, line, fd.Name.Name)
			case !named && first:
				t.Errorf("%s:%d: %s calls testtier.Long: name it TestLong...", rel, line, fd.Name.Name)
			case named:
				long++
			}
		}
	})
	if long == 0 {
		t.Fatal("no test of the long tier found")
	}
}

// callsLong reports whether stmt is a call testtier.Long(...).
func callsLong(stmt ast.Stmt) bool {
	es, ok := stmt.(*ast.ExprStmt)
	if !ok {
		return false
	}
	call, ok := es.X.(*ast.CallExpr)
	if !ok {
		return false
	}
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok {
		return false
	}
	pkg, ok := sel.X.(*ast.Ident)
	return ok && pkg.Name == "testtier" && sel.Sel.Name == "Long"
}
