package fuzz

import (
	"strconv"
	"strings"
)

// maxPeriod bounds the period of a schedule (sizedRegions): past it,
// the largest of the schedule's factors is the period.
const maxPeriod = 64

// defaultPeriod is the period of a schedule without factors.
const defaultPeriod = 8

// factorArgs are, per directive, the positions of its factors: the
// directive's splits, tiles, vector widths, unroll counts and fold
// factors.
var factorArgs = map[string][]int{
	"split":     {5},
	"tile":      {8, 9},
	"vectorize": {3},
	"unroll":    {3},
	"fold":      {3},
}

// schedulePeriod is the least common multiple of the schedule's factors
// (those of the directives a specialize holds too), or its largest
// factor when the multiple exceeds maxPeriod, or defaultPeriod when it
// has none.
func schedulePeriod(c *Case) int {
	l, largest := 1, 0
	for _, d := range c.Sched {
		for len(d) > 4 && d[0] == "specialize" {
			d = d[4:]
			if len(d) > 0 {
				// The held directive lacks its stage: put it back.
				d = append(Directive{d[0], ""}, d[1:]...)
			}
		}
		if len(d) == 0 {
			continue
		}
		for _, i := range factorArgs[d[0]] {
			if i >= len(d) {
				continue
			}
			n, err := strconv.Atoi(d[i])
			if err != nil || n < 2 {
				continue
			}
			largest = max(largest, n)
			l = lcm(l, min(n, maxPeriod+1))
		}
	}
	switch {
	case largest == 0:
		return defaultPeriod
	case l > maxPeriod:
		return min(largest, maxPeriod)
	}
	return l
}

func gcd(a, b int) int {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

func lcm(a, b int) int { return a / gcd(a, b) * b }

// sizedRegions are the output regions tried after widerRegions when no
// region so far shows the bug: the counterexample's mins with every
// output extent one more than the schedule's period P (schedulePeriod),
// then 2P + 1, the inputs widened by inputMargin. An extent one past a
// multiple of every split factor makes every split's last iteration a
// tail (rounded up, shifted inwards or guarded), where the bugs of
// Halide's tail strategies and sliding windows show.
func sizedRegions(c *Case, r Region) []Region {
	p := schedulePeriod(c)
	var out []Region
	for _, e := range []int{p + 1, 2*p + 1} {
		s := Region{Mins: r.Mins, Extents: make([]int, len(r.Extents)), InputMargin: inputMargin}
		for i := range s.Extents {
			s.Extents[i] = min(e, maxExtent)
		}
		out = append(out, s)
	}
	return out
}

// sizes is the region's extents, written W x H.
func (r Region) sizes() string {
	parts := make([]string, len(r.Extents))
	for i, e := range r.Extents {
		parts[i] = strconv.Itoa(e)
	}
	return strings.Join(parts, " x ")
}
