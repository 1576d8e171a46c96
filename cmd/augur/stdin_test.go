package main

import (
	"bytes"
	"os"
	"strings"
	"testing"
)

// augur validate reads one of its files from standard input as "-".
func TestValidateStdin(t *testing.T) {
	prog, err := os.ReadFile("../../examples/blur/broken_wrong_row.sched")
	if err != nil {
		t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	code := execute([]string{"validate", "../../examples/blur/blur.sare", "-"}, bytes.NewReader(prog), &out, &errOut)
	if code != 1 || !strings.HasPrefix(out.String(), "INVALID: annotation mismatch") || !strings.Contains(out.String(), "<stdin>:17:9:") {
		t.Errorf("kernel on stdin: exit %d\n%s%s", code, out.String(), errOut.String())
	}
	spec, _ := os.ReadFile("../../examples/blur/blur.sare")
	out.Reset()
	code = execute([]string{"validate", "-", "../../examples/blur/blur.sched"}, bytes.NewReader(spec), &out, &errOut)
	if code != 0 || !strings.HasPrefix(out.String(), "VALID:") {
		t.Errorf("specification on stdin: exit %d\n%s", code, out.String())
	}
	if code, _, errOut := augur("validate", "-", "-"); code != 3 || !strings.Contains(errOut, "only one of the files") {
		t.Errorf("both on stdin: exit %d %s", code, errOut)
	}
}
