package bench

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/augur-verify/augur/frontend/halide"
	"github.com/augur-verify/augur/validate"
)

// TestApps checks the apps' table: every app of docs/halide.md's app
// table that translates is there once, its sources exist, its target is
// the suite's, and it has a documented verdict.
func TestApps(t *testing.T) {
	apps := Apps()
	var names []string
	for _, a := range apps {
		if slices.Contains(names, a.Name) {
			t.Errorf("%s twice", a.Name)
		}
		names = append(names, a.Name)
		for _, s := range a.Sources {
			if _, err := os.Stat(filepath.Join("..", filepath.FromSlash(s))); err != nil {
				t.Errorf("%s: %v", a.Name, err)
			}
		}
		if !strings.HasPrefix(a.Target, SuiteTarget) {
			t.Errorf("%s: target %s, want the suite's", a.Name, a.Target)
		}
		if !slices.Contains([]validate.Verdict{validate.Valid, validate.Invalid, validate.Unknown}, a.Documented) {
			t.Errorf("%s: documented verdict %q", a.Name, a.Documented)
		}
	}
	for _, want := range []string{"blur", "conv_layer", "dsc", "harris", "iir_blur", "interpolate3", "interpolate5",
		"sgemm", "sgemv", "sgemvT", "sger", "saxpy", "sasum", "sdot", "sdot_vec", "nl_means", "sc1", "sc32", "unsharp",
		"haar_x", "daubechies_x", "inverse_haar_x", "inverse_daubechies_x", "fft", "fft_complex", "bilateral_grid",
		"local_laplacian", "resize", "camera_pipe", "hist", "lens_blur", "bgu", "max_filter"} {
		if !slices.Contains(names, want) {
			t.Errorf("no app %s", want)
		}
	}
	if len(names) != 33 {
		t.Errorf("%d apps, want 33: %v", len(names), names)
	}
}

// TestSelectApps selects apps by their names and by Halide's app, in the
// table's order, and rejects unknown names.
func TestSelectApps(t *testing.T) {
	got, err := SelectApps(Apps(), []string{"haar_x", " blur", "linear_algebra"})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, a := range got {
		names = append(names, a.Name)
	}
	want := "sdot sdot_vec sasum saxpy sger blur haar_x sgemm sgemv sgemvT"
	if strings.Join(names, " ") != want {
		t.Errorf("selected %v, want %s", names, want)
	}
	// A row's name wins over Halide's app of the same name.
	if fft, err := SelectApps(Apps(), []string{"fft"}); err != nil || len(fft) != 1 || fft[0].Name != "fft" {
		t.Errorf("fft: %v, %v", fft, err)
	}
	if _, err := SelectApps(Apps(), []string{"blur", "nosuch", "other"}); err == nil || !strings.Contains(err.Error(), "no app nosuch, other") {
		t.Errorf("unknown names: %v", err)
	}
	if all, err := SelectApps(Apps(), nil); err != nil || len(all) != len(Apps()) {
		t.Errorf("no names: %d apps, %v", len(all), err)
	}
	for name, want := range map[string]string{"local_laplacian": "pyramid_levels=2", "bgu": "s_sigma=2", "max_filter": "radius=3", "lens_blur": ""} {
		got, err := SelectApps(Apps(), []string{name})
		if err != nil || len(got) != 1 || got[0].ParamList() != want {
			t.Errorf("%s: %v, %v, want the params %q", name, got, err, want)
		}
	}
}

// TestAppResultFinish derives the ratios and the mismatches.
func TestAppResultFinish(t *testing.T) {
	compile := &halide.HalideCompile{Lower: halide.Elapsed{CPU: 1, Wall: 2}, Codegen: halide.Elapsed{CPU: 3, Wall: 2}}
	for _, c := range []struct {
		outcome    string
		documented validate.Verdict
		mismatch   bool
	}{
		{"valid", validate.Valid, false},
		{"invalid", validate.Valid, true},
		{"valid", validate.Invalid, true},
		{"valid", validate.Unknown, false},
		{"unknown", validate.Valid, false},
		{NoVerdict, validate.Valid, false},
		{NotTranslated, validate.Valid, true},
		{Failed, validate.Unknown, true},
		{"error", validate.Unknown, true},
	} {
		r := &AppResult{App: App{Name: "x", Documented: c.documented}, Outcome: c.outcome, Halide: compile,
			Validation: halide.Elapsed{CPU: 2, Wall: 8}}
		r.finish()
		if r.Mismatch != c.mismatch {
			t.Errorf("%s documented %s: mismatch %v", c.outcome, c.documented, r.Mismatch)
		}
		if r.Ratio != 0.5 || r.RatioWall != 2 {
			t.Errorf("ratios %v, %v, want 0.5, 2", r.Ratio, r.RatioWall)
		}
	}
	r := &AppResult{Outcome: Failed}
	r.finish()
	if r.Ratio != 0 || r.RatioWall != 0 {
		t.Errorf("no times: ratios %v, %v", r.Ratio, r.RatioWall)
	}
}

// TestWriteAppTable prints results as the table, counts and reasons.
func TestWriteAppTable(t *testing.T) {
	compile := &halide.HalideCompile{Lower: halide.Elapsed{CPU: 0.25, Wall: 0.5}, Codegen: halide.Elapsed{CPU: 0.75, Wall: 1.5}}
	tr := &halide.TranslationTimes{Lower: halide.Elapsed{CPU: 0.1, Wall: 0.1}, Translate: halide.Elapsed{CPU: 0.05, Wall: 0.05}}
	results := []*AppResult{
		{App: App{Name: "haar_x", Documented: validate.Valid}, Outcome: "valid", Halide: compile, Translation: tr,
			HalidePipeline: &halide.HalideCompile{Lower: halide.Elapsed{CPU: 0.25, Wall: 0.5}, Codegen: halide.Elapsed{CPU: 0.15, Wall: 0.2}},
			Validation:     halide.Elapsed{CPU: 0.5, Wall: 0.4}},
		{App: App{Name: "hist", Documented: validate.Unknown}, Outcome: NoVerdict, Reason: "stopped at the guard of 10m0s",
			Halide: compile, Translation: tr, Validation: halide.Elapsed{CPU: 700, Wall: 600}},
		{App: App{Name: "nl_means", Documented: validate.Invalid}, Outcome: "invalid", Reason: "undefined value stored",
			Halide: compile, Translation: tr, Validation: halide.Elapsed{CPU: 3, Wall: 2}, Confirm: &halide.Elapsed{CPU: 1.5, Wall: 2}},
		{App: App{Name: "bgu", Documented: validate.Valid}, Outcome: NotTranslated, Reason: "the call fast_inverse_f32"},
	}
	for _, r := range results {
		r.finish()
	}
	var b bytes.Buffer
	if err := WriteAppTable(&b, results); err != nil {
		t.Fatal(err)
	}
	want := `| app      | verdict                 | documented | Halide lower | Halide codegen | Halide compile | no runtime | capture lower | translate | validate | validate wall | confirm | ratio | ratio wall | ratio no runtime |
| -------- | ----------------------- | ---------- | ------------ | -------------- | -------------- | ---------- | ------------- | --------- | -------- | ------------- | ------- | ----- | ---------- | ---------------- |
| haar_x   | VALID                   | VALID      | 0.25         | 0.75           | 1.00           | 0.40       | 0.10          | 0.05      | 0.50     | 0.40          |         | 0.50  | 0.20       | 1.25             |
| hist     | no verdict (time bound) | UNKNOWN    | 0.25         | 0.75           | 1.00           |            | 0.10          | 0.05      | >700     | >600          |         | >700  | >300       |                  |
| nl_means | INVALID                 | INVALID    | 0.25         | 0.75           | 1.00           |            | 0.10          | 0.05      | 3.00     | 2.00          | 2.00    | 3.00  | 1.00       |                  |
| ! bgu    | not translated          | VALID      |              |                |                |            |               |           |          |               |         |       |            |                  |

4 apps: 2 with a verdict, 1 of them validated in less CPU time than Halide's compilation (0 than without its runtime); 1 without a verdict; 1 mismatched
(seconds of CPU time, user and system, but the wall-clock columns, validate wall and confirm; ratio: validation / Halide's compilation)

  hist: no verdict (time bound): stopped at the guard of 10m0s
  nl_means: INVALID: undefined value stored
  bgu: not translated: the call fast_inverse_f32
`
	if b.String() != want {
		t.Errorf("table:\n%s\nwant:\n%s", b.String(), want)
	}
}

// TestDerivedHypotheses: the bench validates an app with the hypotheses
// that its derived parameters equal their computations, as augur halide
// --validate does, each parsed from the driver's line; a computation
// that does not parse is an error, not a free parameter.
func TestDerivedHypotheses(t *testing.T) {
	hs, err := DerivedHypotheses([]halide.DerivedParam{
		{Name: "r_sigma_int", Def: "i32(max(f32(1.0) / r_sigma(), f32(0.0)))"},
		{Name: "r_sigma_int_2", Def: "i32(round(min(f32(1.0) / r_sigma(), f32(0.0))))"},
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(hs) != 2 || hs[0].Param != "r_sigma_int" || hs[1].Param != "r_sigma_int_2" || hs[0].Def == nil {
		t.Errorf("hypotheses %+v", hs)
	}
	if hs, err := DerivedHypotheses(nil); err != nil || hs != nil {
		t.Errorf("no derived parameters: %v, %v", hs, err)
	}
	if _, err := DerivedHypotheses([]halide.DerivedParam{{Name: "n", Def: "i32(1.0 /"}}); err == nil || !strings.Contains(err.Error(), "the computation of n") {
		t.Errorf("a malformed computation: %v", err)
	}
}
