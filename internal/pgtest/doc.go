// Package pgtest gives tests a PostgreSQL database: the server named by
// the environment variable AUGUR_TEST_POSTGRES (a DSN whose user may create
// databases), or else a throwaway server started from the local binaries
// (/usr/lib/postgresql/*/bin, Debian's postgresql package) on a temporary
// directory and a free loopback port, or none: the tests skip, unless the
// environment variable CI is set (as .ci/run sets it), where they fail.
//
// Files, in reading order: pgtest.go.
package pgtest
