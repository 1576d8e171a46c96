package sare

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/augur-verify/augur/syntax"
)

var errorComment = regexp.MustCompile(`# ERROR ("(?:[^"\\]|\\.)*")`)

// TestAnnotated checks the specifications of testdata/check in the style
// of go/types: each expected error is written as # ERROR "substring" on
// the line it must be reported on. Every annotation must match an error on
// its line, and every error must match an annotation.
func TestAnnotated(t *testing.T) {
	files, err := filepath.Glob("testdata/check/*.sare")
	if err != nil || len(files) == 0 {
		t.Fatalf("no annotated tests: %v", err)
	}
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		want := map[int][]string{}
		for i, line := range strings.Split(string(data), "\n") {
			for _, m := range errorComment.FindAllStringSubmatch(line, -1) {
				s, err := strconv.Unquote(m[1])
				if err != nil {
					t.Fatalf("%s:%d: bad annotation %s", file, i+1, m[1])
				}
				want[i+1] = append(want[i+1], s)
			}
		}
		spec, errs := Parse(&syntax.Source{Name: file, Text: string(data)})
		if len(errs) == 0 {
			_, errs = Check(spec)
		}
		for _, e := range errs {
			line := e.Pos.Line
			matched := -1
			for k, s := range want[line] {
				if strings.Contains(e.Msg, s) {
					matched = k
					break
				}
			}
			if matched < 0 {
				t.Errorf("unexpected error: %s", e)
				continue
			}
			want[line] = append(want[line][:matched], want[line][matched+1:]...)
		}
		for line, ss := range want {
			for _, s := range ss {
				t.Errorf("%s:%d: missing error %q", file, line, s)
			}
		}
	}
}
