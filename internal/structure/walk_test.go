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

// walkGoFiles parses the repository's Go files, its test files when tests
// is true and the others when it is false, outside hidden folders,
// testdata and bin, and calls fn with each file's path relative to the
// repository's root (slash-separated), its syntax and the file set that
// positions it. It returns how many files it parsed.
func walkGoFiles(t *testing.T, tests bool, fn func(rel string, f *ast.File, fset *token.FileSet)) int {
	t.Helper()
	fset := token.NewFileSet()
	files := 0
	err := filepath.WalkDir("../..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); path != "../.." && (strings.HasPrefix(name, ".") || name == "testdata" || name == "bin") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") != tests {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		files++
		rel, _ := filepath.Rel("../..", path)
		fn(filepath.ToSlash(rel), f, fset)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}
