package bench

import (
	"fmt"
	"slices"
	"strings"

	"github.com/augur-verify/augur/validate"
)

// App is one of Halide's apps (its repository's apps/ at tag v14.0.0, with
// its own CPU schedule) as the Halide front end translates and validates
// it: a generator built from sources of this repository, with the
// GeneratorParams and the target of docs/halide.md's app table ("Halide's
// apps, app by app").
type App struct {
	// Name names the row: the generator, or the app's variant (sc32,
	// interpolate3, fft_complex).
	Name string `json:"name"`
	// App is Halide's app the generator comes from (apps/APP).
	App string `json:"app"`
	// Sources are the generator's C++ sources, relative to the
	// repository's root; the first registers the generator.
	Sources   []string          `json:"sources"`
	Generator string            `json:"generator"`
	Params    map[string]string `json:"params,omitempty"`
	Target    string            `json:"target"`
	// Documented is the verdict docs/halide.md's app table gives for it,
	// in the real value model.
	Documented validate.Verdict `json:"documented"`
}

// strictTarget is the suite's target with strict_float (Halide folds no
// float constants).
const strictTarget = SuiteTarget + "-strict_float"

// appsDir holds the apps' generators, relative to the repository's root.
const appsDir = "frontend/halide/apps/"

// app is an App of one source under appsDir, named after it, for
// SuiteTarget, with params given as key=value.
func app(halideApp, file string, documented validate.Verdict, params ...string) App {
	a := App{Name: file, App: halideApp, Sources: []string{appsDir + file + ".cpp"}, Generator: file,
		Target: SuiteTarget, Documented: documented}
	if len(params) > 0 {
		a.Params = map[string]string{}
	}
	for _, p := range params {
		k, v, _ := strings.Cut(p, "=")
		a.Params[k] = v
	}
	return a
}

// named renames an app (a variant of its generator).
func (a App) named(name string) App { a.Name = name; return a }

// at sets an app's target.
func (a App) at(target string) App { a.Target = target; return a }

// Apps returns the apps that translate, cheapest to validate first (by
// the times docs/halide.md reports). The slice is new on every call.
func Apps() []App {
	const la, wavelet = "linear_algebra", "wavelet"
	valid, invalid, unknown := validate.Valid, validate.Invalid, validate.Unknown
	fft := App{Name: "fft", App: "fft", Generator: "fft", Target: SuiteTarget, Documented: valid,
		Sources: []string{"frontend/halide/testdata/fft/fft_generator.cpp", "frontend/halide/testdata/fft/fft.cpp"},
		Params:  map[string]string{"size0": "16", "size1": "16"}}
	fftComplex := fft.named("fft_complex")
	fftComplex.Params = map[string]string{"size0": "16", "size1": "16", "input_number_type": "complex", "output_number_type": "complex"}
	return []App{
		app(la, "sdot", valid),
		app(la, "sdot", valid, "vectorize=true").named("sdot_vec"),
		app(la, "sasum", valid),
		app(la, "saxpy", valid),
		app(la, "sger", valid),
		app("blur", "blur", valid),
		app("stencil_chain", "stencil_chain", valid, "stencils=1").named("sc1"),
		app("conv_layer", "conv_layer", valid),
		app("unsharp", "unsharp", valid).at(strictTarget),
		app(wavelet, "haar_x", valid),
		app(wavelet, "daubechies_x", valid),
		app(wavelet, "inverse_daubechies_x", valid),
		app("harris", "harris", valid).at(strictTarget),
		app(la, "sgemm", valid),
		app("bilateral_grid", "bilateral_grid", unknown, "s_sigma=2"),
		app("nl_means", "nl_means", invalid).at(strictTarget),
		app("depthwise_separable_conv", "depthwise_separable_conv", valid, "channel_multiplier=3").named("dsc"),
		app("stencil_chain", "stencil_chain", valid, "stencils=32").named("sc32"),
		app("iir_blur", "iir_blur", valid),
		fftComplex,
		fft,
		app(wavelet, "inverse_haar_x", valid),
		app("resize", "resize", unknown, "interpolation_type=linear", "input.type=uint8", "output.type=uint8"),
		app(la, "sgemv", valid),
		app(la, "sgemv", unknown, "transpose=true").named("sgemvT"),
		app("interpolate", "interpolate", unknown, "levels=3").named("interpolate3"),
		app("interpolate", "interpolate", unknown, "levels=5").named("interpolate5"),
		app("camera_pipe", "camera_pipe", unknown),
		app("local_laplacian", "local_laplacian", unknown, "pyramid_levels=2").at(strictTarget),
		app("hist", "hist", valid),
		app("lens_blur", "lens_blur", unknown).at(strictTarget),
		app("bgu", "bgu", unknown, "s_sigma=2"),
		app("max_filter", "max_filter", unknown, "radius=3"),
	}
}

// SelectApps keeps the apps named in only (all when only is empty), in
// the table's order; a name is a row's, else Halide's app's
// (linear_algebra: every generator of it; fft names the row, not
// fft_complex too). Unknown names are an error.
func SelectApps(apps []App, only []string) ([]App, error) {
	want := map[string]bool{}
	for _, n := range only {
		if n = strings.TrimSpace(n); n != "" {
			want[n] = true
		}
	}
	if len(want) == 0 {
		return apps, nil
	}
	rows := map[string]bool{}
	for _, a := range apps {
		rows[a.Name] = true
	}
	seen := map[string]bool{}
	var out []App
	for _, a := range apps {
		if want[a.Name] || (want[a.App] && !rows[a.App]) {
			seen[a.Name], seen[a.App] = true, true
			out = append(out, a)
		}
	}
	if unknown := unseen(want, seen); unknown != "" {
		return nil, fmt.Errorf("no app %s in the table", unknown)
	}
	return out, nil
}

// ParamList renders an app's GeneratorParams as key=value, sorted, joined
// by spaces.
func (a App) ParamList() string {
	var ps []string
	for k, v := range a.Params {
		ps = append(ps, k+"="+v)
	}
	slices.Sort(ps)
	return strings.Join(ps, " ")
}
