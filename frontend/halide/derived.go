package halide

import (
	"fmt"
	"os"
	"strings"
)

// DerivedParam is an integer parameter of both sides of a translation
// that abstracts an integer Halide computes from float inputs (an int32
// conversion of a float32 expression of the pipeline's parameters, such
// as resize's number of taps, int32(ceil(2 / scale_factor))): docs/halide.md,
// "Integers computed from float parameters". A verdict holds for every
// value of each such parameter; a counterexample may give one a value its
// computation never gives, so only Halide's code can confirm an INVALID.
type DerivedParam struct {
	// Name is the parameter, as both sides declare it.
	Name string
	// Def is its computation, an i32 expression of the specification's
	// language over the specification's inputs (no index variable, no
	// parameter computed from floats), which a replay evaluates as the
	// value of a 0-d tensor.
	Def string
}

// derivedKeyword opens the driver's lines of derived parameters, in its
// --derived file and in JIT samples: "derived NAME = DEF".
const derivedKeyword = "derived"

// parseDerived reads the driver's line "derived NAME = DEF", or reports
// why it is not one.
func parseDerived(line string) (DerivedParam, error) {
	rest, ok := strings.CutPrefix(line, derivedKeyword+" ")
	if !ok {
		return DerivedParam{}, fmt.Errorf("%q is not a derived parameter", line)
	}
	name, def, ok := strings.Cut(rest, " = ")
	if !ok || name == "" || strings.ContainsAny(name, " \t") || strings.TrimSpace(def) == "" {
		return DerivedParam{}, fmt.Errorf("%q is not a derived parameter", line)
	}
	return DerivedParam{Name: name, Def: strings.TrimSpace(def)}, nil
}

// ReadDerived reads a file of derived parameters, one line "derived NAME =
// DEF" each, as augur halide's driver writes them.
func ReadDerived(path string) ([]DerivedParam, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var out []DerivedParam
	for _, l := range strings.Split(string(b), "\n") {
		if strings.TrimSpace(l) == "" {
			continue
		}
		d, err := parseDerived(l)
		if err != nil {
			return nil, fmt.Errorf("the driver's derived parameters: %w", err)
		}
		out = append(out, d)
	}
	return out, nil
}
