package smt

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// script is a query mixing theories, with its known answer.
type script struct {
	name  string
	logic string
	build func(c *Context) []*Term
	want  Result
}

var scripts = []script{
	{"bv-wrap", "QF_BV", func(c *Context) []*Term {
		x := c.BVConst("x", 8)
		return []*Term{x.BVAdd(c.BV(1, 8)).BVULt(x)}
	}, Sat},
	{"int-no-wrap", "QF_LIA", func(c *Context) []*Term {
		n := c.IntConst("n")
		return []*Term{n.Add(c.Int(1)).Lt(n)}
	}, Unsat},
	{"recursive", "", func(c *Context) []*Term {
		sum := c.RecFuncDecl("sum", []*Sort{c.IntSort()}, c.IntSort())
		n := c.IntConst("n")
		if err := c.DefineRec(sum, []*Term{n}, n.Le(c.Int(0)).Ite(c.Int(0), n.Add(sum.Apply(n.Sub(c.Int(1)))))); err != nil {
			return []*Term{c.termErr(err)}
		}
		return []*Term{sum.Apply(c.Int(10)).Ne(c.Int(55))}
	}, Unsat},
	{"mixed", "", func(c *Context) []*Term {
		f := c.FuncDecl("f", []*Sort{c.IntSort(), c.BoolSort()}, c.UninterpretedSort("U"))
		n, x := c.IntConst("n"), c.BVConst("x", 8)
		q := c.Const("q", c.Float32Sort())
		return []*Term{
			f.Apply(n, c.True()).Eq(f.Apply(c.Int(3), c.False())),
			c.Float32(0.5).FPAdd(RNE, q).FPEq(c.Float32(0.75)),
			x.SignExt(8).BVSLt(c.BV(0, 16)),
		}
	}, Sat},
	{"quantified", "", func(c *Context) []*Term {
		h := c.FuncDecl("h", []*Sort{c.IntSort()}, c.IntSort())
		i := c.IntConst("i")
		return []*Term{c.Forall([]*Term{i}, h.Apply(i).Gt(i)), h.Apply(c.Int(1)).Lt(c.Int(0))}
	}, Unsat},
}

func TestSMTLIB2RoundTrip(t *testing.T) {
	z3, lookErr := exec.LookPath("z3")
	// One context for all: the QF_BV script must not carry the definition
	// of sum, a function over Int, although the context defines it.
	c := newCtx(t)
	built := make([][]*Term, len(scripts))
	for i, sc := range scripts {
		built[i] = sc.build(c)
	}
	for i, sc := range scripts {
		fs := built[i]
		t.Run(sc.name, func(t *testing.T) {
			if r, s := solve(t, c, fs...); r != sc.want {
				t.Fatalf("check: %v (%s), want %v", r, s.ReasonUnknown(), sc.want)
			}
			text, err := c.SMTLIB2(sc.logic, fs...)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.HasSuffix(text, "(check-sat)\n") || strings.Contains(text, "(get-model)") {
				t.Errorf("script does not end with check-sat alone:\n%s", text)
			}
			const options = "(set-option :produce-models true)\n(set-option :dump-models true)\n"
			if !strings.HasPrefix(text, options) {
				t.Errorf("script does not start with its options:\n%s", text)
			}
			if sc.logic != "" && !strings.HasPrefix(text, options+"(set-logic "+sc.logic+")\n") {
				t.Errorf("script does not set its logic after the options:\n%s", text)
			}

			// Parsed back in the same context and in a fresh one (so the
			// script's declarations are all it relies on), the assertions
			// give the same answer.
			for _, pc := range []*Context{c, newCtx(t)} {
				ts, err := pc.ParseSMTLIB2(text)
				if err != nil {
					t.Fatalf("parse:\n%s\n%v", text, err)
				}
				if r, s := solve(t, pc, ts...); r != sc.want {
					t.Errorf("parsed script: %v (%s), want %v\n%s", r, s.ReasonUnknown(), sc.want, text)
				}
			}

			t.Run("z3", func(t *testing.T) {
				if lookErr != nil {
					z3Missing(t, lookErr)
				}
				file := filepath.Join(t.TempDir(), sc.name+".smt2")
				if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
					t.Fatal(err)
				}
				// A CI step runs z3 on the script and checks its exit
				// status: 0 whatever the answer, the model after sat.
				out, err := exec.Command(z3, file).CombinedOutput()
				if err != nil {
					t.Errorf("z3 %s: %v:\n%s\nscript:\n%s", file, err, out, text)
				}
				first, rest, _ := strings.Cut(string(out), "\n")
				if first != sc.want.String() {
					t.Errorf("z3 %s said:\n%s\nwant %v; script:\n%s", file, out, sc.want, text)
				}
				if sc.want == Sat && !strings.Contains(rest, "define-fun") {
					t.Errorf("z3 printed no model:\n%s", out)
				}
				if sc.want != Sat && strings.TrimSpace(rest) != "" {
					t.Errorf("z3 printed more than its answer %v:\n%s", sc.want, out)
				}
			})
		})
	}
}

// z3Missing skips a test that needs the z3 executable, unless CI is set:
// there it must be installed.
func z3Missing(t *testing.T, err error) {
	t.Helper()
	if os.Getenv("CI") != "" {
		t.Fatalf("CI is set and the z3 executable is missing: %v", err)
	}
	t.Skip("the z3 executable is not installed: ", err)
}

func TestSMTLIB2KeepsNeededRecursiveDefinitions(t *testing.T) {
	c := newCtx(t)
	sum := defineSum(t, c)
	i := c.IntSort()
	twice := c.RecFuncDecl("twice", []*Sort{i}, i)
	n := c.IntConst("n")
	if err := c.DefineRec(twice, []*Term{n}, sum.Apply(n).Mul(c.Int(2))); err != nil {
		t.Fatal(err)
	}
	unused := c.RecFuncDecl("unused", []*Sort{i}, i)
	if err := c.DefineRec(unused, []*Term{n}, unused.Apply(n)); err != nil {
		t.Fatal(err)
	}
	x := c.BVConst("x", 8)
	for _, tc := range []struct {
		f          *Term
		keep, drop []string
		want       Result
	}{
		{x.BVAdd(c.BV(1, 8)).BVULt(x), nil, []string{"sum", "twice", "unused"}, Sat},
		{sum.Apply(c.Int(4)).Eq(c.Int(10)).Not(), []string{"sum"}, []string{"twice", "unused"}, Unsat},
		{twice.Apply(c.Int(4)).Eq(c.Int(20)).Not(), []string{"sum", "twice"}, []string{"unused"}, Unsat},
	} {
		text, err := c.SMTLIB2("", tc.f)
		if err != nil {
			t.Fatal(err)
		}
		for _, name := range tc.keep {
			if !strings.Contains(text, "( "+name+" (") && !strings.Contains(text, "("+name+" (") {
				t.Errorf("script lacks the definition of %s:\n%s", name, text)
			}
		}
		for _, name := range tc.drop {
			if strings.Contains(text, name) {
				t.Errorf("script mentions %s:\n%s", name, text)
			}
		}
		ts, err := newCtx(t).ParseSMTLIB2(text)
		if err != nil {
			t.Fatalf("%v\n%s", err, text)
		}
		if r, _ := solve(t, ts[0].Context(), ts...); r != tc.want {
			t.Errorf("parsed script: %v, want %v\n%s", r, tc.want, text)
		}
	}
}

func TestPruneRecDefs(t *testing.T) {
	in := `; a comment (with a paren
(declare-fun |odd name)| () Int)
(define-funs-rec ((f ((x Int)) Int) (g ((x Int)) Int)) ((g x) (f x)))
(define-fun-rec h ((x Int)) Int (h x))
(define-fun-rec k ((x Int)) Int (+ x 1))
(assert (= (f |odd name)|) 0))
(assert (= "a "" string with ( h" "x"))
`
	got := pruneRecDefs(in)
	if !strings.Contains(got, "define-funs-rec") || strings.Contains(got, "define-fun-rec h") || strings.Contains(got, "define-fun-rec k") {
		t.Errorf("pruned:\n%s", got)
	}
	if !strings.Contains(got, `(assert (= "a "" string with ( h" "x"))`) || !strings.Contains(got, "|odd name)|") {
		t.Errorf("pruned:\n%s", got)
	}
	for _, bad := range []string{"(assert", "(assert (= x 1)))", `(assert "x)`, "x (assert true)"} {
		if got := pruneRecDefs(bad); got != bad {
			t.Errorf("pruneRecDefs(%q) = %q, want it unchanged", bad, got)
		}
	}
}

func TestSolverSMTLIB2(t *testing.T) {
	c := newCtx(t)
	s, _ := c.NewSolver()
	x := c.IntConst("x")
	s.Assert(x.Gt(c.Int(2)))
	s.Push()
	s.Assert(x.Lt(c.Int(2)))
	text, err := s.SMTLIB2("")
	if err != nil {
		t.Fatal(err)
	}
	ts, err := c.ParseSMTLIB2(text)
	if err != nil || len(ts) != 2 {
		t.Fatalf("parsed %v, %v from\n%s", ts, err, text)
	}
	if r, _ := s.Check(context.Background()); r != Unsat {
		t.Errorf("solver: %v", r)
	}
}

func TestParseErrors(t *testing.T) {
	c := newCtx(t)
	for _, src := range []string{
		"(assert (> x 1))",                       // undeclared
		"(declare-fun x () Int)(assert (> x 1)",  // unbalanced
		"(declare-fun x () Int)(assert (+ x 1))", // not boolean
		"(declare-fun b () Bool)(assert (bvadd b b))",
	} {
		ts, err := c.ParseSMTLIB2(src)
		if err == nil {
			t.Errorf("ParseSMTLIB2(%q) = %v, no error", src, ts)
			continue
		}
		t.Logf("%q: %v", src, err)
	}
	// The context is still usable.
	ts, err := c.ParseSMTLIB2("(declare-fun x () Int)(assert (> x 1))(check-sat)")
	if err != nil || len(ts) != 1 {
		t.Fatalf("valid script: %v, %v", ts, err)
	}
	wantResult(t, c, Sat, ts...)
}

// FuzzPruneRecDefs checks that pruning never panics and leaves scripts it
// cannot read unchanged.
func FuzzPruneRecDefs(f *testing.F) {
	f.Add("(define-funs-rec ((f ((x Int)) Int)) ((f x)))(assert (= (f 1) 1))")
	f.Add("(define-fun-rec h ((x Int)) Int (h x))")
	f.Add(`(assert (= "a "" b" |q)|)) ; c`)
	f.Add("(define-funs-rec ((f ((x Int)) Int) (g)) ((f x)))")
	f.Fuzz(func(t *testing.T, s string) {
		out := pruneRecDefs(s)
		if _, ok := splitCommands(s); !ok && out != s {
			t.Errorf("unreadable script changed: %q -> %q", s, out)
		}
	})
}
