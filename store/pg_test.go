package store

import (
	"os"
	"testing"

	"github.com/augur-verify/augur/internal/pgtest"
)

var pgServer = pgtest.New("augur_test") // the package's tests share one server

func TestMain(m *testing.M) {
	if os.Getenv(helperEnv) != "" {
		os.Exit(m.Run())
	}
	code := m.Run()
	pgServer.Stop()
	os.Exit(code)
}

// postgresDSN returns the DSN of a fresh database, or skips the test.
func postgresDSN(t *testing.T) string { t.Helper(); return pgServer.DSN(t) }
