package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/augur-verify/augur/api"
)

// TestCheckGolden runs augur check over pairs of well-formed, malformed
// and missing files (testdata/check) and compares what it prints, the
// order of the errors and the exit status with check.golden: a kernel
// against a malformed or missing specification is parsed but not
// type-checked, and that note is not counted as an error. augur validate
// must print exactly the same for every malformed pair.
func TestCheckGolden(t *testing.T) {
	dir := filepath.Join("testdata", "check")
	cases := [][]string{
		{"bad.sare", "bad.sched"}, {"bad.sare", "syn.sched"}, {"missing.sare", "bad.sched"},
		{"missing.sare", "syn.sched"}, {"bad.sare", "missing.sched"}, {"good.sare", "syn.sched"},
		{"good.sare", "good.sched"}, {"good.sare", "bad.sched"}, {"bad.sare"},
		{"bad.sare", "good.sched"}, {"missing.sare", "good.sched"}, {"good.sare", "typ.sched"},
		{"good.sare", "bin.sched"}, {"latin1.sare", "good.sched"}, {"latin1.sare", "bin.sched"},
	}
	var got []string
	for _, c := range cases {
		args := []string{"check"}
		for _, f := range c {
			args = append(args, filepath.Join(dir, f))
		}
		code, out, errs := augur(args...)
		text := strings.ReplaceAll(out+errs, dir+string(filepath.Separator), "")
		got = append(got, fmt.Sprintf("$ augur check %s\n%s[exit %d]\n", strings.Join(c, " "), text, code))
		// augur validate reports malformed input as augur check does:
		// the same lines on the same stream, with the same codes.
		if code != exitOK && len(c) == 2 {
			args[0] = "validate"
			vcode, vout, verrs := augur(args...)
			if vcode != code || vout != out || verrs != errs {
				t.Errorf("augur validate %s: exit %d, stdout %q, stderr\n%s\nwant exit %d, stdout %q, stderr\n%s",
					strings.Join(c, " "), vcode, vout, verrs, code, out, errs)
			}
		}
	}
	golden := filepath.Join(dir, "check.golden")
	if *update {
		if err := os.WriteFile(golden, []byte(strings.Join(got, "\n")), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if g := strings.Join(got, "\n"); g != string(want) {
		t.Errorf("augur check printed\n%s\nwant (%s)\n%s", g, golden, want)
	}
}

// hasDiagnostic reports whether out holds a diagnostic as the command
// line prints them: at (file:line:col, the file's directory left out),
// the message, the code in brackets, then the source line and a caret
// under the column. The wording of the message is not matched.
func hasDiagnostic(out, at, code string) bool {
	_, col, _ := strings.Cut(at[strings.Index(at, ":")+1:], ":")
	n, err := strconv.Atoi(col)
	if err != nil || n < 1 {
		return false
	}
	re := regexp.MustCompile(`(?m)^(?:.*[/\\])?` + regexp.QuoteMeta(at) + `: .+ \[` + regexp.QuoteMeta(code) + `\]\n    .*\n    ` + strings.Repeat(`[ \t]`, n-1) + `\^$`)
	return re.MatchString(out)
}

// Every command that reads a specification or a kernel refuses a file
// that is not text in one line, without echoing its bytes.
func TestBinaryInput(t *testing.T) {
	dir := filepath.Join("testdata", "check")
	good, bin := filepath.Join(dir, "good.sare"), filepath.Join(dir, "bin.sched")
	want := bin + ": not a text file (NUL byte at offset 13) [not-text]\n1 error\n"
	for _, args := range [][]string{
		{"check", good, bin},
		{"validate", good, bin},
		{"run", good, bin, "--param", "N=4"},
	} {
		code, out, errs := augur(args...)
		if code != exitMalformed || out != "" || errs != want {
			t.Errorf("augur %s: exit %d, stdout %q, stderr %q; want %q", args[0], code, out, errs, want)
		}
	}
	code, out, _ := augur("validate", "--json", good, bin)
	if code != exitMalformed || !strings.Contains(out, `"code": "not-text"`) || strings.Contains(out, "pwned") {
		t.Errorf("validate --json: exit %d\n%s", code, out)
	}
	srv, _ := testServer(t, api.Config{}, false)
	code, out, errs := augur("submit", "--server", srv.URL, good, bin)
	if code != exitMalformed || !strings.Contains(out, "bin.sched: not a text file (NUL byte at offset 13)") || strings.ContainsRune(out+errs, 0x1b) {
		t.Errorf("submit: exit %d\n%q%q", code, out, errs)
	}
}
