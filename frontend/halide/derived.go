package halide

import "strings"

// derivedHeader opens the specification's list of the integer parameters
// that abstract integers Halide computes from float inputs (docs/halide.md,
// "Integers computed from float parameters").
const derivedHeader = "# Integer parameters computed from float inputs"

// Derived returns the integer parameters of a translated specification
// that abstract integers Halide computes from its float inputs, each with
// its computation in the specification's language, in the order the
// specification lists them. A verdict proves a kernel for every value of
// each; a counterexample may give them values their computations never
// give, so only Halide's code can confirm an INVALID.
func Derived(spec string) [][2]string {
	var out [][2]string
	in := false
	for _, l := range strings.Split(spec, "\n") {
		if !strings.HasPrefix(l, "#") {
			if in {
				break
			}
			continue
		}
		if strings.HasPrefix(l, derivedHeader) {
			in = true
			continue
		}
		rest, ok := strings.CutPrefix(l, "#   ")
		if !in || !ok {
			continue
		}
		if name, def, ok := strings.Cut(rest, " = "); ok {
			out = append(out, [2]string{name, def})
		}
	}
	return out
}
