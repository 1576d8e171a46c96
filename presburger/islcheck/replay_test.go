//go:build isl

package islcheck

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/augur-verify/augur/presburger"
)

// This file replays traces of the verifier's own Presburger work in both
// engines. A trace is the iscc script that augur validate
// --trace-presburger writes (presburger.Tracer): operands assigned once by
// name, then one statement per operation, whose comment names the
// engine's operation ("map subtract", "union simplify") and, for a test,
// the engine's answer. Every operation is replayed in Augur's engine and
// in isl on operands parsed afresh, outside the timing, for each run (isl
// keeps what it learns about an object inside it, so shared operands would
// let later operations reuse the work of earlier ones); the two answers
// must agree, and a test's answer must also be the one recorded.
//
// TestReplay checks the traces; BenchmarkReplay times them and reports,
// per trace and per kind of operation, the total time in each engine and
// the median over operations of the ratio Augur/isl:
//
//	go test -tags isl -run '^$' -bench Replay -benchtime 1x -v ./presburger/islcheck/ -args -traces DIR
//
// With -v the benchmark prints the tables (docs/bench.md discusses them).

var tracesFlag = flag.String("traces", "testdata/traces", "directory of Presburger traces (*.iscc) that TestReplay and BenchmarkReplay replay")

// replayDumpFlag names a file where BenchmarkReplay writes one line per
// timed operation: trace, line, kind, Augur's and isl's median
// nanoseconds and their ratio, tab-separated (to find the operations
// that set a kind's median).
var replayDumpFlag = flag.String("replay-dump", "", "file where BenchmarkReplay writes the timing of every operation")

// replayKindFlag restricts BenchmarkReplay to the operations of one kind
// ("map simplify"), to profile them alone.
var replayKindFlag = flag.String("replay-kind", "", "replay only the operations of this kind (e.g. \"map simplify\")")

// replayMaxOps bounds the work of one isl operation of a replay (isl's own
// count): far above what the verifier's operations take, it only stops a
// runaway. An operation that exceeds it is left out of the ratios.
const replayMaxOps = 200_000_000

// replayOp is one operation of a trace.
type replayOp struct {
	line   int
	stmt   string   // the statement as written
	kind   string   // "map subtract", "union is_empty", ...
	args   []string // the operands' literals, in the order of the statement
	answer string   // the engine's recorded answer to a test: "True", "False" or ""
}

func (op replayOp) union() bool { return strings.HasPrefix(op.kind, "union ") }

// describe prints op with its operands, for a failure.
func (op replayOp) describe(trace string) string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "%s:%d: %s", trace, op.line, op.stmt)
	for i, a := range op.args {
		fmt.Fprintf(&sb, "\n\toperand %d: %s", i+1, a)
	}
	return sb.String()
}

var (
	replayAssign = regexp.MustCompile(`^([A-Za-z_][A-Za-z0-9_]*) := (.*);$`)
	replayOpLine = regexp.MustCompile(`^(.*); # ((?:map|union) [a-z_]+)(?:: (True|False))?$`)
	replayName   = regexp.MustCompile(`\bR[0-9]+\b`)
)

// readTrace reads the operations of a trace: one statement per line,
// comments and failed operations (written as comments) skipped.
func readTrace(r io.Reader) ([]replayOp, error) {
	vals := map[string]string{}
	var ops []replayOp
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, 1<<28)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if m := replayAssign.FindStringSubmatch(line); m != nil {
			vals[m[1]] = m[2]
			continue
		}
		m := replayOpLine.FindStringSubmatch(line)
		if m == nil {
			return nil, fmt.Errorf("line %d: not an operation of a trace: %.120s", n, line)
		}
		op := replayOp{line: n, stmt: line, kind: m[2], answer: m[3]}
		for _, name := range replayName.FindAllString(m[1], -1) {
			v, ok := vals[name]
			if !ok {
				return nil, fmt.Errorf("line %d: %s used before its assignment", n, name)
			}
			op.args = append(op.args, v)
		}
		if _, ok := replayKinds[op.kind]; !ok {
			return nil, fmt.Errorf("line %d: unknown operation %q", n, op.kind)
		}
		if want := replayKinds[op.kind].arity; len(op.args) != want {
			return nil, fmt.Errorf("line %d: %s takes %d operands, got %d", n, op.kind, want, len(op.args))
		}
		ops = append(ops, op)
	}
	return ops, sc.Err()
}

// replayKind is how one kind of operation is replayed. prepare parses the
// operands in both engines (and may build derived isl operands); augur
// and isl run the operation; their results are a bool, a []presburger.Int
// or *presburger.Map or *presburger.UnionMap or *presburger.PwMultiAff
// (Augur), an iobj (isl).
type replayKind struct {
	arity int
	augur func(ctx context.Context, in []any) (any, error)
	isl   func(in []iobj) (any, error)
	// islArgs, when set, computes the isl operands from Augur's parsed
	// ones (for operations isl has no direct counterpart of).
	islArgs func(in []any) ([]string, error)
	// islOnly, when >= 0, replays in isl only operand islOnly (complement:
	// the trace's first operand is the universe, which isl does not need).
	islOnly int
}

func augurMap(f func(ctx context.Context, a *presburger.Map) (any, error)) func(context.Context, []any) (any, error) {
	return func(ctx context.Context, in []any) (any, error) { return f(ctx, in[0].(*presburger.Map)) }
}

func augurMap2(f func(ctx context.Context, a, b *presburger.Map) (any, error)) func(context.Context, []any) (any, error) {
	return func(ctx context.Context, in []any) (any, error) {
		return f(ctx, in[0].(*presburger.Map), in[1].(*presburger.Map))
	}
}

func augurUnion(f func(ctx context.Context, a *presburger.UnionMap) (any, error)) func(context.Context, []any) (any, error) {
	return func(ctx context.Context, in []any) (any, error) { return f(ctx, in[0].(*presburger.UnionMap)) }
}

func augurUnion2(f func(ctx context.Context, a, b *presburger.UnionMap) (any, error)) func(context.Context, []any) (any, error) {
	return func(ctx context.Context, in []any) (any, error) {
		return f(ctx, in[0].(*presburger.UnionMap), in[1].(*presburger.UnionMap))
	}
}

// islUnary applies the operation named op to an isl object of any kind.
func islUnary(op string) func([]iobj) (any, error) {
	return func(in []iobj) (any, error) {
		o := in[0]
		switch op {
		case "is_empty":
			switch {
			case o.s != nil:
				return o.s.IsEmpty()
			case o.m != nil:
				return o.m.IsEmpty()
			case o.us != nil:
				return o.us.IsEmpty()
			}
			return o.um.IsEmpty()
		case "coalesce":
			switch {
			case o.s != nil:
				return wrapSet(o.s.Coalesce())
			case o.m != nil:
				return wrapMap(o.m.Coalesce())
			case o.us != nil:
				return wrapUSet(o.us.Coalesce())
			}
			return wrapUMap(o.um.Coalesce())
		case "lexmin":
			switch {
			case o.s != nil:
				return wrapSet(o.s.LexMin())
			case o.m != nil:
				return wrapMap(o.m.LexMin())
			case o.us != nil:
				return wrapUSet(o.us.LexMin())
			}
			return wrapUMap(o.um.LexMin())
		case "lexmax":
			switch {
			case o.s != nil:
				return wrapSet(o.s.LexMax())
			case o.m != nil:
				return wrapMap(o.m.LexMax())
			case o.us != nil:
				return wrapUSet(o.us.LexMax())
			}
			return wrapUMap(o.um.LexMax())
		case "sample":
			if o.s != nil {
				return wrapSet(o.s.SamplePoint())
			}
			if o.m != nil {
				return wrapMap(o.m.Sample())
			}
		case "complement":
			if o.s != nil {
				return wrapSet(o.s.Complement())
			}
			if o.m != nil {
				return wrapMap(o.m.Complement())
			}
		}
		return nil, fmt.Errorf("isl: no %s of a %s", op, o.kind())
	}
}

// islBinary applies the operation named op to two isl objects of one kind.
func islBinary(op string) func([]iobj) (any, error) {
	return func(in []iobj) (any, error) {
		a, b := in[0], in[1]
		if a.kind() != b.kind() {
			return nil, fmt.Errorf("isl: %s of a %s and a %s", op, a.kind(), b.kind())
		}
		switch op {
		case "subtract":
			switch {
			case a.s != nil:
				return wrapSet(a.s.Subtract(b.s))
			case a.m != nil:
				return wrapMap(a.m.Subtract(b.m))
			case a.us != nil:
				return wrapUSet(a.us.Subtract(b.us))
			}
			return wrapUMap(a.um.Subtract(b.um))
		case "is_subset":
			switch {
			case a.s != nil:
				return a.s.IsSubset(b.s)
			case a.m != nil:
				return a.m.IsSubset(b.m)
			case a.us != nil:
				return a.us.IsSubset(b.us)
			}
			return a.um.IsSubset(b.um)
		case "is_equal":
			return a.equal(b)
		}
		return nil, fmt.Errorf("isl: no operation %s", op)
	}
}

var replayKinds = map[string]replayKind{
	"map subtract": {arity: 2, islOnly: -1,
		augur: augurMap2(func(ctx context.Context, a, b *presburger.Map) (any, error) { return a.Subtract(ctx, b) }),
		isl:   islBinary("subtract")},
	// isl's subtract_domain is a subtraction of the domain extended to
	// the universe of the range: the extension is built outside the
	// timing.
	"map subtract_domain": {arity: 2, islOnly: -1,
		augur: augurMap2(func(ctx context.Context, a, b *presburger.Map) (any, error) { return a.SubtractDomain(ctx, b) }),
		isl:   islBinary("subtract"),
		islArgs: func(in []any) ([]string, error) {
			m, s := in[0].(*presburger.Map), in[1].(*presburger.Map)
			lifted, err := presburger.Universe(m.Space()).IntersectDomain(s)
			if err != nil {
				return nil, err
			}
			return []string{m.String(), lifted.String()}, nil
		}},
	"map complement": {arity: 2, islOnly: 1,
		augur: func(ctx context.Context, in []any) (any, error) { return in[1].(*presburger.Map).Complement(ctx) },
		isl:   islUnary("complement")},
	// The closest isl operation to dropping the empty pieces: coalesce,
	// which drops them too.
	"map drop_empty": {arity: 1, islOnly: -1,
		augur: augurMap(func(ctx context.Context, a *presburger.Map) (any, error) { return a.DropEmpty(ctx) }),
		isl:   islUnary("coalesce")},
	// Simplification against isl's coalesce, as for unions below.
	"map simplify": {arity: 1, islOnly: -1,
		augur: augurMap(func(ctx context.Context, a *presburger.Map) (any, error) { return a.Simplify(ctx) }),
		isl:   islUnary("coalesce")},
	"map is_empty": {arity: 1, islOnly: -1,
		augur: augurMap(func(ctx context.Context, a *presburger.Map) (any, error) { return a.IsEmpty(ctx) }),
		isl:   islUnary("is_empty")},
	"map is_subset": {arity: 2, islOnly: -1,
		augur: augurMap2(func(ctx context.Context, a, b *presburger.Map) (any, error) { return a.IsSubset(ctx, b) }),
		isl:   islBinary("is_subset")},
	"map is_equal": {arity: 2, islOnly: -1,
		augur: augurMap2(func(ctx context.Context, a, b *presburger.Map) (any, error) { return a.IsEqual(ctx, b) }),
		isl:   islBinary("is_equal")},
	"map sample": {arity: 1, islOnly: -1,
		augur: augurMap(func(ctx context.Context, a *presburger.Map) (any, error) { return a.Sample(ctx) }),
		isl:   islUnary("sample")},
	"map lexmin": {arity: 1, islOnly: -1,
		augur: augurMap(func(ctx context.Context, a *presburger.Map) (any, error) { return presburger.LexMin(ctx, a) }),
		isl:   islUnary("lexmin")},
	"map lexmax": {arity: 1, islOnly: -1,
		augur: augurMap(func(ctx context.Context, a *presburger.Map) (any, error) { return presburger.LexMax(ctx, a) }),
		isl:   islUnary("lexmax")},
	"map coalesce": {arity: 1, islOnly: -1,
		augur: augurMap(func(ctx context.Context, a *presburger.Map) (any, error) { return presburger.Coalesce(ctx, a) }),
		isl:   islUnary("coalesce")},
	"map coalesce_simplified": {arity: 1, islOnly: -1,
		augur: augurMap(func(ctx context.Context, a *presburger.Map) (any, error) {
			return presburger.CoalesceSimplified(ctx, a)
		}),
		isl: islUnary("coalesce")},
	"union subtract": {arity: 2, islOnly: -1,
		augur: augurUnion2(func(ctx context.Context, a, b *presburger.UnionMap) (any, error) { return a.Subtract(ctx, b) }),
		isl:   islBinary("subtract")},
	"union is_empty": {arity: 1, islOnly: -1,
		augur: augurUnion(func(ctx context.Context, a *presburger.UnionMap) (any, error) { return a.IsEmpty(ctx) }),
		isl:   islUnary("is_empty")},
	"union is_subset": {arity: 2, islOnly: -1,
		augur: augurUnion2(func(ctx context.Context, a, b *presburger.UnionMap) (any, error) { return a.IsSubset(ctx, b) }),
		isl:   islBinary("is_subset")},
	"union is_equal": {arity: 2, islOnly: -1,
		augur: augurUnion2(func(ctx context.Context, a, b *presburger.UnionMap) (any, error) { return a.IsEqual(ctx, b) }),
		isl:   islBinary("is_equal")},
	// isl has no simplification of its own; coalesce is what isl's users
	// call to simplify a set (it drops empty pieces and redundant
	// constraints too).
	"union simplify": {arity: 1, islOnly: -1,
		augur: augurUnion(func(ctx context.Context, a *presburger.UnionMap) (any, error) { return a.Simplify(ctx) }),
		isl:   islUnary("coalesce")},
	"union lexmin": {arity: 1, islOnly: -1,
		augur: augurUnion(func(ctx context.Context, a *presburger.UnionMap) (any, error) { return presburger.LexMinUnion(ctx, a) }),
		isl:   islUnary("lexmin")},
	"union lexmax": {arity: 1, islOnly: -1,
		augur: augurUnion(func(ctx context.Context, a *presburger.UnionMap) (any, error) { return presburger.LexMaxUnion(ctx, a) }),
		isl:   islUnary("lexmax")},
}

// parseAugur parses op's operands in Augur's engine.
func parseAugur(op replayOp) ([]any, error) {
	in := make([]any, len(op.args))
	for i, src := range op.args {
		var err error
		if op.union() {
			in[i], err = presburger.ParseUnionMap(src)
		} else {
			in[i], err = presburger.ParseMap(src)
		}
		if err != nil {
			return nil, fmt.Errorf("augur cannot parse operand %d: %w", i+1, err)
		}
	}
	return in, nil
}

// islKindOf returns the isl kind in which to read an operand that Augur
// parsed as a.
func islKindOf(a any) (string, error) {
	switch a := a.(type) {
	case *presburger.Map:
		if a.Space().IsSet() {
			return "set", nil
		}
		return "map", nil
	case *presburger.UnionMap:
		sets, rels := 0, 0
		for _, m := range a.Maps() {
			if m.Space().IsSet() {
				sets++
			} else {
				rels++
			}
		}
		switch {
		case sets > 0 && rels > 0:
			return "", fmt.Errorf("a union of sets and relations, which isl does not have")
		case sets > 0:
			return "union_set", nil
		}
		return "union_map", nil
	}
	return "", fmt.Errorf("unexpected operand %T", a)
}

// parseIsl parses op's operands in isl, given Augur's parse of them.
func parseIsl(c *Ctx, op replayOp, augurIn []any) ([]iobj, error) {
	k := replayKinds[op.kind]
	srcs, kinds := op.args, make([]string, len(op.args))
	for i, a := range augurIn {
		var err error
		if kinds[i], err = islKindOf(a); err != nil {
			return nil, err
		}
	}
	// An empty union has no space: it takes the kind of the other operand
	// (iscc's "{ }" is a set and a relation alike).
	for i, a := range augurIn {
		if u, ok := a.(*presburger.UnionMap); ok && len(u.Maps()) == 0 && len(kinds) == 2 {
			kinds[i] = kinds[1-i]
		}
	}
	if k.islArgs != nil {
		var err error
		if srcs, err = k.islArgs(augurIn); err != nil {
			return nil, err
		}
		kinds = []string{kinds[0], kinds[0]}
	}
	if k.islOnly >= 0 {
		srcs, kinds = srcs[k.islOnly:k.islOnly+1], kinds[k.islOnly:k.islOnly+1]
	}
	var out []iobj
	for i, src := range srcs {
		o, err := readAs(c, kinds[i], src)
		if err != nil {
			freeAll(out)
			return nil, fmt.Errorf("isl cannot read operand %d: %w", i+1, err)
		}
		out = append(out, o)
	}
	return out, nil
}

// opOutcome is the replay of one operation.
type opOutcome struct {
	augur, isl time.Duration
	// skip says why the operation is left out of the timing (isl or
	// Augur failed, isl has no counterpart); empty when timed.
	skip string
	// problem is a disagreement or another failure of the check.
	problem string
}

// replayOne runs op once in both engines on freshly parsed operands and
// compares the results outside the timing.
func replayOne(ctx context.Context, c *Ctx, op replayOp) opOutcome {
	k := replayKinds[op.kind]
	ain, err := parseAugur(op)
	if err != nil {
		return opOutcome{problem: err.Error()}
	}
	iin, err := parseIsl(c, op, ain)
	if err != nil {
		return opOutcome{skip: err.Error()}
	}
	defer freeAll(iin)

	start := time.Now()
	ours, oerr := k.augur(ctx, ain)
	ta := time.Since(start)
	c.SetMaxOperations(replayMaxOps)
	start = time.Now()
	theirs, ierr := k.isl(iin)
	ti := time.Since(start)
	c.SetMaxOperations(0)
	if o, ok := theirs.(iobj); ok {
		defer o.Free()
	}
	out := opOutcome{augur: ta, isl: ti}
	switch {
	case oerr != nil:
		out.skip = "augur: " + oerr.Error()
		out.problem = "augur failed where the traced run succeeded: " + oerr.Error()
		return out
	case ierr != nil:
		out.skip = ierr.Error()
		return out
	}
	out.problem = compareReplay(c, op, ours, theirs)
	return out
}

// compareReplay returns a description of the disagreement between the two
// results of op, or "".
func compareReplay(c *Ctx, op replayOp, ours, theirs any) string {
	switch w := theirs.(type) {
	case bool:
		o, ok := ours.(bool)
		if !ok {
			return fmt.Sprintf("augur returned %T, isl a boolean", ours)
		}
		if o != w {
			return fmt.Sprintf("augur says %v, isl %v", o, w)
		}
		if op.answer != "" && op.answer != map[bool]string{true: "True", false: "False"}[o] {
			return fmt.Sprintf("augur says %v now, %s when traced", o, op.answer)
		}
		return ""
	case iobj:
		var got fmt.Stringer
		switch o := ours.(type) {
		case []presburger.Int:
			empty, err := islIsEmpty(w)
			if err != nil {
				return "isl: " + err.Error()
			}
			if (o == nil) != empty {
				return fmt.Sprintf("augur's sample is %v, isl's %s", o, w)
			}
			return ""
		case *presburger.PwMultiAff:
			got = o.ToMap()
		case fmt.Stringer:
			got = o
		default:
			return fmt.Sprintf("augur returned %T", ours)
		}
		e := &env{c: c, ctx: context.Background()}
		if r := e.compare(got, w); r.out == disagree {
			return fmt.Sprintf("results differ: augur %s, isl %s %s", r.ours, r.isl, r.note)
		}
		return ""
	}
	return fmt.Sprintf("isl returned %T", theirs)
}

func islIsEmpty(o iobj) (bool, error) {
	switch {
	case o.s != nil:
		return o.s.IsEmpty()
	case o.m != nil:
		return o.m.IsEmpty()
	case o.us != nil:
		return o.us.IsEmpty()
	}
	return o.um.IsEmpty()
}

// traceFiles returns the traces of the -traces directory.
func traceFiles(tb testing.TB) []string {
	tb.Helper()
	fs, err := filepath.Glob(filepath.Join(*tracesFlag, "*.iscc"))
	if err != nil {
		tb.Fatal(err)
	}
	if len(fs) == 0 {
		tb.Fatalf("no trace (*.iscc) in %s", *tracesFlag)
	}
	sort.Strings(fs)
	return fs
}

func loadTrace(tb testing.TB, path string) []replayOp {
	tb.Helper()
	f, err := os.Open(path)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	ops, err := readTrace(f)
	if err != nil {
		tb.Fatalf("%s: %v", path, err)
	}
	if len(ops) == 0 {
		tb.Fatalf("%s: no operation", path)
	}
	return ops
}

func traceName(path string) string { return strings.TrimSuffix(filepath.Base(path), ".iscc") }

// TestReplay replays every trace once and requires the two engines to
// agree on every operation, and the engine to give the answers it gave
// when the trace was recorded.
func TestReplay(t *testing.T) {
	for _, path := range traceFiles(t) {
		t.Run(traceName(path), func(t *testing.T) {
			ops := loadTrace(t, path)
			c := NewCtx()
			defer func() {
				if err := c.Free(); err != nil {
					t.Error(err)
				}
			}()
			skipped := 0
			for _, op := range ops {
				r := replayOne(context.Background(), c, op)
				if r.problem != "" {
					t.Errorf("%s\n%s", op.describe(path), r.problem)
				}
				if r.skip != "" {
					skipped++
					t.Logf("%s:%d: not compared: %s", path, op.line, r.skip)
				}
			}
			t.Logf("%d operations, %d compared", len(ops), len(ops)-skipped)
		})
	}
}

// kindStats are the timings of the operations of one kind.
type kindStats struct {
	ops              int
	skipped          int
	augur, isl       time.Duration
	ratios           []float64
	worst            float64 // the largest ratio
	excessAt         string  // where Augur lost most time to isl: trace:line
	excessA, excessI time.Duration
}

func (s *kindStats) add(at string, a, i time.Duration) {
	s.augur += a
	s.isl += i
	r := float64(a) / float64(max(i, time.Nanosecond))
	s.ratios = append(s.ratios, r)
	s.worst = max(s.worst, r)
	if s.excessAt == "" || a-i > s.excessA-s.excessI {
		s.excessAt, s.excessA, s.excessI = at, a, i
	}
}

func (s *kindStats) merge(o *kindStats) {
	s.ops += o.ops
	s.skipped += o.skipped
	s.augur += o.augur
	s.isl += o.isl
	s.ratios = append(s.ratios, o.ratios...)
	s.worst = max(s.worst, o.worst)
	if o.excessAt != "" && (s.excessAt == "" || o.excessA-o.excessI > s.excessA-s.excessI) {
		s.excessAt, s.excessA, s.excessI = o.excessAt, o.excessA, o.excessI
	}
}

func median(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// traceStats are the timings of one trace: per kind, and "all".
type traceStats map[string]*kindStats

func (ts traceStats) get(kind string) *kindStats {
	s, ok := ts[kind]
	if !ok {
		s = &kindStats{}
		ts[kind] = s
	}
	return s
}

// BenchmarkReplay replays every trace in both engines: one sub-benchmark
// per trace, each iteration replaying every operation once. An
// operation's time in each engine is its median over the iterations. It
// reports the total time of the operations in each engine (augur-ms,
// isl-ms), the median over operations of the ratio Augur/isl (ratio), and
// that median per kind of operation (KIND-ratio, e.g. map-subtract-ratio);
// with -v it prints them as tables, per trace and over all traces.
func BenchmarkReplay(b *testing.B) {
	all := map[string]traceStats{}
	var dump strings.Builder
	defer func() {
		if *replayDumpFlag == "" {
			return
		}
		if err := os.WriteFile(*replayDumpFlag, []byte(dump.String()), 0o644); err != nil {
			b.Error(err)
		}
	}()
	var names []string
	for _, path := range traceFiles(b) {
		name := traceName(path)
		names = append(names, name)
		ops := loadTrace(b, path)
		if *replayKindFlag != "" {
			ops = slices.DeleteFunc(ops, func(op replayOp) bool { return op.kind != *replayKindFlag })
		}
		b.Run(name, func(b *testing.B) {
			c := NewCtx()
			defer func() {
				if err := c.Free(); err != nil {
					b.Error(err)
				}
			}()
			ctx := context.Background()
			ta := make([][]time.Duration, len(ops))
			ti := make([][]time.Duration, len(ops))
			skip := make([]string, len(ops))
			for b.Loop() {
				for k, op := range ops {
					r := replayOne(ctx, c, op)
					if r.problem != "" {
						b.Errorf("%s\n%s", op.describe(path), r.problem)
					}
					if r.skip != "" {
						skip[k] = r.skip
						continue
					}
					ta[k] = append(ta[k], r.augur)
					ti[k] = append(ti[k], r.isl)
				}
			}
			ts := traceStats{}
			total := ts.get("all")
			for k, op := range ops {
				s := ts.get(op.kind)
				s.ops++
				total.ops++
				if skip[k] != "" || len(ta[k]) == 0 {
					s.skipped++
					total.skipped++
					continue
				}
				a, i := medianDuration(ta[k]), medianDuration(ti[k])
				at := fmt.Sprintf("%s:%d", name, op.line)
				fmt.Fprintf(&dump, "%s\t%d\t%s\t%d\t%d\t%.3f\n", name, op.line, op.kind, a, i, float64(a)/float64(max(i, time.Nanosecond)))
				s.add(at, a, i)
				total.add(at, a, i)
			}
			b.ReportMetric(float64(total.ops), "ops")
			b.ReportMetric(float64(total.augur)/1e6, "augur-ms")
			b.ReportMetric(float64(total.isl)/1e6, "isl-ms")
			b.ReportMetric(median(total.ratios), "ratio")
			for kind, s := range ts {
				if kind != "all" && len(s.ratios) > 0 {
					b.ReportMetric(median(s.ratios), strings.ReplaceAll(kind, " ", "-")+"-ratio")
				}
			}
			all[name] = ts
		})
	}
	if !testing.Verbose() || len(all) == 0 {
		return
	}
	var sb strings.Builder
	sum := traceStats{}
	for _, name := range names {
		ts, ok := all[name]
		if !ok {
			continue
		}
		writeReplayTable(&sb, name, ts)
		for kind, s := range ts {
			sum.get(kind).merge(s)
		}
	}
	if len(all) > 1 {
		writeReplayTable(&sb, "all traces", sum)
	}
	b.Log("\n" + sb.String())
}

func medianDuration(ds []time.Duration) time.Duration {
	fs := make([]float64, len(ds))
	for i, d := range ds {
		fs[i] = float64(d)
	}
	return time.Duration(median(fs))
}

// writeReplayTable prints the timings of one trace, one row per kind of
// operation, the kinds whose median ratio is highest first.
func writeReplayTable(w io.Writer, title string, ts traceStats) {
	fmt.Fprintf(w, "%s\n", title)
	fmt.Fprintf(w, "  %-26s %6s %6s %11s %11s %9s %9s %9s  %s\n", "operation", "ops", "timed", "augur ms", "isl ms", "total", "median", "max", "largest excess over isl")
	var kinds []string
	for k := range ts {
		if k != "all" {
			kinds = append(kinds, k)
		}
	}
	sort.Slice(kinds, func(i, j int) bool {
		mi, mj := median(ts[kinds[i]].ratios), median(ts[kinds[j]].ratios)
		if math.IsNaN(mi) || math.IsNaN(mj) {
			return !math.IsNaN(mi)
		}
		return mi > mj
	})
	row := func(k string, s *kindStats) {
		worst := ""
		if s.excessAt != "" {
			worst = fmt.Sprintf("%s: %.1f µs vs %.1f µs", s.excessAt, float64(s.excessA)/1e3, float64(s.excessI)/1e3)
		}
		fmt.Fprintf(w, "  %-26s %6d %6d %11.2f %11.2f %9.2f %9.2f %9.1f  %s\n", k, s.ops, s.ops-s.skipped,
			float64(s.augur)/1e6, float64(s.isl)/1e6, float64(s.augur)/float64(max(s.isl, time.Nanosecond)),
			median(s.ratios), s.worst, worst)
	}
	for _, k := range kinds {
		row(k, ts[k])
	}
	row("all", ts["all"])
}

// TestReadTrace checks the reading of traces: operands resolved by name,
// comments and failed operations skipped, malformed traces rejected.
func TestReadTrace(t *testing.T) {
	good := `# header
R1 := [N] -> { S[i] : 0 <= i < N };
R2 := [N] -> { S[i] : 0 <= i < N and i mod 2 = 0 };
R1 - R2; # map subtract
# R1 - R2; # map subtract: failed: budget
R2 <= R1; # map is_subset: True
`
	ops, err := readTrace(strings.NewReader(good))
	if err != nil {
		t.Fatal(err)
	}
	if len(ops) != 2 || ops[0].kind != "map subtract" || ops[1].answer != "True" || ops[1].line != 6 ||
		ops[1].args[0] != "[N] -> { S[i] : 0 <= i < N and i mod 2 = 0 }" {
		t.Errorf("read %+v", ops)
	}
	for _, bad := range []string{
		"R1 - R2; # map subtract\n",                       // undefined operands
		"R1 := { S[i] };\nR1 ^ R1; # map frobnicate\n",    // unknown operation
		"R1 := { S[i] };\nR1 - R1 - R1; # map subtract\n", // wrong arity
		"R1 := { S[i] };\nR1;\n",                          // no operation comment
	} {
		if _, err := readTrace(strings.NewReader(bad)); err == nil {
			t.Errorf("accepted %q", bad)
		}
	}
}

// replayPiecesFlag turns on TestReplayPieces.
var replayPiecesFlag = flag.Bool("replay-pieces", false, "TestReplayPieces: compare the conjunctions of coalesced maps with isl's on the -traces")

// TestReplayPieces (with -replay-pieces) coalesces every map that a trace
// coalesces or simplifies, in both engines, checks that the results are
// equal, and reports the conjunctions each keeps, with the operations
// where the engine keeps more than isl, the most first.
func TestReplayPieces(t *testing.T) {
	if !*replayPiecesFlag {
		t.Skip("run with -replay-pieces")
	}
	ctx := context.Background()
	kinds := map[string]bool{"map coalesce": true, "map coalesce_simplified": true, "map simplify": true}
	for _, path := range traceFiles(t) {
		name := traceName(path)
		type worse struct {
			at         string
			ours, isls int
		}
		var ws []worse
		ours, isls, ops := 0, 0, 0
		c := NewCtx()
		for _, op := range loadTrace(t, path) {
			if !kinds[op.kind] {
				continue
			}
			in, err := parseAugur(op)
			if err != nil {
				t.Fatal(err)
			}
			m := in[0].(*presburger.Map)
			got, err := presburger.Coalesce(ctx, m)
			if err != nil {
				continue // out of budget: nothing to count
			}
			kind := "map"
			if m.Space().IsSet() {
				kind = "set"
			}
			o, err := readAs(c, kind, op.args[0])
			if err != nil {
				continue
			}
			res, err := islUnary("coalesce")([]iobj{o})
			o.Free()
			if err != nil {
				continue
			}
			r := res.(iobj)
			e := &env{c: c, ctx: ctx}
			if cmp := e.compare(got, r); cmp.out == disagree {
				t.Errorf("%s: coalesced results differ: augur %s, isl %s", op.describe(path), cmp.ours, cmp.isl)
			}
			n, k := got.NumBasics(), numBasic(r)
			r.Free()
			ours, isls, ops = ours+n, isls+k, ops+1
			if n > k {
				ws = append(ws, worse{fmt.Sprintf("%s:%d", name, op.line), n, k})
			}
		}
		if err := c.Free(); err != nil {
			t.Error(err)
		}
		sort.Slice(ws, func(i, j int) bool { return ws[i].ours-ws[i].isls > ws[j].ours-ws[j].isls })
		t.Logf("%s: %d maps coalesced, %d conjunctions (isl %d), %d maps with more than isl", name, ops, ours, isls, len(ws))
		for i, w := range ws {
			if i == 10 {
				break
			}
			t.Logf("  %s: %d conjunctions (isl %d)", w.at, w.ours, w.isls)
		}
	}
}
