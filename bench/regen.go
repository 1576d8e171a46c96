package bench

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"

	"github.com/augur-verify/augur/frontend/halide"
)

// Regenerate rebuilds the checked-in pairs of the given Halide benchmarks
// with stock Halide: each generator of appsDir (halide/apps) is compiled
// with the Halide front end (package halide, toolchain tc) and run for the
// benchmark's GeneratorParams and target, writing outDir/NAME/spec.sare
// and prog.sched (outDir is the package's halide/ directory). Benchmarks
// known not to translate are tried too: their failure is reported on log
// and is not an error. Generators are built one at a time.
func Regenerate(ctx context.Context, tc halide.Toolchain, appsDir, outDir string, suite []Benchmark, log io.Writer) error {
	if err := tc.Available(); err != nil {
		return fmt.Errorf("regenerating the Halide pairs: %w", err)
	}
	drivers := map[string]string{}
	var errs []error
	for _, b := range suite {
		if b.Kind != Halide {
			continue
		}
		h := b.Halide
		d, ok := drivers[h.File]
		if !ok {
			var err error
			d, err = tc.Driver(ctx, filepath.Join(appsDir, h.File))
			if err != nil {
				errs = append(errs, fmt.Errorf("%s: building %s: %w", b.Name, h.File, err))
				continue
			}
			drivers[h.File] = d
		}
		if err := regenerate(ctx, d, outDir, b); err != nil {
			var te *halide.TranslationError
			if b.Untranslated != "" && errors.As(err, &te) {
				fmt.Fprintf(log, "%s: not translated, as expected: %v\n", b.Name, err)
				continue
			}
			errs = append(errs, err)
			continue
		}
		if b.Untranslated != "" {
			fmt.Fprintf(log, "%s: translated, although the suite says it is not (%s): update bench/suite.go\n", b.Name, b.Untranslated)
			continue
		}
		fmt.Fprintf(log, "%s: wrote %s\n", b.Name, filepath.Join(outDir, b.Name))
	}
	return errors.Join(errs...)
}

func regenerate(ctx context.Context, driver, outDir string, b Benchmark) error {
	h := b.Halide
	pair, err := halide.Translate(ctx, driver, halide.Options{Generator: h.Generator, Params: h.Params, Target: h.Target()})
	if err != nil {
		return fmt.Errorf("%s: %w", b.Name, err)
	}
	if h.Edit != nil {
		if pair.Spec, err = h.Edit(pair.Spec); err != nil {
			return err
		}
	}
	if _, err := pair.Write(filepath.Join(outDir, b.Name)); err != nil {
		return fmt.Errorf("%s: %w", b.Name, err)
	}
	return nil
}
