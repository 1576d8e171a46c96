package store

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
)

func TestRedactDSN(t *testing.T) {
	for _, c := range []struct{ dsn, want string }{
		{"postgres://augur:s3cret@db.example:5432/augur?sslmode=require", "postgres://augur:xxxxx@db.example:5432/augur?sslmode=require"},
		{"postgres://augur@db/augur?password=s3cret&sslmode=disable", "postgres://augur@db/augur?password=xxxxx&sslmode=disable"},
		{"postgresql://u:p%40ss@h/db?sslpassword=k3y", "postgresql://u:xxxxx@h/db?sslpassword=xxxxx"},
		{"postgres://augur@db/augur", "postgres://augur@db/augur"},
		{"sqlite:augur.db", "sqlite:augur.db"},
		{"sqlite::memory:", "sqlite::memory:"},
		// No URL (a bad port): masked all the same.
		{"postgres://augur:s3cret@db:port/augur", "postgres://augur:xxxxx@db:port/augur"},
		{"host=db password=s3cret user=augur", "host=db password=xxxxx user=augur"},
	} {
		if got := RedactDSN(c.dsn); got != c.want {
			t.Errorf("RedactDSN(%q) = %q, want %q", c.dsn, got, c.want)
		}
	}
}

// TestOpenErrorsHidePassword: whatever fails in Open, its error does not
// show the DSN's password, as written or decoded.
func TestOpenErrorsHidePassword(t *testing.T) {
	ctx := context.Background()
	for _, dsn := range []string{
		"postgre://augur:s3cr%3Dt@127.0.0.1:1/augur",  // a mistyped scheme
		"postgres://augur:s3cr%3Dt@127.0.0.1:1/augur", // nothing listens there
		"postgres://augur@127.0.0.1:1/augur?password=s3cr%3Dt",
		"postgres://augur:s3cr%3Dt@127.0.0.1:port/augur", // malformed
	} {
		_, err := Open(ctx, dsn)
		if err == nil {
			t.Fatalf("Open(%q): no error", dsn)
		}
		if msg := err.Error(); strings.Contains(msg, "s3cr") {
			t.Errorf("Open(%q): the error shows the password: %s", dsn, msg)
		}
	}
}

func TestRedactError(t *testing.T) {
	sentinel := errors.New("refused")
	dsn := "postgres://augur:s3cr%3Dt@db/augur"
	err := RedactError(fmt.Errorf("dialing %s (password s3cr=t): %w", dsn, sentinel), dsn)
	if msg := err.Error(); strings.Contains(msg, "s3cr") || !strings.Contains(msg, "augur:xxxxx@db") {
		t.Errorf("RedactError: %s", msg)
	}
	if !errors.Is(err, sentinel) {
		t.Errorf("RedactError lost the chain: %v", err)
	}
	if RedactError(nil, dsn) != nil {
		t.Errorf("RedactError(nil) is not nil")
	}
}
