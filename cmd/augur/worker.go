package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"github.com/spf13/cobra"

	"github.com/augur-verify/augur/api"
	"github.com/augur-verify/augur/smt"
	"github.com/augur-verify/augur/store"
)

type workerFlags struct {
	db          string
	concurrency int
	budget      time.Duration
	grace       time.Duration
	logFormat   string
	// jobTimeout and rescueAfter: see jobOptions.
	jobTimeout, rescueAfter time.Duration
	// memoryMB bounds the solver's memory (0: no bound).
	memoryMB uint
	// metricsAddr, when set, is where /metrics and /healthz are served.
	metricsAddr string
	// onMetrics, when set, receives the address metrics are served on
	// (tests).
	onMetrics func(addr string)
}

func newWorkerCmd() *cobra.Command {
	var f workerFlags
	cmd := &cobra.Command{
		Use:   "worker --db DSN [--concurrency N] [--metrics-addr :9091]",
		Short: "Run validation workers only, sharing the queue of a database with augur serve",
		Long: `Worker runs queued validations from the database that "augur serve" (and
any number of other workers) share, with the real verifier, at most
--concurrency at a time. A validation whose worker dies is retried by
another one.

SIGINT or SIGTERM stops it gracefully: no new validations are taken, the
running ones get --grace to finish, the others are requeued.

Exit status: 0 after a clean shutdown, 3 on an error (a usage error, a
database that cannot be opened).`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx, stop := signal.NotifyContext(cmdContext(cmd), os.Interrupt, syscall.SIGTERM)
			defer stop()
			return runWorker(ctx, cmd.ErrOrStderr(), f)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.db, "db", "", "the database shared with augur serve (required): postgres://... or sqlite:PATH")
	fl.IntVar(&f.concurrency, "concurrency", 2, "validations run at once")
	fl.DurationVar(&f.budget, "budget", 10*time.Minute, "time budget of one validation (beyond: unknown)")
	fl.DurationVar(&f.grace, "grace", 30*time.Second, "time running validations get to finish at shutdown before they are requeued")
	fl.DurationVar(&f.jobTimeout, "job-timeout", store.DefaultJobTimeout, "bound of one run of a validation; beyond it the run fails and is retried")
	fl.DurationVar(&f.rescueAfter, "rescue-after", store.DefaultRescueAfter, "after how long without a heartbeat from its worker (which beats every quarter of it) a running validation is run again by another")
	fl.StringVar(&f.logFormat, "log-format", "text", "log format: text or json")
	fl.UintVar(&f.memoryMB, "memory-mb", 0, "memory bound of the solver, in MiB, per process (0: none); a validation beyond it is unknown")
	fl.StringVar(&f.metricsAddr, "metrics-addr", "", "serve Prometheus metrics on /metrics (and /healthz) at this address, such as :9091 (default: none)")
	return cmd
}

func runWorker(ctx context.Context, errw io.Writer, f workerFlags) error {
	log, err := newLogger(errw, f.logFormat)
	if err != nil {
		return err
	}
	if f.concurrency < 1 {
		return usageError(fmt.Errorf("--concurrency must be at least 1"))
	}
	if f.db == "" {
		// No default: a worker on a database of its own would wait for
		// jobs nobody submits.
		return usageError(fmt.Errorf("--db is required: the database of the augur serve whose queue to work (postgres://... or sqlite:PATH)"))
	}
	st, err := openStore(ctx, f.db, append(jobOptions(f.jobTimeout, f.rescueAfter), store.WithVerifier(verifierID()))...)
	if err != nil {
		return &exitError{code: exitMalformed, err: dbError(f.db, "opening the database", err)}
	}
	defer st.Close()
	log.Info().Str("db", store.RedactDSN(f.db)).Int("concurrency", f.concurrency).Msg("augur worker: running")
	if f.memoryMB > 0 {
		smt.SetMemoryLimit(f.memoryMB)
	}
	ropts := api.RunnerOptions{Budget: f.budget, Log: &log}
	if f.metricsAddr != "" {
		reg := newRegistry()
		ropts.Metrics = api.NewRunnerMetrics(reg)
		stopMetrics, err := serveMetrics(f.metricsAddr, reg, f.onMetrics)
		if err != nil {
			return &exitError{code: exitMalformed, err: fmt.Errorf("--metrics-addr: %w", err)}
		}
		defer stopMetrics()
		log.Info().Str("addr", f.metricsAddr).Msg("serving metrics on /metrics")
	}
	if err := st.Work(ctx, f.concurrency, f.grace, api.Runner(ropts)); err != nil {
		return &exitError{code: exitMalformed, err: store.RedactError(err, f.db)}
	}
	log.Info().Msg("stopped")
	return nil
}

// serveMetrics serves reg on /metrics and a liveness probe on /healthz at
// addr until the returned function is called.
func serveMetrics(addr string, reg *prometheus.Registry, onListen func(string)) (stop func(), err error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", promhttp.HandlerFor(reg, promhttp.HandlerOpts{}))
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"status":"ok"}`+"\n")
	})
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go srv.Serve(ln)
	if onListen != nil {
		onListen(ln.Addr().String())
	}
	return func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		srv.Shutdown(ctx)
	}, nil
}

// splitList splits a comma-separated list, dropping empty items.
func splitList(s string) []string {
	var out []string
	for _, x := range strings.Split(s, ",") {
		if x = strings.TrimSpace(x); x != "" {
			out = append(out, x)
		}
	}
	return out
}
