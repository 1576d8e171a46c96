package store

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// populate inserts n finished validations shaped like real ones (a
// specification of about 1 KiB, a kernel of 2 KiB, a report of about 60
// KiB: the conditions with their SMT-LIB2 scripts) straight into the
// table, in one transaction: Submit would queue a job for each.
func populate(tb testing.TB, s Store, n int) {
	tb.Helper()
	st, ok := s.(*store[*sql.Tx])
	if !ok {
		tb.Skip("populate writes SQLite rows")
	}
	spec := strings.Repeat("tensor Out(x, y) : f32\nOut(x, y) = In(x, y) + 1\n", 20)
	report := `{"verdict":"valid","conditions":[` + strings.TrimSuffix(strings.Repeat(
		`{"id":1,"kind":"annotation mismatch","status":"proved","smt":"`+strings.Repeat("(assert (= x y))", 120)+`"},`, 30), ",") + `]}`
	ctx := context.Background()
	start := time.Now().Add(-time.Duration(n) * time.Minute)
	err := st.db.inTx(ctx, func(q querier, _ *sql.Tx) error {
		for i := range n {
			id, _, err := st.ids.next(start.Add(time.Duration(i) * time.Minute))
			if err != nil {
				return err
			}
			program := fmt.Sprintf("# kernel %d\nkernel k%d(W, H)\n", i, i%40) + strings.Repeat("  a[x] {A(x)} := b[x] + 1\n", 80)
			verdict := []string{"valid", "valid", "valid", "invalid", "unknown"}[i%5]
			created := micros(start.Add(time.Duration(i) * time.Minute))
			if _, err := q.exec(ctx, `INSERT INTO augur_validation (id, content_key, spec_name, spec,
				program_name, program, options, repository, branch, commit_id, labels, status, verdict,
				reason, report, created_at, started_at, finished_at) VALUES ($1, $2, $3, $4, $5, $6, '{}',
				$7, $8, $9, $10, 'done', $11, '', $12, $13, $14, $15)`,
				id, fmt.Sprintf("key%d", i), fmt.Sprintf("specs/s%d.sare", i%40), spec,
				fmt.Sprintf("kernels/k%d.sched", i%40), program,
				fmt.Sprintf("acme/repo%d", i%7), fmt.Sprintf("branch%d", i%13), fmt.Sprintf("%040x", i),
				fmt.Sprintf(`{"arch":"x%d"}`, i%3), verdict, report, created, created+1000, created+2_000_000); err != nil {
				return err
			}
			if _, err := q.exec(ctx, `INSERT INTO augur_validation_label (validation_id, name, value)
				VALUES ($1, 'arch', $2)`, id, fmt.Sprintf("x%d", i%3)); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		tb.Fatalf("populate: %v", err)
	}
}

// BenchmarkList measures a page of GET /v1/validations over a SQLite file
// of a few thousand validations:
//
//	go test ./store -run '^$' -bench List -benchtime 20x
func BenchmarkList(b *testing.B) {
	s, err := Open(context.Background(), "sqlite:"+filepath.Join(b.TempDir(), "bench.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	populate(b, s, 3000)
	ctx := context.Background()
	first, _, err := s.List(ctx, Filter{Limit: 500})
	if err != nil {
		b.Fatal(err)
	}
	deep := first[len(first)-1].ID
	for _, c := range []struct {
		name string
		f    Filter
	}{
		{"all", Filter{}},
		{"page11", Filter{Cursor: deep}},
		{"repository", Filter{Repository: "acme/repo3"}},
		{"branch+verdict", Filter{Branch: "branch5", Verdict: "invalid"}},
		{"label", Filter{Label: "arch=x1"}},
		{"name", Filter{Name: "k17"}},
		{"since", Filter{Since: time.Now().Add(-24 * time.Hour)}},
		{"limit500", Filter{Limit: 500}},
	} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				if _, _, err := s.List(ctx, c.f); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestListPlans checks SQLite's plans for List's queries: newest first
// by the primary key's index, without sorting, and a filter by its
// index.
func TestListPlans(t *testing.T) {
	s, err := Open(context.Background(), "sqlite::memory:")
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	st := s.(*store[*sql.Tx])
	plan := func(q string) string {
		t.Helper()
		rs, err := st.db.pool().query(context.Background(), "EXPLAIN QUERY PLAN "+q)
		if err != nil {
			t.Fatal(err)
		}
		defer rs.close()
		var b strings.Builder
		for rs.Next() {
			var id, parent, unused int
			var detail string
			if err := rs.Scan(&id, &parent, &unused, &detail); err != nil {
				t.Fatal(err)
			}
			b.WriteString(detail + "\n")
		}
		return b.String()
	}
	for _, c := range []struct{ query, want string }{
		{`SELECT ` + listColumns + ` FROM augur_validation ORDER BY id DESC LIMIT 51`,
			"SCAN augur_validation USING INDEX sqlite_autoindex_augur_validation_1"},
		{`SELECT ` + listColumns + ` FROM augur_validation WHERE repository = 'r' ORDER BY id DESC LIMIT 51`,
			"SEARCH augur_validation USING INDEX augur_validation_repository (repository=?)"},
	} {
		got := plan(c.query)
		if !strings.Contains(got, c.want) || strings.Contains(got, "TEMP B-TREE") {
			t.Errorf("plan of %s:\n%s\nwant %q and no sorting", c.query, got, c.want)
		}
	}
}

// A SQLite file is mapped into memory (a list reads rows whose columns
// come after long reports: with read calls, five to ten times slower).
func TestSQLiteMapped(t *testing.T) {
	s, err := Open(context.Background(), "sqlite:"+filepath.Join(t.TempDir(), "m.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var n int64
	if err := s.(*store[*sql.Tx]).db.pool().queryRow(context.Background(), "PRAGMA mmap_size").Scan(&n); err != nil {
		t.Fatal(err)
	}
	if n != 256<<20 {
		t.Errorf("mmap_size %d, want %d", n, 256<<20)
	}
}
