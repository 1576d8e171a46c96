package pgtest

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"

	"github.com/jackc/pgx/v5"
)

// Server is PostgreSQL for the tests of one package, started on first use.
type Server struct {
	prefix  string // of the databases created
	once    sync.Once
	admin   string // DSN of a database to create test databases from
	why     string // why there is none
	stop    func()
	counter atomic.Int64
}

// New returns a server whose test databases are named prefix_PID_N.
func New(prefix string) *Server { return &Server{prefix: prefix} }

// Stop stops a server the tests started (call it from TestMain).
func (p *Server) Stop() {
	if p.stop != nil {
		p.stop()
	}
}

// DSN returns the DSN of a fresh database, dropped when the test ends. When
// there is no PostgreSQL (none named, none installed, or the local server
// failed to start) it skips the test, or fails it when CI is set: there a
// missing database must not pass for a green run.
func (p *Server) DSN(t testing.TB) string {
	t.Helper()
	p.once.Do(p.start)
	if p.admin == "" {
		if os.Getenv("CI") != "" {
			t.Fatalf("CI is set and there is no PostgreSQL: %s", p.why)
		}
		t.Skip("PostgreSQL: " + p.why)
	}
	name := fmt.Sprintf("%s_%d_%d", p.prefix, os.Getpid(), p.counter.Add(1))
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, p.admin)
	if err != nil {
		t.Fatalf("connect to PostgreSQL: %v", err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, "CREATE DATABASE "+name); err != nil {
		t.Fatalf("create database: %v", err)
	}
	t.Cleanup(func() {
		conn, err := pgx.Connect(ctx, p.admin)
		if err != nil {
			return
		}
		defer conn.Close(ctx)
		conn.Exec(ctx, "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)")
	})
	return withDatabase(p.admin, name)
}

// withDatabase replaces the database of a postgres:// URL.
func withDatabase(dsn, name string) string {
	cfg, err := pgx.ParseConfig(dsn)
	if err != nil {
		return dsn
	}
	query := ""
	if i := strings.IndexByte(dsn, '?'); i >= 0 {
		query = dsn[i:]
	}
	auth := cfg.User
	if cfg.Password != "" {
		auth += ":" + cfg.Password
	}
	return fmt.Sprintf("postgres://%s@%s/%s%s", auth, net.JoinHostPort(cfg.Host, strconv.Itoa(int(cfg.Port))), name, query)
}

func (p *Server) start() {
	if dsn := os.Getenv("AUGUR_TEST_POSTGRES"); dsn != "" {
		p.admin = dsn
		return
	}
	bins, _ := filepath.Glob("/usr/lib/postgresql/*/bin/initdb")
	if len(bins) == 0 {
		p.why = "AUGUR_TEST_POSTGRES unset and no server binaries in /usr/lib/postgresql/*/bin (Debian: apt-get install -y postgresql)"
		return
	}
	bin := filepath.Dir(bins[len(bins)-1])
	if err := p.startLocal(bin); err != nil {
		p.why = "local server: " + err.Error()
	}
}

// startLocal runs initdb and pg_ctl from bin on a temporary directory and a
// free loopback port, as the postgres user when we are root (PostgreSQL
// refuses to run as root).
func (p *Server) startLocal(bin string) error {
	dir, err := os.MkdirTemp("", "augur-pg-")
	if err != nil {
		return err
	}
	var cred *syscall.Credential
	if os.Geteuid() == 0 {
		u, err := user.Lookup("postgres")
		if err != nil {
			os.RemoveAll(dir)
			return fmt.Errorf("running as root and no postgres user: %w", err)
		}
		uid, _ := strconv.Atoi(u.Uid)
		gid, _ := strconv.Atoi(u.Gid)
		cred = &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}
		if err := os.Chown(dir, uid, gid); err != nil {
			os.RemoveAll(dir)
			return err
		}
	}
	run := func(name string, args ...string) error {
		cmd := exec.Command(filepath.Join(bin, name), args...)
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: cred}
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		if err != nil {
			return fmt.Errorf("%s: %w\n%s", name, err, out)
		}
		return nil
	}
	data := filepath.Join(dir, "data")
	if err := run("initdb", "-A", "trust", "-U", "postgres", "-D", data); err != nil {
		os.RemoveAll(dir)
		return err
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		os.RemoveAll(dir)
		return err
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	opts := fmt.Sprintf("-k %s -p %d -h 127.0.0.1 -c fsync=off -c max_connections=200", dir, port)
	if err := run("pg_ctl", "-D", data, "-l", filepath.Join(dir, "log"), "-w", "-o", opts, "start"); err != nil {
		os.RemoveAll(dir)
		return err
	}
	p.admin = fmt.Sprintf("postgres://postgres@127.0.0.1:%d/postgres?sslmode=disable", port)
	p.stop = func() {
		run("pg_ctl", "-D", data, "-m", "immediate", "stop")
		os.RemoveAll(dir)
	}
	return nil
}
