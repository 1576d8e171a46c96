package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestCheckGolden runs augur check over pairs of well-formed, malformed
// and missing files (testdata/check) and compares what it prints, the
// order of the errors and the exit status with check.golden: a kernel
// against a malformed or missing specification is parsed but not
// type-checked, and that note is not counted as an error.
func TestCheckGolden(t *testing.T) {
	dir := filepath.Join("testdata", "check")
	cases := [][]string{
		{"bad.sare", "bad.sched"}, {"bad.sare", "syn.sched"}, {"missing.sare", "bad.sched"},
		{"missing.sare", "syn.sched"}, {"bad.sare", "missing.sched"}, {"good.sare", "syn.sched"},
		{"good.sare", "good.sched"}, {"good.sare", "bad.sched"}, {"bad.sare"},
		{"bad.sare", "good.sched"}, {"missing.sare", "good.sched"}, {"good.sare", "typ.sched"},
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
