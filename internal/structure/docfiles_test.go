package structure

import (
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// filesHeading opens the paragraph of a package comment that names the
// package's files.
const filesHeading = "Files, in reading order:"

// goFileName matches a file name in that paragraph.
var goFileName = regexp.MustCompile(`[A-Za-z0-9_.\-]+\.go\b`)

// TestDocNamesEveryFile checks every package directory of the module:
// it has a doc.go, and the package comment of that doc.go names, in its
// files paragraph, exactly the package's non-test .go files other than
// doc.go. Files behind build tags count: the directory is read, not the
// package as the default build sees it.
func TestDocNamesEveryFile(t *testing.T) {
	root := moduleRoot(t)
	dirs := packageDirs(t, root)
	if len(dirs) < 10 {
		t.Fatalf("found %d package directories under %s; expected the whole module", len(dirs), root)
	}
	for _, dir := range dirs {
		rel, err := filepath.Rel(root, dir)
		if err != nil {
			t.Fatal(err)
		}
		rel = filepath.ToSlash(rel)
		t.Run(rel, func(t *testing.T) {
			checkDoc(t, rel, dir)
		})
	}
}

// checkDoc checks one package directory, reporting each problem with the
// package's path (rel, relative to the module root) and the file.
func checkDoc(t *testing.T, rel, dir string) {
	files, err := sourceFiles(dir)
	if err != nil {
		t.Fatal(err)
	}
	docPath := filepath.Join(dir, "doc.go")
	if _, err := os.Stat(docPath); err != nil {
		t.Fatalf("package %s has no doc.go", rel)
	}
	f, err := parser.ParseFile(token.NewFileSet(), docPath, nil, parser.ParseComments|parser.PackageClauseOnly)
	if err != nil {
		t.Fatalf("package %s: %v", rel, err)
	}
	if f.Doc == nil {
		t.Fatalf("package %s: doc.go has no package comment", rel)
	}
	var others []string
	for _, name := range files {
		if name != "doc.go" {
			others = append(others, name)
		}
	}
	named, ok := namedFiles(f.Doc.Text())
	if !ok {
		if len(others) > 0 {
			t.Fatalf("package %s: doc.go has no paragraph %q naming its files %s", rel, filesHeading, strings.Join(others, ", "))
		}
		return
	}
	seen := map[string]bool{}
	for _, name := range named {
		if seen[name] {
			t.Errorf("package %s: doc.go names %s twice", rel, name)
		}
		seen[name] = true
		if !slices.Contains(others, name) {
			t.Errorf("package %s: doc.go names %s, which is not a non-test .go file of the package other than doc.go", rel, name)
		}
	}
	for _, name := range others {
		if !seen[name] {
			t.Errorf("package %s: doc.go does not name %s", rel, name)
		}
	}
}

// namedFiles returns the file names of the files paragraph of a package
// comment, in order, and whether the comment has that paragraph.
func namedFiles(doc string) ([]string, bool) {
	for para := range strings.SplitSeq(doc, "\n\n") {
		if rest, ok := strings.CutPrefix(para, filesHeading); ok {
			return goFileName.FindAllString(rest, -1), true
		}
	}
	return nil, false
}

// sourceFiles returns the names of the non-test .go files of dir.
func sourceFiles(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var names []string
	for _, e := range entries {
		name := e.Name()
		if e.Type().IsRegular() && strings.HasSuffix(name, ".go") && !strings.HasSuffix(name, "_test.go") {
			names = append(names, name)
		}
	}
	return names, nil
}

// packageDirs returns every directory of the module under root holding a
// .go file, test files included, skipping what the go command skips:
// testdata, directories whose names start with "." or "_", and nested
// modules.
func packageDirs(t *testing.T, root string) []string {
	var dirs []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			return nil
		}
		name := d.Name()
		if path != root {
			if name == "testdata" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") {
				return filepath.SkipDir
			}
			if _, err := os.Stat(filepath.Join(path, "go.mod")); err == nil {
				return filepath.SkipDir
			}
		}
		matches, err := filepath.Glob(filepath.Join(path, "*.go"))
		if err != nil {
			return err
		}
		if len(matches) > 0 {
			dirs = append(dirs, path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return dirs
}

// moduleRoot returns the directory of the go.mod above the test's
// working directory.
func moduleRoot(t *testing.T) string {
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("no go.mod above the working directory")
		}
		dir = parent
	}
}
