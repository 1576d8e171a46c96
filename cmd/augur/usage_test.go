package main

import (
	"io"
	"strings"
	"testing"
)

// TestUsageErrors checks that every kind of usage error exits 3, never a
// verdict's code, and prints the error, the command's usage line and a
// pointer to its help on stderr, and nothing on stdout.
func TestUsageErrors(t *testing.T) {
	spec, prog := "../../examples/outer/outer.sare", "../../examples/outer/outer_split.sched"
	for _, c := range []struct {
		name string
		args []string
		cmd  string // the command whose usage is printed; "" for the root
		msg  string
	}{
		{"run/unknown flag", []string{"run", spec, prog, "--parm", "N=8"}, "run", "unknown flag: --parm"},
		{"run/unknown shorthand", []string{"run", spec, prog, "-z"}, "run", "unknown shorthand flag: 'z' in -z"},
		{"run/missing argument", []string{"run", spec, "--param", "N=8"}, "run", "accepts 2 arg(s), received 1"},
		{"run/extra argument", []string{"run", spec, prog, prog, "--param", "N=8"}, "run", "accepts 2 arg(s), received 3"},
		{"run/bad flag value", []string{"run", spec, prog, "--trials", "many"}, "run", `invalid argument "many" for "--trials" flag`},
		{"run/flag without value", []string{"run", spec, prog, "--seed"}, "run", "flag needs an argument: --seed"},
		{"run/trials out of range", []string{"run", spec, prog, "--trials", "0"}, "run", "--trials must be at least 1"},
		{"run/missing parameter", []string{"run", spec, prog, "--param", "N=10"}, "run", "no value for parameter M (use --param M=VALUE)"},
		{"validate/unknown flag", []string{"validate", spec, prog, "--jsn"}, "validate", "unknown flag: --jsn"},
		{"validate/missing argument", []string{"validate", spec}, "validate", "validate takes a specification and a kernel, got 1 argument(s)"},
		{"validate/extra argument", []string{"validate", spec, prog, prog}, "validate", "validate takes a specification and a kernel, got 3 argument(s)"},
		{"validate/bad flag value", []string{"validate", spec, prog, "--timeout", "soon"}, "validate", `invalid argument "soon" for "--timeout" flag`},
		{"validate/bad value model", []string{"validate", spec, prog, "--value-model", "complex"}, "validate", `"complex"`},
		{"submit/unknown flag", []string{"submit", spec, prog, "--labels", "a=b"}, "submit", "unknown flag: --labels"},
		{"submit/missing argument", []string{"submit", spec}, "submit", "submit takes a specification and a kernel, got 1 argument(s)"},
		{"submit/extra argument", []string{"submit", spec, prog, prog}, "submit", "submit takes a specification and a kernel, got 3 argument(s)"},
		{"submit/bad flag value", []string{"submit", spec, prog, "--wait", "forever"}, "submit", `invalid argument "forever" for "--wait" flag`},
		{"submit/bad server", []string{"submit", "--server", "ftp://example.org", spec, prog}, "submit", `--server "ftp://example.org" is not an http(s) URL`},
		{"submit/bad meta", []string{"submit", "--server", "http://127.0.0.1:1", "--meta", "owner=me", spec, prog}, "submit", `--meta "owner=me": the keys are`},
		{"presburger/unknown flag", []string{"presburger", "--steps", "5"}, "presburger", "unknown flag: --steps"},
		{"presburger/extra argument", []string{"presburger", "a.iscc", "b.iscc"}, "presburger", "accepts at most 1 arg(s), received 2"},
		{"presburger/bad flag value", []string{"presburger", "--max-steps", "lots"}, "presburger", `invalid argument "lots" for "--max-steps" flag`},
		{"presburger/negative steps", []string{"presburger", "--max-steps", "-1"}, "presburger", "--max-steps must not be negative"},
		{"check/missing argument", []string{"check"}, "check", "accepts between 1 and 2 arg(s), received 0"},
		{"check/extra argument", []string{"check", spec, prog, prog}, "check", "accepts between 1 and 2 arg(s), received 3"},
		{"compile/missing argument", []string{"compile", "-o", "out"}, "compile", "compile takes one algorithm, got 0 argument(s)"},
		{"compile/missing output", []string{"compile", "../../examples/alg/blur_fold.alg"}, "compile", "compile needs an output directory: -o DIR"},
		{"atl/missing output", []string{"atl", "../../examples/atl/blur.atl"}, "atl", "atl needs an output directory: -o DIR"},
		{"rink/missing output", []string{"rink", "../../examples/rink/fig15_input.rink"}, "rink", "rink needs an output directory: -o DIR"},
		{"halide/missing output", []string{"halide", "../../frontend/halide/apps/blur.cpp"}, "halide", "halide needs an output directory: -o DIR"},
		{"rink/bad implementation", []string{"rink", "../../examples/rink/fig15_input.rink", "-o", "out", "--impl", "fast"}, "rink", `--impl "fast": want ref, padded or both`},
		{"compile/exclusive flags", []string{"compile", "../../examples/alg/blur_fold.alg", "-o", "out", "--auto", "--schedule", "s"}, "compile", "--schedule and --auto are exclusive"},
		{"fuzz-schedules/extra argument", []string{"fuzz-schedules", "a.alg", "b.alg"}, "fuzz-schedules", "fuzz-schedules takes one algorithm, got 2 argument(s)"},
		{"fuzz-schedules/bad flag value", []string{"fuzz-schedules", "a.alg", "--n", "some"}, "fuzz-schedules", `invalid argument "some" for "--n" flag`},
		{"serve/extra argument", []string{"serve", "now"}, "serve", `augur serve takes no arguments, got ["now"]`},
		{"serve/bad flag value", []string{"serve", "--workers", "two"}, "serve", `invalid argument "two" for "--workers" flag`},
		{"serve/bad log format", []string{"serve", "--log-format", "xml"}, "serve", `--log-format "xml": want text or json`},
		{"worker/extra argument", []string{"worker", "now"}, "worker", `augur worker takes no arguments, got ["now"]`},
		{"worker/bad concurrency", []string{"worker", "--concurrency", "0"}, "worker", "--concurrency must be at least 1"},
		{"version/extra argument", []string{"version", "2"}, "version", `augur version takes no arguments, got ["2"]`},
		{"version/unknown flag", []string{"version", "--short"}, "version", "unknown flag: --short"},
		{"root/unknown subcommand", []string{"valdate", spec, prog}, "", "unknown command \"valdate\" for \"augur\"\n\nDid you mean this?\n\tvalidate"},
		{"root/unknown flag", []string{"--verbose"}, "", "unknown flag: --verbose"},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, out, errs := augur(c.args...)
			if code != exitUsage || exitUsage != 3 {
				t.Errorf("exit %d, want 3", code)
			}
			if out != "" {
				t.Errorf("wrote to stdout:\n%s", out)
			}
			if !strings.HasPrefix(errs, "augur: ") || !strings.Contains(errs, c.msg) {
				t.Errorf("stderr lacks %q:\n%s", c.msg, errs)
			}
			path := strings.TrimSpace("augur " + c.cmd)
			if c.cmd != "" && !strings.Contains(errs, "\nusage: "+path+" ") {
				t.Errorf("stderr lacks the usage line of %s:\n%s", path, errs)
			}
			if want := "\nRun '" + path + " --help' for details.\n"; !strings.HasSuffix(errs, want) {
				t.Errorf("stderr does not end with %q:\n%s", want, errs)
			}
		})
	}
}

// TestEveryCommandUsageError checks that the usage errors of every
// command, those added later included, exit 3 without any code of their
// own: an unknown flag and, for the commands that take no arguments, an
// extra argument.
func TestEveryCommandUsageError(t *testing.T) {
	root := newRootCmd(strings.NewReader(""), io.Discard, io.Discard)
	if len(root.Commands()) < 10 {
		t.Fatalf("only %d commands", len(root.Commands()))
	}
	for _, cmd := range root.Commands() {
		name := cmd.Name()
		code, out, errs := augur(name, "--no-such-flag")
		if code != exitUsage || out != "" || !strings.Contains(errs, "unknown flag: --no-such-flag") ||
			!strings.HasSuffix(errs, "Run 'augur "+name+" --help' for details.\n") {
			t.Errorf("%s --no-such-flag: exit %d, stdout %q, stderr:\n%s", name, code, out, errs)
		}
	}
}

// TestUsageErrorExitCodes checks the codes of the outcomes that are not
// verdicts: an error without a code of its own exits 3, as usage errors
// do, and no usage error exits with a verdict's code.
func TestUsageErrorExitCodes(t *testing.T) {
	if got := exitCode(io.ErrUnexpectedEOF); got != exitMalformed {
		t.Errorf("a plain error exits %d, want %d", got, exitMalformed)
	}
	if got := exitCode(usageError(io.EOF)); got != 3 {
		t.Errorf("a usage error exits %d, want 3", got)
	}
	for _, verdict := range []int{exitOK, exitMismatch, exitUnknown} {
		if verdict == exitUsage {
			t.Errorf("usage errors share code %d with a verdict", verdict)
		}
	}
	// The help is not an error.
	if code, out, errs := augur("validate", "--help"); code != exitOK || !strings.Contains(out, "Exit status: 0 valid") || errs != "" {
		t.Errorf("validate --help: exit %d, stdout %q, stderr %q", code, out, errs)
	}
}

// augur alone is a usage error: the list of commands on stderr, exit 3,
// as the README's exit codes say.
func TestNoCommand(t *testing.T) {
	code, out, errs := augur()
	if code != exitUsage || out != "" {
		t.Errorf("augur: exit %d, stdout %q", code, out)
	}
	for _, want := range []string{"Available Commands:", "  validate ", "augur: no command given\n", "Run 'augur --help' for details.\n"} {
		if !strings.Contains(errs, want) {
			t.Errorf("augur: stderr lacks %q:\n%s", want, errs)
		}
	}
}
