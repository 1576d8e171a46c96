package api

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/augur-verify/augur/store"
)

// logLines decodes the JSON lines of a zerolog log.
func logLines(t *testing.T, b *bytes.Buffer) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, line := range strings.Split(strings.TrimSpace(b.String()), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("log line %q: %v", line, err)
		}
		out = append(out, m)
	}
	return out
}

// withUnit matches a duration as the logs write it.
var withUnit = regexp.MustCompile(`^[0-9.]+(µs|ms|s)$|^[0-9]+m[0-9.]+s$|^0s$`)

// TestRunnerLogs: a validation's log ends with its outcome, a verdict or
// the reason it stopped before one, and durations carry their unit.
func TestRunnerLogs(t *testing.T) {
	v := &store.Validation{ID: "v1", SpecName: "blur.sare", Spec: example(t, "blur/blur.sare"), ProgramName: "blur.sched", Program: example(t, "blur/blur.sched")}

	var b bytes.Buffer
	log := zerolog.New(&b)
	ctx, cancel := context.WithCancelCause(context.Background())
	cancel(errors.New("validation cancelled"))
	if _, err := Runner(RunnerOptions{Log: &log})(ctx, v, nil); err == nil {
		t.Fatal("a cancelled run gave a verdict")
	}
	lines := logLines(t, &b)
	if len(lines) != 2 || lines[0]["message"] != "validating" {
		t.Fatalf("the log of a cancelled run:\n%s", b.String())
	}
	end := lines[1]
	if end["message"] != "validation stopped before its verdict" || end["outcome"] != "cancelled" ||
		end["reason"] != "validation cancelled" || end["validation"] != "v1" || !withUnit.MatchString(end["took"].(string)) {
		t.Errorf("the end of a cancelled run: %v", end)
	}

	// Other endings of the context say why.
	for _, c := range []struct {
		ctx  func() context.Context
		want string
	}{
		{func() context.Context {
			ctx, cancel := context.WithCancel(context.Background())
			cancel()
			return ctx
		}, "the worker is stopping"},
		{func() context.Context {
			ctx, cancel := context.WithDeadline(context.Background(), time.Unix(0, 0))
			t.Cleanup(cancel)
			return ctx
		}, "the run's time limit (--job-timeout) ran out"},
	} {
		if got := stopReason(c.ctx()); got != c.want {
			t.Errorf("stopReason = %q, want %q", got, c.want)
		}
	}

	b.Reset()
	res, err := Runner(RunnerOptions{Log: &log})(context.Background(), v, nil)
	if err != nil || res.Verdict != "valid" {
		t.Fatalf("run: %v %+v", err, res)
	}
	lines = logLines(t, &b)
	last := lines[len(lines)-1]
	if last["message"] != "validated" || last["verdict"] != "valid" {
		t.Fatalf("the end of a run: %v", last)
	}
	if took, _ := last["took"].(string); !withUnit.MatchString(took) {
		t.Errorf("took %v: want a duration with its unit", last["took"])
	}
}

func TestLogDuration(t *testing.T) {
	for d, want := range map[time.Duration]string{
		163683461 * time.Nanosecond: "163.683ms",
		30 * time.Second:            "30s",
		63*time.Second + 123456789:  "1m3.123s",
		1500 * time.Nanosecond:      "2µs",
		0:                           "0s",
	} {
		if got := LogDuration(d); got != want {
			t.Errorf("LogDuration(%d) = %q, want %q", d, got, want)
		}
	}
}
