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
	ignored := ignoredFolders(t, root)
	for _, e := range entries {
		if e.IsDir() && e.Name() != ".git" && !ignored[e.Name()] && !strings.Contains(layout, "`"+e.Name()+"/") {
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

// ignoredFolders returns the top-level folders that .gitignore names as
// "/folder/": build outputs, not part of the layout.
func ignoredFolders(t *testing.T, root string) map[string]bool {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(root, ".gitignore"))
	if err != nil {
		t.Fatal(err)
	}
	ignored := map[string]bool{}
	for _, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(line)
		if strings.HasPrefix(line, "/") && strings.HasSuffix(line, "/") && strings.Count(line, "/") == 2 {
			ignored[strings.Trim(line, "/")] = true
		}
	}
	return ignored
}
