package structure

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReadmeMapsEveryFolder checks that the layout table of README.md
// names every package directory as `path/`, and every top-level folder,
// as `folder/` or through one of its subfolders (`cmd/augur/`).
func TestReadmeMapsEveryFolder(t *testing.T) {
	root := moduleRoot(t)
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, layout, ok := strings.Cut(string(readme), "\n## Layout\n")
	if !ok {
		t.Fatal("README.md has no section ## Layout")
	}
	layout, _, _ = strings.Cut(layout, "\n## ")
	entries, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.IsDir() && e.Name() != ".git" && !strings.Contains(layout, "`"+e.Name()+"/") {
			t.Errorf("README.md's layout does not name the folder `%s/`", e.Name())
		}
	}
	for _, dir := range packageDirs(t, root) {
		rel, err := filepath.Rel(root, dir)
		if err != nil {
			t.Fatal(err)
		}
		if rel := filepath.ToSlash(rel); !strings.Contains(layout, "`"+rel+"/`") {
			t.Errorf("README.md's layout does not name the package `%s/`", rel)
		}
	}
}
