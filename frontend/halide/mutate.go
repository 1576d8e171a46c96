package halide

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// Mutations are the miscompilations Mutate plants in a translated kernel:
// the kinds of bug a scheduling compiler makes in storage folding, guards,
// compute_at regions and sliding windows. Each names its kind and what it
// takes (docs/halide.md, "Planted miscompilations").
var Mutations = []struct{ Kind, Doc string }{
	{"fold", "fold:N folds the first folded allocation (indices % M) to N rows instead of M, its extent with it; fold alone takes N = M - 1"},
	{"guard", "guard[:K] removes the K-th if (default 1st) around a store, keeping its body (GuardWithIf tails, sliding-window waits)"},
	{"compute-at", "compute-at[:K] ends the K-th producer loop (default 1st) one iteration early: a loop inside an alloc that stores only to that alloc's array"},
	{"sliding", "sliding[:K] starts the K-th sliding-window loop (default 1st) one iteration later: a loop inside an alloc, from a non-zero lower bound, storing both to the alloc's array and elsewhere"},
}

// block is a line of a kernel with the lines of the block it opens.
type block struct {
	line     int // index of the opening line
	end      int // index of the closing "}" (the matching one at the same indentation)
	children []*block
}

func indentOf(s string) int { return len(s) - len(strings.TrimLeft(s, " ")) }

// blocks parses the body of an emitted kernel into its nested blocks by
// their indentation: every line ending in "{" opens one, closed by the
// next "}" (or "} else {") at the same indentation.
func blocks(lines []string) []*block {
	var roots []*block
	var stack []*block
	// open starts the block whose opening brace ends line i, as a child of
	// the innermost open block.
	open := func(i int) {
		b := &block{line: i}
		if len(stack) > 0 {
			p := stack[len(stack)-1]
			p.children = append(p.children, b)
		} else {
			roots = append(roots, b)
		}
		stack = append(stack, b)
	}
	for i, l := range lines {
		t := strings.TrimSpace(l)
		if t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		if strings.HasPrefix(t, "}") && len(stack) > 0 && indentOf(l) == indentOf(lines[stack[len(stack)-1].line]) {
			top := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if strings.HasSuffix(t, "{") { // } else {
				top.end = i
				open(i)
				continue
			}
			top.end = i
			continue
		}
		if strings.HasSuffix(t, "{") {
			open(i)
		}
	}
	return roots
}

func walk(bs []*block, f func(b *block, parents []*block)) {
	var rec func(bs []*block, parents []*block)
	rec = func(bs []*block, parents []*block) {
		for _, b := range bs {
			f(b, parents)
			rec(b.children, append(append([]*block(nil), parents...), b))
		}
	}
	rec(bs, nil)
}

var (
	storeRe = regexp.MustCompile(`^\s*([A-Za-z_][A-Za-z0-9_]*)\[.*\{.*\}\s*:=`)
	allocRe = regexp.MustCompile(`^(\s*alloc ([A-Za-z_][A-Za-z0-9_]*) : [a-z0-9]+\[)(.*)\] \{$`)
	loopRe  = regexp.MustCompile(`^(\s*(?:for|par) [A-Za-z_][A-Za-z0-9_]*)( < | in )(.*) \{$`)
	ifRe    = regexp.MustCompile(`^\s*if .* \{$`)
)

// stores lists the arrays stored to inside a block (its lines between
// the opening line and the closing one).
func stores(lines []string, b *block) map[string]bool {
	out := map[string]bool{}
	for i := b.line + 1; i < b.end; i++ {
		if m := storeRe.FindStringSubmatch(lines[i]); m != nil {
			out[m[1]] = true
		}
	}
	return out
}

func which(kind string) (string, int, error) {
	k, arg, _ := strings.Cut(kind, ":")
	n := 0
	if arg != "" {
		var err error
		n, err = strconv.Atoi(arg)
		if err != nil || n < 1 {
			return "", 0, fmt.Errorf("mutation %q: want %s:N with N >= 1", kind, k)
		}
	}
	return k, n, nil
}

// Mutate plants the miscompilation kind (one of Mutations) in the text of
// an emitted kernel, and returns the mutated text and a sentence saying
// what changed. The kernel keeps its annotations: they now claim what the
// correct schedule computes, and validation must refute them.
func Mutate(prog, kind string) (string, string, error) {
	k, n, err := which(kind)
	if err != nil {
		return "", "", err
	}
	lines := strings.Split(prog, "\n")
	bs := blocks(lines)
	var desc string
	switch k {
	case "fold":
		desc, err = mutateFold(lines, bs, n)
	case "guard":
		desc, err = mutateGuard(lines, bs, kind, n)
	case "compute-at", "sliding":
		desc, err = mutateLoop(lines, bs, kind, k, n)
	default:
		var ks []string
		for _, m := range Mutations {
			ks = append(ks, m.Kind)
		}
		err = fmt.Errorf("unknown mutation %q (known: %s)", kind, strings.Join(ks, ", "))
	}
	if err != nil {
		return "", "", err
	}
	out := strings.Join(lines, "\n")
	return "# Mutated (augur halide --mutate " + kind + "): " + desc + ".\n" + out, desc, nil
}

// mutateFold shrinks the first allocation folded by a constant to n rows
// (one row fewer when n is 0), in place in lines.
func mutateFold(lines []string, bs []*block, n int) (string, error) {
	var desc string
	done := false
	walk(bs, func(b *block, _ []*block) {
		if done {
			return
		}
		m := allocRe.FindStringSubmatch(lines[b.line])
		if m == nil {
			return
		}
		exts := strings.Split(m[3], ", ")
		last := exts[len(exts)-1]
		old, err := strconv.Atoi(last)
		if err != nil {
			return
		}
		pat := "% " + last + "]"
		found := false
		for i := b.line + 1; i < b.end; i++ {
			if strings.Contains(lines[i], m[2]+"[") && strings.Contains(lines[i], pat) {
				found = true
			}
		}
		if !found {
			return
		}
		nw := old - 1
		if n > 0 {
			nw = n
		}
		if nw < 1 || nw == old {
			return
		}
		exts[len(exts)-1] = strconv.Itoa(nw)
		lines[b.line] = m[1] + strings.Join(exts, ", ") + "] {"
		// Only the accesses of this array: its folded index is the
		// last one.
		acc := regexp.MustCompile(regexp.QuoteMeta(m[2]) + `\[[^\[\]]*% ` + last + `\]`)
		for i := b.line + 1; i < b.end; i++ {
			lines[i] = acc.ReplaceAllStringFunc(lines[i], func(s string) string {
				return strings.TrimSuffix(s, "% "+last+"]") + "% " + strconv.Itoa(nw) + "]"
			})
		}
		desc = fmt.Sprintf("the fold of %s: %d rows instead of %d", m[2], nw, old)
		done = true
	})
	if !done {
		return "", fmt.Errorf("mutation fold: no allocation folded by a constant (an alloc whose last extent N indexes as %% N)")
	}
	return desc, nil
}

// mutateGuard removes the n-th (first when n is 0) if without else around
// stores, in place in lines.
func mutateGuard(lines []string, bs []*block, kind string, n int) (string, error) {
	nth := max(n, 1)
	count := 0
	var hit *block
	walk(bs, func(b *block, _ []*block) {
		if hit != nil || !ifRe.MatchString(lines[b.line]) || strings.HasPrefix(strings.TrimSpace(lines[b.end]), "} else") {
			return
		}
		if len(stores(lines, b)) == 0 {
			return
		}
		if count++; count == nth {
			hit = b
		}
	})
	if hit == nil {
		return "", fmt.Errorf("mutation %s: the kernel has fewer than %d ifs without else around stores", kind, nth)
	}
	desc := fmt.Sprintf("the guard %q removed (line %d)", strings.TrimSuffix(strings.TrimSpace(lines[hit.line]), " {"), hit.line+1)
	lines[hit.line] = strings.Repeat(" ", indentOf(lines[hit.line])) + "{"
	return desc, nil
}

// mutateLoop ends the n-th (first when n is 0) producer loop one
// iteration early (k "compute-at"), or starts the n-th sliding-window loop
// one iteration later (k "sliding"), in place in lines.
func mutateLoop(lines []string, bs []*block, kind, k string, n int) (string, error) {
	nth := max(n, 1)
	count := 0
	var hit *block
	walk(bs, func(b *block, parents []*block) {
		if hit != nil {
			return
		}
		if m := loopRe.FindStringSubmatch(lines[b.line]); m != nil && mutableLoop(lines, b, parents, m, k) {
			if count++; count == nth {
				hit = b
			}
		}
	})
	if hit == nil {
		return "", fmt.Errorf("mutation %s: the kernel has fewer than %d such loops", kind, nth)
	}
	m := loopRe.FindStringSubmatch(lines[hit.line])
	if k == "compute-at" {
		if m[2] == " < " {
			lines[hit.line] = m[1] + " < " + m[3] + " - 1 {"
		} else {
			lo, hi, _ := strings.Cut(m[3], " .. ")
			lines[hit.line] = m[1] + " in " + lo + " .. " + hi + " - 1 {"
		}
		return fmt.Sprintf("the producer loop %q ends one iteration early", strings.TrimSpace(m[1])), nil
	}
	lo, hi, _ := strings.Cut(m[3], " .. ")
	lines[hit.line] = m[1] + " in " + lo + " + 1 .. " + hi + " {"
	return fmt.Sprintf("the sliding-window loop %q starts one iteration later", strings.TrimSpace(m[1])), nil
}

// mutableLoop reports whether the loop b (its header matched as m, within
// parents) is one mutateLoop's kind k applies to: a loop storing into the
// innermost allocation around it, for compute-at the outermost loop
// storing into that allocation only, for sliding a ranged loop storing
// into it and into another array.
func mutableLoop(lines []string, b *block, parents []*block, m []string, k string) bool {
	// The innermost alloc around the loop.
	var arr string
	for i := len(parents) - 1; i >= 0; i-- {
		if a := allocRe.FindStringSubmatch(lines[parents[i].line]); a != nil {
			arr = a[2]
			break
		}
	}
	if arr == "" {
		return false
	}
	st := stores(lines, b)
	if !st[arr] {
		return false
	}
	if k != "compute-at" {
		return len(st) >= 2 && m[2] == " in "
	}
	if len(st) != 1 {
		return false
	}
	// The outermost such loop only.
	for _, p := range parents {
		if pm := loopRe.FindStringSubmatch(lines[p.line]); pm != nil {
			if ps := stores(lines, p); len(ps) == 1 && ps[arr] {
				return false
			}
		}
	}
	return true
}
