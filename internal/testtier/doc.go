// Package testtier selects the tier of the test suite a test belongs to.
//
// `make test` runs the regular tier: every test but the long ones, under
// the 30-minute budget the README promises on a two-core machine. Tests
// whose validations cost minutes of CPU belong to the long tier: they are
// named TestLong..., call [Long] first, and run under `make test-long`,
// which sets AUGUR_TEST_LONG=1 and selects them by name. Continuous
// integration runs both tiers, so a long test still guards what it checks.
//
// Files, in reading order: tier.go.
package testtier
