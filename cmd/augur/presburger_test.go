package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// augurIn runs the command line in-process with the given standard input.
func augurIn(stdin string, args ...string) (code int, stdout, stderr string) {
	var out, errb bytes.Buffer
	code = execute(args, strings.NewReader(stdin), &out, &errb)
	return code, out.String(), errb.String()
}

func TestPresburgerFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ok.iscc")
	script := "S := [N] -> { A[i] : 0 <= i < N };\nR := { A[i] -> B[i + 1] };\nR(S) <= [N] -> { B[j] : 1 <= j <= N };\nlexmin S;\n"
	if err := os.WriteFile(path, []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errs := augurIn("", "presburger", path)
	if code != exitOK || errs != "" {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	if want := "True\n[N] -> { A[i] : i = 0 and N >= 1 }\n"; out != want {
		t.Errorf("stdout %q, want %q", out, want)
	}
}

func TestPresburgerStdin(t *testing.T) {
	for _, args := range [][]string{{"presburger"}, {"presburger", "-"}} {
		code, out, errs := augurIn("{ [i] : 0 <= i < 4 } - { [i] : i >= 2 };\n", args...)
		if code != exitOK || errs != "" || out != "{ [i] : i >= 0 and 1 >= i }\n" {
			t.Errorf("%v: exit %d, stdout %q, stderr %q", args, code, out, errs)
		}
	}
}

func TestPresburgerFailures(t *testing.T) {
	script := "A := { [i] : i > 0 };\ndom A;\nB;\nA = A;\n"
	code, out, errs := augurIn(script, "presburger")
	if code != exitMalformed {
		t.Errorf("exit %d, want %d", code, exitMalformed)
	}
	if out != "True\n" {
		t.Errorf("stdout %q: the statements after the errors must run", out)
	}
	want := `<stdin>:2:1: dom expects a relation, found a set
    dom A;
    ^
<stdin>:3:1: unknown name "B"
    B;
    ^
augur: <stdin>: 2 of 4 statements failed
`
	if errs != want {
		t.Errorf("stderr:\n%s\nwant:\n%s", errs, want)
	}
}

func TestPresburgerBudgetAndUsage(t *testing.T) {
	code, _, errs := augurIn("{ [i, j] : 0 <= i < 100 and 0 <= j < 100 and 3i + 5j = 17 } <= { [i, j] : i > 0 };\n", "presburger", "--max-steps", "3")
	if code != exitMalformed || !strings.Contains(errs, "budget exhausted") {
		t.Errorf("small budget: exit %d, stderr %q", code, errs)
	}
	code, out, errs := augurIn("{ [i] };\n", "presburger", "--timeout", "1ns")
	if code != exitMalformed || out != "" || !strings.Contains(errs, "<stdin>:1:1: interrupted: context deadline exceeded") {
		t.Errorf("timeout: exit %d, stdout %q, stderr %q", code, out, errs)
	}
	if code, _, errs := augurIn("", "presburger", filepath.Join(t.TempDir(), "missing.iscc")); code != exitMalformed || !strings.Contains(errs, "no such file") {
		t.Errorf("missing file: exit %d, stderr %q", code, errs)
	}
	if code, _, _ := augurIn("", "presburger", "a", "b"); code != exitUsage {
		t.Errorf("two files: exit %d, want %d", code, exitUsage)
	}
}

// TestPresburgerGuide runs every example of docs/presburger.md: a
// "$ cat FILE" block defines a script, and a "$ augur presburger ..." line
// (optionally fed by "echo '...' |") is followed by what the command prints,
// standard output and standard error interleaved.
func TestPresburgerGuide(t *testing.T) {
	data, err := os.ReadFile("../../docs/presburger.md")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	var block []string
	inBlock, runs := false, 0
	for _, line := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(line, "```") {
			if inBlock {
				runs += checkGuideBlock(t, dir, block)
			}
			inBlock, block = !inBlock, nil
			continue
		}
		if inBlock {
			block = append(block, line)
		}
	}
	if runs < 6 {
		t.Errorf("checked only %d examples of the guide", runs)
	}
}

// checkGuideBlock checks the commands of one code block and returns how
// many it ran.
func checkGuideBlock(t *testing.T, dir string, lines []string) int {
	t.Helper()
	runs := 0
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		if name, ok := strings.CutPrefix(line, "$ cat "); ok {
			var script []string
			for i+1 < len(lines) && !strings.HasPrefix(lines[i+1], "$ ") {
				i++
				script = append(script, lines[i])
			}
			if err := os.WriteFile(filepath.Join(dir, name), []byte(strings.Join(script, "\n")+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		stdin := ""
		if rest, ok := strings.CutPrefix(line, "$ echo '"); ok {
			j := strings.Index(rest, "' | ")
			if j < 0 {
				t.Fatalf("unsupported example %q", line)
			}
			stdin, line = rest[:j]+"\n", "$ "+rest[j+len("' | "):]
		}
		cmdline, ok := strings.CutPrefix(line, "$ augur presburger")
		if !ok {
			continue
		}
		var want []string
		for i+1 < len(lines) && !strings.HasPrefix(lines[i+1], "$ ") {
			i++
			want = append(want, lines[i])
		}
		args := append([]string{"presburger"}, strings.Fields(cmdline)...)
		for k, a := range args {
			if strings.HasSuffix(a, ".iscc") {
				args[k] = filepath.Join(dir, a)
			}
		}
		var out bytes.Buffer
		execute(args, strings.NewReader(stdin), &out, &out)
		got := strings.ReplaceAll(out.String(), dir+string(filepath.Separator), "")
		if w := strings.Join(want, "\n") + "\n"; got != w {
			t.Errorf("%s:\n--- got\n%s--- want (docs/presburger.md)\n%s", line, got, w)
		}
		runs++
	}
	return runs
}
