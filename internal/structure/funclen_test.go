package structure

import (
	"go/ast"
	"go/token"
	"testing"
)

// maxGoLines is the longest a Go function outside tests may be, from its
// func line to its closing brace.
const maxGoLines = 120

// TestGoFunctionLength checks every function and method outside tests.
func TestGoFunctionLength(t *testing.T) {
	files := walkGoFiles(t, false, func(rel string, f *ast.File, fset *token.FileSet) {
		for _, decl := range f.Decls {
			fd, ok := decl.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			start, end := fset.Position(fd.Pos()), fset.Position(fd.End())
			if n := end.Line - start.Line + 1; n > maxGoLines {
				t.Errorf("%s:%d: %s is %d lines long, more than %d: split it into named steps", rel, start.Line, fd.Name.Name, n, maxGoLines)
			}
		}
	})
	if files < 100 {
		t.Fatalf("found only %d Go files", files)
	}
}
