package sched

import (
	"strings"
	"testing"
)

// lutSpec applies a computed lookup table to an image, at a
// data-dependent index (Clément 2022, section 9.6.1).
const lutSpec = `param N
assume N >= 1
input A(x) : i32
tensor L(v) : f32
L(v) = f32(v) * 0.5 where 0 <= v < 256
tensor O(x) : f32
O(x) = L(clamp(A(x), 0, 255))
output O
`

// lutKernel returns the kernel that fills a table of size entries, then
// (or, with before, first) reads it at clamp(a[x], 0, 255); scale is the
// table's factor.
func lutKernel(size string, before bool, scale string) string {
	fill := "    for v < " + size + " { t[v] {L(v)} := f32(v) * " + scale + " }\n"
	use := "    par x < N { o[x] {O(x)} := t[clamp(a[x], 0, 255)] }\n"
	body := fill + use
	if before {
		body = use + fill
	}
	return `kernel lut(N)
assume N >= 1
in  a[x] : i32[N] = A(x)
out o[x] : f32[N] = O(x)
{
  alloc t : f32[` + size + `] {
` + body + `  }
}
`
}

func TestRunDataIndex(t *testing.T) {
	params := map[string]int64{"N": 16}
	res, err := run(t, lutSpec, lutKernel("256", false, "0.5"), params, Options{})
	if err != nil {
		t.Fatalf("lookup table: %v", err)
	}
	if res.OutputCells != 16 {
		t.Errorf("output cells: %d, want 16", res.OutputCells)
	}
	// Random i32 inputs clamp to 0 or 255 but for a few: a table one
	// entry short is read out of bounds.
	_, err = run(t, lutSpec, lutKernel("255", false, "0.5"), params, Options{})
	f := wantFailure(t, err, OutOfBoundsRead, "")
	if f.Cell() != "t[255]" {
		t.Errorf("cell %q, want t[255]", f.Cell())
	}
	_, err = run(t, lutSpec, lutKernel("256", true, "0.5"), params, Options{})
	wantFailure(t, err, UndefinedRead, "")
	_, err = run(t, lutSpec, lutKernel("256", false, "0.25"), params, Options{})
	wantFailure(t, err, WrongValue, "")
}

func TestCheckDataIndex(t *testing.T) {
	spec := mustSpec(t, lutSpec)
	head := "kernel lut(N)\nin  a[x] : i32[N] = A(x)\nout o[x] : f32[N] = O(x)\n{\n"
	cases := []struct{ body, want string }{
		// Loop bounds, conditions and the indices written by a
		// reduction's assignments stay quasi-affine; a plain write's
		// data-dependent index is typed as a read's.
		{"  o[a[0]] {O(0) @ ()} := 0", "array read a[0] in an index expression"},
		{"  o[f32(a[0])] {O(0)} := 0", "data-dependent index f32(a[0]) has type f32"},
		{"  for i < a[0] { skip }", "array read a[0] in an index expression"},
		{"  if a[0] > 0 { skip }", "array read a[0] in an index expression"},
		{"  o[0] {O(0)} := f32(a[f32(a[0])])", "data-dependent index f32(a[0]) has type f32"},
		{"  o[0] {L(a[0])} := 0", "array read a[0] is not allowed here"},
	}
	for _, c := range cases {
		k := mustParse(t, head+c.body+"\n}\n")
		_, errs := Check(k, spec)
		if !strings.Contains(errs.Detail(), c.want) {
			t.Errorf("%s: errors\n%s\nwant %q", c.body, errs.Detail(), c.want)
		}
	}
	// A data-dependent index in an annotation reads tensors.
	k := mustParse(t, head+"  for x < N { o[x] {L(clamp(A(x), 0, 255))} := 0 }\n}\n")
	if _, errs := Check(k, spec); len(errs) > 0 {
		t.Errorf("annotation: %s", errs.Detail())
	}
}

// histSpec is a histogram of N bins over R values (Clément 2022, section
// 9.6.3): H(b, r) is bin b after the update at r.
const histSpec = `param N, R
assume N >= 1 and R >= 1
input A(r) : i32
tensor H(b, r) : i32
H(b, r) = select(i32(b) == clamp(A(r), 0, 3), 1, 0)  where 0 <= b < 4 and r == 0
H(b, r) = select(i32(b) == clamp(A(r), 0, 3), H(b, r - 1) + 1, H(b, r - 1))  where 0 <= b < 4 and 1 <= r < R
tensor Hist(b) : i32
Hist(b) = H(b, R - 1)
output Hist
`

// histKernel returns the kernel that builds the histogram in h[bins]
// with its updates at clamp(a[r], 0, hi).
func histKernel(bins, hi string) string {
	return `kernel hist(N, R)
assume N >= 1 and R >= 1
in  a[r] : i32[R] = A(r)
out h[b] : i32[4] = Hist(b)
{
  alloc t : i32[` + bins + `] {
    for b < ` + bins + ` { t[b] {0} := 0 }
    for r < R { t[clamp(a[r], 0, ` + hi + `)] {H(clamp(A(r), 0, ` + hi + `), r)} := t[clamp(a[r], 0, ` + hi + `)] + 1 }
    for b < 4 { h[b] {Hist(b)} := t[b] }
  }
}
`
}

// TestRunDataWrite runs writes at a data-dependent index: a histogram
// matches its specification; with one bin short, the last bin's update
// writes out of bounds; with a clamp one short, the last bin is wrong.
func TestRunDataWrite(t *testing.T) {
	params := map[string]int64{"N": 1, "R": 40}
	res, err := run(t, histSpec, histKernel("4", "3"), params, Options{})
	if err != nil {
		t.Fatalf("histogram: %v", err)
	}
	if res.OutputCells != 4 {
		t.Errorf("output cells: %d, want 4", res.OutputCells)
	}
	_, err = run(t, histSpec, histKernel("3", "3"), params, Options{})
	f := wantFailure(t, err, OutOfBoundsRead, "")
	if f.Cell() != "t[3]" {
		t.Errorf("cell %q, want t[3]", f.Cell())
	}
	// A scatter that does not read its cell writes out of bounds.
	scatter := strings.Replace(histKernel("3", "3"), ":= t[clamp(a[r], 0, 3)] + 1", ":= 1", 1)
	_, err = run(t, histSpec, scatter, params, Options{})
	f = wantFailure(t, err, OutOfBoundsWrite, "")
	if f.Cell() != "t[3]" {
		t.Errorf("cell %q, want t[3]", f.Cell())
	}
	_, err = run(t, histSpec, histKernel("4", "2"), params, Options{})
	wantFailure(t, err, WrongValue, "")
}
