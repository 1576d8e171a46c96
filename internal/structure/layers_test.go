package structure

import (
	"bytes"
	"encoding/json"
	"os/exec"
	"strings"
	"testing"
)

const module = "github.com/augur-verify/augur"

// layers orders the module's packages the way data flows: a package may
// import packages of its own layer or of earlier ones, never of a later
// one. A path ending in "/..." stands for the package and those below it.
var layers = []struct {
	name string
	pkgs []string
}{
	{"languages", []string{"syntax", "value", "expr", "sare", "sched"}},
	{"engine", []string{"presburger/...", "internal/quasiaffine"}},
	{"front ends", []string{"frontend/..."}},
	{"evaluation", []string{"symeval"}},
	{"solving", []string{"smt/..."}},
	{"reporting", []string{"validate"}},
	{"service", []string{"store", "api/...", "web"}},
	{"tools", []string{"bench", "cmd/...", "integration", "internal/corpus", "internal/pgtest", "internal/browsertest", "internal/structure", "internal/testtier"}},
}

// layerOf returns the index of the layer of the module-relative package
// path rel, or -1.
func layerOf(rel string) int {
	for i, l := range layers {
		for _, p := range l.pkgs {
			if p == rel || (strings.HasSuffix(p, "/...") && (rel == strings.TrimSuffix(p, "/...") || strings.HasPrefix(rel, strings.TrimSuffix(p, "...")))) {
				return i
			}
		}
	}
	return -1
}

// listed is what go list says of one package.
type listed struct {
	ImportPath string
	Imports    []string
	Deps       []string
}

// goList runs go list -deps -json on the module's packages (tests
// excluded) and returns the module's own packages.
func goList(t *testing.T, patterns ...string) map[string]listed {
	t.Helper()
	cmd := exec.Command("go", append([]string{"list", "-json"}, patterns...)...)
	cmd.Dir = "../.."
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	pkgs := map[string]listed{}
	dec := json.NewDecoder(bytes.NewReader(out))
	for dec.More() {
		var p listed
		if err := dec.Decode(&p); err != nil {
			t.Fatal(err)
		}
		if rel, ok := relative(p.ImportPath); ok {
			pkgs[rel] = p
		}
	}
	return pkgs
}

// relative returns the module-relative path of an import path of the
// module ("" for the root).
func relative(path string) (string, bool) {
	if path == module {
		return "", true
	}
	return strings.CutPrefix(path, module+"/")
}

// TestLayers checks that every package belongs to a layer and imports no
// package of a later layer: no package imports one of its callers.
func TestLayers(t *testing.T) {
	pkgs := goList(t, "./...")
	if len(pkgs) < 20 {
		t.Fatalf("go list found %d packages", len(pkgs))
	}
	for rel, p := range pkgs {
		from := layerOf(rel)
		if from < 0 {
			t.Errorf("package %s is in no layer: add it to layers", rel)
			continue
		}
		for _, imp := range p.Imports {
			r, ok := relative(imp)
			if !ok {
				continue
			}
			if to := layerOf(r); to > from {
				t.Errorf("%s (%s) imports %s (%s): data flows from %s to %s only", rel, layers[from].name, r, layers[to].name, layers[to].name, layers[from].name)
			}
		}
	}
}

// TestDependencies checks the dependencies that the layers alone allow but
// that the design rules out, over go list -deps.
func TestDependencies(t *testing.T) {
	rules := []struct {
		pkg, not, why string
	}{
		{"smt", "", "the Z3 binding knows nothing of Augur"},
		{"presburger", "", "the engine knows nothing of the languages"},
		{"sched", "sare", "kernels share the expression language (package expr) with specifications, not the specification language"},
		{"store", "", "persistence knows nothing of the verifier"},
		{"frontend/...", "symeval", "front ends produce pairs; they do not evaluate them"},
		{"frontend/...", "validate", "front ends produce pairs; validating them is the caller's"},
	}
	pkgs := goList(t, "-deps", "./...")
	for _, r := range rules {
		for rel, p := range pkgs {
			if !(rel == r.pkg || (strings.HasSuffix(r.pkg, "/...") && (rel == strings.TrimSuffix(r.pkg, "/...") || strings.HasPrefix(rel, strings.TrimSuffix(r.pkg, "..."))))) {
				continue
			}
			for _, d := range p.Deps {
				dr, ok := relative(d)
				if !ok {
					continue
				}
				if r.not == "" || dr == r.not {
					t.Errorf("%s depends on %s: %s", rel, dr, r.why)
				}
			}
		}
	}
}
