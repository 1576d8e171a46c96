// Package integration holds tests of the whole validation service: one
// `augur serve` and two `augur worker` processes sharing a PostgreSQL
// database, one of them killed mid-job (TestDistributed); the dashboard
// driven in headless Chromium over the real API, store and verifier
// (TestDashboardBrowser), and behind its login form
// (TestDashboardLoginBrowser); SIGINT and SIGTERM stopping augur serve and
// augur worker cleanly mid-validation (TestSignalsStopCleanly); and the
// submission load benchmark (BenchmarkSubmit). The package has no code of
// its own.
package integration
