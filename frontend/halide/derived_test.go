package halide

import (
	"reflect"
	"strings"
	"testing"
)

// TestDerived reads the driver's lines of derived parameters, in a JIT
// sample among its other lines, and rejects malformed ones.
func TestDerived(t *testing.T) {
	t.Parallel()
	smp, err := ParseSample(`param input_min_0 = 0
derived r_sigma_int = i32(max(f32(1.0) / r_sigma(), f32(0.0)))
in r_sigma = 0.5
derived r_sigma_int_2 = i32(min(f32(1.0) / r_sigma(), f32(0.0)))
out f 0 = 1
`)
	if err != nil {
		t.Fatal(err)
	}
	want := []DerivedParam{
		{"r_sigma_int", "i32(max(f32(1.0) / r_sigma(), f32(0.0)))"},
		{"r_sigma_int_2", "i32(min(f32(1.0) / r_sigma(), f32(0.0)))"},
	}
	if !reflect.DeepEqual(smp.Derived, want) {
		t.Fatalf("Derived = %q, want %q", smp.Derived, want)
	}
	if smp.Params["input_min_0"] != 0 || len(smp.Outputs) != 1 {
		t.Fatalf("the sample's other lines: %v, %v", smp.Params, smp.Outputs)
	}
	for _, bad := range []string{"derived x =", "derived = i32(1)", "derived a b = i32(1)", "derived x i32(1)"} {
		if _, err := ParseSample(bad + "\n"); err == nil || !strings.Contains(err.Error(), "is not a derived parameter") {
			t.Errorf("ParseSample(%q): error %v, want one saying it is not a derived parameter", bad, err)
		}
	}
}
