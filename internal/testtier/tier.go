package testtier

import (
	"os"
	"testing"
)

// Env is the environment variable that selects the long tier: "1" runs the
// tests that call [Long].
const Env = "AUGUR_TEST_LONG"

// Long marks t as a test of the long tier: it skips t unless [Env] is "1"
// (as `make test-long` sets it), or when the tests run in short mode.
func Long(t testing.TB) {
	t.Helper()
	if testing.Short() {
		t.Skip("long tier, short mode")
	}
	if os.Getenv(Env) != "1" {
		t.Skip("long tier: make test-long runs it (" + Env + "=1)")
	}
}
