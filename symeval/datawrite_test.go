package symeval

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/augur-verify/augur/sched"
)

// TestLowerDataWrites lowers the corpus's histogram: its one
// data-dependent write becomes a check of the value against the
// annotation and a loop rewriting every bin, annotated with the bin's
// element; in a par loop, or with an annotation that names no
// data-dependent coordinate, the write is not lowered, with the reason.
func TestLowerDataWrites(t *testing.T) {
	dir := filepath.Join("..", "testdata", "corpus")
	spec := readFile(t, filepath.Join(dir, "hist.sare"))
	kernel := readFile(t, filepath.Join(dir, "hist_seq.sched"))
	p := loadPair(t, "hist.sare", spec, "hist_seq.sched", kernel)
	if !HasDataWrites(p.kernel, p.kinfo) {
		t.Fatal("HasDataWrites: false")
	}
	dw, err := LowerDataWrites(p.spec, p.kernel, p.kinfo)
	if err != nil {
		t.Fatal(err)
	}
	if dw.Writes != 1 || HasDataWrites(dw.Kernel, dw.KernelInfo) {
		t.Errorf("%d writes lowered, data-dependent writes left: %v", dw.Writes, HasDataWrites(dw.Kernel, dw.KernelInfo))
	}
	text := sched.Print(dw.Kernel)
	for _, want := range []string{
		"dw_h[0] {H(clamp(A(r), 0, 7), r)} := select(h[clamp(a[r], 0, 7)] == h[clamp(a[r], 0, 7)], h[clamp(a[r], 0, 7)] + 1, h[clamp(a[r], 0, 7)] + 1)",
		"for dw_h_0 < 8 {",
		"h[dw_h_0] {H(dw_h_0 + (0 - 0), r)} := select(i64(dw_h_0) == i64(clamp(a[r], 0, 7)), dw_h[0], h[dw_h_0])",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the lowered kernel lacks %q:\n%s", want, text)
		}
	}
	// A histogram allocated in each iteration of a par loop is the
	// iteration's own: its write is lowered.
	local := strings.NewReplacer("for b < 8 { h[b] {H(b, -1)} := 0 }", "par y < 2 {\n  alloc t : i32[8] {\n  for b < 8 { t[b] {H(b, -1)} := 0 }",
		"h[clamp(a[r], 0, 7)]", "t[clamp(a[r], 0, 7)]", "  }\n}\n", "  }\n  }\n  }\n}\n").Replace(kernel)
	if !strings.Contains(local, "par y < 2 {") || !strings.Contains(local, "t[clamp(a[r], 0, 7)]") {
		t.Fatalf("no local histogram in:\n%s", local)
	}
	p = loadPair(t, "hist.sare", spec, "local.sched", local)
	if _, err := LowerDataWrites(p.spec, p.kernel, p.kinfo); err != nil {
		t.Errorf("a histogram local to a par loop's iteration: %v", err)
	}
	for _, c := range []struct{ from, to, want string }{
		{"for r < R {", "par r < R {", "in a par loop"},
		{"{H(clamp(A(r), 0, 7), r)}", "{H(0, r)}", "has 1 data-dependent indices, its annotation H(0, r) 0"},
	} {
		k := strings.Replace(kernel, c.from, c.to, 1)
		p := loadPair(t, "hist.sare", spec, "k.sched", k)
		_, err := LowerDataWrites(p.spec, p.kernel, p.kinfo)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s -> %s: error %v, want %q", c.from, c.to, err, c.want)
		}
	}
}
