package main

import (
	"fmt"
	"io"
	"os"

	"github.com/augur-verify/augur/sare"
	"github.com/augur-verify/augur/sched"
	"github.com/augur-verify/augur/syntax"
)

// pair is a checked specification and, when one was given, a checked
// kernel against it.
type pair struct {
	spec     *sare.Spec
	specInfo *sare.Info
	kernel   *sched.Kernel
	kinfo    *sched.Info
}

// readSource reads a file into a syntax.Source named after its path.
func readSource(path string) (*syntax.Source, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return &syntax.Source{Name: path, Text: string(data)}, nil
}

// loadPair parses and checks the specification at specPath and, when
// progPath is not empty, the kernel at progPath against it. Every error is
// printed to w with its source line and caret; the returned error is then
// an exit error with exitMalformed. It reports how many errors it printed.
func loadPair(w io.Writer, specPath, progPath string) (*pair, int, error) {
	var p pair
	count := 0
	report := func(errs syntax.ErrorList) {
		errs.Sort()
		for _, e := range errs {
			fmt.Fprintln(w, e.Detail())
		}
		count += len(errs)
	}
	specOK := false
	src, err := readSource(specPath)
	if err != nil {
		fmt.Fprintf(w, "%v\n", err)
		count++
	} else {
		spec, errs := sare.Parse(src)
		if len(errs) > 0 {
			report(errs)
		} else {
			info, errs := sare.Check(spec)
			report(errs)
			if len(errs) == 0 {
				p.spec, p.specInfo, specOK = spec, info, true
			}
		}
	}
	if progPath != "" {
		src, err := readSource(progPath)
		if err != nil {
			fmt.Fprintf(w, "%v\n", err)
			count++
		} else {
			k, errs := sched.Parse(src)
			switch {
			case len(errs) > 0:
				report(errs)
			case !specOK:
				fmt.Fprintf(w, "%s: not type-checked: its specification %s is malformed\n", progPath, specPath)
			default:
				info, errs := sched.Check(k, p.spec)
				report(errs)
				if len(errs) == 0 {
					p.kernel, p.kinfo = k, info
				}
			}
		}
	}
	if count > 0 {
		return nil, count, &exitError{code: exitMalformed}
	}
	return &p, 0, nil
}
