package smt

// #include <stdlib.h>
// #include <z3.h>
import "C"

import (
	"strings"
	"unsafe"
)

// SMTLIB2 renders the solver's assertions as a self-contained SMT-LIB2
// script: the options of scriptOptions, an optional (set-logic logic), the
// declarations and definitions (recursive ones included) of every symbol
// used, the assertions, then (check-sat). Running z3 on the script repeats
// the query and exits 0 whatever the answer: after sat, z3 prints the model
// (its dump-models option), and no (get-model) follows, which after unsat
// is an error (SMT-LIB 2.6, section 4.2.4) and makes z3 exit 1. Another
// solver answers the z3-specific option with unsupported and goes on; add
// (get-model) after (check-sat) for its model. ParseSMTLIB2 reads the
// assertions back.
//
// The text is Z3_solver_to_string's, which declares the sorts and functions
// the assertions use but defines every recursive function of the context;
// the definitions the assertions do not need, directly or through other
// definitions, are removed. Applications of recursive functions are
// written in Z3's indexed form ((_ sum 0) n), which z3 reads back.
func (s *Solver) SMTLIB2(logic string) (string, error) {
	z, err := s.enter()
	if err != nil {
		return "", err
	}
	body := C.GoString(C.Z3_solver_to_string(z, s.s))
	if err := check(z, "SMTLIB2"); err != nil {
		return "", err
	}
	body = pruneRecDefs(body)
	var b strings.Builder
	b.WriteString(scriptOptions)
	if logic != "" {
		b.WriteString("(set-logic " + logic + ")\n")
	}
	b.WriteString(body)
	if body != "" && !strings.HasSuffix(body, "\n") {
		b.WriteByte('\n')
	}
	b.WriteString("(check-sat)\n")
	return b.String(), nil
}

// scriptOptions are the options SMTLIB2's scripts start with: models are
// produced, and z3 prints the model of a sat answer by itself, so that a
// script needs no (get-model), an error after unsat.
const scriptOptions = "(set-option :produce-models true)\n(set-option :dump-models true)\n"

// SMTLIB2 renders formulas as a self-contained SMT-LIB2 script, as
// Solver.SMTLIB2 does for a solver holding exactly those assertions.
func (c *Context) SMTLIB2(logic string, ts ...*Term) (string, error) {
	s, err := c.NewSolver()
	if err != nil {
		return "", err
	}
	defer s.Close()
	if err := s.Assert(ts...); err != nil {
		return "", err
	}
	return s.SMTLIB2(logic)
}

// ParseSMTLIB2 reads an SMT-LIB2 script and returns its assertions
// (Z3_parse_smtlib2_string). The script declares every sort and function it
// uses; commands such as (check-sat) and (get-model) are accepted and not
// run. A syntax or sort error is returned with Z3's message.
func (c *Context) ParseSMTLIB2(script string) ([]*Term, error) {
	z, err := c.enter()
	if err != nil {
		return nil, err
	}
	cs := C.CString(script)
	defer C.free(unsafe.Pointer(cs))
	v := C.Z3_parse_smtlib2_string(z, cs, 0, nil, nil, 0, nil, nil)
	if err := check(z, "ParseSMTLIB2"); err != nil {
		return nil, err
	}
	if v == nil {
		return nil, opError("ParseSMTLIB2", "Z3 returned nothing")
	}
	ts := c.vectorTerms(z, v)
	for _, t := range ts {
		if t.err != nil {
			return nil, t.err
		}
	}
	return ts, nil
}
