package main

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/augur-verify/augur/bench"
	"github.com/augur-verify/augur/frontend"
	"github.com/augur-verify/augur/frontend/halide"
	"github.com/augur-verify/augur/validate"
)

type halideFlags struct {
	pairFlags
	generator string
	params    []string
	target    string
	mutate    string
	stage     string
	build     buildFlags
	// assumeIndexes keeps a VALID verdict whose final code's index
	// overflow checks are not all proved, stating the assumption.
	assumeIndexes bool
	// indexResources bounds each index overflow check, in Z3's resource
	// units.
	indexResources uint64
}

func newHalideCmd() *cobra.Command {
	var f halideFlags
	cmd := &cobra.Command{
		Use:   "halide GEN.cpp [SRC.cpp]... [-I DIR]... [-D NAME[=V]]... [-l LIB]... [--compile-commands FILE] [-g NAME] [--param k=v]... [--target T] [--stage final|before-flattening] -o DIR [--validate [--sarif FILE]] [--mutate KIND]",
		Short: "Translate what stock Halide 14 compiles from a Generator into a specification and an annotated kernel",
		Long: `Halide compiles a Halide 14 Generator source together with Augur's
translator against libHalide (Halide.h from $HALIDE_INCLUDE, default
/usr/include/halide14; -lHalide14, or $HALIDE_LIBS; the compiler $CXX,
default g++), runs it, and writes DIR/spec.sare, the generator's algorithm
as a specification, and DIR/prog.sched, Halide's own loop nest after every
lowering pass before storage flattening, each store annotated with the
stage it computes (see docs/halide.md).

The translator and each generator are compiled once and kept in a cache
($AUGUR_CACHE_DIR, default the user cache directory's augur/halide).

-g NAME picks the generator when the source registers several; --param
sets GeneratorParams; --target sets Halide's target (default host).

A generator that spans several files is given all its sources; -I, -D
and -l (--link) add include directories, definitions and libraries, or
--compile-commands FILE takes the include directories, definitions and
language standard of the first source's entry in a compilation database
(compile_commands.json). The cache notices changes to every source, flag
and included header.

--sarif FILE (with --validate) also writes the verdict as SARIF 2.1.0,
each result at the generator's registration in its source and at the
kernel's statement; --sarif-root DIR names the files under DIR relative
to it.

--stage final translates Halide's final statement instead, after every
lowering pass Halide runs for a CPU target before lower_parallel_tasks,
its flattened accesses delinearised (see docs/halide.md, "Stages").
It also writes DIR/index.json, the condition of every access that its
int32 index arithmetic does not overflow; with --validate each is
decided (Z3, --index-resources units each) and listed in the report,
and one not proved makes a VALID verdict UNKNOWN, unless
--assume-no-index-overflow (docs/halide.md, "Index overflow").

--mutate KIND plants a miscompilation in prog.sched before it is written
(for testing the validator on real Halide output): fold[:N], guard[:K],
compute-at[:K] or sliding[:K] (see docs/halide.md).

With --validate, the kernel is validated at once against the
specification, as augur validate does, and the exit status is augur
validate's: 0 valid, 1 invalid, 2 unknown, 3 error. An INVALID's
counterexample is then run on Halide's own compiled pipeline (twice, its
memory poisoned) and on the algorithm unscheduled, and the report says
whether Halide's code confirms it or not, and then what the difference
would need to show (uninitialized memory, a race) or that the
translation is suspect. When Halide's code stops on the counterexample
at a check that the translation leaves out of the kernel (storage
folding's, or the product of a buffer's extents, computed before any
run), the verdict is UNKNOWN (exit status 2): the kernel goes on where
Halide's code stops. So it is when the counterexample needs a signed
overflow, undefined in Halide, or cannot be run on Halide's code nor
replayed to tell whether it does. --json prints the report as JSON, the outcome
on Halide's code as its "native" field. Without --validate: 0 written, 3
on any error (a construct that cannot be translated is named).`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return &exitError{code: exitMalformed, err: fmt.Errorf("halide takes the generator's sources, got none")}
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			f.build.sources = args
			return runHalide(cmd.Context(), cmd.OutOrStdout(), cmd.ErrOrStderr(), args[0], f)
		},
	}
	f.register(cmd, []string{frontend.Prog}, "validate the kernel against its specification", 0)
	fl := cmd.Flags()
	fl.StringVarP(&f.generator, "generator", "g", "", "the generator to run, when the source registers several")
	fl.StringArrayVar(&f.params, "param", nil, "a GeneratorParam, key=value (repeatable)")
	fl.StringVar(&f.target, "target", "host", "Halide's target")
	fl.StringVar(&f.stage, "stage", string(halide.StageBeforeFlattening), "the statement translated: before-flattening, or final (after every lowering pass, flattened accesses delinearised)")
	fl.StringVar(&f.mutate, "mutate", "", "plant a miscompilation in prog.sched: fold[:N], guard[:K], compute-at[:K], sliding[:K]")
	fl.BoolVar(&f.assumeIndexes, "assume-no-index-overflow", false, "with --validate --stage final: keep a VALID verdict whose index overflow checks are not all proved, and say it assumes no index overflows")
	fl.Uint64Var(&f.indexResources, "index-resources", validate.IndexResources, "with --validate --stage final: Z3's resource limit of each index overflow check")
	fl.BoolVar(&f.json, "json", false, "with --validate: print the report as JSON (what was written goes to the standard error)")
	f.build.register(cmd)
	return cmd
}

func runHalide(ctx context.Context, out, errw io.Writer, gen string, f halideFlags) error {
	if ctx == nil {
		ctx = context.Background()
	}
	if err := f.needOut("halide"); err != nil {
		return err
	}
	stage, err := halide.ParseStage(f.stage)
	if err != nil {
		return usageError(fmt.Errorf("--stage: %w", err))
	}
	opts := halide.Options{Generator: f.generator, Target: f.target, Params: map[string]string{}, Stage: stage}
	for _, p := range f.params {
		k, v, ok := strings.Cut(p, "=")
		if !ok || k == "" {
			return &exitError{code: exitMalformed, err: fmt.Errorf("--param %q: want key=value", p)}
		}
		opts.Params[k] = v
	}
	g, err := f.build.generator()
	if err != nil {
		return err
	}
	if f.build.sarif != "" && !f.validate {
		return usageError(fmt.Errorf("--sarif needs --validate"))
	}
	tc := halide.Default()
	tc.Progress = func(step string) { fmt.Fprintf(errw, "augur halide: %s...\n", step) }
	driver, err := tc.Build(ctx, g)
	if err != nil {
		return &exitError{code: exitMalformed, err: err}
	}
	res, err := halide.TranslateResult(ctx, driver, opts)
	if err != nil {
		return &exitError{code: exitMalformed, err: fmt.Errorf("%s: %w", gen, err)}
	}
	pair := &res.Pair
	if f.mutate != "" {
		prog := pair.Kernel(frontend.Prog)
		mutated, desc, err := halide.Mutate(prog.Text, f.mutate)
		if err != nil {
			return &exitError{code: exitMalformed, err: err}
		}
		prog.Text = mutated
		wrote := out
		if f.json {
			wrote = errw
		}
		fmt.Fprintf(wrote, "mutated %s: %s\n", filepath.Join(f.out, prog.File()), desc)
	}
	f.amend = confirmOnHalide(driver, opts, res, f.valueModel)
	if stage == halide.StageFinal {
		f.finish = checkIndexes(res.IndexChecks, f.indexResources, f.assumeIndexes)
		if err := writeIndexChecks(f.out, res.IndexChecks); err != nil {
			return &exitError{code: exitMalformed, err: err}
		}
	}
	if f.derived, err = bench.DerivedHypotheses(res.Derived); err != nil {
		return &exitError{code: exitMalformed, err: fmt.Errorf("%s: %w", gen, err)}
	}
	if f.build.sarif != "" {
		return writePairSARIF(ctx, out, errw, pair, f.pairFlags, g, opts.Generator, f.build)
	}
	return writePair(ctx, out, errw, pair, f.pairFlags)
}

// writeIndexChecks writes the index overflow obligations to
// dir/index.json.
func writeIndexChecks(dir string, obs []frontend.IndexObligation) error {
	b, err := json.MarshalIndent(obs, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "index.json"), append(b, '\n'), 0o644)
}

// checkIndexes returns the step that decides the index overflow
// obligations of Halide's final statement and records them in the report
// (validate.Report.ApplyIndexChecks): a VALID verdict with an index not
// proved within int32 becomes UNKNOWN, unless assume. A check that fails
// to run leaves the verdict UNKNOWN, its reason naming the failure.
func checkIndexes(obs []frontend.IndexObligation, resources uint64, assume bool) func(context.Context, *validate.Report) {
	return func(ctx context.Context, rep *validate.Report) {
		checks, err := validate.CheckIndexes(ctx, obs, resources)
		if err != nil {
			if rep.Verdict == validate.Valid {
				rep.Verdict = validate.Unknown
				rep.Reason = "the index overflow checks failed: " + err.Error()
			}
			return
		}
		rep.ApplyIndexChecks(checks, assume)
	}
}

// buildFlags say how a generator builds: its sources (the arguments) and
// the flags of the project's build, given one by one or read from a
// compilation database; and where the SARIF report goes.
type buildFlags struct {
	sources         []string
	includes        []string
	defines         []string
	links           []string
	compileCommands string
	sarif           string
	sarifRoot       string
}

// register adds the build's flags to cmd.
func (b *buildFlags) register(cmd *cobra.Command) {
	fl := cmd.Flags()
	fl.StringArrayVarP(&b.includes, "include", "I", nil, "an include directory of the generator's sources (repeatable)")
	fl.StringArrayVarP(&b.defines, "define", "D", nil, "a preprocessor definition, NAME or NAME=VALUE (repeatable)")
	fl.StringArrayVarP(&b.links, "link", "l", nil, "a library the generator needs: NAME (as -lNAME), a library file, or a linker flag (repeatable)")
	fl.StringVar(&b.compileCommands, "compile-commands", "", "take the first source's include directories, definitions and -std from this compile_commands.json")
	fl.StringVar(&b.sarif, "sarif", "", "with --validate: write the verdict as SARIF 2.1.0 to this file")
	fl.StringVar(&b.sarifRoot, "sarif-root", "", "with --sarif: name the files under this directory (the repository's root) relative to it")
}

// generator is the generator the flags describe: the flags of the
// compilation database's entry for the first source, if one is named,
// then those given on the command line.
func (b *buildFlags) generator() (halide.Generator, error) {
	for _, s := range b.sources {
		if _, err := os.Stat(s); err != nil {
			return halide.Generator{}, &exitError{code: exitMalformed, err: err}
		}
	}
	g := halide.Generator{Sources: b.sources}
	if b.compileCommands != "" {
		db, err := halide.FromCompileCommands(b.compileCommands, b.sources[0])
		if err != nil {
			return halide.Generator{}, &exitError{code: exitMalformed, err: err}
		}
		g.Includes, g.Defines, g.Std = db.Includes, db.Defines, db.Std
	}
	g.Includes = append(g.Includes, b.includes...)
	g.Defines = append(g.Defines, b.defines...)
	for _, l := range b.links {
		switch {
		case l == "":
			return halide.Generator{}, usageError(fmt.Errorf("--link needs a library"))
		case strings.HasPrefix(l, "-") || strings.ContainsRune(l, '/') || strings.HasSuffix(l, ".a") || strings.Contains(l, ".so"):
			g.Libs = append(g.Libs, l)
		default:
			g.Libs = append(g.Libs, "-l"+l)
		}
	}
	return g, nil
}

// writePairSARIF writes the pair and validates its kernel as writePair
// does, printing the same report, and writes the verdict as SARIF 2.1.0
// to b.sarif (see writeSARIF), each result located at the kernel's
// statement and, first, at the line of the generator's source that
// registers the generator named name (the first registration when name
// is empty), files under b.sarifRoot named relative to it.
func writePairSARIF(ctx context.Context, out, errw io.Writer, pair *frontend.Pair, f pairFlags, g halide.Generator, name string, b buildFlags) error {
	pf := f
	pf.validate = false
	if err := writePair(ctx, out, errw, pair, pf); err != nil {
		return err
	}
	prog := pair.Kernel(frontend.Prog)
	vf := f.validateFlags()
	vf.json = true
	var js bytes.Buffer
	verr := validateKernel(ctx, &js, errw, filepath.Join(f.out, frontend.SpecFile), filepath.Join(f.out, prog.File()), vf)
	var rep validate.Report
	if err := json.Unmarshal(js.Bytes(), &rep); err != nil {
		if verr != nil {
			return verr
		}
		return &exitError{code: exitMalformed, err: fmt.Errorf("reading the report back: %w", err)}
	}
	if f.json {
		if _, err := out.Write(js.Bytes()); err != nil {
			return err
		}
	} else if err := rep.WriteText(out, false); err != nil {
		return err
	}
	var doc bytes.Buffer
	if err := writeSARIF(&doc, answer{rep: &rep}); err != nil {
		return err
	}
	located, err := atRegistration(doc.Bytes(), g.Sources, name, b.sarifRoot)
	if err != nil {
		return &exitError{code: exitMalformed, err: err}
	}
	if err := os.WriteFile(b.sarif, located, 0o644); err != nil {
		return &exitError{code: exitMalformed, err: err}
	}
	return verr
}

// atRegistration adds to every result of the SARIF document doc a first
// location: the line of sources that registers the generator name
// (HALIDE_REGISTER_GENERATOR), so that code-scanning tools show the
// result on the generator (none when no source registers it). Files
// under root, when it is not empty, are named relative to it, as
// code-scanning tools want the repository's files named.
func atRegistration(doc []byte, sources []string, name, root string) ([]byte, error) {
	var log sarifLog
	if err := json.Unmarshal(doc, &log); err != nil {
		return nil, err
	}
	var at []sarifLocation
	if file, line := registration(sources, name); file != "" {
		at = location(file, line, 1)
	}
	for i := range log.Runs {
		for j, r := range log.Runs[i].Results {
			locs := append(slices.Clone(at), r.Locations...)
			for k := range locs {
				locs[k].PhysicalLocation.ArtifactLocation.URI = underRoot(locs[k].PhysicalLocation.ArtifactLocation.URI, root)
			}
			log.Runs[i].Results[j].Locations = locs
		}
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	if err := enc.Encode(log); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// underRoot names the file uri relative to root when it is under root.
func underRoot(uri, root string) string {
	if root == "" {
		return uri
	}
	absRoot, err1 := filepath.Abs(root)
	abs, err2 := filepath.Abs(filepath.FromSlash(uri))
	if err1 != nil || err2 != nil {
		return uri
	}
	rel, err := filepath.Rel(absRoot, abs)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return uri
	}
	return filepath.ToSlash(rel)
}

// registration finds the source and line of HALIDE_REGISTER_GENERATOR
// for the generator name (any, when name is empty).
func registration(sources []string, name string) (string, int) {
	for _, s := range sources {
		b, err := os.ReadFile(s)
		if err != nil {
			continue
		}
		for i, l := range strings.Split(string(b), "\n") {
			rest, ok := strings.CutPrefix(strings.TrimSpace(l), "HALIDE_REGISTER_GENERATOR(")
			if !ok {
				continue
			}
			args := strings.Split(strings.TrimSuffix(strings.TrimSpace(rest), ")"), ",")
			if name == "" || (len(args) >= 2 && strings.TrimSpace(args[1]) == name) {
				return s, i + 1
			}
		}
	}
	return "", 0
}

// unconfirmedDerived makes an invalid report whose counterexample Halide's
// code did not confirm unknown when the translation abstracts integers
// Halide computes from float inputs as parameters (halide.DerivedParam): the
// counterexample may give them values their computations never give.
func unconfirmedDerived(rep *validate.Report, d []halide.DerivedParam) {
	if len(d) == 0 || rep.Verdict != validate.Invalid || (rep.Native != nil && rep.Native.Outcome == validate.NativeConfirmed) {
		return
	}
	var names []string
	for _, p := range d {
		names = append(names, p.Name)
	}
	rep.Verdict = validate.Unknown
	rep.Reason = fmt.Sprintf("a counterexample (%s) that Halide's code does not confirm, whose parameters %s, integers Halide computes from float inputs, may have values there that their computations do not give",
		rep.Reason, strings.Join(names, ", "))
}

// notRun settles an invalid report whose counterexample w could not be
// run on Halide's code (rep.Native says why): the reference
// interpreter's replay tells whether its failure needs a signed overflow
// (halide.OverflowReplay), and then the verdict is UNKNOWN with cause
// signed overflow; when the replay cannot finish either, UNKNOWN too,
// saying why; otherwise the INVALID stands, a claim about the kernel
// whose arithmetic does not overflow on w.
func notRun(ctx context.Context, rep *validate.Report, pair *halide.Result, w halide.Witness, tol float64) {
	n := rep.Native
	needs, undecided, err := halide.OverflowReplay(ctx, pair.Spec, pair.Kernel(frontend.Prog).Text, w, halide.ReplayEquality(tol), tol)
	switch {
	case err != nil:
		undecided = err.Error()
	case needs:
		n.Cause = validate.CauseOverflow
		n.Reason += "; the counterexample needs a signed overflow of the kernel's arithmetic, undefined in Halide: with the kernel's i32 and i64 overflow unconstrained, the reference interpreter's replay passes"
		rep.Verdict, rep.Reason = validate.Unknown, halide.OverflowReason
		return
	}
	if undecided != "" {
		rep.Verdict, rep.Reason = validate.Unknown, halide.NotRunReason(n.Reason, undecided)
	}
}

// confirmTolerance is the relative tolerance of float outputs compared in
// the real value model: Halide's code generator may contract multiplies
// and adds into fused ones (as the JIT sample's check allows).
const confirmTolerance = 1e-5

// confirmOnHalide returns the step that runs Halide's compiled pipeline
// (the generator's driver, with the options of the translation) on an
// invalid report's counterexample and puts the outcome in the report
// (docs/halide.md, "Confirming an INVALID on Halide's code"); when
// Halide's code stops at a check the translation leaves out, or the
// counterexample Halide's code does not confirm needs a signed overflow
// of the kernel's arithmetic, lies where the algorithm has no value, or
// fails only at values sensitive to rounding, the verdict becomes
// UNKNOWN.
func confirmOnHalide(driver string, opts halide.Options, pair *halide.Result, valueModel string) func(context.Context, *validate.Report) {
	return func(ctx context.Context, rep *validate.Report) {
		defer unconfirmedDerived(rep, pair.Derived)
		cx := rep.Counterexample
		w := halide.Witness{Params: map[string]int64{}, Seed: cx.Seed, Kind: cx.Kind}
		for _, p := range cx.Params {
			w.Params[p.Name] = p.Value
		}
		for _, x := range cx.Inputs {
			w.Inputs = append(w.Inputs, halide.Cell{Tensor: x.Tensor, Index: x.Index, Value: x.Value})
		}
		tol := confirmTolerance
		if valueModel == "ieee" {
			tol = 0
		}
		n := &validate.NativeCheck{Compiler: "Halide", Inputs: cx.Inputs, Seed: cmp.Or(cx.Seed, 1)}
		rep.Native = n
		c, err := halide.Confirm(ctx, driver, opts, pair.Spec, pair.Kernel(frontend.Prog).Text, w, tol)
		if err != nil {
			n.Outcome, n.Reason = validate.NativeNotRun, err.Error()
			notRun(ctx, rep, pair, w, tol)
			return
		}
		n.Reason, n.Compared, n.Differing = c.Reason, c.Compared, c.Differing
		n.Outcome = validate.NativeNotReproduced
		if c.Outcome == halide.Confirmed {
			n.Outcome = validate.NativeConfirmed
		}
		n.Cause = map[halide.Cause]validate.NativeCause{
			halide.UninitializedMemory: validate.CauseUninitializedMemory,
			halide.Race:                validate.CauseRace,
			halide.OutsideBuffers:      validate.CauseOutsideBuffers,
			halide.Translation:         validate.CauseTranslation,
			halide.CheckLeftOut:        validate.CauseCheckLeftOut,
			halide.Overflow:            validate.CauseOverflow,
			halide.Undefined:           validate.CauseUndefined,
			halide.Rounding:            validate.CauseRounding,
		}[c.Cause]
		switch c.Cause {
		case halide.CheckLeftOut:
			// Halide's code stops where the kernel goes on: the
			// INVALID is no claim about Halide.
			rep.Verdict, rep.Reason = validate.Unknown, halide.DroppedCheckReason(c.Check)
		case halide.Overflow:
			// The counterexample needs an overflow Halide leaves
			// undefined: no claim about Halide either.
			rep.Verdict, rep.Reason = validate.Unknown, halide.OverflowReason
		case halide.Undefined:
			// The counterexample lies outside the algorithm's domain.
			rep.Verdict, rep.Reason = validate.Unknown, halide.UndefinedReason
		case halide.Rounding:
			// The counterexample's failing values are not ones a
			// float computation can be held to.
			rep.Verdict, rep.Reason = validate.Unknown, halide.RoundingReason
		}
		if c.Inputs != nil {
			n.Inputs, n.AllInputs = nil, true
			for _, x := range c.Inputs {
				n.Inputs = append(n.Inputs, validate.InputValue{Tensor: x.Tensor, Index: x.Index, Value: x.Value})
			}
		}
		for _, d := range c.Differences {
			n.Cells = append(n.Cells, validate.NativeCell{Tensor: d.Tensor, Index: d.Index,
				Expected: d.Expected, Unscheduled: d.Unscheduled, Actual: d.Actual, Again: d.Again})
		}
	}
}
