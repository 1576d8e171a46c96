package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/augur-verify/augur/frontend"
)

// TestFrontEndFlags checks that the commands of the front ends share
// their flags: where to write the pair, and how to validate it.
func TestFrontEndFlags(t *testing.T) {
	root := newRootCmd(strings.NewReader(""), &bytes.Buffer{}, &bytes.Buffer{})
	for _, name := range []string{"compile", "halide", "atl", "rink"} {
		cmd, _, err := root.Find([]string{name})
		if err != nil {
			t.Fatal(err)
		}
		fl := cmd.Flags()
		if o := fl.ShorthandLookup("o"); o == nil || o.Name != "output" {
			t.Errorf("%s: no -o, --output", name)
		}
		for flag, def := range map[string]string{"validate": "false", "value-model": "real"} {
			if f := fl.Lookup(flag); f == nil || f.DefValue != def {
				t.Errorf("%s: --%s missing or not %s by default", name, flag, def)
			}
		}
		for _, flag := range []string{"timeout", "jobs"} {
			if fl.Lookup(flag) == nil {
				t.Errorf("%s: no --%s", name, flag)
			}
		}
	}
}

// TestWritePair checks the path every front end's pair takes: its files
// written, what was written said, and with --validate each kernel
// validated under a header naming its file, the exit status the worst
// over the kernels validated.
func TestWritePair(t *testing.T) {
	read := func(path string) string {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	dir := "../../examples/blur/"
	pair := &frontend.Pair{Spec: read(dir + "blur.sare"), Kernels: []frontend.Kernel{
		{Name: "broken", Text: read(dir + "broken_wrong_row.sched")},
		{Name: "ref", Text: read(dir + "blur.sched")},
	}}
	out := t.TempDir()
	f := pairFlags{out: out, valueModel: "real", checkFlags: checkFlags{validate: true, jobs: 2}}
	files := []string{filepath.Join(out, "spec.sare"), filepath.Join(out, "broken.sched"), filepath.Join(out, "ref.sched")}
	for _, c := range []struct {
		only    []string
		code    int
		headers []string
	}{
		{nil, exitMismatch, []string{"broken.sched", "ref.sched"}},
		{[]string{"ref"}, exitOK, []string{"ref.sched"}},
		{[]string{"broken"}, exitMismatch, []string{"broken.sched"}},
	} {
		var stdout, stderr bytes.Buffer
		err := writePair(context.Background(), &stdout, &stderr, pair, f, c.only...)
		if code := exitCode(err); code != c.code {
			t.Errorf("%v: exit %d, want %d\n%s%s", c.only, code, c.code, stdout.String(), stderr.String())
		}
		want := "wrote " + files[0] + ", " + files[1] + " and " + files[2] + "\n"
		if !strings.HasPrefix(stdout.String(), want) {
			t.Errorf("%v: stdout does not start with %q:\n%s", c.only, want, stdout.String())
		}
		if n := strings.Count(stdout.String(), "\n== "); n != len(c.headers) {
			t.Errorf("%v: %d headers, want %d:\n%s", c.only, n, len(c.headers), stdout.String())
		}
		for _, h := range c.headers {
			if !strings.Contains(stdout.String(), "\n== "+h+"\n") {
				t.Errorf("%v: no header for %s:\n%s", c.only, h, stdout.String())
			}
		}
	}
	for i, text := range []string{pair.Spec, pair.Kernels[0].Text, pair.Kernels[1].Text} {
		if got := read(files[i]); got != text {
			t.Errorf("%s differs from the pair's text", files[i])
		}
	}

	// One kernel: no header, the exit status augur validate's.
	one := &frontend.Pair{Spec: pair.Spec, Kernels: pair.Kernels[:1]}
	var stdout, stderr bytes.Buffer
	err := writePair(context.Background(), &stdout, &stderr, one, pairFlags{out: t.TempDir(), valueModel: "real", checkFlags: checkFlags{validate: true, jobs: 2}})
	if code := exitCode(err); code != exitMismatch || strings.Contains(stdout.String(), "== ") || !strings.Contains(stdout.String(), "INVALID") {
		t.Errorf("one kernel: exit %d\n%s%s", code, stdout.String(), stderr.String())
	}
	// Without --validate, only the files.
	stdout.Reset()
	if err := writePair(context.Background(), &stdout, &stderr, one, pairFlags{out: filepath.Join(out, "plain")}); err != nil || strings.Count(stdout.String(), "\n") != 1 {
		t.Errorf("without --validate: %v\n%s", err, stdout.String())
	}
}
