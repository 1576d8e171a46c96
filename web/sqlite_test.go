package web

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
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
	wctx, stop := context.WithCancel(ctx)
	worked := make(chan error, 1)
	go func() {
		worked <- st.Work(wctx, 2, time.Second, func(ctx context.Context, v *store.Validation, progress func(store.Progress)) (store.Result, error) {
			var r struct{ Verdict, Reason string }
			rep := reports[v.ProgramName]
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
	for _, pair := range [][2]string{
		{"examples/blur/blur.sare", "examples/blur/broken_wrong_row.sched"},
		{"examples/matmul/matmul.sare", "examples/matmul/matmul.sched"},
	} {
		v, err := st.Submit(ctx, &store.Validation{
			SpecName: pair[0], Spec: read("../" + pair[0]),
			ProgramName: pair[1], Program: read("../" + pair[1]),
			Meta: store.Meta{Repository: "github.com/acme/kernels", Branch: "main", Labels: map[string]string{"team": "x"}},
		})
		if err != nil {
			t.Fatal(err)
		}
		ids[pair[1]] = v.ID
	}
	deadline := time.Now().Add(30 * time.Second)
	for _, id := range ids {
		for {
			v, err := st.Get(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			if v.Status == store.Done {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("validation %s still %s", id, v.Status)
			}
			time.Sleep(50 * time.Millisecond)
		}
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
