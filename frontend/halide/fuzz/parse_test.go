package fuzz

import (
	"errors"
	"strings"
	"testing"
)

const sample = `case demo
input in0 int32 2
bc b0 repeat_edge in0
func f1 float32 2 (+ (* 0.5 (b0 (- x 1) y)) (cast float32 (b0 (+ x 1) y)))
func f2 float32 2 0
update f2 2 -1 3 0 2 (+ (f2 x y) (f1 (+ x rx) (+ y ry)))
output f2
s split f2 x xo xi 8 guard_with_if
s vectorize f2 xi
s compute_at f1 f2 0 y
s store_root f1
s rfactor f2.1 ry u
`

func TestParseRoundTrip(t *testing.T) {
	c, err := Parse(sample)
	if err != nil {
		t.Fatal(err)
	}
	if got := c.String(); got != sample {
		t.Errorf("read back as\n%s\nwant\n%s", got, sample)
	}
	if c.Dims("b0") != 2 || c.Updates("f2") != 1 || c.OutputType() != Float32 {
		t.Errorf("dims %d, updates %d, output type %s", c.Dims("b0"), c.Updates("f2"), c.OutputType())
	}
}

func TestParseErrors(t *testing.T) {
	for _, tc := range []struct{ text, want string }{
		{"input in0 int64 2\n", "1:11: unknown type"},
		{"input in0 int32 2\nfunc f1 int32 2 (in0 x)\n", "2:18: in0 takes 2 arguments, got 1"},
		{"input in0 int32 1\nfunc f1 int32 1 (+ x y)\n", "2:22: y is not a variable"},
		{"input in0 int32 1\nfunc f1 int32 1 (+ x 1\n", "2:23: missing )"},
		{"input in0 int32 1\nfunc f1 int32 1 x\nupdate f1 1 0 0 x\n", "3:15: want an integer from 1"},
		{"input in0 int32 1\nfunc f1 int32 1 rx\n", "2:17: rx is not a variable of the RDom"},
		{"input in0 int32 1\nfunc f1 int32 1 x\noutput f1\ns split f1.2 x a b 2 auto\n", "4:9: f1 has no stage"},
		{"input in0 int32 1\nfunc f1 int32 1 x\noutput f1\ns spin f1\n", "4:3: unknown directive"},
		{"input in0 int32 1\nfunc f1 int32 1 x\n", "3:1: the case has no output line"},
		{"input in0 int32 1\ninput in0 int32 1\n", "2:7: in0 is defined twice"},
	} {
		_, err := Parse(tc.text)
		var pe *ParseError
		if !errors.As(err, &pe) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Parse(%q) = %v, want a ParseError %q", tc.text, err, tc.want)
		}
	}
}

// FuzzParse checks that Parse never panics and that what it reads writes
// back to a text it reads the same.
func FuzzParse(f *testing.F) {
	f.Add(sample)
	f.Add(Generate(1, 3, GenOptions{}).String())
	f.Add(Generate(2, 5, GenOptions{Sliding: true}).String())
	f.Add("input a uint8 3\nfunc b int16 3 (select (< x 0) (a x y z) (clamp z 0 3))\noutput b\n")
	f.Fuzz(func(t *testing.T, text string) {
		c, err := Parse(text)
		if err != nil {
			var pe *ParseError
			if !errors.As(err, &pe) || pe.Line < 1 || pe.Col < 1 {
				t.Fatalf("error without a position: %v", err)
			}
			return
		}
		again, err := Parse(c.String())
		if err != nil {
			t.Fatalf("%q reads back with an error: %v\n%s", text, err, c)
		}
		if again.String() != c.String() {
			t.Fatalf("%q: written\n%s\nread back as\n%s", text, c, again)
		}
	})
}
