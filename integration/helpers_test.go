package integration

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/augur-verify/augur/store"
)

// root is the module's root directory (from go env GOMOD).
var root = sync.OnceValues(func() (string, error) {
	out, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		return "", fmt.Errorf("go env GOMOD: %w", err)
	}
	mod := strings.TrimSpace(string(out))
	if mod == "" || mod == os.DevNull {
		return "", fmt.Errorf("not in a module")
	}
	return filepath.Dir(mod), nil
})

func moduleRoot(t testing.TB) string {
	t.Helper()
	dir, err := root()
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// pair is an example specification and kernel with the verdict augur
// validate gives them.
type pair struct {
	spec, program string // paths relative to the module root
	verdict       string
	specText      string
	programText   string
}

// submission is the submission of p with meta.
func (p pair) submission(meta store.Meta) submission {
	return submission{Spec: p.specText, SpecName: p.spec, Program: p.programText, ProgramName: p.program, Meta: meta}
}

// examplePairs are small, quickly validated examples, valid and invalid.
var examplePairs = []pair{
	{spec: "examples/outer/outer.sare", program: "examples/outer/outer_split.sched", verdict: "valid"},
	{spec: "examples/outer/outer.sare", program: "examples/outer/outer_split_par.sched", verdict: "valid"},
	{spec: "examples/outer/outer.sare", program: "examples/outer/broken_unshifted_tail.sched", verdict: "invalid"},
	{spec: "examples/matmul/matmul.sare", program: "examples/matmul/matmul.sched", verdict: "valid"},
	{spec: "examples/matmul/matmul.sare", program: "examples/matmul/broken_par_reduction.sched", verdict: "invalid"},
	{spec: "examples/blur/blur.sare", program: "examples/blur/blur.sched", verdict: "valid"},
	{spec: "examples/blur/blur.sare", program: "examples/blur/broken_wrong_row.sched", verdict: "invalid"},
}

// loadPairs reads the texts of the example pairs.
func loadPairs(t testing.TB) []pair {
	t.Helper()
	return readPairs(t, examplePairs)
}

// readPairs returns ps with the texts of their files read.
func readPairs(t testing.TB, ps []pair) []pair {
	t.Helper()
	dir := moduleRoot(t)
	out := make([]pair, len(ps))
	for i, p := range ps {
		s, err := os.ReadFile(filepath.Join(dir, p.spec))
		if err != nil {
			t.Fatal(err)
		}
		k, err := os.ReadFile(filepath.Join(dir, p.program))
		if err != nil {
			t.Fatal(err)
		}
		p.specText, p.programText = string(s), string(k)
		out[i] = p
	}
	return out
}

// submission is the JSON body of POST /v1/validations.
type submission struct {
	Spec        string        `json:"spec"`
	Program     string        `json:"program"`
	SpecName    string        `json:"spec_name"`
	ProgramName string        `json:"program_name"`
	Options     store.Options `json:"options"`
	Meta        store.Meta    `json:"meta"`
}

// validation is what the tests read of GET /v1/validations/{id} (and of
// the list's summaries and ?wait's answer).
type validation struct {
	ID         string       `json:"id"`
	URL        string       `json:"url"`
	Status     store.Status `json:"status"`
	Verdict    string       `json:"verdict"`
	Reason     string       `json:"reason"`
	Attempts   int          `json:"attempts"`
	CachedFrom string       `json:"cached_from"`
	Meta       store.Meta   `json:"meta"`
	StartedAt  *time.Time   `json:"started_at"`
	FinishedAt *time.Time   `json:"finished_at"`
	Error      string       `json:"error"`
}

// submit posts sub to the server at base (query: "" or "?wait=60s") and
// decodes the answer.
func submit(client *http.Client, base, query string, sub submission) (*validation, int, error) {
	body, err := json.Marshal(sub)
	if err != nil {
		return nil, 0, err
	}
	resp, err := client.Post(base+"/v1/validations"+query, "application/json", bytes.NewReader(body))
	if err != nil {
		return nil, 0, err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, resp.StatusCode, err
	}
	if resp.StatusCode != http.StatusOK && resp.StatusCode != http.StatusAccepted {
		return nil, resp.StatusCode, fmt.Errorf("POST /v1/validations%s: %d %s", query, resp.StatusCode, data)
	}
	var v validation
	if err := json.Unmarshal(data, &v); err != nil {
		return nil, resp.StatusCode, fmt.Errorf("POST /v1/validations: %w: %s", err, data)
	}
	return &v, resp.StatusCode, nil
}

// getJSON GETs base+path as JSON into out.
func getJSON(client *http.Client, url string, out any) error {
	req, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		return err
	}
	req.Header.Set("Accept", "application/json")
	resp, err := client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return err
	}
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("GET %s: %d %s", url, resp.StatusCode, data)
	}
	return json.Unmarshal(data, out)
}

// listAll follows the pages of GET /v1/validations?query.
func listAll(client *http.Client, base, query string) ([]validation, error) {
	var all []validation
	next := "/v1/validations?" + query
	for next != "" {
		var page struct {
			Validations []validation `json:"validations"`
			Next        string       `json:"next"`
		}
		if err := getJSON(client, base+next, &page); err != nil {
			return all, err
		}
		all = append(all, page.Validations...)
		next = page.Next
	}
	return all, nil
}

// waitUntil calls cond every interval until it holds, and fails the test
// (naming what it waited for and how long) if it does not hold within the
// given time. cond may fail the test itself, for instance when a process
// it waits on has died.
func waitUntil(t *testing.T, within, interval time.Duration, what string, cond func() bool) {
	t.Helper()
	start := time.Now()
	for !cond() {
		if time.Since(start) > within {
			t.Fatalf("waited %s in vain for %s", time.Since(start).Round(time.Millisecond), what)
		}
		time.Sleep(interval)
	}
}
