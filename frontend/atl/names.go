package atl

import (
	"fmt"
	"strings"

	"github.com/augur-verify/augur/sare"
	"github.com/augur-verify/augur/sched"
	"github.com/augur-verify/augur/syntax"
)

// namer hands out names that clash with no other name of the generated
// files: the program's own names are reserved first.
type namer struct {
	used map[string]bool
	// varPrefix names the positional variables of the specification's
	// equations (x0, x1, ...); no other name has that form.
	varPrefix string
}

func newNamer(c *Checked) *namer {
	nm := &namer{used: map[string]bool{}}
	for _, p := range c.params {
		nm.used[p] = true
	}
	for _, in := range c.inputs {
		nm.used[in.name] = true
	}
	nm.used[c.Name] = true
	for _, root := range []*node{c.def, c.sched} {
		walk(root, func(n *node) {
			if n.v != "" {
				nm.used[n.v] = true
			}
			for _, l := range n.lanes {
				nm.used[l.name] = true
			}
		})
	}
	for _, p := range []string{"x", "y", "z", "w", "q", "v", "u"} {
		clash := false
		for name := range nm.used {
			if rest, ok := strings.CutPrefix(name, p); ok && rest != "" && strings.Trim(rest, "0123456789") == "" {
				clash = true
				break
			}
		}
		if !clash {
			nm.varPrefix = p
			break
		}
	}
	if nm.varPrefix == "" {
		nm.varPrefix = "atlvar"
	}
	return nm
}

// pos returns the i-th positional variable.
func (nm *namer) pos(i int) string { return fmt.Sprintf("%s%d", nm.varPrefix, i) }

// fresh returns base, or base_2, base_3, ... whichever is unused, and
// marks it used.
func (nm *namer) fresh(base string) string {
	name := base
	for k := 2; nm.used[name] || !usable(name) || nm.positional(name); k++ {
		name = fmt.Sprintf("%s_%d", base, k)
	}
	nm.used[name] = true
	return name
}

func (nm *namer) positional(name string) bool {
	rest, ok := strings.CutPrefix(name, nm.varPrefix)
	return ok && rest != "" && strings.Trim(rest, "0123456789") == ""
}

func usable(name string) bool {
	return syntax.ValidName(name) && !sare.IsKeyword(name) && !sched.IsKeyword(name) && !syntax.IsReserved(name)
}

// walk calls f on every node of the tree, parents first.
func walk(n *node, f func(*node)) {
	if n == nil {
		return
	}
	f(n)
	for _, k := range n.kids {
		walk(k, f)
	}
}
