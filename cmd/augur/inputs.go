package main

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/augur-verify/augur/sare"
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
		v, err := value.Parse(t.Type, strings.TrimSpace(f[eq+1:]))
		if err != nil {
			return nil, fmt.Errorf("--input %q: %w", f, err)
		}
		out[inputKey(name, idx)] = v
	}
	return out, nil
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
