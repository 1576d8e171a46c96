package main

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/augur-verify/augur/frontend"
	"github.com/augur-verify/augur/frontend/compiler"
	"github.com/augur-verify/augur/syntax"
)

type compileFlags struct {
	pairFlags
	schedule   string
	auto       bool
	inject     string
	listInject bool
	cpuProfile string
	copies     bool
}

func newCompileCmd() *cobra.Command {
	var f compileFlags
	cmd := &cobra.Command{
		Use:   "compile ALG -o DIR [--schedule FILE | --auto] [--inject KIND] [--validate]",
		Short: "Compile an algorithm (.alg) to a specification and an annotated kernel",
		Long: `Compile reads a Halide-style algorithm (see docs/compiler.md), translates it
to a specification (DIR/spec.sare) and lowers it, with its schedule, to an
annotated kernel (DIR/prog.sched).

The schedule is the algorithm's own schedule block, or the one of
--schedule FILE (a schedule block, or its directive lines alone), or the
autoscheduler's (--auto); without any, every func is computed at the root
in natural loop order. Illegal schedules are rejected with the rule they
break.

An unrolled loop is emitted as a sequential loop, as the Halide front
end translates Halide's: the kernel is the loop nest before unrolling.
--unroll-copies emits one copy of its body per iteration instead.

--inject KIND compiles with a miscompilation on purpose, for watching Augur
catch it; --list-injections lists the kinds. An injection that does not
apply to the algorithm and schedule exits 3 saying so.

With --validate, the kernel is validated at once against the specification,
as augur validate does, and the exit status is augur validate's: 0 valid,
1 invalid, 2 unknown, 3 error. Without it: 0 compiled, 3 error. Usage
errors exit 3 in both cases.`,
		Args: func(cmd *cobra.Command, args []string) error {
			if f.listInject {
				return nil
			}
			if len(args) != 1 {
				return fmt.Errorf("compile takes one algorithm, got %d argument(s)", len(args))
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if f.listInject {
				for _, in := range compiler.Injections() {
					fmt.Fprintf(cmd.OutOrStdout(), "%-20s %s\n", in.Name, in.Description)
				}
				return nil
			}
			return compileAlg(cmd.Context(), cmd.OutOrStdout(), cmd.ErrOrStderr(), args[0], f)
		},
	}
	f.register(cmd, []string{frontend.Prog}, "validate the compiled kernel against its specification", 0)
	fl := cmd.Flags()
	fl.StringVar(&f.schedule, "schedule", "", "compile with the schedule of FILE instead of the algorithm's own")
	fl.BoolVar(&f.auto, "auto", false, "compile with the autoscheduler's schedule")
	fl.StringVar(&f.inject, "inject", "", "inject the miscompilation KIND (see --list-injections)")
	fl.BoolVar(&f.listInject, "list-injections", false, "list the injectable miscompilations, one per line")
	fl.StringVar(&f.cpuProfile, "cpuprofile", "", "write a CPU profile of the compile (go tool pprof) to this file")
	fl.BoolVar(&f.copies, "unroll-copies", false, "emit unrolled loops as copies of their body, one per iteration, instead of sequential loops")
	return cmd
}

func compileAlg(ctx context.Context, out, errw io.Writer, path string, f compileFlags) error {
	if ctx == nil {
		ctx = context.Background()
	}
	if err := f.needOut("compile"); err != nil {
		return err
	}
	src, err := readSource(path)
	if err != nil {
		return &exitError{code: exitMalformed, err: err}
	}
	if f.schedule != "" && f.auto {
		return usageError(errors.New("--schedule and --auto are exclusive"))
	}
	var schedule *syntax.Source
	if f.schedule != "" {
		if schedule, err = readSource(f.schedule); err != nil {
			return &exitError{code: exitMalformed, err: err}
		}
	}
	stop, err := startCPUProfile(f.cpuProfile)
	if err != nil {
		return usageError(err)
	}
	res, err := compiler.CompileSource(ctx, src, schedule, compiler.Options{Auto: f.auto, Inject: f.inject, UnrollCopies: f.copies})
	stop()
	if errors.Is(err, compiler.ErrNotApplicable) {
		return &exitError{code: exitMalformed, err: err}
	}
	if err != nil {
		return frontendError(errw, path, err)
	}
	if res.Injected != "" {
		fmt.Fprintf(errw, "augur compile: injected the miscompilation %s on purpose\n", res.Injected)
	}
	if f.auto {
		fmt.Fprintf(errw, "augur compile: the autoscheduler chose\n%s", res.Schedule)
	}
	return writePair(ctx, out, errw, &res.Pair, f.pairFlags)
}
