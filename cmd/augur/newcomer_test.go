package main

import (
	"bytes"
	"io"
	"mime/multipart"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/augur-verify/augur/api"
	"github.com/augur-verify/augur/store"
)

// augur validate reads one of its files from standard input as "-".
func TestValidateStdin(t *testing.T) {
	prog, err := os.ReadFile("../../examples/blur/broken_wrong_row.sched")
	if err != nil {
		t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	code := execute([]string{"validate", "../../examples/blur/blur.sare", "-"}, bytes.NewReader(prog), &out, &errOut)
	if code != 1 || !strings.HasPrefix(out.String(), "INVALID: annotation mismatch") || !strings.Contains(out.String(), "<stdin>:17:9:") {
		t.Errorf("kernel on stdin: exit %d\n%s%s", code, out.String(), errOut.String())
	}
	spec, _ := os.ReadFile("../../examples/blur/blur.sare")
	out.Reset()
	code = execute([]string{"validate", "-", "../../examples/blur/blur.sched"}, bytes.NewReader(spec), &out, &errOut)
	if code != 0 || !strings.HasPrefix(out.String(), "VALID:") {
		t.Errorf("specification on stdin: exit %d\n%s", code, out.String())
	}
	if code, _, errOut := augur("validate", "-", "-"); code != 3 || !strings.Contains(errOut, "only one of the files") {
		t.Errorf("both on stdin: exit %d %s", code, errOut)
	}
}

// The README's curl line gets the text report.
func TestReadmeCurlGetsText(t *testing.T) {
	srv, _ := testServer(t, api.Config{}, true)
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	for field, path := range map[string]string{"spec": "../../examples/matmul/matmul.sare", "program": "../../examples/matmul/matmul.sched"} {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		w, _ := mw.CreateFormFile(field, path[strings.LastIndex(path, "/")+1:])
		w.Write(data)
	}
	mw.Close()
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(readme), "curl -s -H 'Accept: text/plain' -F spec=@examples/matmul/matmul.sare") {
		t.Fatal("the README's curl line changed: update this test")
	}
	req, _ := http.NewRequest("POST", srv.URL+"/v1/validations?wait=60s", &body)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	req.Header.Set("Accept", "text/plain")
	req.Header.Set("User-Agent", "curl/8.0")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	text, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 || !strings.HasPrefix(string(text), "VALID: matmul.sched computes its specification matmul.sare") ||
		strings.Count(string(text), "\n") > 10 {
		t.Errorf("%d:\n%s", resp.StatusCode, text)
	}
}

// make run takes its address from ADDR; augur.db and out/ are ignored by
// git.
func TestMakeRunAddrAndGitignore(t *testing.T) {
	if _, err := exec.LookPath("make"); err == nil {
		cmd := exec.Command("make", "-n", "run", "ADDR=127.0.0.1:9999")
		cmd.Dir = "../.."
		out, err := cmd.CombinedOutput()
		if err != nil || !strings.Contains(string(out), "serve --addr 127.0.0.1:9999 ") {
			t.Errorf("make -n run ADDR=...: %v\n%s", err, out)
		}
	}
	if _, err := exec.LookPath("git"); err == nil {
		cmd := exec.Command("git", "check-ignore", "--no-index", "augur.db", "augur.db-wal", "out/prog.sched")
		cmd.Dir = "../.."
		out, err := cmd.CombinedOutput()
		if err != nil || strings.Count(string(out), "\n") != 3 {
			t.Errorf("git check-ignore: %v\n%s", err, out)
		}
	}
}

// In GitHub Actions and GitLab CI, augur submit labels the submission
// with the links back to the run and the commit.
func TestCIMetaLinks(t *testing.T) {
	for _, v := range []string{"GITHUB_SERVER_URL", "GITHUB_REPOSITORY", "GITHUB_RUN_ID", "GITHUB_SHA", "GITHUB_REF_NAME", "GITHUB_HEAD_REF", "GITHUB_JOB",
		"CI_JOB_URL", "CI_PIPELINE_URL", "CI_PROJECT_URL", "CI_COMMIT_SHA", "CI_PROJECT_PATH", "CI_COMMIT_REF_NAME", "CI_PIPELINE_ID", "CI_JOB_NAME"} {
		t.Setenv(v, "")
	}
	t.Setenv("GITHUB_SERVER_URL", "https://github.com")
	t.Setenv("GITHUB_REPOSITORY", "acme/kernels")
	t.Setenv("GITHUB_RUN_ID", "42")
	t.Setenv("GITHUB_SHA", "abc123")
	var m store.Meta
	ciMeta(&m)
	if m.Labels["ci_url"] != "https://github.com/acme/kernels/actions/runs/42" || m.Labels["commit_url"] != "https://github.com/acme/kernels/commit/abc123" {
		t.Errorf("GitHub: %+v", m)
	}
	// A label given on the command line wins.
	m = store.Meta{Labels: map[string]string{"ci_url": "https://ci.example/1"}}
	ciMeta(&m)
	if m.Labels["ci_url"] != "https://ci.example/1" {
		t.Errorf("the given label was replaced: %+v", m)
	}
}
