package integration

import (
	"os"
	"testing"

	"github.com/augur-verify/augur/internal/pgtest"
)

var pgServer = pgtest.New("augur_integration") // the package's tests share one server

func TestMain(m *testing.M) {
	code := m.Run()
	pgServer.Stop()
	os.Exit(code)
}

// postgresDSN returns the DSN of a fresh database, or skips the test.
func postgresDSN(t testing.TB) string { t.Helper(); return pgServer.DSN(t) }
