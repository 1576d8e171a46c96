//go:build isl

package islcheck

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/augur-verify/augur/presburger"
)

// This file runs differential cases: an op parses its inputs in both
// libraries, applies one operation in both, and isl compares the results.
// Disagreements are shrunk (pieces and constraints dropped while the
// disagreement persists) and reported with the smallest inputs found.

// iobj is an isl object of one of the four kinds the tests use.
type iobj struct {
	s  *Set
	m  *Map
	us *UnionSet
	um *UnionMap
}

func (o iobj) Free() {
	o.s.Free()
	o.m.Free()
	o.us.Free()
	o.um.Free()
}

func (o iobj) String() string {
	switch {
	case o.s != nil:
		return o.s.String()
	case o.m != nil:
		return o.m.String()
	case o.us != nil:
		return o.us.String()
	case o.um != nil:
		return o.um.String()
	}
	return "<none>"
}

func (o iobj) kind() string {
	switch {
	case o.s != nil:
		return "set"
	case o.m != nil:
		return "map"
	case o.us != nil:
		return "union_set"
	}
	return "union_map"
}

func (o iobj) equal(p iobj) (bool, error) {
	switch {
	case o.s != nil && p.s != nil:
		return o.s.IsEqual(p.s)
	case o.m != nil && p.m != nil:
		return o.m.IsEqual(p.m)
	case o.us != nil && p.us != nil:
		return o.us.IsEqual(p.us)
	case o.um != nil && p.um != nil:
		return o.um.IsEqual(p.um)
	}
	return false, fmt.Errorf("comparing a %s with a %s", o.kind(), p.kind())
}

func wrapSet(s *Set, err error) (iobj, error)       { return iobj{s: s}, err }
func wrapMap(m *Map, err error) (iobj, error)       { return iobj{m: m}, err }
func wrapUSet(s *UnionSet, err error) (iobj, error) { return iobj{us: s}, err }
func wrapUMap(m *UnionMap, err error) (iobj, error) { return iobj{um: m}, err }
func readAs(c *Ctx, kind, src string) (iobj, error) {
	switch kind {
	case "set":
		return wrapSet(c.ReadSet(src))
	case "map":
		return wrapMap(c.ReadMap(src))
	case "union_set":
		return wrapUSet(c.ReadUnionSet(src))
	}
	return wrapUMap(c.ReadUnionMap(src))
}

// outcome classifies one differential case.
type outcome int

const (
	agree    outcome = iota
	disagree         // a real difference: a bug in one of the two
	oursErr          // the engine failed (budget, timeout, unsupported)
	islErr           // isl failed (quota) or the case does not apply
	skip             // the operation does not apply to these inputs
)

// result is the verdict of one case with what each side produced.
type result struct {
	out       outcome
	ours, isl string
	note      string
}

func agreed() result                       { return result{out: agree} }
func skipped(note string) result           { return result{out: skip, note: note} }
func engineFailed(err error) result        { return result{out: oursErr, note: err.Error()} }
func oracleFailed(err error) result        { return result{out: islErr, note: err.Error()} }
func differ(ours, isl, note string) result { return result{disagree, ours, isl, note} }

// env is what an operation gets to run one case: the isl context and the
// engine's context.
type env struct {
	c   *Ctx
	ctx context.Context
	// piecesOurs and piecesIsl count the conjunctions of the results
	// compared by compare, on each side.
	piecesOurs, piecesIsl int
}

// numBasic returns the number of conjunctions of a set or map (0 for
// unions).
func numBasic(o iobj) int {
	var n int
	switch {
	case o.s != nil:
		n, _ = o.s.NumBasic()
	case o.m != nil:
		n, _ = o.m.NumBasic()
	}
	return n
}

// parse reads o in both libraries.
func (e *env) parse(o obj) (*presburger.Map, iobj, error) {
	src := o.String()
	m, err := presburger.ParseMap(src)
	if err != nil {
		return nil, iobj{}, fmt.Errorf("engine parse: %w", err)
	}
	kind := "map"
	if o.sh.isSet() {
		kind = "set"
	}
	i, err := readAs(e.c, kind, src)
	if err != nil {
		return nil, iobj{}, fmt.Errorf("isl parse: %w", err)
	}
	return m, i, nil
}

// compare reads the engine's printed result into isl, in the kind of isl's
// result, and asks isl whether the two are equal.
func (e *env) compare(ours fmt.Stringer, theirs iobj) result {
	txt := fixConstDivs(ours.String())
	back, err := readAs(e.c, theirs.kind(), txt)
	return compareRead(txt, back, err, theirs, "output", func() {
		if n, ok := ours.(interface{ NumBasics() int }); ok {
			e.piecesOurs += n.NumBasics()
			e.piecesIsl += numBasic(theirs)
		}
	})
}

// compareRead compares back, the engine's result txt as isl read it (err
// is the error of the reading), with isl's result theirs; what names the
// engine's result in the messages. Once the two are compared, counted
// (when not nil) is called, whatever the answer.
func compareRead(txt string, back iobj, err error, theirs iobj, what string, counted func()) result {
	if err != nil && strings.Contains(err.Error(), "quota") {
		return oracleFailed(err)
	}
	if err != nil {
		return differ(txt, theirs.String(), "isl cannot read the engine's "+what+": "+err.Error())
	}
	defer back.Free()
	eq, err := back.equal(theirs)
	if err != nil {
		if strings.Contains(err.Error(), "quota") {
			return oracleFailed(err)
		}
		return differ(txt, theirs.String(), "isl cannot compare: "+err.Error())
	}
	if counted != nil {
		counted()
	}
	if !eq {
		return differ(txt, theirs.String(), "")
	}
	return agreed()
}

func compareBool(ours, theirs bool) result {
	if ours != theirs {
		return differ(fmt.Sprint(ours), fmt.Sprint(theirs), "")
	}
	return agreed()
}

// constDiv matches a division with a constant numerator, "floor(-2/2)",
// which the engine prints and isl's parser rejects.
var constDiv = regexp.MustCompile(`floor\((-?[0-9]+)/`)

// constDivs counts the engine outputs that needed fixConstDivs.
var constDivs int

// fixConstDivs parenthesises constant numerators of divisions so that isl
// reads the engine's output; the rewrite does not change its meaning.
func fixConstDivs(s string) string {
	if !constDiv.MatchString(s) {
		return s
	}
	constDivs++
	return constDiv.ReplaceAllString(s, "floor(($1)/")
}

// op is one differential check: gen draws inputs, run applies the
// operation in both libraries and compares.
type op struct {
	name string
	gen  func(g *gen) []obj
	run  func(e *env, in []obj) result
}

type counts struct {
	agree, disagree, oursErr, islErr, skip int
	piecesOurs, piecesIsl                  int
	elapsed, slowest                       time.Duration
	slowCase                               string
}

// failure is a disagreement, shrunk, for the report.
type failure struct {
	op     string
	inputs []string
	res    result
}

// islMaxOps bounds the work of one isl call (isl's own operation count).
const islMaxOps = 3_000_000

// engineTimeout bounds one engine operation; shrinkTime bounds the
// shrinking of one disagreement.
const (
	engineTimeout = 2 * time.Second
	shrinkTime    = 20 * time.Second
)

func runCase(c *Ctx, o op, in []obj) (res result) {
	res, _ = runCaseEnv(c, o, in)
	return res
}

// runCaseEnv runs one case and also returns its environment (with the
// conjunction counts of the compared results).
func runCaseEnv(c *Ctx, o op, in []obj) (res result, e *env) {
	ctx, cancel := context.WithTimeout(context.Background(), engineTimeout)
	defer cancel()
	c.SetMaxOperations(islMaxOps)
	e = &env{c: c, ctx: ctx}
	defer func() {
		if r := recover(); r != nil {
			res = differ(fmt.Sprintf("panic: %v", r), "", "engine panicked")
		}
	}()
	return o.run(e, in), e
}

// shrink removes pieces and atoms from in as long as the case keeps
// disagreeing, and returns the smallest inputs found with their result.
func shrink(c *Ctx, o op, in []obj, res result) ([]obj, result) {
	cur := make([]obj, len(in))
	for i := range in {
		cur[i] = in[i].copy()
	}
	deadline := time.Now().Add(shrinkTime)
	for rounds := 0; rounds < 200 && time.Now().Before(deadline); rounds++ {
		changed := false
		for k := range cur {
			for p := 0; p < len(cur[k].pieces) && !changed; p++ {
				if len(cur[k].pieces) > 1 {
					try := clone(cur)
					try[k].pieces = append(try[k].pieces[:p], try[k].pieces[p+1:]...)
					if r := runCase(c, o, try); r.out == disagree {
						cur, res, changed = try, r, true
						break
					}
				}
				for a := 0; a < len(cur[k].pieces[p]); a++ {
					try := clone(cur)
					try[k].pieces[p] = append(try[k].pieces[p][:a], try[k].pieces[p][a+1:]...)
					if r := runCase(c, o, try); r.out == disagree {
						cur, res, changed = try, r, true
						break
					}
				}
			}
		}
		if !changed {
			break
		}
	}
	return cur, res
}

func clone(in []obj) []obj {
	out := make([]obj, len(in))
	for i := range in {
		out[i] = in[i].copy()
	}
	return out
}

// runOps runs n random cases of every op and reports the counts; every
// disagreement is shrunk and reported as a test error.
func runOps(t *testing.T, seed uint64, n int, hard bool, ops []op) {
	c := NewCtx()
	defer func() {
		if err := c.Free(); err != nil {
			t.Error(err)
		}
	}()
	total := map[string]*counts{}
	var fails []failure
	classes := map[string]int{}
	for k, o := range ops {
		g := newGen(seed + uint64(k)*7919)
		g.hard = hard
		cn := &counts{}
		total[o.name] = cn
		seen := map[string]bool{}
		start := time.Now()
		for i := 0; i < n; i++ {
			in := o.gen(g)
			t0 := time.Now()
			res, e := runCaseEnv(c, o, in)
			cn.piecesOurs += e.piecesOurs
			cn.piecesIsl += e.piecesIsl
			if d := time.Since(t0); d > cn.slowest {
				cn.slowest, cn.slowCase = d, inputsString(in)
			}
			switch res.out {
			case agree:
				cn.agree++
			case oursErr:
				cn.oursErr++
				if testing.Verbose() && cn.oursErr <= 3 {
					t.Logf("%s: engine error on %s: %s", o.name, inputsString(in), res.note)
				}
			case islErr:
				cn.islErr++
				if testing.Verbose() && cn.islErr <= 2 {
					t.Logf("%s: isl error on %s: %s", o.name, inputsString(in), res.note)
				}
			case skip:
				cn.skip++
			case disagree:
				cn.disagree++
				// Shrink and report the first few disagreements of each
				// kind (operation and note); count the others.
				class := o.name + "\x00" + res.note
				classes[class]++
				if classes[class] > maxPerClass {
					continue
				}
				small, sres := shrink(c, o, in, res)
				key := inputsString(small)
				if seen[key] {
					continue
				}
				seen[key] = true
				fails = append(fails, failure{o.name, strs(small), sres})
			}
		}
		cn.elapsed = time.Since(start)
		if c.Live() != 0 {
			t.Errorf("%s: %d isl objects leaked", o.name, c.Live())
		}
	}
	names := make([]string, 0, len(total))
	for k := range total {
		names = append(names, k)
	}
	sort.Strings(names)
	var b strings.Builder
	fmt.Fprintf(&b, "%-24s %6s %6s %8s %6s %6s %8s %14s\n", "operation", "agree", "differ", "ourerr", "islerr", "skip", "time", "pieces ours/isl")
	for _, k := range names {
		cn := total[k]
		fmt.Fprintf(&b, "%-24s %6d %6d %8d %6d %6d %8s %7d/%d\n", k, cn.agree, cn.disagree, cn.oursErr, cn.islErr, cn.skip, cn.elapsed.Round(time.Millisecond), cn.piecesOurs, cn.piecesIsl)
	}
	t.Logf("differential results (seed %d, %d cases per operation):\n%s", seed, n, b.String())
	if constDivs > 0 {
		t.Logf("engine outputs with a constant division numerator (unreadable by isl, rewritten): %d", constDivs)
	}
	if testing.Verbose() {
		for _, k := range names {
			t.Logf("%s: slowest case %s: %s", k, total[k].slowest.Round(time.Millisecond), total[k].slowCase)
		}
	}
	for class, n := range classes {
		if n > maxPerClass {
			op, note, _ := strings.Cut(class, "\x00")
			t.Errorf("%s: %d more disagreements like the ones below%s", op, n-maxPerClass, noteOf(note))
		}
	}
	for _, f := range fails {
		t.Errorf("%s disagrees with isl%s\ninputs:\n  %s\nengine: %s\nisl:    %s", f.op, noteOf(f.res.note),
			strings.Join(f.inputs, "\n  "), f.res.ours, f.res.isl)
	}
}

// maxPerClass bounds the disagreements of one kind that are shrunk and
// reported in full.
const maxPerClass = 3

func noteOf(s string) string {
	if s == "" {
		return ""
	}
	return " (" + s + ")"
}

func strs(in []obj) []string {
	out := make([]string, len(in))
	for i, o := range in {
		out[i] = o.String()
	}
	return out
}

func inputsString(in []obj) string { return strings.Join(strs(in), " | ") }

// isBudget reports whether err is the engine giving up rather than a wrong
// answer.
func isBudget(err error) bool {
	return errors.Is(err, presburger.ErrBudget) || errors.Is(err, context.DeadlineExceeded) ||
		errors.Is(err, presburger.ErrUnsupportedExistential)
}
