package atl

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/augur-verify/augur/syntax"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// TestErrors checks that each error is reported at its spot, with its
// code, and comes with a caret line.
func TestErrors(t *testing.T) {
	cases := []struct {
		src, at string
		code    syntax.Code
	}{
		{"def a = gen [i < ] 1", "t.atl:1:18", syntax.CodeSyntax},
		{"def a = 1 $ 2", "t.atl:1:11", syntax.CodeSyntax},
		{"param n\ndef", "t.atl:2:4", syntax.CodeSyntax},
		{"param n", "t.atl:1:8", syntax.CodeDefinition},
		{"def a = 1\ndef b = 2", "t.atl:2:1", syntax.CodeDefinition},
		{"def a = 1\nschedule a = 1\nschedule a = 1", "t.atl:3:1", syntax.CodeDefinition},
		{"param n\ndef a = gen [i < n] x[i]", "t.atl:2:21", syntax.CodeUndeclared},
		{"param n\ninput x[n]\ndef a = gen [i < n] x[i, i]", "t.atl:3:21", syntax.CodeArity},
		{"param n\ninput x[n]\ndef a = gen [i < n] x", "t.atl:3:21", syntax.CodeArity},
		{"param n\ninput x[n]\ndef a = (gen [i < n] x[i]) + 1", "t.atl:3:28", syntax.CodeShape},
		{"param n\ninput x[n]\ndef a = gen [i < n] x[i] ++ gen [j < 2] gen [k < 2] 1", "t.atl:3:26", syntax.CodeShape},
		{"def a = transpose(gen [i < 2] 1)", "t.atl:1:9", syntax.CodeShape},
		{"param n, m\ninput x[n, m]\ndef a = flatten(gen [i < n] gen [j < m] x[i, j])", "t.atl:3:9", syntax.CodeNotAffine},
		{"param n\ndef a = split(n, gen [i < 4] 1)", "t.atl:2:15", syntax.CodeNotAffine},
		{"param n\ninput x[n]\ndef a = gen [i < n] x[n * i]", "t.atl:3:25", syntax.CodeNotAffine},
		{"param n\ninput x[n]\ndef a = gen [i < n] gen [i < n] x[i]", "t.atl:3:26", syntax.CodeRedeclared},
		{"def a = gen [i < 2] 1\nschedule a = gen [a < 2] 1", "t.atl:2:19", syntax.CodeRedeclared},
		{"param n\ninput x[n]\ndef a = gen [i < n] gen [j < i] x[j]", "t.atl:3:30", syntax.CodeWrongKind},
		{"param kernel\ndef a = 1", "t.atl:1:7", syntax.CodeReserved},
		{"def a = gen [i < 2] 1\nschedule b = gen [i < 2] 1", "t.atl:2:10", syntax.CodeBinding},
		{"def a = gen [i < 2] 1\nschedule a = gen [i < 3] 1", "t.atl:2:10", syntax.CodeBinding},
		{"def a = 7e38", "t.atl:1:9", syntax.CodeRange},
		{"def a = gen [i < 99999999999999999999] 1", "t.atl:1:18", syntax.CodeRange},
		{"param n\nassume n >= 0\ndef a = truncl(3, gen [i < n] guard [i >= 3] 1)", "t.atl:3:9", syntax.CodeBounds},
		{"param n\ninput x[n]\ndef a = gen [i < n] x[i + 1]", "t.atl:3:21", syntax.CodeBounds},
	}
	for _, c := range cases {
		src := &syntax.Source{Name: "t.atl", Text: c.src}
		_, err := Compile(context.Background(), src, Options{})
		el, ok := err.(syntax.ErrorList)
		if !ok {
			t.Errorf("%q: got %v, want an error list", c.src, err)
			continue
		}
		if !hasError(el, c.at, c.code) {
			t.Errorf("%q:\n got %s\nwant an error of code %s at %s", c.src, codes(el), c.code, c.at)
		}
		if !strings.Contains(el.Detail(), "^") {
			t.Errorf("%q: no caret line in\n%s", c.src, el.Detail())
		}
	}
}

// TestErrorWording keeps the rendering of one error to the byte: the
// position, the message and the caret under the column.
func TestErrorWording(t *testing.T) {
	src := &syntax.Source{Name: "t.atl", Text: "param n\ninput x[n]\ndef a = gen [i < n] x[i, i]"}
	_, err := Compile(context.Background(), src, Options{})
	el, ok := err.(syntax.ErrorList)
	if !ok {
		t.Fatalf("got %v, want an error list", err)
	}
	want := "t.atl:3:21: x has rank 1, indexed with 2 indices\n" +
		"    def a = gen [i < n] x[i, i]\n" +
		"                        ^"
	if got := el.Detail(); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// TestRejectedCodes checks the code of the error that rejects each
// program the examples and the corpus expect to be rejected.
func TestRejectedCodes(t *testing.T) {
	for file, want := range map[string]syntax.Code{
		"../../examples/atl/fusion_alias.atl":                 syntax.CodeLaneAlias,
		"../../examples/atl/genrec_forward.atl":               syntax.CodeLookback,
		"../../examples/atl/truncl_bug.atl":                   syntax.CodePadding,
		"../../examples/atl/truncr_bug.atl":                   syntax.CodePadding,
		"../../examples/atl/tiled_tail.atl":                   syntax.CodePadding,
		"../../examples/atl/tiled_matmul_tails_divisible.atl": syntax.CodeBinding,
		"../../examples/atl/truncr_flat.atl":                  syntax.CodePadding,
		"testdata/corpus/oob_read.atl":                        syntax.CodeBounds,
		"testdata/corpus/pad_concat_bad.atl":                  syntax.CodePadding,
		"testdata/corpus/pad_split_bad.atl":                   syntax.CodePadding,
		"testdata/corpus/truncr_sum_bug.atl":                  syntax.CodePadding,
	} {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		var opts Options
		for _, e := range expectations(t, string(data)) {
			if e.verdict == "rejected" {
				opts, _ = optionsOf(t, e.flags)
			}
		}
		_, err = Compile(context.Background(), &syntax.Source{Name: file, Text: string(data)}, opts)
		el, ok := err.(syntax.ErrorList)
		if !ok {
			t.Errorf("%s: got %v, want an error list", file, err)
			continue
		}
		if !hasError(el, "", want) {
			t.Errorf("%s: got %s, want an error of code %s", file, codes(el), want)
		}
	}
}

// hasError reports whether el holds an error of the code at the position
// ("file:line:col"; "" for anywhere).
func hasError(el syntax.ErrorList, at string, code syntax.Code) bool {
	for _, e := range el {
		if e.Code == code && (at == "" || fmt.Sprintf("%s:%s", e.File, e.Pos) == at) {
			return true
		}
	}
	return false
}

// codes lists the errors' positions and codes, for failure messages.
func codes(el syntax.ErrorList) string {
	var b strings.Builder
	for _, e := range el {
		fmt.Fprintf(&b, "%s:%s [%s] %s; ", e.File, e.Pos, e.Code, e.Msg)
	}
	return b.String()
}

// TestFlatErrors checks that the flat layout's refusal of parametric
// inner dimensions names each array at its declaration.
func TestFlatErrors(t *testing.T) {
	src := &syntax.Source{Name: "t.atl", Text: "param n, m\ninput a[n, m]\ndef f = gen [i < n] gen [j < m] a[i, j]"}
	_, err := Compile(context.Background(), src, Options{Flat: true})
	el, ok := err.(syntax.ErrorList)
	if !ok {
		t.Fatalf("got %v, want an error list", err)
	}
	for _, at := range []string{"t.atl:2:7", "t.atl:3:9"} {
		if !hasError(el, at, syntax.CodeNotAffine) {
			t.Errorf("got %s, want an error of code %s at %s", codes(el), syntax.CodeNotAffine, at)
		}
	}
}

// TestGolden compares the specification and kernel generated for a few
// examples with testdata/NAME.sare and NAME.sched (go test -update
// rewrites them).
func TestGolden(t *testing.T) {
	for _, name := range []string{"matmul", "truncl_guarded", "tiled_matmul", "variance", "fibonacci", "split_tensor_add", "im2col"} {
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join("../../examples/atl", name+".atl"))
			if err != nil {
				t.Fatal(err)
			}
			res, err := Compile(context.Background(), &syntax.Source{Name: name + ".atl", Text: string(data)}, Options{})
			if err != nil {
				t.Fatal(err)
			}
			for ext, got := range map[string]string{".sare": res.Spec, ".sched": res.Kernels[0].Text} {
				golden := filepath.Join("testdata", name+ext)
				if *update {
					if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
						t.Fatal(err)
					}
					continue
				}
				want, err := os.ReadFile(golden)
				if err != nil {
					t.Fatalf("%v (go test ./atl -update creates it)", err)
				}
				if got != string(want) {
					t.Errorf("%s differs:\n--- got\n%s--- want\n%s", golden, got, want)
				}
			}
		})
	}
}

// FuzzParse feeds the parser and checker arbitrary text: they must
// return a program or positioned errors, never panic, and whatever they
// accept must compile to a pair that loads (Compile checks it).
func FuzzParse(f *testing.F) {
	files, _ := filepath.Glob("../../examples/atl/*.atl")
	for _, file := range files {
		if data, err := os.ReadFile(file); err == nil {
			f.Add(string(data))
		}
	}
	f.Add("def a = gen [i < 3] 1")
	f.Add("def A = 7e38")
	f.Add("def A = gen [i < 2] 1\nschedule A = gen [A < 2] 1")
	f.Add("param n\ndef a = genrec f [i < n] guard [i >= 1] f[i - 1] + 1 in gen [j < n] f[j]")
	f.Fuzz(func(t *testing.T, text string) {
		src := &syntax.Source{Name: "f.atl", Text: text}
		prog, err := Parse(src)
		if err != nil {
			if _, ok := err.(syntax.ErrorList); !ok {
				t.Fatalf("error of type %T: %v", err, err)
			}
			return
		}
		c, err := Check(prog, src)
		if err != nil {
			return
		}
		if c.Rules(context.Background(), Options{}) != nil {
			return
		}
		if _, err := c.Compile(Options{}); err != nil && strings.Contains(err.Error(), "internal error") {
			t.Fatalf("%v", err)
		}
	})
}
