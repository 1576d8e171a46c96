package halide

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/augur-verify/augur/frontend"
)

// TestHistogram translates testdata/hist: a histogram's update writes
// at a data-dependent index (Clément 2022, section 9.6.3).
func TestHistogram(t *testing.T) {
	tc := toolchain(t)
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Minute)
	defer cancel()
	d, err := tc.Driver(ctx, filepath.Join("testdata", "hist", "hist.cpp"))
	if err != nil {
		t.Fatal(err)
	}
	pair, err := Translate(ctx, d, Options{})
	if err != nil {
		t.Fatal(err)
	}
	spec, prog := pair.Spec, pair.Kernel(frontend.Prog).Text
	t.Logf("%s\n%s", spec, prog)
}
