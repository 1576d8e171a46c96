package rink

import (
	"errors"
	"fmt"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/augur-verify/augur/frontend"
	"github.com/augur-verify/augur/sare"
	"github.com/augur-verify/augur/sched"
	"github.com/augur-verify/augur/syntax"
)

// Options tune Translate.
type Options struct {
	// Name names the kernels: Name and Name_padded (default "rink").
	Name string
	// VectorLength is M, the multiple every extent of the padded
	// implementation is rounded up to (default 4).
	VectorLength int64
	// InPlace generates the naive implementation of a statement x = e
	// whose right-hand side reads x: it commits every element directly
	// to x instead of going through a temporary, which the paper warns
	// "may lead to incorrect results" (Section 5). Augur catches it.
	InPlace bool
	// Parallel makes the loops over the elements of each statement
	// parallel (par), as Section 5 suggests; the contractions' inner loops
	// stay sequential.
	Parallel bool
}

// Result is the result of Translate: the pair of a specification and
// two kernels, the reference implementation (named Ref) and the padded
// one (Padded), and how the program's names map to the pair's.
type Result struct {
	frontend.Pair
	// Params maps each size parameter to the extent of the program it
	// stands for.
	Params map[string]int64
	// Inputs maps each variable read before any assignment to its input
	// tensor; Outputs maps each assigned variable to its output tensor,
	// its last version.
	Inputs, Outputs map[string]string
}

// The names of the two kernels of a Result.
const (
	Ref    = "ref"
	Padded = "padded"
)

// Translate turns a checked program into a SARE specification and the
// annotated kernels of its reference and padded implementations.
//
// Every distinct extent of the program becomes a size parameter (N_300
// for 300), so the pair is validated for every size at once, not only for
// the declared ones; equal extents share a parameter, which is all the
// typing rules look at, so the program is well-typed at every size.
//
// Each assignment defines a new version of its variable (A_1, A_2, ...);
// a variable read before any assignment is an input (its version 0, named
// as the variable); the last version of each assigned variable is an
// output. A contraction becomes a recurrence over its summation index,
// from 0 at index -1. Division is the paper's controlled division
// (Definition 8), select(a == 0, 0, a / b). The specification also holds
// the padded views used by the padded kernel's annotations (see spec.go).
func Translate(p *Program, info *Info, opts Options) (*Result, error) {
	if opts.Name == "" {
		opts.Name = "rink"
	}
	if opts.VectorLength == 0 {
		opts.VectorLength = 4
	}
	if opts.VectorLength < 1 || opts.VectorLength > MaxExtent {
		return nil, fmt.Errorf("rink: vector length %d: want a positive integer", opts.VectorLength)
	}
	if !syntax.ValidName(opts.Name) || isKeyword(opts.Name) {
		return nil, fmt.Errorf("rink: %q cannot name a kernel", opts.Name)
	}
	for _, s := range p.Stmts {
		if info == nil || info.Types[s.RHS] == nil || !info.Types[s.RHS].Equal(info.Context[s.LHS.Name]) {
			return nil, errors.New("rink: the program is not checked (call Check first)")
		}
	}
	tr := newTranslation(p, info, opts)
	out := &Result{Params: map[string]int64{}, Inputs: map[string]string{}, Outputs: map[string]string{}}
	for d, name := range tr.params {
		out.Params[name] = d
	}
	for _, v := range tr.inputs {
		out.Inputs[v] = tr.array[v]
	}
	for v, si := range tr.last {
		out.Outputs[v] = si.tensor
	}
	out.Spec = tr.spec()
	out.Kernels = []frontend.Kernel{{Name: Ref, Text: tr.kernel(false)}, {Name: Padded, Text: tr.kernel(true)}}
	return out, nil
}

// isKeyword reports whether name cannot name a tensor, array or
// parameter.
func isKeyword(name string) bool { return sare.IsKeyword(name) || sched.IsKeyword(name) }

// translation holds what the specification and both kernels share: the
// names, the versions, and the contraction nodes.
type translation struct {
	prog  *Program
	info  *Info
	opts  Options
	taken map[string]bool
	// params maps an extent to its parameter's name; sizes lists the
	// extents in increasing order.
	params map[int64]string
	sizes  []int64
	// array maps a variable to its array (and version-0 tensor) name.
	array map[string]string
	// stmts holds each statement's translation, in order.
	stmts []*stmtInfo
	// inputs lists the variables whose version 0 is read, in declaration
	// order; last maps each assigned variable to its last version.
	inputs []string
	last   map[string]*stmtInfo
	// vars caches the fresh names of index variables and temporaries.
	vars map[string]string
}

// stmtInfo is one assignment: the version it defines, the tensor of each
// variable it reads, and its contraction nodes.
type stmtInfo struct {
	stmt    *Stmt
	tensor  string // the version defined, e.g. C_1
	reads   map[*VarRef]string
	contrs  map[*Contract]string // the accumulator tensor of each
	order   []*Contract          // contractions in the order of their tensors
	selfRef bool                 // the right-hand side reads the variable assigned
}

func newTranslation(p *Program, info *Info, opts Options) *translation {
	tr := &translation{prog: p, info: info, opts: opts, taken: map[string]bool{},
		params: map[int64]string{}, array: map[string]string{}, last: map[string]*stmtInfo{}, vars: map[string]string{}}
	for _, d := range p.Decls {
		tr.taken[d.Name.Name] = true
	}
	for _, d := range p.Decls {
		name := d.Name.Name
		if isKeyword(name) {
			name = tr.fresh(name + "_")
		}
		tr.array[d.Name.Name] = name
		for _, n := range d.Extents {
			if _, ok := tr.params[n]; !ok {
				tr.params[n] = ""
				tr.sizes = append(tr.sizes, n)
			}
		}
	}
	sort.Slice(tr.sizes, func(i, j int) bool { return tr.sizes[i] < tr.sizes[j] })
	for _, n := range tr.sizes {
		tr.params[n] = tr.fresh("N_" + strconv.FormatInt(n, 10))
	}
	version := map[string]int{}
	current := map[string]string{}
	for _, d := range p.Decls {
		current[d.Name.Name] = tr.array[d.Name.Name]
	}
	isInput := map[string]bool{}
	for _, s := range p.Stmts {
		si := &stmtInfo{stmt: s, reads: map[*VarRef]string{}, contrs: map[*Contract]string{}}
		walk(s.RHS, func(e Expr) {
			if v, ok := e.(*VarRef); ok {
				si.reads[v] = current[v.Name]
				if version[v.Name] == 0 {
					isInput[v.Name] = true
				}
				if v.Name == s.LHS.Name {
					si.selfRef = true
				}
			}
		})
		version[s.LHS.Name]++
		si.tensor = tr.fresh(tr.array[s.LHS.Name] + "_" + strconv.Itoa(version[s.LHS.Name]))
		walk(s.RHS, func(e Expr) {
			if c, ok := e.(*Contract); ok {
				si.order = append(si.order, c)
				si.contrs[c] = tr.fresh(si.tensor + "_r" + strconv.Itoa(len(si.order)))
			}
		})
		current[s.LHS.Name] = si.tensor
		tr.stmts = append(tr.stmts, si)
		tr.last[s.LHS.Name] = si
	}
	for _, d := range p.Decls {
		if isInput[d.Name.Name] {
			tr.inputs = append(tr.inputs, d.Name.Name)
		}
	}
	return tr
}

// fresh returns base, or base with underscores appended, whichever is not
// yet taken, and takes it.
func (tr *translation) fresh(base string) string {
	name := base
	for tr.taken[name] || isKeyword(name) {
		name += "_"
	}
	tr.taken[name] = true
	return name
}

// v returns the fresh name standing for the generated name base (an index
// variable or a temporary), the same on every call.
func (tr *translation) v(base string) string {
	if name, ok := tr.vars[base]; ok {
		return name
	}
	name := tr.fresh(base)
	tr.vars[base] = name
	return name
}

// indexVars returns the index variables i1..ik.
func (tr *translation) indexVars(k int) []string {
	out := make([]string, k)
	for i := range out {
		out[i] = tr.v("i" + strconv.Itoa(i+1))
	}
	return out
}

// srcName is the program's file name, without its directory.
func (tr *translation) srcName() string {
	if tr.prog.Src == nil || tr.prog.Src.Name == "" {
		return "the program"
	}
	return filepath.Base(tr.prog.Src.Name)
}

// extent is the parameter standing for the extent d.
func (tr *translation) extent(d int64) string { return tr.params[d] }

// padded is ⌈d⌉, the extent d rounded up to a multiple of M, as an
// index expression.
func (tr *translation) padded(d int64) string {
	m := tr.opts.VectorLength
	if m == 1 {
		return tr.extent(d)
	}
	return fmt.Sprintf("(%s + %d) / %d * %d", tr.extent(d), m-1, m, m)
}

// box is the constraint 0 <= idx_j < d_j for every dimension (true for a
// scalar).
func (tr *translation) box(idx []string, t Shape) string {
	if len(t) == 0 {
		return "true"
	}
	parts := make([]string, len(t))
	for i, d := range t {
		parts[i] = fmt.Sprintf("0 <= %s < %s", idx[i], tr.extent(d))
	}
	return strings.Join(parts, " and ")
}

// upper is the constraint idx_j < d_j for every dimension, for bindings
// (whose indices are non-negative already).
func (tr *translation) upper(idx []string, t Shape) string {
	parts := make([]string, len(t))
	for i, d := range t {
		parts[i] = fmt.Sprintf("%s < %s", idx[i], tr.extent(d))
	}
	return strings.Join(parts, " and ")
}

// assumptions is what both sides assume of the size parameters.
func (tr *translation) assumptions() string {
	parts := make([]string, len(tr.sizes))
	for i, n := range tr.sizes {
		parts[i] = tr.params[n] + " >= 1"
	}
	return strings.Join(parts, " and ")
}

// paramList is the parameters, comma-separated.
func (tr *translation) paramList() string {
	names := make([]string, len(tr.sizes))
	for i, n := range tr.sizes {
		names[i] = tr.params[n]
	}
	return strings.Join(names, ", ")
}

// call renders name(args...).
func call(name string, args []string) string { return name + "(" + strings.Join(args, ", ") + ")" }

// contrIndex is the index of the contracted expression: idx with l
// inserted at dimensions m and n (1-based).
func contrIndex(c *Contract, idx []string, l string) []string {
	m, n := min(c.M, c.N)-1, max(c.M, c.N)-1
	out := make([]string, 0, len(idx)+2)
	k := 0
	for i := 0; i < len(idx)+2; i++ {
		if i == m || i == n {
			out = append(out, l)
		} else {
			out = append(out, idx[k])
			k++
		}
	}
	return out
}

// walk calls f on e and its subexpressions, in post-order (operands
// first, left to right).
func walk(e Expr, f func(Expr)) {
	switch e := e.(type) {
	case *Paren:
		walk(e.X, f)
	case *Binary:
		walk(e.X, f)
		walk(e.Y, f)
	case *Product:
		walk(e.X, f)
		walk(e.Y, f)
	case *Contract:
		walk(e.X, f)
	case *Transpose:
		walk(e.X, f)
	}
	f(e)
}
