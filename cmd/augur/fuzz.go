package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/augur-verify/augur/frontend"
	"github.com/augur-verify/augur/frontend/compiler"
	"github.com/augur-verify/augur/frontend/compiler/alg"
	"github.com/augur-verify/augur/sare"
	"github.com/augur-verify/augur/sched"
	"github.com/augur-verify/augur/syntax"
	"github.com/augur-verify/augur/validate"
)

type fuzzFlags struct {
	checkFlags
	n    int
	seed uint64
	out  string
}

func newFuzzSchedulesCmd() *cobra.Command {
	var f fuzzFlags
	cmd := &cobra.Command{
		Use:   "fuzz-schedules ALG [--n N] [--seed S] [--validate] [-o DIR]",
		Short: "Compile an algorithm under random legal schedules and check every kernel",
		Long: `fuzz-schedules draws N distinct random legal schedules for the algorithm
(seeded: the same seed gives the same schedules), compiles each, and runs
every kernel with the reference interpreter on random inputs at parameters
drawn to satisfy its assumptions. With --validate, each kernel is also
validated and must be VALID. With -o DIR, each failing schedule is written
to DIR (schedule_N.schedule) for augur compile --schedule.

Exit status: 0 every schedule compiled and passed, 1 some failed, 3 on
malformed input or a usage error.`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) != 1 {
				return fmt.Errorf("fuzz-schedules takes one algorithm, got %d argument(s)", len(args))
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			return fuzzSchedules(cmd.Context(), cmd.OutOrStdout(), args[0], f)
		},
	}
	fl := cmd.Flags()
	fl.IntVar(&f.n, "n", 20, "number of distinct schedules")
	fl.Uint64Var(&f.seed, "seed", 1, "seed of the random schedules")
	fl.StringVarP(&f.out, "output", "o", "", "directory for the schedules that fail")
	f.register(cmd, "also validate every kernel (slower)", 20*time.Second)
	return cmd
}

func fuzzSchedules(ctx context.Context, out io.Writer, path string, f fuzzFlags) error {
	if ctx == nil {
		ctx = context.Background()
	}
	src, err := readSource(path)
	if err != nil {
		return &exitError{code: exitMalformed, err: err}
	}
	prog, err := alg.Load(src)
	if err != nil {
		var el syntax.ErrorList
		if errors.As(err, &el) {
			fmt.Fprintln(out, el.Report())
			return silentExit(exitMalformed)
		}
		return &exitError{code: exitMalformed, err: err}
	}
	failed := 0
	n, err := compiler.FuzzSchedules(ctx, prog, f.n, f.seed, func(t compiler.Trial) bool {
		verdict, why := checkTrial(ctx, t, f)
		fmt.Fprintf(out, "schedule %d: %s\n", t.Index, verdict)
		if why != "" {
			failed++
			fmt.Fprintf(out, "%s%s\n", indent(t.Text), why)
			if f.out != "" {
				_ = os.MkdirAll(f.out, 0o755)
				_ = os.WriteFile(filepath.Join(f.out, fmt.Sprintf("schedule_%d.schedule", t.Index)), []byte(t.Text), 0o644)
			}
		}
		return true
	})
	if err != nil {
		fmt.Fprintf(out, "FAIL: a legal schedule did not compile: %v\n", err)
		return silentExit(1)
	}
	fmt.Fprintf(out, "%d distinct schedules, %d failed\n", n, failed)
	if failed > 0 {
		return silentExit(1)
	}
	return nil
}

func indent(s string) string {
	var b bytes.Buffer
	for _, l := range bytes.Split([]byte(s), []byte("\n")) {
		if len(l) > 0 {
			b.WriteString("    ")
			b.Write(l)
			b.WriteString("\n")
		}
	}
	return b.String()
}

// checkTrial runs (and validates) one compiled schedule; why is empty when
// it passed.
func checkTrial(ctx context.Context, t compiler.Trial, f fuzzFlags) (verdict, why string) {
	res, err := runCompiled(ctx, &t.Result.Pair, uint64(t.Index)+f.seed)
	if err != nil {
		return "FAIL", err.Error()
	}
	verdict = res
	if !f.validate {
		return verdict, ""
	}
	rep, err := validate.Validate(ctx, t.Result.SpecSource(), t.Result.Kernel(frontend.Prog).Source(),
		validate.Options{Jobs: f.jobs, Timeout: f.timeout, SymbolicSteps: f.symbolicSteps, Resources: f.resources, ConditionResources: unbounded(f.condRes), TotalResources: unbounded(f.totalRes)})
	if err != nil {
		return "FAIL", err.Error()
	}
	if rep.Verdict != validate.Valid {
		var b bytes.Buffer
		rep.WriteText(&b, false)
		return "FAIL", b.String()
	}
	return verdict + ", valid", ""
}

// runCompiled runs a compiled kernel with the reference interpreter at
// parameters drawn from 1 to 12 until its assumptions hold.
func runCompiled(ctx context.Context, pair *frontend.Pair, seed uint64) (string, error) {
	l, err := pair.Load()
	if err != nil {
		return "", err
	}
	spec, info, k, kinfo := l.Spec, l.SpecInfo, l.Kernels[0].Kernel, l.Kernels[0].Info
	rng := rand.New(rand.NewPCG(seed, 7))
	for try := 0; try < 200; try++ {
		params := map[string]int64{}
		for _, p := range k.Params {
			params[p.Name] = 1 + rng.Int64N(12)
		}
		ev, err := sare.NewEvaluator(spec, info, params, sare.RandomInputs(seed))
		if err != nil {
			continue
		}
		res, err := sched.Run(ctx, k, kinfo, ev, sched.Options{})
		if errors.As(err, new(*sched.AssumptionError)) {
			continue
		}
		if err != nil {
			return "", fmt.Errorf("at %v: %v", params, err)
		}
		var at []string
		for _, p := range k.Params {
			at = append(at, fmt.Sprintf("%s=%d", p.Name, params[p.Name]))
		}
		return fmt.Sprintf("ran at %s: %d assignments matched", strings.Join(at, " "), res.Assignments), nil
	}
	return "", fmt.Errorf("no parameters from 1 to 12 satisfy the assumptions")
}
