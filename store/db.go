package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"regexp"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riverqueue/river/riverdriver"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"
	"github.com/riverqueue/river/riverdriver/riversqlite"
	"github.com/riverqueue/river/rivermigrate"
	_ "modernc.org/sqlite" // the pure-Go SQLite driver, registered as "sqlite"
)

// querier runs SQL written for PostgreSQL ($1, $2, ...) on either
// database, on a pool or in a transaction.
type querier interface {
	exec(ctx context.Context, q string, args ...any) (int64, error)
	query(ctx context.Context, q string, args ...any) (rows, error)
	queryRow(ctx context.Context, q string, args ...any) row
}

// rows is a result set: database/sql's and pgx's under one interface.
type rows interface {
	Next() bool
	Scan(dest ...any) error
	Err() error
	close()
}

// row is one row of a result; Scan returns errNoRows if there is none.
type row interface {
	Scan(dest ...any) error
}

var errNoRows = errors.New("no rows")

// db is one database with River's driver for it. TTx is the driver's
// transaction type.
type db[TTx any] interface {
	pool() querier
	// inTx runs fn in a transaction, committed if fn returns nil.
	inTx(ctx context.Context, fn func(q querier, tx TTx) error) error
	driver() riverdriver.Driver[TTx]
	// migrate runs River's migrations with m, then Augur's schema
	// (migrateSchema), serialised with other processes doing the same.
	migrate(ctx context.Context, m *rivermigrate.Migrator[TTx]) error
	ping(ctx context.Context) error
	close() error
}

// ---- SQLite ----

type sqliteDB struct{ sqlDB *sql.DB }

// openSQLite opens path ("" or ":memory:" for an in-memory database) with
// WAL, a busy timeout, immediate transactions and the file mapped into
// memory (up to 256 MiB; reading a page is then a memory access, not a
// system call, which the rows of a list need most: their columns come
// after reports of tens of kilobytes), through one connection:
// SQLite allows one writer at a time, and River's SQLite driver wants a
// pool of one connection to avoid SQLITE_BUSY between its own goroutines.
func openSQLite(ctx context.Context, path string) (*sqliteDB, error) {
	pragmas := "_pragma=busy_timeout(10000)&_pragma=foreign_keys(1)&_txlock=immediate"
	var dsn string
	if path == ":memory:" {
		dsn = "file::memory:?" + pragmas
	} else {
		dsn = "file:" + (&url.URL{Path: path}).EscapedPath() + "?" + pragmas +
			"&_pragma=journal_mode(WAL)&_pragma=synchronous(NORMAL)&_pragma=mmap_size(268435456)"
	}
	sqlDB, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, fmt.Errorf("store: open sqlite %s: %w", path, err)
	}
	sqlDB.SetMaxOpenConns(1)
	sqlDB.SetMaxIdleConns(1)
	sqlDB.SetConnMaxLifetime(0)
	sqlDB.SetConnMaxIdleTime(0)
	if err := sqlDB.PingContext(ctx); err != nil {
		sqlDB.Close()
		return nil, fmt.Errorf("store: open sqlite %s: %w", path, err)
	}
	return &sqliteDB{sqlDB}, nil
}

func (d *sqliteDB) pool() querier { return sqlQuerier{d.sqlDB} }

func (d *sqliteDB) inTx(ctx context.Context, fn func(querier, *sql.Tx) error) error {
	tx, err := d.sqlDB.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("begin: %w", err)
	}
	if err := fn(sqlQuerier{tx}, tx); err != nil {
		tx.Rollback()
		return err
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("commit: %w", err)
	}
	return nil
}

func (d *sqliteDB) driver() riverdriver.Driver[*sql.Tx] { return riversqlite.New(d.sqlDB) }

// migrate runs everything in one transaction, which BEGIN IMMEDIATE makes
// exclusive between processes.
func (d *sqliteDB) migrate(ctx context.Context, m *rivermigrate.Migrator[*sql.Tx]) error {
	return d.inTx(ctx, func(q querier, tx *sql.Tx) error {
		//lint:ignore SA1019 replacing MigrateTx by Migrate changes how the schema is migrated inside this transaction; left to the store's owners.
		if _, err := m.MigrateTx(ctx, tx, rivermigrate.DirectionUp, nil); err != nil {
			return fmt.Errorf("river migrations: %w", err)
		}
		return migrateSchema(ctx, q, func(c column) (string, error) {
			var n int
			err := q.queryRow(ctx, `SELECT COUNT(*) FROM pragma_table_info($1) WHERE name = $2`, c.table, c.name).Scan(&n)
			if err != nil || n > 0 {
				return "", err
			}
			return `ALTER TABLE ` + c.table + ` ADD COLUMN ` + c.name + ` ` + c.def, nil
		})
	})
}

// migrateSchema creates Augur's tables and indexes (schema), adds the
// columns that a database of an earlier version lacks (addColumn gives
// the statement adding one, "" if it is there), then runs
// schemaAfterColumns.
func migrateSchema(ctx context.Context, q querier, addColumn func(column) (string, error)) error {
	if err := execAll(ctx, q, schema); err != nil {
		return err
	}
	for _, c := range addedColumns {
		stmt, err := addColumn(c)
		if err != nil {
			return fmt.Errorf("schema: column %s.%s: %w", c.table, c.name, err)
		}
		if stmt != "" {
			if _, err := q.exec(ctx, stmt); err != nil {
				return fmt.Errorf("schema: %w", err)
			}
		}
	}
	return execAll(ctx, q, schemaAfterColumns)
}

func execAll(ctx context.Context, q querier, stmts []string) error {
	for _, stmt := range stmts {
		if _, err := q.exec(ctx, stmt); err != nil {
			return fmt.Errorf("schema: %w", err)
		}
	}
	return nil
}

func (d *sqliteDB) ping(ctx context.Context) error { return d.sqlDB.PingContext(ctx) }
func (d *sqliteDB) close() error                   { return d.sqlDB.Close() }

// sqlRunner is what *sql.DB and *sql.Tx share.
type sqlRunner interface {
	ExecContext(ctx context.Context, q string, args ...any) (sql.Result, error)
	QueryContext(ctx context.Context, q string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, q string, args ...any) *sql.Row
}

type sqlQuerier struct{ r sqlRunner }

// dollar matches PostgreSQL's numbered parameters, which SQLite spells ?N.
var dollar = regexp.MustCompile(`\$([0-9]+)`)

func toSQLite(q string) string { return dollar.ReplaceAllString(q, "?$1") }

func (s sqlQuerier) exec(ctx context.Context, q string, args ...any) (int64, error) {
	res, err := s.r.ExecContext(ctx, toSQLite(q), args...)
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

func (s sqlQuerier) query(ctx context.Context, q string, args ...any) (rows, error) {
	r, err := s.r.QueryContext(ctx, toSQLite(q), args...)
	if err != nil {
		return nil, err
	}
	return sqlRows{r}, nil
}

func (s sqlQuerier) queryRow(ctx context.Context, q string, args ...any) row {
	return sqlRow{s.r.QueryRowContext(ctx, toSQLite(q), args...)}
}

type sqlRows struct{ *sql.Rows }

func (r sqlRows) close() { r.Rows.Close() }

type sqlRow struct{ r *sql.Row }

func (r sqlRow) Scan(dest ...any) error {
	err := r.r.Scan(dest...)
	if errors.Is(err, sql.ErrNoRows) {
		return errNoRows
	}
	return err
}

// ---- PostgreSQL ----

type pgDB struct{ p *pgxpool.Pool }

func openPostgres(ctx context.Context, dsn string) (*pgDB, error) {
	p, err := pgxpool.New(ctx, dsn)
	if err != nil {
		return nil, fmt.Errorf("store: open postgres: %w", err)
	}
	if err := p.Ping(ctx); err != nil {
		p.Close()
		return nil, fmt.Errorf("store: open postgres: %w", err)
	}
	return &pgDB{p}, nil
}

func (d *pgDB) pool() querier { return pgQuerier{d.p} }

func (d *pgDB) inTx(ctx context.Context, fn func(querier, pgx.Tx) error) error {
	tx, err := d.p.Begin(ctx)
	if err != nil {
		return fmt.Errorf("begin: %w", err)
	}
	if err := fn(pgQuerier{tx}, tx); err != nil {
		tx.Rollback(context.WithoutCancel(ctx))
		return err
	}
	if err := tx.Commit(ctx); err != nil {
		return fmt.Errorf("commit: %w", err)
	}
	return nil
}

func (d *pgDB) driver() riverdriver.Driver[pgx.Tx] { return riverpgxv5.New(d.p) }

// schemaLockID is an arbitrary constant naming Augur's migration lock.
const schemaLockID = 0x61756775 // "augu"

// migrate holds a session advisory lock while River migrates (one
// transaction per version: some of River's migrations cannot share one)
// and the schema is created.
func (d *pgDB) migrate(ctx context.Context, m *rivermigrate.Migrator[pgx.Tx]) error {
	conn, err := d.p.Acquire(ctx)
	if err != nil {
		return err
	}
	defer conn.Release()
	if _, err := conn.Exec(ctx, "SELECT pg_advisory_lock($1)", int64(schemaLockID)); err != nil {
		return fmt.Errorf("lock schema: %w", err)
	}
	defer conn.Exec(context.WithoutCancel(ctx), "SELECT pg_advisory_unlock($1)", int64(schemaLockID))
	if _, err := m.Migrate(ctx, rivermigrate.DirectionUp, nil); err != nil {
		return fmt.Errorf("river migrations: %w", err)
	}
	// The advisory lock orders the processes that migrate, not those
	// already working: their transactions may deadlock with the schema's
	// (PostgreSQL then aborts one of them), so the schema is tried again.
	for attempt := 1; ; attempt++ {
		err = d.inTx(ctx, func(q querier, _ pgx.Tx) error {
			return migrateSchema(ctx, q, func(c column) (string, error) {
				return pgAddColumn(ctx, q, c)
			})
		})
		if attempt == schemaAttempts || !retryable(err) {
			return err
		}
		select {
		case <-ctx.Done():
			return err
		case <-time.After(time.Duration(attempt) * 50 * time.Millisecond):
		}
	}
}

// schemaAttempts bounds the tries of the schema's transaction.
const schemaAttempts = 5

// retryable tells whether err is PostgreSQL aborting a transaction that
// may succeed when run again: a deadlock or a serialization failure.
func retryable(err error) bool {
	var pgErr *pgconn.PgError
	return errors.As(err, &pgErr) && (pgErr.Code == "40P01" || pgErr.Code == "40001")
}

// pgAddColumn gives the statement adding c, or "" when the table has it:
// ALTER TABLE takes the table's strongest lock even when the column
// exists, which would stop every worker at each start of a process.
func pgAddColumn(ctx context.Context, q querier, c column) (string, error) {
	var n int
	if err := q.queryRow(ctx, `SELECT count(*) FROM information_schema.columns
		WHERE table_schema = current_schema() AND table_name = $1 AND column_name = $2`, c.table, c.name).Scan(&n); err != nil {
		return "", err
	}
	if n > 0 {
		return "", nil
	}
	return `ALTER TABLE ` + c.table + ` ADD COLUMN IF NOT EXISTS ` + c.name + ` ` + c.def, nil
}

func (d *pgDB) ping(ctx context.Context) error { return d.p.Ping(ctx) }
func (d *pgDB) close() error                   { d.p.Close(); return nil }

type pgQuerier struct {
	r interface {
		Query(ctx context.Context, q string, args ...any) (pgx.Rows, error)
		QueryRow(ctx context.Context, q string, args ...any) pgx.Row
	}
}

func (p pgQuerier) exec(ctx context.Context, q string, args ...any) (int64, error) {
	// Through Query, so that Pool and Tx need one interface.
	r, err := p.r.Query(ctx, q, args...)
	if err != nil {
		return 0, err
	}
	r.Close()
	if err := r.Err(); err != nil {
		return 0, err
	}
	return r.CommandTag().RowsAffected(), nil
}

func (p pgQuerier) query(ctx context.Context, q string, args ...any) (rows, error) {
	r, err := p.r.Query(ctx, q, args...)
	if err != nil {
		return nil, err
	}
	return pgRows{r}, nil
}

func (p pgQuerier) queryRow(ctx context.Context, q string, args ...any) row {
	return pgRow{p.r.QueryRow(ctx, q, args...)}
}

type pgRows struct{ pgx.Rows }

func (r pgRows) close() { r.Rows.Close() }

type pgRow struct{ r pgx.Row }

func (r pgRow) Scan(dest ...any) error {
	err := r.r.Scan(dest...)
	if errors.Is(err, pgx.ErrNoRows) {
		return errNoRows
	}
	return err
}

// parseDSN tells the database of a DSN: "sqlite:PATH", "sqlite::memory:",
// a path ending in ".db", or a "postgres://" or "postgresql://" URL.
func parseDSN(dsn string) (kind, target string, err error) {
	switch {
	case strings.HasPrefix(dsn, "postgres://"), strings.HasPrefix(dsn, "postgresql://"):
		return "postgres", dsn, nil
	case strings.HasPrefix(dsn, "sqlite:"):
		p := strings.TrimPrefix(dsn, "sqlite:")
		if p == "" {
			return "", "", fmt.Errorf("store: %q: empty SQLite path", dsn)
		}
		return "sqlite", p, nil
	case strings.HasSuffix(dsn, ".db"):
		return "sqlite", dsn, nil
	}
	// A mistyped URL may still hold a password.
	return "", "", fmt.Errorf("store: %q: want sqlite:PATH, PATH.db or a postgres:// URL", RedactDSN(dsn))
}
