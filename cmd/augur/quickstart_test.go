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
)

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
