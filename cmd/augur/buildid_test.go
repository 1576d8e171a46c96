package main

import (
	"bytes"
	"encoding/json"
	"io"
	"mime/multipart"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

func TestVersionNamesBuildAndZ3(t *testing.T) {
	for _, args := range [][]string{{"--version"}, {"version"}} {
		code, out, errOut := augur(args...)
		if code != 0 || out != verifierID()+"\n" || errOut != "" {
			t.Errorf("augur %v: exit %d %q %q", args, code, out, errOut)
		}
	}
	// go test records no revision: the build is named by its executable.
	if id := verifierID(); !regexp.MustCompile(`^augur \S+ \(sha256 [0-9a-f]{16}\); z3 \d+\.\d+`).MatchString(id) {
		t.Errorf("verifier %q", id)
	}
}

// TestCacheAcrossBuilds runs the service of two builds of augur that
// differ only in their build identity (main.buildID) on one SQLite
// database: the second serves none of the first's cached verdicts, and
// validates anew at start the examples that the first validated.
func TestCacheAcrossBuilds(t *testing.T) {
	if testing.Short() {
		t.Skip("builds augur twice")
	}
	dir := t.TempDir()
	one, two := buildAugur(t, dir, "build-one"), buildAugur(t, dir, "build-two")
	if out, err := exec.Command(two, "--version").Output(); err != nil || !regexp.MustCompile(`^augur \S+ \(build-two\); z3 \d`).Match(out) {
		t.Fatalf("augur --version: %q, %v", out, err)
	}
	work := filepath.Join(dir, "work")
	copyDir(t, "../../examples/blur", filepath.Join(work, "examples", "blur"))
	spec, prog := "examples/blur/blur.sare", "examples/blur/broken_wrong_row.sched"

	// The first build validates the examples; an identical submission
	// is then answered from its cache.
	srv := startServe(t, one, work)
	first := srv.examples(t, 2)
	firstIDs := map[string]bool{}
	for _, v := range first {
		firstIDs[v.ID] = true
	}
	if v := srv.submit(t, spec, prog); v.CachedFrom == "" || !firstIDs[v.CachedFrom] || v.Verdict != "invalid" {
		t.Fatalf("build one: an identical submission was not answered from the cache: %+v", v)
	}
	srv.stop(t)

	// The second build, on the same database, validates the examples
	// again and answers from none of the first build's verdicts.
	srv = startServe(t, two, work)
	if v := srv.submit(t, spec, prog); firstIDs[v.CachedFrom] || v.Verdict != "invalid" {
		t.Errorf("build two answered from build one's verdict: %+v", v)
	}
	again := srv.examples(t, 4)
	for _, v := range again {
		if !firstIDs[v.ID] && v.CachedFrom != "" && firstIDs[v.CachedFrom] {
			t.Errorf("build two's example %s reuses build one's verdict %s", v.ProgramName, v.CachedFrom)
		}
	}
	srv.stop(t)
	if !strings.Contains(srv.logs.String(), "submitted the examples") {
		t.Errorf("build two did not submit the examples:\n%s", srv.logs.String())
	}
}

// buildAugur links augur with the build identity id (the packages'
// compilation is shared through the build cache).
func buildAugur(t *testing.T, dir, id string) string {
	t.Helper()
	bin := filepath.Join(dir, id, "augur")
	cmd := exec.Command("go", "build", "-o", bin, "-ldflags", "-s -w -X main.buildID="+id, ".")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// serveProcess is augur serve running in a process of its own.
type serveProcess struct {
	cmd  *exec.Cmd
	base string
	logs *syncBuffer
	done chan error
}

// startServe starts bin serve in the directory work, on the SQLite
// database augur.db there, with the examples and one worker.
func startServe(t *testing.T, bin, work string) *serveProcess {
	t.Helper()
	p := &serveProcess{logs: &syncBuffer{}, done: make(chan error, 1)}
	p.cmd = exec.Command(bin, "serve", "--addr", "127.0.0.1:0", "--db", "sqlite:augur.db", "--examples", "--workers", "1",
		"--log-format", "json", "--grace", "1s")
	p.cmd.Dir = work
	p.cmd.Stderr = p.logs
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { p.done <- p.cmd.Wait() }()
	t.Cleanup(func() {
		if p.cmd.ProcessState == nil {
			p.cmd.Process.Kill()
			<-p.done
		}
	})
	p.logs.waitFor(t, `"addr":"127.0.0.1:`, time.Minute)
	m := regexp.MustCompile(`"addr":"(127\.0\.0\.1:\d+)"`).FindStringSubmatch(p.logs.String())
	p.base = "http://" + m[1]
	return p
}

// stop interrupts the server and waits for a clean exit.
func (p *serveProcess) stop(t *testing.T) {
	t.Helper()
	p.cmd.Process.Signal(os.Interrupt)
	select {
	case err := <-p.done:
		if err != nil {
			t.Fatalf("serve: %v\n%s", err, p.logs.String())
		}
	case <-time.After(time.Minute):
		t.Fatal("serve did not stop")
	}
}

// servedValidation is what the tests read of a validation.
type servedValidation struct {
	ID          string `json:"id"`
	ProgramName string `json:"program_name"`
	Status      string `json:"status"`
	Verdict     string `json:"verdict"`
	CachedFrom  string `json:"cached_from"`
}

// examples waits until n examples are in the store, all done, and
// returns them.
func (p *serveProcess) examples(t *testing.T, n int) []servedValidation {
	t.Helper()
	var list struct{ Validations []servedValidation }
	waitUntil(t, 2*time.Minute, "the examples' verdicts", func() bool {
		resp, err := http.Get(p.base + "/v1/validations?label=source=examples")
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		list.Validations = nil
		if err := json.NewDecoder(resp.Body).Decode(&list); err != nil {
			t.Fatal(err)
		}
		for _, v := range list.Validations {
			if v.Status != "done" {
				return false
			}
		}
		return len(list.Validations) == n
	})
	return list.Validations
}

// submit posts the pair (paths relative to the server's directory) and
// waits for its verdict.
func (p *serveProcess) submit(t *testing.T, spec, prog string) servedValidation {
	t.Helper()
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	for field, path := range map[string]string{"spec": spec, "program": prog} {
		data, err := os.ReadFile(filepath.Join(p.cmd.Dir, path))
		if err != nil {
			t.Fatal(err)
		}
		w, _ := mw.CreateFormFile(field, path)
		w.Write(data)
	}
	mw.Close()
	resp, err := http.Post(p.base+"/v1/validations?wait=60s", mw.FormDataContentType(), &body)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	var v servedValidation
	if resp.StatusCode != http.StatusOK || json.Unmarshal(data, &v) != nil {
		t.Fatalf("submit: %d %s", resp.StatusCode, data)
	}
	return v
}
