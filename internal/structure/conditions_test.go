package structure

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// parsePackage parses the non-test Go files of the package directory dir
// (relative to the module root).
func parsePackage(t *testing.T, dir string) map[string]*ast.File {
	t.Helper()
	entries, err := os.ReadDir(filepath.Join("../..", dir))
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]*ast.File{}
	fset := token.NewFileSet()
	for _, e := range entries {
		name := e.Name()
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join("../..", dir, name), nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		files[name] = f
	}
	if len(files) == 0 {
		t.Fatalf("no Go files in %s", dir)
	}
	return files
}

// selectorUses calls found for every use of pkg.Name in the files.
func selectorUses(files map[string]*ast.File, pkg string, found func(file, name string)) {
	for file, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			if sel, ok := n.(*ast.SelectorExpr); ok {
				if id, ok := sel.X.(*ast.Ident); ok && id.Name == pkg {
					found(file, sel.Sel.Name)
				}
			}
			return true
		})
	}
}

// TestConditionsComeFromSymeval checks that package validate decides
// verification conditions but builds none: every condition comes from
// package symeval's analysis, reductions' included.
func TestConditionsComeFromSymeval(t *testing.T) {
	files := parsePackage(t, "validate")
	for file, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			lit, ok := n.(*ast.CompositeLit)
			if !ok {
				return true
			}
			if sel, ok := lit.Type.(*ast.SelectorExpr); ok {
				if id, ok := sel.X.(*ast.Ident); ok && id.Name == "symeval" && (sel.Sel.Name == "Condition" || sel.Sel.Name == "Obligation") {
					t.Errorf("validate/%s builds a symeval.%s: conditions come from package symeval", file, sel.Sel.Name)
				}
			}
			return true
		})
	}
}

// TestNoConditionFromText checks that the packages building verification
// conditions, and the front ends, build Presburger sets through the
// engine's API, never by printing isl notation and reading it back.
func TestNoConditionFromText(t *testing.T) {
	for _, dir := range []string{"symeval", "validate", "internal/quasiaffine", "smt/encode", "frontend/compiler", "frontend/atl", "frontend/rink"} {
		selectorUses(parsePackage(t, dir), "presburger", func(file, name string) {
			if strings.HasPrefix(name, "Parse") {
				t.Errorf("%s/%s calls presburger.%s: build sets through the engine's API, not its notation", dir, file, name)
			}
		})
	}
}

// TestOneQuasiAffineBuilder checks that quasi-affine expressions become
// constraints in one place, the engine's presburger.Builder: no package
// outside the engine adds the local variable of a floor division itself.
func TestOneQuasiAffineBuilder(t *testing.T) {
	for _, dir := range []string{"symeval", "validate", "internal/quasiaffine", "smt/encode", "frontend/compiler", "frontend/atl", "frontend/rink", "frontend/halide"} {
		for file, f := range parsePackage(t, dir) {
			ast.Inspect(f, func(n ast.Node) bool {
				if sel, ok := n.(*ast.SelectorExpr); ok && sel.Sel.Name == "AddLocalDiv" {
					t.Errorf("%s/%s adds a floor division's local itself: quasi-affine expressions go through presburger.Builder", dir, file)
				}
				return true
			})
		}
	}
}
