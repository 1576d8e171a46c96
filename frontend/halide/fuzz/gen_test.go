package fuzz

import (
	"testing"
)

func TestGenerateParses(t *testing.T) {
	for i := range 200 {
		for _, sl := range []bool{false, true} {
			c := Generate(7, i, GenOptions{Sliding: sl})
			p, err := Parse(c.String())
			if err != nil {
				t.Fatalf("case %d: %v\n%s", i, err, c)
			}
			p.Name = c.Name
			if p.String() != c.String() {
				t.Fatalf("case %d: the text does not read back:\n%s\nread as\n%s", i, c, p)
			}
			if i < 3 {
				t.Logf("%s", c)
			}
		}
	}
}
