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

// loadPair parses and checks the specification at specPath and, when
// progPath is not empty, the kernel at progPath against it (validate.Load).
// Every error is printed to w with its source line and caret; the returned
// error is then an exit error with exitMalformed. It reports how many
// errors it printed.
func loadPair(w io.Writer, specPath, progPath string) (*validate.Pair, int, error) {
	count := 0
	spec, err := readSource(specPath)
	if err != nil {
		fmt.Fprintf(w, "%v\n", err)
		count++
	}
	var prog *syntax.Source
	var progErr error
	if progPath != "" {
		if prog, progErr = readSource(progPath); progErr != nil {
			count++
		}
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
		return nil, count, &exitError{code: exitMalformed}
	}
	return p, 0, nil
}
