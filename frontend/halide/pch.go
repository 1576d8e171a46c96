package halide

import (
	"context"
	"os"
	"path/filepath"
)

// precompiled returns a directory of the cache holding a copy of Halide.h
// and Halide.h.gch, Halide.h precompiled with the flags every generator
// is compiled with, built on first use; "" when it cannot be built.
//
// A generator's compilation puts that directory first on its include
// path (pchFlags): GCC then loads the precompiled header instead of
// parsing Halide.h's million characters, when the generator includes
// it first and its flags match (a generator with a -std or -D of its
// own); otherwise GCC takes the copy beside it, the same text as the
// installed Halide.h. The objects are the same either way, so the
// precompiled header is not part of any build's key; a compiler that
// does not know precompiled headers ignores the .gch file. The
// translator's sources include Halide.h from a header, where GCC does not
// use a precompiled header, and are built once per content anyway.
func (t Toolchain) precompiled(ctx context.Context) string {
	k, err := t.key([]byte("precompiled Halide.h"))
	if err != nil {
		return ""
	}
	dir := filepath.Join(t.CacheDir, "pch-"+k)
	header, err := cached(filepath.Join(dir, "Halide.h"), func(tmp string) error {
		b, err := os.ReadFile(filepath.Join(t.Include, "Halide.h"))
		if err != nil {
			return err
		}
		return os.WriteFile(tmp, b, 0o644)
	})
	if err != nil {
		return ""
	}
	_, err = cached(header+".gch", func(tmp string) error {
		t.progress("precompiling Halide.h (first run, cached afterwards)")
		return run(ctx, dir, t.CXX, t.cxxFlags("-x", "c++-header", header, "-o", tmp)...)
	})
	if err != nil {
		return ""
	}
	return dir
}

// pchFlags puts the directory of the precompiled header, if any, first
// on the include path.
func pchFlags(dir string) []string {
	if dir == "" {
		return nil
	}
	return []string{"-I", dir}
}
