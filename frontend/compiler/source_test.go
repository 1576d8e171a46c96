package compiler

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/augur-verify/augur/syntax"
)

// TestKernelName checks that the kernel's name, taken from the file name,
// is always a name the kernel language accepts.
func TestKernelName(t *testing.T) {
	for path, want := range map[string]string{
		"a/matmul.alg":    "matmul",
		`dir\matmul.alg`:  "matmul",
		"blur-3x3.alg":    "blur_3x3",
		"9lives.alg":      "_lives",
		"for.alg":         "compiled",
		"kernel.alg":      "compiled",
		"min.alg":         "compiled",
		"x.y.alg":         "x_y",
		"dir/.alg":        "compiled",
		"":                "compiled",
		"algorithm.alg":   "algorithm",
		"/abs/path/f.alg": "f",
	} {
		if got := KernelName(path); got != want {
			t.Errorf("KernelName(%q) = %q, want %q", path, got, want)
		}
	}
}

// TestCompileSource checks the shared compile flow: the kernel is named
// after the file, a schedule source replaces the algorithm's own, and
// malformed input of either source is a positioned error list.
func TestCompileSource(t *testing.T) {
	ctx := context.Background()
	alg := "param W\ninput In(x) : f32\nfunc Out(x) : f32 = In(x) + 1\noutput Out over x in 0 .. W\n"
	src := &syntax.Source{Name: "dir/my-alg.alg", Text: alg}
	res, err := CompileSource(ctx, src, nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(res.Kernels[0].Text, "kernel my_alg(") {
		t.Errorf("the kernel is not named after the file:\n%s", res.Kernels[0].Text)
	}
	if res.Schedule != "" {
		t.Errorf("no schedule given, yet compiled with %q", res.Schedule)
	}
	res, err = CompileSource(ctx, src, &syntax.Source{Name: "s", Text: "Out.split(x, xo, xi, 4)"}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(res.Schedule, "split") || !strings.Contains(res.Kernels[0].Text, "xi") {
		t.Errorf("the schedule source was not compiled: schedule %q, kernel\n%s", res.Schedule, res.Kernels[0].Text)
	}
	var el syntax.ErrorList
	if _, err := CompileSource(ctx, &syntax.Source{Name: "bad.alg", Text: "func ("}, nil, Options{}); !errors.As(err, &el) || el[0].File != "bad.alg" {
		t.Errorf("malformed algorithm: got %v, want a positioned error list in bad.alg", err)
	}
	if _, err := CompileSource(ctx, src, &syntax.Source{Name: "s.sched", Text: "@@"}, Options{}); !errors.As(err, &el) || el[0].File != "s.sched" {
		t.Errorf("malformed schedule: got %v, want a positioned error list in s.sched", err)
	}
}
