package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/augur-verify/augur/frontend"
	"github.com/augur-verify/augur/frontend/halide"
	"github.com/augur-verify/augur/frontend/halide/fuzz"
	"github.com/augur-verify/augur/validate"
)

type fuzzHalideFlags struct {
	seed      uint64
	cases     int
	duration  time.Duration
	mode      string
	out       string
	resources uint64
	timeout   time.Duration
	limit     time.Duration
	json      bool
	replay    string
	show      int
	// childEnv is added to the environment of the validations' child
	// processes (tests: to run augur's main in the test binary).
	childEnv []string
}

func newFuzzHalideCmd() *cobra.Command {
	var f fuzzHalideFlags
	cmd := &cobra.Command{
		Use:   "fuzz-halide [--seed S] [--cases N | --duration D] [--mode mixed|sliding|random] -o DIR | --replay CASE | --show N",
		Short: "Fuzz stock Halide 14: random pipelines and schedules, each validated, every invalid verdict confirmed with Halide's JIT",
		Long: `fuzz-halide draws random Halide pipelines (chains and DAGs of stencils,
up- and downsampling, boundary conditions, updates over RDoms, sums and
maxima, integer and float types) under random schedules (splits with every
tail strategy, tiles, reorders, fuses, compute_at and store_at at every
loop, store_root, fold_storage, bound, align_bounds, parallel, vectorize,
unroll, specialize, rfactor, atomic); --mode sliding always schedules a
sliding window, mixed (the default) every other case. The same seed draws
the same cases.

Each case is built and translated by one fuzz driver process linked with
libHalide (compiled once, cached like augur halide's translator), validated
by augur validate in a child process within --resources per solver query
(killed past --timeout or 2 GiB of memory), and every INVALID verdict
is confirmed by realising the scheduled pipeline and its unscheduled
algorithm with Halide's JIT, allocations filled with poison bytes, at the
counterexample's output region. Confirmed miscompilations are minimised
(schedule directives, then updates, funcs and terms) and written as bug
bundles DIR/bug-NNN (a standalone C++ repro, the lowered statement,
Augur's report); DIR/summary.txt and DIR/summary.json count the cases,
verdicts, causes and bugs (see docs/fuzz-halide.md).

--replay CASE runs one case file (a bundle's case.txt) and prints its
outcome and Augur's report (with -o DIR, the translation is written
there too, and a confirmed miscompilation is minimised and bundled into
DIR/bug); --show N prints the N-th case of the seed.

Exit status: 0 no confirmed miscompilation, 1 some, 3 on an error.`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runFuzzHalide(cmd.Context(), cmd.OutOrStdout(), cmd.ErrOrStderr(), f)
		},
	}
	fl := cmd.Flags()
	fl.Uint64Var(&f.seed, "seed", 1, "seed of the cases")
	fl.IntVar(&f.cases, "cases", 0, "number of cases (0: until --duration)")
	fl.DurationVar(&f.duration, "duration", 0, "start no case after this long (0: until --cases)")
	fl.StringVar(&f.mode, "mode", "mixed", "mixed, sliding or random")
	fl.StringVarP(&f.out, "output", "o", "", "directory for the summary and the bug bundles")
	fl.Uint64Var(&f.resources, "resources", 5_000_000, "resource limit of each solver query (Z3 rlimit)")
	fl.DurationVar(&f.timeout, "timeout", 20*time.Second, "wall-clock guard on each case's validation")
	fl.DurationVar(&f.limit, "case-limit", 2*time.Minute, "time limit of each request to the fuzz driver (a case's build, translation or JIT run)")
	fl.BoolVar(&f.json, "json", false, "print the summary as JSON")
	fl.StringVar(&f.replay, "replay", "", "run the case in this file and print its outcome")
	fl.IntVar(&f.show, "show", -1, "print the N-th case of the seed and the mode")
	return cmd
}

// replayCase runs one case file and prints its outcome.
func replayCase(ctx context.Context, out io.Writer, d *fuzz.Driver, f fuzzHalideFlags) error {
	text, err := os.ReadFile(f.replay)
	if err != nil {
		return &exitError{code: exitMalformed, err: err}
	}
	c, err := fuzz.Parse(string(text))
	if err != nil {
		return &exitError{code: exitMalformed, err: fmt.Errorf("%s:%w", f.replay, err)}
	}
	if f.out != "" {
		// The translation, for augur validate.
		a, err := d.Do(ctx, c, "translate")
		if err != nil {
			return &exitError{code: exitMalformed, err: err}
		}
		if a.Cause == "" {
			pair := &frontend.Pair{Spec: a.Spec, Kernels: []frontend.Kernel{{Name: frontend.Prog, Text: a.Sched}}}
			if _, err := pair.Write(f.out); err != nil {
				return &exitError{code: exitMalformed, err: err}
			}
		}
	}
	o, err := fuzz.RunCase(ctx, d, fuzzValidator(f), c)
	if err != nil {
		return &exitError{code: exitMalformed, err: err}
	}
	fmt.Fprintf(out, "%s: %s %s\n", f.replay, o.Verdict, o.Cause)
	if o.CompilerError() && f.out != "" {
		m, err := fuzz.MinimiseCrash(ctx, d, c)
		if err != nil {
			return &exitError{code: exitMalformed, err: err}
		}
		b, err := fuzz.NewBundle(ctx, d, fuzzValidator(f), c, m, fuzz.OutputRegion(c, nil, nil))
		if err != nil {
			return &exitError{code: exitMalformed, err: err}
		}
		dir := filepath.Join(f.out, "crash")
		if err := b.Write(dir); err != nil {
			return &exitError{code: exitMalformed, err: err}
		}
		fmt.Fprintf(out, "\nminimised and bundled into %s\n", dir)
	}
	if o.Verdict == "invalid" {
		if o.Confirmed {
			fmt.Fprintf(out, "confirmed by Halide's JIT: %s\n", o.Mismatch)
		} else {
			fmt.Fprintf(out, "not reproduced by Halide's JIT %s\n", o.Mismatch)
		}
		fmt.Fprintf(out, "\n%s", o.Report)
		if o.Confirmed && f.out != "" {
			m, err := fuzz.Minimise(ctx, d, c, o.Region)
			if err != nil {
				return &exitError{code: exitMalformed, err: err}
			}
			b, err := fuzz.NewBundle(ctx, d, fuzzValidator(f), c, m, o.Region)
			if err != nil {
				return &exitError{code: exitMalformed, err: err}
			}
			dir := filepath.Join(f.out, "bug")
			if err := b.Write(dir); err != nil {
				return &exitError{code: exitMalformed, err: err}
			}
			fmt.Fprintf(out, "\nminimised and bundled into %s\n", dir)
		}
		if o.Confirmed {
			return silentExit(exitMismatch)
		}
	}
	return nil
}

func runFuzzHalide(ctx context.Context, out, errw io.Writer, f fuzzHalideFlags) error {
	if ctx == nil {
		ctx = context.Background()
	}
	if f.show >= 0 {
		_, err := fmt.Fprint(out, fuzz.Generate(f.seed, f.show, fuzz.GenOptions{Sliding: f.mode == "sliding" || f.mode == "mixed" && f.show%2 == 1}))
		return err
	}
	switch {
	case f.replay != "":
	case f.out == "":
		return usageError(fmt.Errorf("fuzz-halide needs an output directory: -o DIR"))
	case f.cases == 0 && f.duration == 0:
		return usageError(fmt.Errorf("fuzz-halide needs --cases N or --duration D"))
	case f.mode != "mixed" && f.mode != "sliding" && f.mode != "random":
		return usageError(fmt.Errorf("--mode %q: want mixed, sliding or random", f.mode))
	}
	ctx, cancel := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer cancel()
	tc := halide.Default()
	tc.Progress = func(step string) { fmt.Fprintf(errw, "augur fuzz-halide: %s...\n", step) }
	bin, err := fuzz.BuildDriver(ctx, tc)
	if err != nil {
		return &exitError{code: exitMalformed, err: err}
	}
	d, err := fuzz.StartDriver(bin, f.limit)
	if err != nil {
		return &exitError{code: exitMalformed, err: err}
	}
	if f.replay != "" {
		defer d.Close()
		return replayCase(ctx, out, d, f)
	}
	o := fuzz.Options{Seed: f.seed, Cases: f.cases, Mode: f.mode, Out: f.out, Limit: f.limit}
	if f.duration > 0 {
		o.Until = time.Now().Add(f.duration)
	}
	if err := os.MkdirAll(f.out, 0o755); err != nil {
		return &exitError{code: exitMalformed, err: err}
	}
	logf, err := os.Create(filepath.Join(f.out, "cases.log"))
	if err != nil {
		return &exitError{code: exitMalformed, err: err}
	}
	defer logf.Close()
	o.Log = logf
	before := cpuSeconds()
	s, err := fuzz.Campaign(ctx, d, fuzzValidator(f), o)
	d.Close()
	if err != nil {
		return &exitError{code: exitMalformed, err: err}
	}
	s.CPUSeconds = cpuSeconds() - before
	if err := s.Save(f.out); err != nil {
		return &exitError{code: exitMalformed, err: err}
	}
	if f.json {
		err = s.WriteJSON(out)
	} else {
		err = s.WriteText(out)
	}
	if err != nil {
		return err
	}
	if len(s.Bugs) > 0 {
		return silentExit(exitMismatch)
	}
	return nil
}

// fuzzMemory is the resident memory past which a case's validation is
// stopped: a case is one of thousands, and the machine is shared.
const fuzzMemory = 2 << 30

// fuzzValidator validates a translation in a child process, augur
// validate --json with one job and the flags' resource limit, killed past
// the case's time limit or fuzzMemory: a validation that blows up cannot
// hold the campaign, nor its memory stay in the campaign's process.
func fuzzValidator(f fuzzHalideFlags) fuzz.Validator {
	return func(ctx context.Context, spec, sched string) (*fuzz.Verdict, error) {
		exe, err := os.Executable()
		if err != nil {
			return nil, err
		}
		dir, err := os.MkdirTemp("", "augur-fuzz-validate-*")
		if err != nil {
			return nil, err
		}
		defer os.RemoveAll(dir)
		sp, pp := filepath.Join(dir, "spec.sare"), filepath.Join(dir, "prog.sched")
		if err := os.WriteFile(sp, []byte(spec), 0o644); err != nil {
			return nil, err
		}
		if err := os.WriteFile(pp, []byte(sched), 0o644); err != nil {
			return nil, err
		}
		cctx, cancel := context.WithTimeout(ctx, f.timeout)
		defer cancel()
		// Run in dir, so that the report names the files spec.sare and
		// prog.sched, as a bundle holds them.
		cmd := exec.CommandContext(cctx, exe, "validate", "--json", "--jobs", "1",
			"--resources", strconv.FormatUint(f.resources, 10), "--timeout", f.timeout.String(), "spec.sare", "prog.sched")
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), f.childEnv...)
		cmd.WaitDelay = 5 * time.Second
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		if err := cmd.Start(); err != nil {
			return nil, err
		}
		overMemory := watchMemory(cctx, cmd.Process, cancel)
		runErr := cmd.Wait()
		switch {
		case ctx.Err() != nil:
			return nil, ctx.Err()
		case overMemory():
			return &fuzz.Verdict{Verdict: string(validate.Unknown), Reason: "the case's validation memory ran out"}, nil
		case cctx.Err() != nil:
			return &fuzz.Verdict{Verdict: string(validate.Unknown), Reason: "the case's validation time ran out"}, nil
		}
		var rep validate.Report
		if err := json.Unmarshal(stdout.Bytes(), &rep); err != nil {
			msg := strings.TrimSpace(stderr.String())
			if i := strings.LastIndex(msg, "\n"); i >= 0 {
				msg = msg[i+1:]
			}
			return &fuzz.Verdict{Verdict: string(validate.Error), Reason: fmt.Sprintf("augur validate: %v: %s", runErr, msg)}, nil
		}
		v := &fuzz.Verdict{Verdict: string(rep.Verdict), Reason: rep.Reason, Params: map[string]int64{}}
		if cx := rep.Counterexample; cx != nil {
			w := &halide.Witness{Params: v.Params, Seed: cx.Seed, Kind: cx.Kind}
			for _, b := range cx.Params {
				v.Params[b.Name] = b.Value
			}
			for _, x := range cx.Inputs {
				w.Inputs = append(w.Inputs, halide.Cell{Tensor: x.Tensor, Index: x.Index, Value: x.Value})
			}
			v.Witness = w
		}
		var b bytes.Buffer
		if err := rep.WriteText(&b, false); err != nil {
			return nil, err
		}
		v.Report = b.String()
		return v, nil
	}
}

// watchMemory polls the process's resident memory (Linux's /proc) until
// ctx is done, and calls stop when it passes fuzzMemory; the function it
// returns says whether it did.
func watchMemory(ctx context.Context, p *os.Process, stop func()) func() bool {
	var over atomic.Bool
	go func() {
		tick := time.NewTicker(200 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
			}
			b, err := os.ReadFile(fmt.Sprintf("/proc/%d/statm", p.Pid))
			if err != nil {
				return
			}
			var size, rss int64
			fmt.Sscan(string(b), &size, &rss)
			if rss*int64(os.Getpagesize()) > fuzzMemory {
				over.Store(true)
				stop()
				return
			}
		}
	}()
	return over.Load
}

// cpuSeconds is the CPU time of this process and of its children waited
// for (the validations, and the fuzz driver once closed) so far.
func cpuSeconds() float64 {
	var self, children syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &self)
	_ = syscall.Getrusage(syscall.RUSAGE_CHILDREN, &children)
	sec := func(t syscall.Timeval) float64 { return float64(t.Sec) + float64(t.Usec)/1e6 }
	return sec(self.Utime) + sec(self.Stime) + sec(children.Utime) + sec(children.Stime)
}
