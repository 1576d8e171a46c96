package halide

import (
	"context"
	"os"
	"path/filepath"

	"github.com/augur-verify/augur/frontend"
)

// Translate runs the driver with the options and returns the pair it
// translates: the specification and one kernel, frontend.Prog. The driver
// writes them into a temporary directory, removed afterwards. A construct
// the translator cannot handle, or any failure of the driver, is a
// *TranslationError.
func Translate(ctx context.Context, driver string, o Options) (*frontend.Pair, error) {
	dir, err := os.MkdirTemp("", "augur-halide-*")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	if err := Emit(ctx, driver, dir, o); err != nil {
		return nil, err
	}
	pair := &frontend.Pair{Kernels: []frontend.Kernel{{Name: frontend.Prog}}}
	for _, f := range []struct {
		name string
		text *string
	}{{frontend.SpecFile, &pair.Spec}, {pair.Kernels[0].File(), &pair.Kernels[0].Text}} {
		b, err := os.ReadFile(filepath.Join(dir, f.name))
		if err != nil {
			return nil, err
		}
		*f.text = string(b)
	}
	return pair, nil
}
