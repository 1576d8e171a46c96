package atl

import (
	"context"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/augur-verify/augur/syntax"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// TestErrors checks that errors name the spot, what was expected, and
// come with a caret line.
func TestErrors(t *testing.T) {
	cases := []struct{ src, want string }{
		{"def a = gen [i < ] 1", "t.atl:1:18: expected an index expression, found ']'"},
		{"param n\ndef a = gen [i < n] x[i]", "t.atl:2:21: undefined: x"},
		{"param n\ninput x[n]\ndef a = gen [i < n] x[i, i]", "t.atl:3:21: x has rank 1, indexed with 2 indices"},
		{"param n\ninput x[n]\ndef a = (gen [i < n] x[i]) + 1", "t.atl:3:28: the operands of '+' must be scalar expressions"},
		{"param n, m\ninput x[n, m]\ndef a = flatten(gen [i < n] gen [j < m] x[i, j])", "t.atl:3:9: flatten's inner dimension m must be a positive constant"},
		{"param n\ninput x[n]\ndef a = gen [i < n] gen [i < n] x[i]", "t.atl:3:26: i is already bound at 3:14"},
		{"param n\ninput x[n]\ndef a = gen [i < n] gen [j < i] x[j]", "t.atl:3:30: i is an index variable: sizes depend on parameters only"},
		{"param n\ninput x[n]\ndef a = gen [i < n] x[i] ++ gen [j < 2] gen [k < 2] 1", "t.atl:3:26: cannot concatenate shapes [] and [2, 2]"},
		{"param n\ndef a = split(n, gen [i < 4] 1)", "t.atl:2:15: split's factor n must be a positive integer constant"},
		{"param n\ninput x[n]\ndef a = gen [i < n] x[n * i]", "t.atl:3:25: n * i is not affine"},
		{"def a = 1 $ 2", "t.atl:1:11: illegal character '$'"},
		{"def a = 7e38", "t.atl:1:9: 7e38 is too large for a 32-bit float"},
		{"param n\nassume n >= 0\ndef a = truncl(3, gen [i < n] guard [i >= 3] 1)", "t.atl:3:9: truncl by 3 may drop more than the n elements there are"},
		{"param n\ninput x[n]\ndef a = gen [i < n] x[i + 1]", "t.atl:3:21: x[i + 1] may read outside x, of shape [n]"},
		{"def a = gen [i < 2] 1\nschedule a = gen [a < 2] 1", "t.atl:2:19: a is already bound at 1:5"},
		{"param n\ndef", "t.atl:2:4: expected a definition name, found end of file"},
	}
	for _, c := range cases {
		src := &syntax.Source{Name: "t.atl", Text: c.src}
		_, err := Compile(context.Background(), src, Options{})
		el, ok := err.(syntax.ErrorList)
		if !ok {
			t.Errorf("%q: got %v, want an error list", c.src, err)
			continue
		}
		if !strings.Contains(el.Error(), c.want) {
			t.Errorf("%q:\n got %s\nwant %s", c.src, el.Error(), c.want)
		}
		if !strings.Contains(el.Detail(), "^") {
			t.Errorf("%q: no caret line in\n%s", c.src, el.Detail())
		}
	}
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
	for _, want := range []string{
		"t.atl:2:7: a flat layout needs constant inner dimensions: a has shape [n, m]",
		"t.atl:3:9: a flat layout needs constant inner dimensions: f has shape [n, m]",
	} {
		if !strings.Contains(el.Detail(), want) {
			t.Errorf("got\n%s\nwant %s", el.Detail(), want)
		}
	}
}

// TestGolden compares the specification and kernel generated for a few
// examples with testdata/NAME.sare and NAME.sched (go test -update
// rewrites them).
func TestGolden(t *testing.T) {
	for _, name := range []string{"matmul", "truncl_guarded", "tiled_matmul", "variance", "fibonacci", "split_tensor_add", "im2col"} {
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join("../examples/atl", name+".atl"))
			if err != nil {
				t.Fatal(err)
			}
			res, err := Compile(context.Background(), &syntax.Source{Name: name + ".atl", Text: string(data)}, Options{})
			if err != nil {
				t.Fatal(err)
			}
			for ext, got := range map[string]string{".sare": res.Spec, ".sched": res.Kernel} {
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
	files, _ := filepath.Glob("../examples/atl/*.atl")
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
