package structure

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
)

// TestTierNaming checks the convention `make test-long` relies on: a
// test function calls testtier.Long as its first statement exactly when
// its name starts with TestLong, so that selecting tests by that prefix runs
// the whole long tier and nothing else.
func TestTierNaming(t *testing.T) {
	fset := token.NewFileSet()
	long := 0
	err := filepath.WalkDir("../..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); path != "../.." && (strings.HasPrefix(name, ".") || name == "testdata") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		for _, decl := range f.Decls {
			fd, ok := decl.(*ast.FuncDecl)
			if !ok || fd.Body == nil || fd.Recv != nil || !strings.HasPrefix(fd.Name.Name, "Test") {
				continue
			}
			named := strings.HasPrefix(fd.Name.Name, "TestLong")
			first := len(fd.Body.List) > 0 && callsLong(fd.Body.List[0])
			pos := fset.Position(fd.Pos())
			rel, _ := filepath.Rel("../..", pos.Filename)
			switch {
			case named && !first:
				t.Errorf("%s:%d: %s must call testtier.Long(t) first", filepath.ToSlash(rel), pos.Line, fd.Name.Name)
			case !named && first:
				t.Errorf("%s:%d: %s calls testtier.Long: name it TestLong...", filepath.ToSlash(rel), pos.Line, fd.Name.Name)
			case named:
				long++
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
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
