package main

import (
	"errors"
	"fmt"
	"io"

	"github.com/augur-verify/augur/syntax"
)

// stdinName names standard input in positions and reports.
const stdinName = "<stdin>"

// readInput reads the file at path as readSource does, or stdin when path
// is "-".
func readInput(path string, stdin io.Reader) (*syntax.Source, error) {
	if path != "-" {
		return readSource(path)
	}
	if stdin == nil {
		return nil, errors.New("-: no standard input")
	}
	data, err := io.ReadAll(stdin)
	if err != nil {
		return nil, fmt.Errorf("reading standard input: %w", err)
	}
	return &syntax.Source{Name: stdinName, Text: string(data)}, nil
}

// oneStdin checks that at most one of paths is "-": standard input can be
// read once.
func oneStdin(paths ...string) error {
	n := 0
	for _, p := range paths {
		if p == "-" {
			n++
		}
	}
	if n > 1 {
		return errors.New("only one of the files can be standard input (-)")
	}
	return nil
}
