package corpus

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/augur-verify/augur/sched"
)

const corpusDir = "../../testdata/corpus"

func TestLoadCorpus(t *testing.T) {
	cases, err := Load(corpusDir)
	if err != nil {
		t.Fatal(err)
	}
	if len(cases) < 40 {
		t.Errorf("%d cases, want at least 40", len(cases))
	}
	counts := map[string]int{}
	for _, c := range cases {
		e := c.ExpectFor("real")
		counts[e.String()]++
		switch c.Expect {
		case Valid, Unknown:
			if c.Reason != 0 {
				t.Errorf("%s: %s verdict with reason %v", c.Name, c.Expect, c.Reason)
			}
		case Invalid:
			if !IsReason(c.Reason) {
				t.Errorf("%s: reason %v is not one of %s", c.Name, c.Reason, reasonNames())
			}
		default:
			t.Errorf("%s: verdict %q", c.Name, c.Expect)
		}
		if c.IEEE != nil && c.IEEE.Verdict == Invalid && !IsReason(c.IEEE.Reason) {
			t.Errorf("%s: ieee reason %v is not one of %s", c.Name, c.IEEE.Reason, reasonNames())
		}
		if c.IEEE != nil && c.Expect == Invalid {
			t.Errorf("%s: an ieee header on an invalid case (ieee lines are for kernels valid only over the reals)", c.Name)
		}
		if c.NoGarbage != nil && c.NoGarbage.Verdict == Invalid && !IsReason(c.NoGarbage.Reason) {
			t.Errorf("%s: no-garbage reason %v is not one of %s", c.Name, c.NoGarbage.Reason, reasonNames())
		}
		if c.NoGarbage != nil && *c.NoGarbage == c.ExpectFor("real") {
			t.Errorf("%s: a no-garbage header the same as expect", c.Name)
		}
		if len(c.Runs) == 0 {
			t.Errorf("%s: no run lines", c.Name)
		}
		if c.Note == "" {
			t.Errorf("%s: no description in the header", c.Name)
		}
		if filepath.Dir(c.SpecFile) != filepath.Clean(corpusDir) {
			t.Errorf("%s: spec %s outside the corpus", c.Name, c.SpecFile)
		}
	}
	// Every interpreter-visible failure kind of kernels without
	// reductions is exercised at least twice.
	for _, r := range Reasons() {
		if r.Reduction() {
			continue
		}
		name := Expectation{Verdict: Invalid, Reason: r}.String()
		if r == sched.IllDefinedSpec {
			if n := counts[name]; n > 2 {
				t.Errorf("%d cases of %s, want at most 2", n, r)
			}
			continue
		}
		if n := counts[name]; n < 2 {
			t.Errorf("%d cases of %s, want at least 2", n, r)
		}
	}
	t.Logf("%d cases: %v", len(cases), counts)
}

// TestEverySpecUsed checks that every specification of the corpus is the
// spec of some case.
func TestEverySpecUsed(t *testing.T) {
	cases, err := Load(corpusDir)
	if err != nil {
		t.Fatal(err)
	}
	used := map[string]bool{}
	for _, c := range cases {
		used[filepath.Base(c.SpecFile)] = true
	}
	specs, err := filepath.Glob(filepath.Join(corpusDir, "*.sare"))
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range specs {
		if !used[filepath.Base(s)] {
			t.Errorf("%s is the spec of no case", filepath.Base(s))
		}
	}
}

func TestLoadHeader(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "s.sare", "param N\n")
	write(t, dir, "k.sched", `# spec: s.sare
# expect: valid
# ieee: invalid annotation mismatch
# no-garbage: invalid undefined read
# run: N=4 M=-3
# run: N=0
# What it exercises.
# BROKEN: free text may hold a colon after a word,
# such as: this one.
kernel k(N)
# not part of the header: expect: nothing
{
}
`)
	cases, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(cases) != 1 {
		t.Fatalf("%d cases, want 1", len(cases))
	}
	c := cases[0]
	if c.Name != "k" || c.Dir != dir || c.SpecFile != filepath.Join(dir, "s.sare") || c.ProgFile != filepath.Join(dir, "k.sched") {
		t.Errorf("names: %+v", c)
	}
	if c.Expect != Valid || c.Reason != 0 {
		t.Errorf("expect %q %q", c.Expect, c.Reason)
	}
	if c.IEEE == nil || *c.IEEE != (Expectation{Invalid, sched.WrongValue}) {
		t.Errorf("ieee %+v", c.IEEE)
	}
	if got := c.ExpectFor("ieee").String(); got != "invalid annotation mismatch" {
		t.Errorf("ExpectFor(ieee) = %s", got)
	}
	if got := c.ExpectFor("real").String(); got != "valid" {
		t.Errorf("ExpectFor(real) = %s", got)
	}
	if got := c.ExpectWithoutGarbage().String(); got != "invalid undefined read" {
		t.Errorf("ExpectWithoutGarbage() = %s", got)
	}
	if len(c.Runs) != 2 || c.Runs[0]["N"] != 4 || c.Runs[0]["M"] != -3 || len(c.Runs[1]) != 1 || c.Runs[1]["N"] != 0 {
		t.Errorf("runs %v", c.Runs)
	}
	want := "What it exercises.\nBROKEN: free text may hold a colon after a word,\nsuch as: this one."
	if c.Note != want {
		t.Errorf("note %q, want %q", c.Note, want)
	}
}

func TestLoadErrors(t *testing.T) {
	const good = "# spec: s.sare\n# expect: invalid read-write race\n# run: N=4\n# note\nkernel k(N)\n"
	tests := []struct {
		name, header, want string
	}{
		{"unknown key", "# spec: s.sare\n# expect: valid\n# tolerance: 1e-3\n# run: N=1\n", `k.sched:3: unknown header key "tolerance"`},
		{"key after text", "# spec: s.sare\n# expect: valid\n# run: N=1\n# text\n# run: N=2\n", "k.sched:5: run header after the free text"},
		{"missing spec", "# expect: valid\n# run: N=1\n", "k.sched:3: missing # spec: header"},
		{"missing expect", "# spec: s.sare\n# run: N=1\n", "k.sched:3: missing # expect: header"},
		{"missing run", "# spec: s.sare\n# expect: valid\n# note\n", "k.sched:4: missing # run: header"},
		{"no header", "", "k.sched:1: missing # spec: header"},
		{"bad reason", "# spec: s.sare\n# expect: invalid race\n# run: N=1\n", `k.sched:2: expect: unknown reason "race"`},
		{"no reason", "# spec: s.sare\n# expect: invalid\n# run: N=1\n", "k.sched:2: expect: \"invalid\": an invalid verdict needs a reason"},
		{"valid with reason", "# spec: s.sare\n# expect: valid annotation mismatch\n# run: N=1\n", "k.sched:2: expect: \"valid annotation mismatch\": a valid verdict takes no reason"},
		{"bad verdict", "# spec: s.sare\n# expect: ok\n# run: N=1\n", `k.sched:2: expect: "ok": want valid, unknown or invalid REASON`},
		{"bad ieee", "# spec: s.sare\n# expect: valid\n# ieee: wrong\n# run: N=1\n", "k.sched:3: ieee:"},
		{"bad no-garbage", "# spec: s.sare\n# expect: valid\n# no-garbage: invalid race\n# run: N=1\n", `k.sched:3: no-garbage: unknown reason "race"`},
		{"repeated no-garbage", "# spec: s.sare\n# expect: valid\n# no-garbage: valid\n# no-garbage: valid\n# run: N=1\n", "k.sched:4: no-garbage header repeated (first at line 3)"},
		{"repeated expect", "# spec: s.sare\n# expect: valid\n# expect: valid\n# run: N=1\n", "k.sched:3: expect header repeated (first at line 2)"},
		{"bad run", "# spec: s.sare\n# expect: valid\n# run: N=x\n", `k.sched:3: run: "N=x": x is not a decimal integer`},
		{"run without value", "# spec: s.sare\n# expect: valid\n# run: N\n", `k.sched:3: run: "N": want NAME=INTEGER`},
		{"run twice the same name", "# spec: s.sare\n# expect: valid\n# run: N=1 N=2\n", "k.sched:3: run: N given twice"},
		{"missing spec file", "# spec: t.sare\n# expect: valid\n# run: N=1\n", "k.sched:1: spec t.sare:"},
		{"spec with a path", "# spec: ../s.sare\n# expect: valid\n# run: N=1\n", `k.sched:1: spec "../s.sare": want the name of a .sare file`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			write(t, dir, "s.sare", "param N\n")
			write(t, dir, "good.sched", good)
			write(t, dir, "k.sched", tt.header+"kernel k(N)\n{\n}\n")
			cases, err := Load(dir)
			if err == nil {
				t.Fatalf("no error, want %q", tt.want)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %q, want it to contain %q", err, tt.want)
			}
			if len(cases) != 1 || cases[0].Name != "good" {
				t.Errorf("cases %v, want the good one only", cases)
			}
		})
	}
}

func TestLoadEmptyDir(t *testing.T) {
	if _, err := Load(t.TempDir()); err == nil {
		t.Error("no error on a directory without kernels")
	}
}

func write(t *testing.T, dir, name, text string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}
