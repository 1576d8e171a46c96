package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/augur-verify/augur/validate"
)

// TestHalideIndexOverflow checks augur halide --validate at --stage final
// on the index overflow of testdata/final's final_index with its mins
// free: the kernel is VALID, but the int32 indices of both the load of
// input and the store to out may overflow (dimension 1), so the verdict
// is UNKNOWN (exit 2) naming the first, in JSON with its checks, and
// index.json holds the obligations;
// --assume-no-index-overflow keeps VALID (exit 0) and says what it
// assumes. With the mins constrained to 0, every index is proved: VALID.
func TestHalideIndexOverflow(t *testing.T) {
	halideAvailable(t)
	src := filepath.Join("..", "..", "frontend", "halide", "testdata", "final", "final.cpp")
	run := func(freeMin string, extra ...string) (int, string, string) {
		dir := t.TempDir()
		args := append([]string{"halide", src, "-g", "final_index", "--param", "free_min=" + freeMin, "-o", dir, "--stage", "final",
			"--validate", "--target", "x86-64-linux-avx-avx2-f16c-fma-sse41"}, extra...)
		var out, errw bytes.Buffer
		code := execute(args, nil, &out, &errw)
		return code, out.String(), dir
	}
	code, out, dir := run("true", "--json")
	var rep validate.Report
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("the standard output is not a report: %v\n%s", err, out)
	}
	if code != exitUnknown || rep.Verdict != validate.Unknown || !strings.HasPrefix(rep.Reason, validate.IndexOverflowReason) ||
		!strings.Contains(rep.Reason, "outside int32 (input's dimension 1)") || len(rep.IndexChecks) != 2 {
		t.Errorf("mins free: exit %d, %s (%s), %d checks; want exit %d, unknown naming the load of input's dimension 1, 2 checks", code, rep.Verdict, rep.Reason, len(rep.IndexChecks), exitUnknown)
	}
	for _, c := range rep.IndexChecks {
		if c.Result != validate.IndexOverflows || c.Dimension != 1 || len(c.Witness) == 0 {
			t.Errorf("mins free: %s (dimension %d); want an overflow in dimension 1 with a witness", c, c.Dimension)
		}
	}
	if b, err := os.ReadFile(filepath.Join(dir, "index.json")); err != nil || !strings.Contains(string(b), `"buffer": "out"`) {
		t.Errorf("index.json: %v\n%s", err, b)
	}
	code, out, _ = run("true", "--assume-no-index-overflow")
	if code != exitOK || !strings.Contains(out, "\nVALID: ") || !strings.Contains(out, "index overflow: 0 of 2 accesses' indices proved within their types; the verdict assumes the others do not overflow") {
		t.Errorf("mins free, assumed: exit %d; want %d, VALID assuming no overflow:\n%s", code, exitOK, out)
	}
	code, out, _ = run("false")
	if code != exitOK || !strings.Contains(out, "index overflow: 2 of 2 accesses' indices proved") {
		t.Errorf("mins 0: exit %d; want %d, every index proved:\n%s", code, exitOK, out)
	}
}
