package symeval

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestDocFiles checks that the package comment's last section, "Files,
// in reading order", names every non-test source file of the package,
// each once, and no other.
func TestDocFiles(t *testing.T) {
	doc, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	_, files, ok := strings.Cut(string(doc), "// # Files, in reading order")
	if !ok {
		t.Fatal("doc.go has no section \"Files, in reading order\"")
	}
	named := regexp.MustCompile(`\b[a-z_]+\.go\b`).FindAllString(files, -1)
	sources, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, f := range sources {
		if !strings.HasSuffix(f, "_test.go") {
			want = append(want, f)
		}
	}
	got := slices.Clone(named)
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Errorf("doc.go names, in reading order:\n%s\nthe package's files are:\n%s", strings.Join(named, " "), strings.Join(want, " "))
	}
}
