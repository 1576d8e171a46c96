package bench

import (
	"fmt"
	"strings"
)

// StencilChain returns the algorithm of the stencil chain of n stages for
// the bundled compiler: Halide's stencil_chain app (halide/apps), uint16
// 5 x 5 stencils weighted by (i + 3) * (j + 3) over an input extended by
// repeating its edge, every stage computed at the root, its rows in
// parallel.
func StencilChain(n int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# The stencil chain of %d stage(s) (Clément 2022, Table 6.1: sc1, sc32), generated\n", n)
	b.WriteString("# by augur bench: 5 x 5 uint16 stencils over an input extended by repeating\n# its edge, every stage at the root, rows in parallel.\n")
	b.WriteString("param W, H\nassume W >= 1\nassume H >= 1\ninput In(x, y) : u16\n")
	b.WriteString("func S0(x, y) : u16 = In(max(min(x, W - 1), 0), max(min(y, H - 1), 0))\n")
	for s := 1; s <= n; s++ {
		fmt.Fprintf(&b, "func S%d(x, y) : u16 =", s)
		first := true
		for i := -2; i <= 2; i++ {
			for j := -2; j <= 2; j++ {
				if !first {
					b.WriteString(" +")
				}
				first = false
				if j == -2 {
					b.WriteString("\n ")
				}
				fmt.Fprintf(&b, " %d * S%d(%s, %s)", (i+3)*(j+3), s-1, offset("x", i), offset("y", j))
			}
		}
		b.WriteString("\n")
	}
	fmt.Fprintf(&b, "output S%d over x in 0 .. W, y in 0 .. H\nschedule {\n", n)
	for s := 1; s <= n; s++ {
		fmt.Fprintf(&b, "  S%d.parallel(y)\n", s)
	}
	b.WriteString("}\n")
	return b.String()
}

func offset(v string, d int) string {
	switch {
	case d > 0:
		return fmt.Sprintf("%s + %d", v, d)
	case d < 0:
		return fmt.Sprintf("%s - %d", v, -d)
	}
	return v
}
