package main

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/go-chi/chi/v5/middleware"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/rs/zerolog"
	"github.com/spf13/cobra"

	"github.com/augur-verify/augur/api"
	"github.com/augur-verify/augur/smt"
	"github.com/augur-verify/augur/store"
	"github.com/augur-verify/augur/web"
)

// defaultDB is the embedded default database of augur serve.
const defaultDB = "sqlite:augur.db"

// defaultAddr is where augur serve listens by default: loopback only, so
// that a service started without tokens is not open to the network.
const defaultAddr = "127.0.0.1:8080"

// openStore opens the store at a DSN (tests replace it).
var openStore = func(ctx context.Context, dsn string, opts ...store.Option) (store.Store, error) {
	return store.Open(ctx, dsn, opts...)
}

// jobOptions are the store's options for --job-timeout and --rescue-after
// (zero: the store's defaults).
func jobOptions(jobTimeout, rescueAfter time.Duration) []store.Option {
	var opts []store.Option
	if jobTimeout > 0 {
		opts = append(opts, store.WithJobTimeout(jobTimeout))
	}
	if rescueAfter > 0 {
		opts = append(opts, store.WithRescueAfter(rescueAfter))
	}
	return opts
}

type serveFlags struct {
	addr      string
	db        string
	workers   int
	tokens    []string
	readToken bool
	examples  bool
	maxBody   int64
	rate      int
	budget    time.Duration
	grace     time.Duration
	logFormat string
	// jobTimeout and rescueAfter: see jobOptions.
	jobTimeout, rescueAfter time.Duration
	// retain and retainCount prune old validations (0: keep them).
	retain      time.Duration
	retainCount int
	// memoryMB bounds the solver's memory (0: no bound).
	memoryMB uint
	// onListen, when set, receives the address listened on (tests).
	onListen func(addr string)
	// examplesDir is the directory of the examples ("": examples).
	examplesDir string
}

func newServeCmd() *cobra.Command {
	var f serveFlags
	cmd := &cobra.Command{
		Use:   "serve [--addr 127.0.0.1:8080] [--db sqlite:augur.db|postgres://...] [--workers N] [--token T]... [--examples]",
		Short: "Run the validation service: the HTTP API, the dashboard and in-process workers",
		Long: `Serve runs Augur's validation service (see docs/service.md): the HTTP API
under /v1, health and readiness probes, Prometheus metrics on /metrics, the
OpenAPI document on /openapi.json, and workers that validate the queued
submissions with the real verifier.

It listens on loopback (127.0.0.1:8080) unless --addr says otherwise; beyond
loopback without --token it warns that anyone who reaches it may submit.

The default database is one SQLite file (augur.db in the working directory),
so that serve needs nothing else; with --db postgres://... any number of
"augur worker" processes on other machines share the queue.

With --examples (the default when --db is the default), every pair of
examples/ is submitted at start, so that the dashboard shows verdicts at
once: each directory's specification with each of its kernels (the
reductions' included), and what augur atl and augur rink generate from
the ATL and Rink examples that expect a verdict. A restart submits them
again only when the build differs (augur version): then the new build
validates them.

SIGINT or SIGTERM stops it gracefully: the server finishes its requests,
then the workers finish their validations within --grace and requeue the
others.

Exit status: 0 after a clean shutdown, 3 on an error (a usage error, a
database that cannot be opened, an address that cannot be listened on).`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if !cmd.Flags().Changed("examples") {
				f.examples = f.db == defaultDB
			}
			ctx, stop := signal.NotifyContext(cmdContext(cmd), os.Interrupt, syscall.SIGTERM)
			defer stop()
			return runServe(ctx, cmd.ErrOrStderr(), f)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.addr, "addr", defaultAddr, "address to listen on (beyond loopback, such as :8080, give --token too)")
	fl.StringVar(&f.db, "db", defaultDB, "the database: sqlite:PATH or postgres://...")
	fl.IntVar(&f.workers, "workers", 2, "validations run at once by the in-process workers (0: none; run augur worker elsewhere)")
	fl.StringArrayVar(&f.tokens, "token", nil, "a bearer token accepted on writing endpoints (repeatable; none: open); also $AUGUR_TOKENS, comma-separated")
	fl.BoolVar(&f.readToken, "read-token", false, "require a token on reading endpoints too, and a login with one on the dashboard")
	fl.BoolVar(&f.examples, "examples", false, "submit the pairs of examples/ at start (default: true with the default --db)")
	fl.Int64Var(&f.maxBody, "max-body", 4<<20, "request body limit in bytes")
	fl.IntVar(&f.rate, "rate", 0, "writing requests per minute and token (0: no limit)")
	fl.DurationVar(&f.budget, "budget", 10*time.Minute, "time budget of one validation (beyond: unknown)")
	fl.DurationVar(&f.grace, "grace", 30*time.Second, "time running validations get to finish at shutdown before they are requeued")
	fl.DurationVar(&f.jobTimeout, "job-timeout", store.DefaultJobTimeout, "bound of one run of a validation; beyond it the run fails and is retried")
	fl.DurationVar(&f.rescueAfter, "rescue-after", store.DefaultRescueAfter, "after how long without a heartbeat from its worker (which beats every quarter of it) a running validation is run again by another")
	fl.StringVar(&f.logFormat, "log-format", "text", "log format: text or json")
	fl.DurationVar(&f.retain, "retain", 0, "prune finished validations older than this, hourly (0: keep them)")
	fl.IntVar(&f.retainCount, "retain-count", 0, "keep at most this many finished validations, pruning the oldest hourly (0: no bound)")
	fl.UintVar(&f.memoryMB, "memory-mb", 0, "memory bound of the solver, in MiB, per process (0: none); a validation beyond it is unknown")
	return cmd
}

// prune deletes old validations every interval until ctx is done, per
// --retain and --retain-count.
func prune(ctx context.Context, st store.Store, retain time.Duration, keep int, interval time.Duration, log *zerolog.Logger) {
	if retain <= 0 && keep <= 0 {
		return
	}
	for {
		before := time.Time{}
		if retain > 0 {
			before = time.Now().Add(-retain)
		}
		n, err := st.Prune(ctx, before, keep)
		switch {
		case err != nil && ctx.Err() == nil:
			log.Warn().Err(err).Msg("pruning old validations")
		case n > 0:
			log.Info().Int("deleted", n).Msg("pruned old validations")
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(interval):
		}
	}
}

// cmdContext is the command's context, or the background one.
func cmdContext(cmd *cobra.Command) context.Context {
	if ctx := cmd.Context(); ctx != nil {
		return ctx
	}
	return context.Background()
}

// newLogger returns the service's logger on w.
func newLogger(w io.Writer, format string) (zerolog.Logger, error) {
	switch format {
	case "json":
		return zerolog.New(w).With().Timestamp().Logger(), nil
	case "text":
		return zerolog.New(zerolog.ConsoleWriter{Out: w, TimeFormat: time.TimeOnly, NoColor: true}).With().Timestamp().Logger(), nil
	}
	return zerolog.Logger{}, usageError(fmt.Errorf("--log-format %q: want text or json", format))
}

func newRegistry() *prometheus.Registry {
	reg := prometheus.NewRegistry()
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return reg
}

func runServe(ctx context.Context, errw io.Writer, f serveFlags) error {
	log, err := newLogger(errw, f.logFormat)
	if err != nil {
		return err
	}
	if env := os.Getenv("AUGUR_TOKENS"); env != "" {
		f.tokens = append(f.tokens, splitList(env)...)
	}
	st, err := openStore(ctx, f.db, append(jobOptions(f.jobTimeout, f.rescueAfter), store.WithVerifier(verifierID()))...)
	if err != nil {
		return &exitError{code: exitMalformed, err: dbError(f.db, "opening the database", err)}
	}
	defer st.Close()
	reg := newRegistry()
	cfg := api.Config{
		Store: st, Tokens: f.tokens, ReadToken: f.readToken, MaxBody: f.maxBody, RatePerMinute: f.rate,
		Key: store.Key, Logger: &log, Registry: reg,
	}
	cfg.Web = web.New(st, web.Options{
		RequestID: func(r *http.Request) string { return middleware.GetReqID(r.Context()) },
		ErrorLog: func(r *http.Request, err error) {
			zerolog.Ctx(r.Context()).Error().Err(err).Str("path", r.URL.Path).Msg("dashboard")
		},
	})
	ln, err := net.Listen("tcp", f.addr)
	if err != nil {
		return &exitError{code: exitMalformed, err: err}
	}
	srv := &http.Server{Handler: api.New(cfg), ReadHeaderTimeout: 10 * time.Second}
	log.Info().Str("addr", ln.Addr().String()).Str("db", store.RedactDSN(f.db)).Int("workers", f.workers).
		Bool("tokens", len(f.tokens) > 0).Msg("augur serve: listening on http://" + ln.Addr().String() +
		"; the dashboard is at /, the API under /v1; Ctrl-C stops it")
	if len(f.tokens) == 0 && !loopback(ln.Addr()) {
		log.Warn().Str("addr", ln.Addr().String()).Msg("listening beyond loopback without a token: " +
			"anyone who reaches this address may submit and cancel validations and read them all; " +
			"pass --token (and --read-token), or listen on loopback (--addr 127.0.0.1:8080) behind a proxy that authenticates")
	}
	if f.onListen != nil {
		f.onListen(ln.Addr().String())
	}

	// Workers run until the server has shut down.
	workCtx, stopWork := context.WithCancel(context.WithoutCancel(ctx))
	defer stopWork()
	workDone := make(chan error, 1)
	if f.workers > 0 {
		run := api.Runner(api.RunnerOptions{Budget: f.budget, Metrics: api.NewRunnerMetrics(reg), Log: &log})
		go func() { workDone <- st.Work(workCtx, f.workers, f.grace, run) }()
	} else {
		workDone <- nil
	}
	if f.memoryMB > 0 {
		smt.SetMemoryLimit(f.memoryMB)
	}
	go prune(workCtx, st, f.retain, f.retainCount, time.Hour, &log)
	if f.examples {
		go func() {
			n, known, err := submitExamples(ctx, st, cmp.Or(f.examplesDir, "examples"), verifierID())
			switch {
			case err != nil:
				log.Warn().Err(err).Msg("submitting the examples")
			case n > 0 && f.workers > 0:
				log.Info().Int("pairs", n).Int("already_submitted", known).Msg("submitted the examples: the workers validate them now, " +
					"a minute or two on a first run; each verdict is logged and shown on the dashboard as it comes")
			case n > 0:
				log.Info().Int("pairs", n).Int("already_submitted", known).Msg("submitted the examples, for workers elsewhere (--workers 0)")
			case known > 0:
				log.Info().Int("pairs", known).Msg("the examples were submitted by an earlier run of this build: not again")
			}
		}()
	}

	serveErr := make(chan error, 1)
	go func() { serveErr <- srv.Serve(ln) }()
	select {
	case err = <-serveErr:
	case <-ctx.Done():
		log.Info().Msg("shutting down: finishing requests")
		sctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
		err = srv.Shutdown(sctx)
		cancel()
		if errors.Is(err, context.DeadlineExceeded) {
			srv.Close() // event streams and long waits end here
			err = nil
		}
	}
	if errors.Is(err, http.ErrServerClosed) {
		err = nil
	}
	log.Info().Str("grace", api.LogDuration(f.grace)).Msg("stopping the workers")
	stopWork()
	if werr := <-workDone; werr != nil && err == nil {
		err = store.RedactError(werr, f.db)
	}
	if err != nil {
		return &exitError{code: exitMalformed, err: err}
	}
	log.Info().Msg("stopped")
	return nil
}

// verifierLabel is the label that names, on every example submitted at
// start, the verifier of the process that submitted it (verifierID).
const verifierLabel = "verifier"

// exampleVerifier is the value of verifierLabel for the verifier id: id
// itself, or its SHA-256 when it is longer than a label value may be.
func exampleVerifier(id string) string {
	if len(id) <= api.MaxLabelValueBytes {
		return id
	}
	sum := sha256.Sum256([]byte(id))
	return "sha256 " + hex.EncodeToString(sum[:])
}

// submittedExamples returns the examples already in the store (labelled
// source=examples, not cancelled or failed) that the verifier labelled
// (see verifierLabel), by names and content.
func submittedExamples(ctx context.Context, st store.Store, verifier string) (map[[3]string]bool, error) {
	known := map[[3]string]bool{}
	f := store.Filter{Label: "source=examples", Limit: store.MaxListLimit}
	for {
		vs, next, err := st.List(ctx, f)
		if err != nil {
			return nil, fmt.Errorf("listing the examples submitted: %w", err)
		}
		for _, v := range vs {
			if v.Status != store.Cancelled && v.Status != store.Failed && v.Meta.Labels[verifierLabel] == verifier {
				known[[3]string{v.SpecName, v.ProgramName, v.Key}] = true
			}
		}
		if next == "" {
			return known, nil
		}
		f.Cursor = next
	}
}

// submitExamples submits every pair of dir (examplePairs), labelled
// source=examples and with the verifier's identity (verifierLabel).
// Malformed pairs are skipped, and so are pairs that this verifier already
// submitted with the same names and content (at an earlier start): a
// restart does not add them again, but a restart with another build
// submits them anew, for that build to validate. It returns the pairs
// submitted and those found already submitted.
func submitExamples(ctx context.Context, st store.Store, dir, verifier string) (n, known int, err error) {
	pairs, err := examplePairs(ctx, dir)
	if err != nil {
		return 0, 0, err
	}
	label := exampleVerifier(verifier)
	seen, err := submittedExamples(ctx, st, label)
	if err != nil {
		return 0, 0, err
	}
	for _, p := range pairs {
		sub := api.Submission{
			Spec: p.Spec, SpecName: p.SpecName, Program: p.Program, ProgramName: p.ProgramName,
			Meta: store.Meta{Labels: map[string]string{"source": "examples", verifierLabel: label}},
		}
		if errs, usage := sub.Check(); usage != nil || len(errs) > 0 {
			continue
		}
		v := sub.Validation(store.Key)
		if seen[[3]string{v.SpecName, v.ProgramName, v.Key}] {
			known++
			continue
		}
		if _, err := st.Submit(ctx, v); err != nil {
			return n, known, err
		}
		n++
	}
	return n, known, nil
}

// loopback reports whether addr is a loopback address (127.0.0.0/8 or
// ::1): not so for an unspecified one (":8080", "0.0.0.0:8080"), which
// listens on every interface.
func loopback(addr net.Addr) bool {
	tcp, ok := addr.(*net.TCPAddr)
	return ok && tcp.IP.IsLoopback()
}

// dbError is err, of what was done on the database at dsn, with the
// DSN's passwords masked in its message, the DSN's own included.
func dbError(dsn, doing string, err error) error {
	return store.RedactError(fmt.Errorf("%s %s: %w", doing, store.RedactDSN(dsn), err), dsn)
}
