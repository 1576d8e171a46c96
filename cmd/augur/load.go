package main

import (
	"fmt"
	"io"
	"os"

	"github.com/augur-verify/augur/syntax"
	"github.com/augur-verify/augur/validate"
)

// readSource reads a file into a syntax.Source named after its path.
func readSource(path string) (*syntax.Source, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return &syntax.Source{Name: path, Text: string(data)}, nil
}

// loadPair reads (readInput: "-" is stdin) and parses and checks the
// specification at specPath and, when progPath is not empty, the kernel
// at progPath against it (validate.Load). Malformed input is reported as
// augur check and augur validate report it, on w: every error with its
// source line and caret, the specification's first, then "N errors";
// the returned error is then an exit error with exitMalformed.
func loadPair(w io.Writer, stdin io.Reader, specPath, progPath string) (*validate.Pair, error) {
	spec, specErr := readInput(specPath, stdin)
	var prog *syntax.Source
	var progErr error
	if progPath != "" {
		prog, progErr = readInput(progPath, stdin)
	}
	return loadSources(w, specPath, spec, specErr, progPath, prog, progErr)
}

// loadSources is loadPair once the files are read: spec and prog are nil
// when specErr or progErr says why they could not be read.
func loadSources(w io.Writer, specPath string, spec *syntax.Source, specErr error, progPath string, prog *syntax.Source, progErr error) (*validate.Pair, error) {
	count := 0
	if specErr != nil {
		fmt.Fprintf(w, "%v\n", specErr)
		count++
	}
	if progErr != nil {
		count++
	}
	// With one file unreadable, Load's errors are all the other file's:
	// printed in between, they keep the order of the files.
	p, errs := validate.Load(spec, prog)
	for _, e := range errs {
		if e.Code == syntax.CodeNotChecked {
			fmt.Fprintf(w, "%s: not type-checked: its specification %s is malformed\n", progPath, specPath)
			continue
		}
		fmt.Fprintln(w, e.Report())
		count++
	}
	if progErr != nil {
		fmt.Fprintf(w, "%v\n", progErr)
	}
	if count > 0 {
		fmt.Fprintf(w, "%d error%s\n", count, plural(count))
		return nil, &exitError{code: exitMalformed}
	}
	return p, nil
}
