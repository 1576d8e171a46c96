package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// TestBenchAppsList lists the apps' bench without Halide, and checks
// its usage errors.
func TestBenchAppsList(t *testing.T) {
	var out, errw bytes.Buffer
	if code := execute([]string{"bench", "--halide-apps", "--list", "--only", "wavelet,hist"}, nil, &out, &errw); code != 0 {
		t.Fatalf("exit %d\n%s", code, errw.String())
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 5 || !strings.HasPrefix(lines[0], "haar_x ") || !strings.HasPrefix(lines[4], "hist ") ||
		!strings.Contains(lines[4], "valid") {
		t.Errorf("--list:\n%s", out.String())
	}
	for _, args := range [][]string{
		{"bench", "--halide-apps", "--halide"},
		{"bench", "--halide-apps", "--regenerate"},
		{"bench", "--halide-apps", "--only", "nosuch"},
	} {
		out.Reset()
		errw.Reset()
		if code := execute(args, nil, &out, &errw); code != exitUsage {
			t.Errorf("augur %s: exit %d, want %d\n%s", strings.Join(args, " "), code, exitUsage, errw.String())
		}
	}
}

// TestBenchApps runs the apps' bench on one cheap app, wavelet's haar_x,
// in process and as JSON, from the repository's root: the row has
// Halide's compilation (with its runtime and without), the translation
// and the validation timed, the
// ratio, and the verdict VALID. No time is asserted.
func TestBenchApps(t *testing.T) {
	halideAvailable(t)
	t.Chdir("../..")
	var out, errw bytes.Buffer
	if code := execute([]string{"bench", "--halide-apps", "--in-process", "--json", "--only", "haar_x", "--timeout", "10m"}, nil, &out, &errw); code != 0 {
		t.Fatalf("exit %d\n%s%s", code, out.String(), errw.String())
	}
	type elapsed struct {
		CPU  float64 `json:"cpu_seconds"`
		Wall float64 `json:"wall_seconds"`
	}
	var res struct {
		Summary struct{ Run, Verdicts, Mismatches int }
		Results []struct {
			Name, Outcome, Documented string
			Halide                    *struct {
				Lower, Codegen elapsed
				ObjectBytes    int64
			} `json:"halide_compile"`
			NoRuntime   *struct{ Lower, Codegen elapsed } `json:"halide_compile_no_runtime"`
			Translation *struct{ Lower, Translate elapsed }
			Validation  elapsed
			Phases      []struct{ Phase string }
			Conditions  int
			Ratio       float64
			RatioWall   float64 `json:"ratio_wall"`
		}
	}
	if err := json.Unmarshal(out.Bytes(), &res); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	if len(res.Results) != 1 || res.Summary.Run != 1 || res.Summary.Verdicts != 1 || res.Summary.Mismatches != 0 {
		t.Fatalf("%+v\n%s", res, out.String())
	}
	r := res.Results[0]
	if r.Name != "haar_x" || r.Outcome != "valid" || r.Documented != "valid" {
		t.Errorf("row %s: %s, documented %s, want haar_x: valid, documented valid", r.Name, r.Outcome, r.Documented)
	}
	if r.Halide == nil || r.Halide.Lower.CPU <= 0 || r.Halide.Codegen.Wall <= 0 || r.Halide.ObjectBytes <= 0 {
		t.Errorf("Halide's compilation: %+v", r.Halide)
	}
	if r.NoRuntime == nil || r.NoRuntime.Codegen.Wall <= 0 {
		t.Errorf("Halide's compilation without its runtime: %+v", r.NoRuntime)
	}
	if r.Translation == nil || r.Translation.Lower.Wall <= 0 || r.Translation.Translate.Wall <= 0 {
		t.Errorf("the translation: %+v", r.Translation)
	}
	if r.Validation.Wall <= 0 || len(r.Phases) == 0 || r.Conditions == 0 || r.Ratio <= 0 || r.RatioWall <= 0 {
		t.Errorf("the validation: %+v, %d phases, %d conditions, ratios %v, %v", r.Validation, len(r.Phases), r.Conditions, r.Ratio, r.RatioWall)
	}
}
