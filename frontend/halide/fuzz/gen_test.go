package fuzz

import (
	"slices"
	"strings"
	"testing"
)

func TestGenerateDeterministic(t *testing.T) {
	for i := range 50 {
		a, b := Generate(11, i, GenOptions{}), Generate(11, i, GenOptions{})
		if a.String() != b.String() {
			t.Fatalf("case %d differs between two draws:\n%s\n%s", i, a, b)
		}
	}
	differ := 0
	for i := range 50 {
		if Generate(11, i, GenOptions{}).String() != Generate(12, i, GenOptions{}).String() {
			differ++
		}
	}
	if differ < 45 {
		t.Errorf("only %d of 50 cases differ between seeds 11 and 12", differ)
	}
}

// TestGenerateLegal checks what the generator promises of every case: it
// reads back, every variable a directive names is a loop of its stage
// (pure, of the RDom, or made by a directive before), nothing but bound
// schedules the output's placement, and a func is computed or stored only
// at a loop of a func that reads it (directly or through others).
func TestGenerateLegal(t *testing.T) {
	kinds := map[string]int{}
	for i := range 400 {
		c := Generate(5, i, GenOptions{Sliding: i%2 == 1})
		if _, err := Parse(c.String()); err != nil {
			t.Fatalf("case %d does not read back: %v\n%s", i, err, c)
		}
		if err := legal(c); err != "" {
			t.Fatalf("case %d: %s\n%s", i, err, c)
		}
		for _, d := range c.Sched {
			kinds[d[0]]++
			if d[0] == "split" {
				kinds[d[len(d)-1]]++
			}
		}
	}
	for _, k := range append(slices.Clone(Directives), Tails...) {
		if kinds[k] == 0 {
			t.Errorf("no case of 400 uses %s", k)
		}
	}
}

func legal(c *Case) string {
	vars := map[string][]string{}
	for _, f := range c.Defs {
		if f.Kind == UpdateDef {
			continue
		}
		for k := 0; k <= c.Updates(f.Name); k++ {
			st := f.Name + "." + string(rune('0'+k))
			vars[st] = []string{"x", "y", "z"}[:c.Dims(f.Name)]
			if k > 0 {
				vars[st] = append(vars[st], "rx", "ry")
			}
		}
	}
	for _, d := range c.Sched {
		st := d[1]
		if !strings.Contains(st, ".") {
			st += ".0"
		}
		known := func(v string) bool { return slices.Contains(vars[st], v) }
		switch d[0] {
		case "compute_root", "store_root", "compute_at", "store_at", "fold", "align_bounds":
			if d[1] == c.Output {
				return "the output is scheduled: " + d.String()
			}
			if d[0] == "compute_at" || d[0] == "store_at" {
				target := d[2] + "." + d[3]
				if !slices.Contains(vars[target], d[4]) {
					return "a loop level names an unknown loop: " + d.String()
				}
				if !reads(c, d[2], d[1], map[string]bool{}) {
					return "a func is placed in a func that does not read it: " + d.String()
				}
			}
		case "split":
			if !known(d[2]) {
				return "a split of an unknown variable: " + d.String()
			}
			vars[st] = append(vars[st], d[3], d[4])
		case "tile":
			vars[st] = append(vars[st], d[4:8]...)
		case "fuse":
			if !known(d[2]) || !known(d[3]) {
				return "a fuse of unknown variables: " + d.String()
			}
			vars[st] = append(vars[st], d[4])
		case "vectorize", "unroll", "parallel", "rfactor":
			if !known(d[2]) {
				return "an unknown variable: " + d.String()
			}
		}
	}
	return ""
}

// reads says whether the func consumer reads f, directly or through
// other funcs.
func reads(c *Case, consumer, f string, seen map[string]bool) bool {
	if seen[consumer] {
		return false
	}
	seen[consumer] = true
	for _, d := range c.Defs {
		if d.Name != consumer || d.Value == nil {
			continue
		}
		for _, g := range callees(d.Value) {
			if g == f || reads(c, g, f, seen) {
				return true
			}
		}
	}
	return false
}

func callees(e *Expr) []string {
	var out []string
	if _, ok := Ops[e.Op]; !ok && e.Op != "" {
		out = append(out, e.Op)
	}
	for _, a := range e.Args {
		out = append(out, callees(a)...)
	}
	return out
}
