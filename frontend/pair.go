package frontend

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/augur-verify/augur/expr"
	"github.com/augur-verify/augur/sare"
	"github.com/augur-verify/augur/sched"
	"github.com/augur-verify/augur/syntax"
)

// SpecFile is the name of the file of a pair's specification.
const SpecFile = "spec.sare"

// Prog names the kernel of a front end that generates one (its file is
// prog.sched).
const Prog = "prog"

// Pair is a specification and the annotated kernels a front end generated
// from one program, each of which claims to compute the specification.
// Both are the texts the front end printed, comments included.
type Pair struct {
	// Spec is the specification, in the .sare format.
	Spec string
	// Kernels are the annotated kernels, in the order they are written
	// and validated; their names are distinct.
	Kernels []Kernel
}

// Kernel is one annotated kernel of a Pair.
type Kernel struct {
	// Name is the stem of the kernel's file: prog, ref, padded. It is not
	// the name the kernel's text declares.
	Name string
	// Text is the kernel, in the .sched format.
	Text string
}

// File is the name of the kernel's file, its Name with the extension
// .sched.
func (k Kernel) File() string { return k.Name + ".sched" }

// Source is the kernel's text named after its file, as the verifier and
// sched.Load read it.
func (k Kernel) Source() *syntax.Source { return &syntax.Source{Name: k.File(), Text: k.Text} }

// SpecSource is the specification's text named SpecFile, as the verifier
// and sare.Load read it.
func (p *Pair) SpecSource() *syntax.Source { return &syntax.Source{Name: SpecFile, Text: p.Spec} }

// Kernel returns the kernel named name, or nil when the pair has none.
func (p *Pair) Kernel(name string) *Kernel {
	for i := range p.Kernels {
		if p.Kernels[i].Name == name {
			return &p.Kernels[i]
		}
	}
	return nil
}

// Write writes the pair's files into dir, created if missing: the
// specification as SpecFile, then each kernel as its File. It returns the
// paths written, in that order. Its errors are those of package os, which
// name the path.
func (p *Pair) Write(dir string) ([]string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	paths := []string{filepath.Join(dir, SpecFile)}
	texts := []string{p.Spec}
	for _, k := range p.Kernels {
		paths = append(paths, filepath.Join(dir, k.File()))
		texts = append(texts, k.Text)
	}
	for i, path := range paths {
		if err := os.WriteFile(path, []byte(texts[i]), 0o644); err != nil {
			return nil, err
		}
	}
	return paths, nil
}

// Loaded is a pair parsed and checked: the typed specification and
// kernels.
type Loaded struct {
	Spec     *sare.Spec
	SpecInfo *expr.Info
	// Kernels are the pair's kernels, in its order.
	Kernels []LoadedKernel
}

// LoadedKernel is one kernel of a Loaded pair.
type LoadedKernel struct {
	Name   string
	Kernel *sched.Kernel
	Info   *sched.Info
}

// Load parses and checks the specification, then each kernel against it.
// A text that does not load gives an error naming its file, wrapping the
// diagnostics (a syntax.ErrorList).
func (p *Pair) Load() (*Loaded, error) {
	spec, info, err := sare.Load(p.SpecSource())
	if err != nil {
		return nil, fmt.Errorf("the specification does not load: %w", err)
	}
	l := &Loaded{Spec: spec, SpecInfo: info}
	for _, k := range p.Kernels {
		kernel, kinfo, err := sched.Load(k.Source(), spec)
		if err != nil {
			return nil, fmt.Errorf("the kernel %s does not load: %w", k.Name, err)
		}
		l.Kernels = append(l.Kernels, LoadedKernel{Name: k.Name, Kernel: kernel, Info: kinfo})
	}
	return l, nil
}
