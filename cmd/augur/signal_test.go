package main

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestMain runs augur itself instead of the tests when the environment
// asks for it, so that a test can run the command in a process of its
// own and signal it.
func TestMain(m *testing.M) {
	if os.Getenv("AUGUR_TEST_RUN_MAIN") == "1" {
		main()
	}
	os.Exit(m.Run())
}

// The busy pair of validate/testdata: its counterexample is the
// factorisation of a large number, a search Z3 is still in when the
// signal comes.
const (
	busySpec = "../../validate/testdata/busy/factor.sare"
	busyProg = "../../validate/testdata/busy/factor.sched"
)

// SIGTERM in the middle of the solving cancels it: augur validate ends
// with the report so far, UNKNOWN, reason "cancelled", the conditions
// decided before, and exit status 2, instead of solving on.
func TestValidateSIGTERMGivesPartialReport(t *testing.T) {
	if testing.Short() {
		t.Skip("runs augur validate in a process of its own")
	}
	cmd := exec.Command(os.Args[0], "validate", "--verbose", "--no-quick-test", busySpec, busyProg)
	cmd.Env = append(os.Environ(), "AUGUR_TEST_RUN_MAIN=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	pipe, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	// The verbose trace says when Z3 has answered a first query of the
	// value condition C5 (a line giving its resource units): the
	// solving is under way, and goes on for minutes.
	var out bytes.Buffer
	lines := bufio.NewScanner(pipe)
	solving := false
	for lines.Scan() {
		out.WriteString(lines.Text() + "\n")
		if strings.HasPrefix(lines.Text(), "C5: ") && strings.Contains(lines.Text(), " resource units") {
			solving = true
			break
		}
	}
	if !solving {
		t.Fatalf("the solving of C5 never started\n%s%s", out.String(), stderr.String())
	}
	exited := make(chan error, 1)
	go func() {
		io.Copy(&out, pipe)
		exited <- cmd.Wait()
	}()
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	var waitErr error
	select {
	case waitErr = <-exited:
	case <-time.After(2 * time.Minute):
		t.Fatalf("augur validate still running 2 minutes after SIGTERM\n%s", out.String())
	}
	var exit *exec.ExitError
	if !errors.As(waitErr, &exit) || exit.ExitCode() != exitUnknown {
		t.Errorf("exit %v, want status %d\n%s", waitErr, exitUnknown, stderr.String())
	}
	report := out.String()
	for _, want := range []string{
		"\nUNKNOWN: cancelled during the solving: terminated signal received\n",
		"\n7 conditions: 6 proved, 1 undecided\n",
		"  C5 undecided annotation mismatch at ",
		"      (cancelled)\n",
	} {
		if !strings.Contains(report, want) {
			t.Errorf("the report lacks %q\n%s", want, report)
		}
	}
	if stderr.Len() != 0 {
		t.Errorf("stderr: %s", stderr.String())
	}
}
