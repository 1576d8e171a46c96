package store

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"time"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivermigrate"
)

// Option configures Open.
type Option func(*config)

type config struct {
	logger            *slog.Logger
	jobTimeout        time.Duration
	rescueAfter       time.Duration
	fetchPollInterval time.Duration
	retryDelay        time.Duration
	cancelPoll        time.Duration
	progressEvery     time.Duration
	// verifier identifies the verifier in cache keys (see CacheKey).
	verifier string
	// noLeader keeps Work's River client out of leader election (tests: a
	// worker that must not run River's maintenance, the rescuer included).
	noLeader bool
	// now is the clock of heartbeats and rescues (tests move it).
	now func() time.Time
}

// beat is how often a running validation's worker says it is alive: a
// quarter of the rescue delay, so that a few late beats are no death.
func (c *config) beat() time.Duration { return c.rescueAfter / 4 }

// Defaults of the Options.
const (
	DefaultJobTimeout        = 10 * time.Minute
	DefaultFetchPollInterval = time.Second
	DefaultRetryDelay        = 5 * time.Second
	// DefaultRescueAfter is how long a running validation's worker may
	// be silent (no heartbeat) before another worker runs it again.
	DefaultRescueAfter = 20 * time.Second
	// MaxAttempts is how many times a validation runs before it is Failed.
	MaxAttempts = 3
)

// WithLogger sends River's and the store's logs to l (default: discarded
// below Warn, to standard error above).
func WithLogger(l *slog.Logger) Option { return func(c *config) { c.logger = l } }

// WithVerifier names the verifier of this process (Augur's and Z3's
// versions, and the workers' options that change verdicts): verdicts are
// cached under it by Work, and looked up under it by Submit (see
// CacheKey).
func WithVerifier(id string) Option { return func(c *config) { c.verifier = id } }

// WithJobTimeout bounds one run of a validation (default 10 minutes): its
// context is cancelled after d, and the run counts as a failed attempt.
func WithJobTimeout(d time.Duration) Option { return func(c *config) { c.jobTimeout = d } }

// WithRescueAfter sets after how long without a heartbeat a running
// validation is deemed abandoned by a dead worker and queued again
// (default 20 s). The worker running a validation beats every quarter of
// d while the run is within its time limit (WithJobTimeout), so that a
// live run is never taken over, however long it lasts, and a dead or
// hung worker's is, d after its last beat.
func WithRescueAfter(d time.Duration) Option { return func(c *config) { c.rescueAfter = d } }

// WithFetchPollInterval sets how often idle workers look for jobs when the
// database cannot notify them (SQLite; default 1 s).
func WithFetchPollInterval(d time.Duration) Option {
	return func(c *config) { c.fetchPollInterval = d }
}

// WithRetryDelay sets the delay before the first retry of a failed run; it
// doubles with every attempt (default 5 s).
func WithRetryDelay(d time.Duration) Option { return func(c *config) { c.retryDelay = d } }

// minRescueAfter bounds the rescue delay from below: a heartbeat every
// quarter of it must stay cheap.
const minRescueAfter = 100 * time.Millisecond

// Open opens the store at dsn, creating or migrating its schema and River's:
//
//	sqlite:PATH        one SQLite file (created if missing)
//	PATH.db            the same
//	sqlite::memory:    an in-memory SQLite database (tests)
//	postgres://...     PostgreSQL (also postgresql://)
//
// Migrations are idempotent and serialised between processes. Its errors
// never show the DSN's password (see RedactError).
func Open(ctx context.Context, dsn string, opts ...Option) (Store, error) {
	s, err := open(ctx, dsn, opts...)
	if err != nil {
		return nil, RedactError(err, dsn)
	}
	return s, nil
}

func open(ctx context.Context, dsn string, opts ...Option) (Store, error) {
	cfg := config{
		jobTimeout:        DefaultJobTimeout,
		fetchPollInterval: DefaultFetchPollInterval,
		retryDelay:        DefaultRetryDelay,
		rescueAfter:       DefaultRescueAfter,
		cancelPoll:        500 * time.Millisecond,
		progressEvery:     250 * time.Millisecond,
		now:               time.Now,
	}
	for _, o := range opts {
		o(&cfg)
	}
	if cfg.logger == nil {
		cfg.logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if cfg.jobTimeout <= 0 {
		return nil, fmt.Errorf("store: job timeout %s: want a positive duration", cfg.jobTimeout)
	}
	if cfg.rescueAfter < minRescueAfter {
		return nil, fmt.Errorf("store: rescue delay %s: want at least %s", cfg.rescueAfter, minRescueAfter)
	}
	kind, target, err := parseDSN(dsn)
	if err != nil {
		return nil, err
	}
	switch kind {
	case "postgres":
		d, err := openPostgres(ctx, target)
		if err != nil {
			return nil, err
		}
		return newStore(ctx, d, cfg, "postgres")
	default:
		d, err := openSQLite(ctx, target)
		if err != nil {
			return nil, err
		}
		return newStore(ctx, d, cfg, "sqlite")
	}
}

// newStore migrates the database and makes the store over it.
func newStore[TTx any](ctx context.Context, d db[TTx], cfg config, name string) (*store[TTx], error) {
	fail := func(err error) (*store[TTx], error) {
		d.close()
		return nil, fmt.Errorf("store: open %s: %w", name, err)
	}
	migrator, err := rivermigrate.New(d.driver(), &rivermigrate.Config{Logger: cfg.logger})
	if err != nil {
		return fail(err)
	}
	if err := d.migrate(ctx, migrator); err != nil {
		return fail(err)
	}
	// An insert-only client: Submit queues, Cancel cancels; Work starts
	// its own client with workers.
	client, err := river.NewClient(d.driver(), &river.Config{
		Logger:      cfg.logger,
		MaxAttempts: MaxAttempts,
	})
	if err != nil {
		return fail(err)
	}
	return &store[TTx]{db: d, cfg: cfg, client: client, name: name}, nil
}
