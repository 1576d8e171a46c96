package frontend

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/augur-verify/augur/syntax"
)

const (
	spec = `# a comment, kept
param N
assume N >= 1
input A(i) : f32
tensor B(i) : f32
B(i) = A(i) + 1.0
output B
`
	prog = `# a comment, kept
kernel k(N)
assume N >= 1
in  a[i] : f32[N] = A(i)
out b[i] : f32[N] = B(i)
{
  for i < N {
    b[i] {B(i)} := a[i] + 1.0
  }
}
`
)

// TestWrite checks that a pair is written byte for byte, the
// specification first, then each kernel under its name, into a directory
// created if missing.
func TestWrite(t *testing.T) {
	p := &Pair{Spec: spec, Kernels: []Kernel{{Name: "ref", Text: prog}, {Name: "padded", Text: prog + "# padded\n"}}}
	dir := filepath.Join(t.TempDir(), "a", "b")
	paths, err := p.Write(dir)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{filepath.Join(dir, "spec.sare"), filepath.Join(dir, "ref.sched"), filepath.Join(dir, "padded.sched")}
	if !slices.Equal(paths, want) {
		t.Errorf("paths %q, want %q", paths, want)
	}
	for i, text := range []string{p.Spec, p.Kernels[0].Text, p.Kernels[1].Text} {
		got, err := os.ReadFile(want[i])
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != text {
			t.Errorf("%s:\n%s\nwant\n%s", want[i], got, text)
		}
	}
	// A directory that cannot be created: the error names the path.
	file := filepath.Join(t.TempDir(), "file")
	os.WriteFile(file, nil, 0o644)
	if _, err := p.Write(filepath.Join(file, "out")); err == nil || !strings.Contains(err.Error(), file) {
		t.Errorf("writing under a file: %v", err)
	}
}

// TestKernel checks the look-up of a kernel by name, the file it is
// written to, and the sources named after the files.
func TestKernel(t *testing.T) {
	p := &Pair{Spec: spec, Kernels: []Kernel{{Name: Prog, Text: prog}}}
	k := p.Kernel(Prog)
	if k == nil || k.File() != "prog.sched" || k.Text != prog {
		t.Fatalf("Kernel(%q) = %+v", Prog, k)
	}
	k.Text = "changed"
	if p.Kernels[0].Text != "changed" {
		t.Error("Kernel returns a copy, not the pair's kernel")
	}
	if p.Kernel("ref") != nil {
		t.Error("a kernel the pair does not have is found")
	}
	if s := p.SpecSource(); s.Name != SpecFile || s.Text != spec {
		t.Errorf("SpecSource = %+v", s)
	}
	if s := p.Kernels[0].Source(); s.Name != "prog.sched" || s.Text != "changed" {
		t.Errorf("Source = %+v", s)
	}
}

// TestLoad checks that Load gives the typed specification and kernels,
// and names the text that does not load, with its diagnostics.
func TestLoad(t *testing.T) {
	p := &Pair{Spec: spec, Kernels: []Kernel{{Name: Prog, Text: prog}}}
	l, err := p.Load()
	if err != nil {
		t.Fatal(err)
	}
	if l.Spec.Tensor("B") == nil || len(l.Kernels) != 1 || l.Kernels[0].Name != Prog || l.Kernels[0].Kernel.Name.Name != "k" || l.Kernels[0].Info == nil {
		t.Errorf("loaded %+v", l)
	}
	p.Kernels = append(p.Kernels, Kernel{Name: "bad", Text: strings.Replace(prog, "B(i)}", "C(i)}", 1)})
	_, err = p.Load()
	var el syntax.ErrorList
	if err == nil || !strings.Contains(err.Error(), "the kernel bad does not load") || !errors.As(err, &el) || el[0].File != "bad.sched" {
		t.Errorf("a kernel annotated with an unknown tensor: %v", err)
	}
	p.Spec = "param"
	if _, err := p.Load(); err == nil || !strings.Contains(err.Error(), "the specification does not load") {
		t.Errorf("a malformed specification: %v", err)
	}
}
