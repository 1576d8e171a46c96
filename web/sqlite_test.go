package web

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/augur-verify/augur/store"
)

// TestSQLiteStore renders the pages over the real embedded store: two
// submissions run by a worker whose runner answers the reports augur
// validate wrote in testdata.
func TestSQLiteStore(t *testing.T) {
	ctx := context.Background()
	st, err := store.Open(ctx, "sqlite:"+filepath.Join(t.TempDir(), "augur.db"), store.WithFetchPollInterval(50*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	read := func(name string) string {
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	reports := map[string]string{
		"examples/blur/broken_wrong_row.sched": read("testdata/blur_broken_wrong_row.json"),
		"examples/matmul/matmul.sched":         read("testdata/matmul.json"),
	}
	// At the commit before, every condition of the blur kernel proved.
	var before map[string]any
	if err := json.Unmarshal([]byte(reports["examples/blur/broken_wrong_row.sched"]), &before); err != nil {
		t.Fatal(err)
	}
	before["verdict"], before["reason"], before["counterexample"] = "valid", "", nil
	for _, c := range before["conditions"].([]any) {
		c.(map[string]any)["status"] = "proved"
	}
	b, _ := json.Marshal(before)
	earlier := string(b)
	wctx, stop := context.WithCancel(ctx)
	worked := make(chan error, 1)
	go func() {
		worked <- st.Work(wctx, 2, time.Second, func(ctx context.Context, v *store.Validation, progress func(store.Progress)) (store.Result, error) {
			var r struct{ Verdict, Reason string }
			rep := reports[v.ProgramName]
			if v.Meta.Commit == "c0" {
				rep = earlier
			}
			if err := json.Unmarshal([]byte(rep), &r); err != nil {
				return store.Result{}, err
			}
			return store.Result{Report: json.RawMessage(rep), Verdict: r.Verdict, Reason: r.Reason, Cacheable: true}, nil
		})
	}()
	defer func() {
		stop()
		<-worked
	}()

	ids := map[string]string{}
	wait := func(id string) {
		t.Helper()
		waitUntil(t, 30*time.Second, "validation "+id+" done", func() bool {
			v, err := st.Get(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			return v.Status == store.Done
		})
	}
	// The blur kernel at the commit before (a comment apart, so that
	// the cache does not answer the next one).
	prev, err := st.Submit(ctx, &store.Validation{
		SpecName: "examples/blur/blur.sare", Spec: read("../examples/blur/blur.sare"),
		ProgramName: "examples/blur/broken_wrong_row.sched", Program: "# before\n" + read("../examples/blur/broken_wrong_row.sched"),
		Meta: store.Meta{Repository: "github.com/acme/kernels", Branch: "main", Commit: "c0"},
	})
	if err != nil {
		t.Fatal(err)
	}
	wait(prev.ID)
	// The comparison takes an earlier validation by its creation time, of
	// millisecond resolution: the next ones must be created in a later
	// millisecond.
	waitUntil(t, time.Second, "a millisecond after the first validation", func() bool {
		return time.Now().Truncate(time.Millisecond).After(prev.CreatedAt)
	})
	for _, pair := range [][2]string{
		{"examples/blur/blur.sare", "examples/blur/broken_wrong_row.sched"},
		{"examples/matmul/matmul.sare", "examples/matmul/matmul.sched"},
	} {
		v, err := st.Submit(ctx, &store.Validation{
			SpecName: pair[0], Spec: read("../" + pair[0]),
			ProgramName: pair[1], Program: read("../" + pair[1]),
			Meta: store.Meta{Repository: "github.com/acme/kernels", Branch: "main", Commit: "c1", Labels: map[string]string{"team": "x"}},
		})
		if err != nil {
			t.Fatal(err)
		}
		ids[pair[1]] = v.ID
	}
	for _, id := range ids {
		wait(id)
	}

	h := New(st, Options{})
	_, _, doc := get(t, h, "/?verdict=invalid&label=team%3Dx&repository=github.com%2Facme%2Fkernels")
	links := findAll(doc, func(n *html.Node) bool {
		return n.DataAtom == atom.A && strings.HasPrefix(attr(n, "href"), "/validations/")
	})
	if len(links) != 1 || attr(links[0], "href") != "/validations/"+ids["examples/blur/broken_wrong_row.sched"] {
		t.Fatalf("invalid validations listed: %q", texts(links))
	}
	code, _, doc := get(t, h, attr(links[0], "href"))
	if code != 200 {
		t.Fatalf("status %d", code)
	}
	if f := findAll(doc, hasClass("failed")); len(f) != 1 || attr(f[0], "id") != "L17" || !strings.Contains(text(f[0]), failingStmt) {
		t.Errorf("failed lines %q", texts(f))
	}
	// Compared with commit c0, where the statement of line 17 was proved.
	if c := findAll(doc, isTag(atom.Table)); !slices.ContainsFunc(c, func(n *html.Node) bool {
		return hasClass("changes")(n) && strings.Contains(text(n), failingStmt) && strings.Contains(text(n), "proved") && strings.Contains(text(n), "failed")
	}) {
		t.Errorf("no comparison with commit c0 showing line 17 proved, then failed")
	}
	if c := findAll(doc, hasClass("changes")); len(c) == 0 || !strings.Contains(text(c[0]), prev.ID) || !strings.Contains(text(c[0]), "1 statement changed, 4 unchanged") {
		t.Errorf("the comparison: %q", texts(c))
	}
	_, _, doc = get(t, h, "/validations/"+ids["examples/matmul/matmul.sched"])
	for _, l := range findAll(doc, hasClass("line")) {
		if strings.Contains(text(l), ":=") && !hasClass("proved")(l) {
			t.Errorf("assignment %q not proved", text(l))
		}
	}
	code, _, _ = get(t, h, "/validations/nope")
	if code != 404 {
		t.Errorf("unknown id: status %d", code)
	}
}

// waitUntil polls cond (every 10 ms) until it holds, and fails the test
// if it does not hold within the given time.
func waitUntil(t *testing.T, within time.Duration, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(within); !cond(); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("waited %s in vain for %s", within, what)
		}
	}
}
