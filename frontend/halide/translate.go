package halide

import (
	"context"
	"os"
	"path/filepath"

	"github.com/augur-verify/augur/frontend"
)

// Result is a translation: the Pair, and what only the Halide front end
// knows of it.
type Result struct {
	frontend.Pair
	// Derived are the integer parameters computed from float inputs, in
	// the order the specification declares them.
	Derived []DerivedParam
	// IndexChecks are, at --stage final, the index overflow obligations
	// of Halide's final statement (decided by validate.CheckIndexes).
	IndexChecks []frontend.IndexObligation
}

// TranslateResult runs the driver with the options and returns its
// translation: the pair (as Translate) and its derived parameters. The
// driver writes them into a temporary directory, removed afterwards. A
// construct the translator cannot handle, or any failure of the driver,
// is a *TranslationError.
func TranslateResult(ctx context.Context, driver string, o Options) (*Result, error) {
	r, _, err := translateResult(ctx, driver, o, false)
	return r, err
}

// translateResult is TranslateResult, and with timed the driver's times
// of its phases (see Times).
func translateResult(ctx context.Context, driver string, o Options, timed bool) (*Result, Times, error) {
	dir, err := os.MkdirTemp("", "augur-halide-*")
	if err != nil {
		return nil, nil, err
	}
	defer os.RemoveAll(dir)
	derived := filepath.Join(dir, "derived.txt")
	args := []string{"-o", dir, "--derived", derived}
	timesFile := filepath.Join(dir, "times.txt")
	if timed {
		args = append(args, "--times", timesFile)
	}
	if err := runDriver(ctx, driver, o, nil, nil, args...); err != nil {
		return nil, nil, err
	}
	r := &Result{Pair: frontend.Pair{Kernels: []frontend.Kernel{{Name: frontend.Prog}}}}
	for _, f := range []struct {
		name string
		text *string
	}{{frontend.SpecFile, &r.Spec}, {r.Kernels[0].File(), &r.Kernels[0].Text}} {
		b, err := os.ReadFile(filepath.Join(dir, f.name))
		if err != nil {
			return nil, nil, err
		}
		*f.text = string(b)
	}
	if r.Derived, err = ReadDerived(derived); err != nil {
		return nil, nil, err
	}
	if r.IndexChecks, err = readIndexChecks(filepath.Join(dir, "index.json")); err != nil {
		return nil, nil, err
	}
	if !timed {
		return r, nil, nil
	}
	times, err := readTimes(timesFile)
	return r, times, err
}

// Translate runs the driver with the options and returns the pair it
// translates: the specification and one kernel, frontend.Prog
// (TranslateResult also returns its derived parameters). A construct the
// translator cannot handle, or any failure of the driver, is a
// *TranslationError.
func Translate(ctx context.Context, driver string, o Options) (*frontend.Pair, error) {
	r, err := TranslateResult(ctx, driver, o)
	if err != nil {
		return nil, err
	}
	return &r.Pair, nil
}
