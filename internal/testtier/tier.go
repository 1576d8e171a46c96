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

// SlowEnv is the environment variable that selects the slow part of the
// long tier: "1" runs the long tests that also call [Slow].
const SlowEnv = "AUGUR_TEST_SLOW"

// Slow, called right after [Long], marks t as a long test whose
// validations cost more than the long tier's minute of CPU per test: it
// skips t unless [SlowEnv] is "1" too (`make test-slow` sets both), so
// that the long tier stays within its budget.
func Slow(t testing.TB) {
	t.Helper()
	if os.Getenv(SlowEnv) != "1" {
		t.Skip("slow part of the long tier: make test-slow runs it (" + SlowEnv + "=1)")
	}
}
