package main

import (
	"context"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/augur-verify/augur/frontend"
	"github.com/augur-verify/augur/frontend/atl"
)

type atlFlags struct {
	pairFlags
	opts atl.Options
}

func newAtlCmd() *cobra.Command {
	var f atlFlags
	cmd := &cobra.Command{
		Use:   "atl FILE.atl -o DIR [--validate]",
		Short: "Compile an ATL program to a specification and an annotated kernel",
		Long: `Atl reads a program of ATL, a functional tensor language, with its wide
bindings and GenRec (see docs/atl.md), checks its shapes and the side conditions of its lowering
(the pad type system for truncations, independent lanes of wide bindings,
backward GenRec lookbacks), and writes DIR/spec.sare, the program's meaning
as a specification, and DIR/prog.sched, its lowering through reindexers to
loops, each store annotated. Arrays keep their shape; with --flat they are
stored flat at their row-major offsets, as ATL's C does. With a schedule in the file, the schedule is
lowered and validated against the def.

--no-pad-check, --no-lane-check, --no-lookback-check, --printed-flatten and
--no-zero-fill lower programs the sound front end rejects, with the
misprinted flatten reindexer (i1*dim2 + i1), or without zero-filling the
allocations, to watch Augur catch the resulting miscompilations.

With --validate, the kernel is validated at once against the
specification, as augur validate does, and the exit status is augur
validate's: 0 valid, 1 invalid, 2 unknown, 3 error. Without it: 0 written,
3 on any error (printed with its position).`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) != 1 {
				return fmt.Errorf("atl takes one program, got %d argument(s)", len(args))
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			return runAtl(cmd.Context(), cmd.OutOrStdout(), cmd.ErrOrStderr(), args[0], f)
		},
	}
	f.register(cmd, []string{frontend.Prog}, "validate the kernel against its specification", 0)
	fl := cmd.Flags()
	fl.BoolVar(&f.opts.NoPadCheck, "no-pad-check", false, "lower truncations the pad type system rejects (the truncation bug)")
	fl.BoolVar(&f.opts.NoLaneCheck, "no-lane-check", false, "fuse wide-binding lanes that read each other")
	fl.BoolVar(&f.opts.NoLookbackCheck, "no-lookback-check", false, "lower GenRecs that read cells not yet computed")
	fl.BoolVar(&f.opts.PrintedFlatten, "printed-flatten", false, "lower flatten with the misprinted reindexer (i1*dim2 + i1)")
	fl.BoolVar(&f.opts.Flat, "flat", false, "store arrays flat at their row-major offsets, as ATL's C (inner dimensions must be constants)")
	fl.BoolVar(&f.opts.NoZeroFill, "no-zero-fill", false, "leave allocations uninitialised (the lowering relies on zero-filled ones)")
	return cmd
}

func runAtl(ctx context.Context, out, errw io.Writer, path string, f atlFlags) error {
	if ctx == nil {
		ctx = context.Background()
	}
	if err := f.needOut("atl"); err != nil {
		return err
	}
	src, err := readSource(path)
	if err != nil {
		return &exitError{code: exitMalformed, err: err}
	}
	res, err := atl.Compile(ctx, src, f.opts)
	if err != nil {
		return frontendError(errw, path, err)
	}
	for _, b := range []struct {
		on   bool
		what string
	}{
		{f.opts.NoPadCheck, "the pad type system"},
		{f.opts.NoLaneCheck, "the check of wide-binding lanes"},
		{f.opts.NoLookbackCheck, "the check of GenRec lookbacks"},
		{f.opts.PrintedFlatten, "the correct flatten reindexer"},
		{f.opts.NoZeroFill, "zero-filled allocations"},
	} {
		if b.on {
			fmt.Fprintf(errw, "augur atl: lowered without %s, on purpose\n", b.what)
		}
	}
	return writePair(ctx, out, errw, &res.Pair, f.pairFlags)
}
