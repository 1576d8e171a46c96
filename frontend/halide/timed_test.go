package halide

import (
	"strings"
	"testing"
)

// TestParseTimes reads the driver's --times file and rejects malformed
// ones.
func TestParseTimes(t *testing.T) {
	got, err := ParseTimes("halide_lower 0.5 0.75\n\nhalide_codegen 1e-3 2\n")
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[PhaseHalideLower] != (Elapsed{0.5, 0.75}) || got[PhaseHalideCodegen] != (Elapsed{0.001, 2}) {
		t.Errorf("got %v", got)
	}
	if err := got.need(PhaseHalideLower, PhaseCaptureLower); err == nil || !strings.Contains(err.Error(), "capture_lower") {
		t.Errorf("need: %v", err)
	}
	if c := (HalideCompile{Lower: got[PhaseHalideLower], Codegen: got[PhaseHalideCodegen]}).Total(); c != (Elapsed{0.501, 2.75}) {
		t.Errorf("total %v", c)
	}
	for _, bad := range []string{"halide_lower 0.5", "halide_lower x 1", "halide_lower -1 1", "translate 1 1\ntranslate 2 2"} {
		if _, err := ParseTimes(bad); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}
