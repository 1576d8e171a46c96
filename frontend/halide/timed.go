package halide

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Elapsed is a duration measured inside the driver, in seconds: of the
// driver process's CPU time (all its threads) and of wall-clock time.
type Elapsed struct {
	CPU  float64 `json:"cpu_seconds"`
	Wall float64 `json:"wall_seconds"`
}

// Add returns the sum of two durations.
func (e Elapsed) Add(f Elapsed) Elapsed { return Elapsed{e.CPU + f.CPU, e.Wall + f.Wall} }

// The phases the driver times (its --times file).
const (
	// PhaseHalideLower is stock Halide's lowering of the pipeline,
	// Pipeline::compile_to_module.
	PhaseHalideLower = "halide_lower"
	// PhaseHalideCodegen is stock Halide's code generation of the
	// lowered module into an object file, Module::compile.
	PhaseHalideCodegen = "halide_codegen"
	// PhaseCaptureLower is the translator's lowering of the pipeline up
	// to the statement it captures.
	PhaseCaptureLower = "capture_lower"
	// PhaseTranslate is the rest of the translation: the specification
	// and the annotated kernel written.
	PhaseTranslate = "translate"
)

// Times are the phases one run of the driver timed, by phase.
type Times map[string]Elapsed

// ParseTimes reads the driver's --times file: a line "PHASE CPU WALL"
// per phase, in seconds.
func ParseTimes(text string) (Times, error) {
	t := Times{}
	for i, l := range strings.Split(text, "\n") {
		if strings.TrimSpace(l) == "" {
			continue
		}
		f := strings.Fields(l)
		if len(f) != 3 {
			return nil, fmt.Errorf("line %d: %q: want PHASE CPU WALL", i+1, l)
		}
		cpu, err1 := strconv.ParseFloat(f[1], 64)
		wall, err2 := strconv.ParseFloat(f[2], 64)
		if err1 != nil || err2 != nil || cpu < 0 || wall < 0 {
			return nil, fmt.Errorf("line %d: %q: the times are not seconds", i+1, l)
		}
		if _, dup := t[f[0]]; dup {
			return nil, fmt.Errorf("line %d: phase %s timed twice", i+1, f[0])
		}
		t[f[0]] = Elapsed{cpu, wall}
	}
	return t, nil
}

func readTimes(path string) (Times, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	t, err := ParseTimes(string(b))
	if err != nil {
		return nil, fmt.Errorf("the driver's times: %w", err)
	}
	return t, nil
}

// need returns the phases of t named, or an error naming the first one
// missing.
func (t Times) need(phases ...string) error {
	for _, p := range phases {
		if _, ok := t[p]; !ok {
			return fmt.Errorf("the driver did not time %s", p)
		}
	}
	return nil
}

// HalideCompile is stock Halide's compilation of a generator's pipeline
// as the driver times it around Halide's own calls: the lowering and the
// code generation into an object file for o.Target (building the driver
// is not part of it).
type HalideCompile struct {
	Lower, Codegen Elapsed
	// ObjectBytes is the size of the object file Halide wrote.
	ObjectBytes int64
}

// Total is the lowering and the code generation.
func (c HalideCompile) Total() Elapsed { return c.Lower.Add(c.Codegen) }

// CompileTimed runs the driver to compile the pipeline with stock Halide
// (driver --halide-compile) into a temporary object file, removed
// afterwards, and returns the times of the compilation.
func CompileTimed(ctx context.Context, driver string, o Options) (*HalideCompile, error) {
	dir, err := os.MkdirTemp("", "augur-halide-compile-*")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	obj, timesFile := filepath.Join(dir, "pipeline.o"), filepath.Join(dir, "times.txt")
	if err := runDriver(ctx, driver, o, nil, nil, "--halide-compile", obj, "--times", timesFile); err != nil {
		return nil, err
	}
	t, err := readTimes(timesFile)
	if err != nil {
		return nil, err
	}
	if err := t.need(PhaseHalideLower, PhaseHalideCodegen); err != nil {
		return nil, err
	}
	fi, err := os.Stat(obj)
	if err != nil {
		return nil, fmt.Errorf("the object file Halide wrote: %w", err)
	}
	return &HalideCompile{Lower: t[PhaseHalideLower], Codegen: t[PhaseHalideCodegen], ObjectBytes: fi.Size()}, nil
}

// TranslationTimes are the driver's times of a translation.
type TranslationTimes struct {
	// Lower is the lowering for the capture, Translate the rest.
	Lower, Translate Elapsed
}

// TranslateTimed is TranslateResult, with the driver's times of the
// translation.
func TranslateTimed(ctx context.Context, driver string, o Options) (*Result, *TranslationTimes, error) {
	r, t, err := translateResult(ctx, driver, o, true)
	if err != nil {
		return nil, nil, err
	}
	if err := t.need(PhaseCaptureLower, PhaseTranslate); err != nil {
		return nil, nil, err
	}
	return r, &TranslationTimes{Lower: t[PhaseCaptureLower], Translate: t[PhaseTranslate]}, nil
}
