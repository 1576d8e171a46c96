package web

import (
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/augur-verify/augur/sched"
	"github.com/augur-verify/augur/store"
	"github.com/augur-verify/augur/validate"
)

// addHistory puts earlier validations of v-invalid's kernel in s: on its
// branch at another commit (valid: the statement of line 17 proved, and
// one statement since gone), then at its own commit, on another branch
// and later, none of which count.
func addHistory(t *testing.T, s *fakeStore) {
	t.Helper()
	rep := readReport(t, "testdata/blur_broken_wrong_row.json")
	rep.Verdict, rep.Reason, rep.Counterexample = validate.Valid, "", nil
	for i := range rep.Conditions {
		rep.Conditions[i].Status = validate.Proved
		rep.Conditions[i].Line += 2 // the lines moved: statements match by text
	}
	rep.Conditions = append(rep.Conditions, validate.ConditionResult{ID: 15, Kind: sched.WrongValue,
		File: rep.Program, Line: 30, Col: 3, Text: "old[x] {Old(x)} := 1", Status: validate.Failed})
	valid, _ := json.Marshal(&rep)
	inv, _ := s.Get(t.Context(), "v-invalid")
	at := func(d time.Duration) time.Time { return inv.CreatedAt.Add(d) }
	prev := func(id, branch, commit, verdict string, created time.Time) *store.Validation {
		return &store.Validation{ID: id, SpecName: inv.SpecName, Spec: inv.Spec, ProgramName: inv.ProgramName, Program: inv.Program,
			Meta: store.Meta{Repository: inv.Meta.Repository, Branch: branch, Commit: commit}, Status: store.Done,
			Verdict: verdict, Report: valid, CreatedAt: created, StartedAt: &created, FinishedAt: &created}
	}
	s.vs = append(s.vs,
		prev("v-prev", "main", "aaaa1111bbbb2222", "valid", at(-3*time.Hour)),
		prev("v-older", "main", "9999", "valid", at(-5*time.Hour)),
	)
	// Newer ones come first in the fake's order.
	s.vs = append([]*store.Validation{
		prev("v-later", "main", "cccc", "valid", at(time.Hour)),
		prev("v-same-commit", "main", inv.Meta.Commit, "valid", at(-time.Hour)),
		prev("v-other-branch", "dev", "dddd", "valid", at(-2*time.Hour)),
	}, s.vs...)
	slices.SortStableFunc(s.vs, func(a, b *store.Validation) int { return b.CreatedAt.Compare(a.CreatedAt) })
}

func TestChangesSinceLastCommit(t *testing.T) {
	s, h := newTest(t)
	addHistory(t, s)
	_, _, doc := get(t, h, "/validations/v-invalid")
	sec := findAll(doc, hasClass("changes"))
	if len(sec) == 0 {
		t.Fatal("no comparison with the previous commit")
	}
	body := text(sec[0])
	for _, want := range []string{"Since the last commit", "v-prev", "aaaa1111bbbb", "valid", "2 statements changed, 4 unchanged"} {
		if !strings.Contains(body, want) {
			t.Errorf("the comparison lacks %q:\n%s", want, body)
		}
	}
	var rows []string
	for _, tr := range findAll(sec[0], isTag(atom.Tr))[1:] {
		rows = append(rows, strings.Join(strings.Fields(text(tr)), " "))
	}
	want := []string{
		"17 " + failingStmt + " ✓ proved ✗ failed",
		"old[x] {Old(x)} := 1 ✗ failed gone",
	}
	if !slices.Equal(rows, want) {
		t.Errorf("changed statements:\n%q\nwant\n%q", rows, want)
	}
	if a := findAll(sec[0], func(n *html.Node) bool { return n.DataAtom == atom.A && attr(n, "href") == "#L17" }); len(a) != 1 {
		t.Errorf("the changed statement does not link to its line")
	}

	// The previous one compared with its own previous, at another commit.
	_, _, doc = get(t, h, "/validations/v-prev")
	if sec := findAll(doc, hasClass("changes")); len(sec) == 0 || !strings.Contains(text(sec[0]), "v-older") ||
		!strings.Contains(text(sec[0]), "No statement changed (6 unchanged)") {
		t.Errorf("v-prev's comparison: %v", texts(sec))
	}
	// Nothing before: no comparison; nor without a branch.
	for _, id := range []string{"v-older", "v-unknown"} {
		if _, _, doc := get(t, h, "/validations/"+id); len(findAll(doc, hasClass("changes"))) != 0 {
			t.Errorf("%s is compared with something", id)
		}
	}
}

// A validation decided by testing first records no conditions, only its
// failing statement: compared with a full run of the same kernel file, that
// statement is listed with its two statuses, and the statements only the
// full run decided are counted as not compared, neither gone nor new.
func TestChangesAfterQuickTest(t *testing.T) {
	read := func(name string) string {
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	s := &fakeStore{}
	h := New(s, Options{Now: func() time.Time { return now }})
	// One kernel file, kernels/matmul.sched, at three commits: tiled and
	// valid, then with its row tiles rounded down (a failure testing
	// finds first), then tiled again.
	commits := []struct{ id, commit, prog, report, verdict string }{
		{"v-tiled", "c1", "../examples/matmul/matmul_tiled.sched", "testdata/matmul_tiled.json", "valid"},
		{"v-tested", "c2", "../examples/matmul/broken_tail_dropped.sched", "testdata/matmul_broken_tail_dropped.json", "invalid"},
		{"v-fixed", "c3", "../examples/matmul/matmul_tiled.sched", "testdata/matmul_tiled.json", "valid"},
	}
	for i, c := range commits {
		created := now.Add(time.Duration(i-3) * time.Hour)
		s.put(&store.Validation{ID: c.id, SpecName: "kernels/matmul.sare", Spec: read("../examples/matmul/matmul.sare"),
			ProgramName: "kernels/matmul.sched", Program: read(c.prog),
			Meta:   store.Meta{Repository: "github.com/acme/kernels", Branch: "main", Commit: c.commit},
			Status: store.Done, Verdict: c.verdict, Report: []byte(read(c.report)),
			CreatedAt: created, StartedAt: &created, FinishedAt: &created})
	}
	const out = "out c[i, j] : f32[N, M] = C(i, j)"
	for _, c := range []struct {
		id, summary, partial string
		rows                 []string
	}{
		{"v-tested", "1 statement changed, 0 unchanged, 5 not compared", "this validation stopped at its first failure",
			[]string{"8 " + out + " ✓ proved ✗ failed"}},
		{"v-fixed", "1 statement changed, 0 unchanged, 5 not compared", "the previous validation stopped at its first failure",
			[]string{"9 " + out + " ✗ failed ✓ proved"}},
	} {
		_, _, doc := get(t, h, "/validations/"+c.id)
		sec := findAll(doc, hasClass("changes"))
		if len(sec) == 0 {
			t.Fatalf("%s: no comparison with the previous commit", c.id)
		}
		body := strings.Join(strings.Fields(text(sec[0])), " ")
		for _, want := range []string{c.summary, c.partial} {
			if !strings.Contains(body, want) {
				t.Errorf("%s: the comparison lacks %q:\n%s", c.id, want, body)
			}
		}
		var rows []string
		for _, tr := range findAll(sec[0], isTag(atom.Tr))[1:] {
			rows = append(rows, strings.Join(strings.Fields(text(tr)), " "))
		}
		if !slices.Equal(rows, c.rows) {
			t.Errorf("%s: changed statements:\n%q\nwant\n%q", c.id, rows, c.rows)
		}
	}
}
