package main

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/augur-verify/augur/sare"
	"github.com/augur-verify/augur/syntax"
	"github.com/augur-verify/augur/value"
)

// parseInputs reads --input flags, "T(i, j)=VALUE", into fixed input
// elements keyed by inputKey.
func parseInputs(spec *sare.Spec, flags []string) (map[string]value.Value, error) {
	out := map[string]value.Value{}
	for _, f := range flags {
		eq := strings.LastIndexByte(f, '=')
		open := strings.IndexByte(f, '(')
		if eq < 0 || open < 0 || !strings.HasSuffix(strings.TrimSpace(f[:eq]), ")") {
			return nil, fmt.Errorf("--input %q: want TENSOR(i, ...)=VALUE", f)
		}
		name := strings.TrimSpace(f[:open])
		t := spec.Tensor(name)
		if t == nil || !t.Input {
			return nil, fmt.Errorf("--input %q: %s is not an input tensor of the specification", f, name)
		}
		inner := strings.TrimSpace(f[open+1 : strings.LastIndexByte(f[:eq], ')')])
		var idx []int64
		if inner != "" {
			for _, part := range strings.Split(inner, ",") {
				n, err := strconv.ParseInt(strings.TrimSpace(part), 10, 64)
				if err != nil {
					return nil, fmt.Errorf("--input %q: bad index %q", f, part)
				}
				idx = append(idx, n)
			}
		}
		if len(idx) != t.Rank() {
			return nil, fmt.Errorf("--input %q: %s has %d dimensions", f, name, t.Rank())
		}
		v, err := parseValue(t.Type, strings.TrimSpace(f[eq+1:]))
		if err != nil {
			return nil, fmt.Errorf("--input %q: %w", f, err)
		}
		out[inputKey(name, idx)] = v
	}
	return out, nil
}

// parseValue reads a value of type t as Value.String prints it.
func parseValue(t syntax.Type, s string) (value.Value, error) {
	switch {
	case t == syntax.Bool:
		b, err := strconv.ParseBool(s)
		return value.Bool(b), err
	case t.IsSigned():
		n, err := strconv.ParseInt(s, 10, 64)
		return value.Int(t, n), err
	case t.IsUnsigned():
		n, err := strconv.ParseUint(s, 10, 64)
		return value.Uint(t, n), err
	case t == syntax.F32 || t == syntax.F64:
		bits := 64
		if t == syntax.F32 {
			bits = 32
		}
		x, err := strconv.ParseFloat(s, bits)
		if err != nil && !math.IsInf(x, 0) {
			return value.Value{}, err
		}
		return value.Float(t, x), nil
	}
	return value.Value{}, fmt.Errorf("no values of type %s", t)
}

func inputKey(tensor string, idx []int64) string { return fmt.Sprint(tensor, idx) }

// withFixedInputs returns inputs that take the fixed elements, and the
// others from rest.
func withFixedInputs(fixed map[string]value.Value, rest sare.Inputs) sare.Inputs {
	if len(fixed) == 0 {
		return rest
	}
	return sare.InputFunc(func(t *sare.Tensor, idx []int64) (value.Value, error) {
		if v, ok := fixed[inputKey(t.Name.Name, idx)]; ok {
			return v, nil
		}
		return rest.Input(t, idx)
	})
}
