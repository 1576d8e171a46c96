package fuzz

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/augur-verify/augur/frontend/halide"
)

// driverFlag compiles cc/fuzz.cpp's driver: without it the file is empty,
// as the translator's build (halide.Toolchain.Objects) compiles it.
const driverFlag = "-DAUGUR_FUZZ_DRIVER"

// BuildDriver compiles the fuzz driver (cc/fuzz.cpp) and links it with
// the translator's objects and libHalide, once per content of the
// sources and toolchain (the objects' cache directory names them), in
// t's cache, and returns its path.
func BuildDriver(ctx context.Context, t halide.Toolchain) (string, error) {
	objs, err := t.Objects(ctx)
	if err != nil {
		return "", err
	}
	var link []string
	for _, o := range objs {
		if b := filepath.Base(o); b != "driver.o" && b != "fuzz.o" {
			link = append(link, o)
		}
	}
	h := sha256.Sum256([]byte(strings.Join(objs, "\n") + "\x00" + strings.Join(t.Libs, " ") + "\x00" + driverFlag))
	dir := filepath.Join(t.CacheDir, "fuzz-"+hex.EncodeToString(h[:12]))
	bin := filepath.Join(dir, "fuzz-driver")
	if _, err := os.Stat(bin); err == nil {
		return bin, nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	// The sources and the build go to a directory of this build's own:
	// concurrent builds, in this process or others, do not share files.
	work, err := os.MkdirTemp(dir, "build-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(work)
	src := filepath.Join(work, "src")
	if err := halide.Sources(src); err != nil {
		return "", err
	}
	tmp := filepath.Join(work, "fuzz-driver")
	obj := filepath.Join(work, "fuzz.o")
	if t.Progress != nil {
		t.Progress("compiling the fuzz driver (first run, cached afterwards)")
	}
	compile := []string{"-std=c++17", "-O1", "-Wall", "-Werror", "-I", t.Include, driverFlag, "-c", filepath.Join(src, "fuzz.cpp"), "-o", obj}
	if err := command(ctx, t.CXX, compile...); err != nil {
		return "", fmt.Errorf("compiling the fuzz driver: %w", err)
	}
	args := append(append([]string{obj}, link...), "-o", tmp)
	args = append(append(args, t.Libs...), "-lpthread", "-ldl")
	if err := command(ctx, t.CXX, args...); err != nil {
		return "", fmt.Errorf("linking the fuzz driver: %w", err)
	}
	if err := os.Rename(tmp, bin); err != nil {
		return "", err
	}
	return bin, nil
}

func command(ctx context.Context, name string, args ...string) error {
	cmd := exec.CommandContext(ctx, name, args...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("%s: %w\n%s", name, err, strings.TrimSpace(out.String()))
	}
	return nil
}

// Answer is the fuzz driver's answer to one request; readAnswer returns
// what it read so far with its error.
type Answer struct {
	// Cause is empty on success, else the failure's class: parse,
	// unsupported (the translator's), halide-compile, halide-internal,
	// halide-runtime, error, crash (the driver died) or timeout.
	Cause string
	Msg   string
	// Params and Tensors are the translation's names of buffer fields
	// ("f.min.0" -> "f_min_0") and of buffers (translate).
	Params  map[string]string
	Tensors map[string]string
	// Spec and Sched are the translated texts (translate).
	Spec, Sched string
	// Mismatch is the number of output cells where the scheduled
	// pipeline differs from the algorithm (jit); First describes the
	// first: its coordinates and both values.
	Mismatch int
	First    string
	// Poison is the byte of the allocations that showed the mismatch
	// (Confirm).
	Poison int
	// referenceOK is set once the driver said it realised the
	// algorithm (jit).
	referenceOK bool
}

// Err is the answer's failure as an error, or nil.
func (a *Answer) Err() error {
	if a.Cause == "" {
		return nil
	}
	return fmt.Errorf("%s: %s", a.Cause, a.Msg)
}

// Driver is a running fuzz driver: one process answering requests in
// turn, restarted after it crashes or exceeds a request's time limit.
type Driver struct {
	path   string
	limit  time.Duration
	mu     sync.Mutex
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	stdout *bufio.Reader
	stderr *tail
	spent  float64 // CPU seconds of the processes ended
}

// answerOrErr is what the goroutine reading an answer gets.
type answerOrErr struct {
	a   *Answer
	err error
}

// tail keeps the last bytes written to it.
type tail struct {
	mu sync.Mutex
	b  []byte
}

func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.b = append(t.b, p...)
	if len(t.b) > 4096 {
		t.b = t.b[len(t.b)-4096:]
	}
	return len(p), nil
}

func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return strings.TrimSpace(string(t.b))
}

// StartDriver starts the driver at path; each request may take up to
// limit.
func StartDriver(path string, limit time.Duration) (*Driver, error) {
	d := &Driver{path: path, limit: limit}
	return d, d.start()
}

func (d *Driver) start() error {
	cmd := exec.Command(d.path)
	in, err := cmd.StdinPipe()
	if err != nil {
		return err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	d.stderr = &tail{}
	cmd.Stderr = d.stderr
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("starting the fuzz driver: %w", err)
	}
	d.cmd, d.stdin, d.stdout = cmd, in, bufio.NewReader(out)
	return nil
}

// Close ends the driver.
func (d *Driver) Close() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.stop()
}

func (d *Driver) stop() error {
	if d.cmd == nil {
		return nil
	}
	d.stdin.Close()
	done := make(chan error, 1)
	go func() { done <- d.cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(2 * time.Second):
		_ = d.cmd.Process.Kill()
		<-done
	}
	d.ended()
	return nil
}

func (d *Driver) kill() {
	if d.cmd != nil {
		_ = d.cmd.Process.Kill()
		_ = d.cmd.Wait()
		d.ended()
	}
}

// ended counts the CPU time of the process waited for.
func (d *Driver) ended() {
	if ps := d.cmd.ProcessState; ps != nil {
		d.spent += (ps.UserTime() + ps.SystemTime()).Seconds()
	}
	d.cmd = nil
}

// CPUSeconds is the CPU time the driver's processes have used so far
// (the running one's as Linux's /proc tells, in clock ticks of 1/100 s).
func (d *Driver) CPUSeconds() float64 {
	d.mu.Lock()
	defer d.mu.Unlock()
	s := d.spent
	if d.cmd == nil {
		return s
	}
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", d.cmd.Process.Pid))
	if err != nil {
		return s
	}
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return s
	}
	f := strings.Fields(string(b[i+1:]))
	if len(f) > 12 {
		u, _ := strconv.ParseFloat(f[11], 64)
		k, _ := strconv.ParseFloat(f[12], 64)
		s += (u + k) / 100
	}
	return s
}

// Do sends the case with the action ("translate", "jit SEED POISON MIN
// EXT ...", "stmt PATH") and returns the answer. A crash or a request
// over the time limit is an answer (Cause "crash" or "timeout"), after
// which the driver restarts; err is for the driver that cannot start.
func (d *Driver) Do(ctx context.Context, c *Case, action string) (*Answer, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.cmd == nil {
		if err := d.start(); err != nil {
			return nil, err
		}
	}
	res := make(chan answerOrErr, 1)
	go func() {
		if _, err := io.WriteString(d.stdin, c.String()+"end "+action+"\n"); err != nil {
			res <- answerOrErr{err: err}
			return
		}
		a, err := readAnswer(d.stdout)
		res <- answerOrErr{a, err}
	}()
	timer := time.NewTimer(d.limit)
	defer timer.Stop()
	select {
	case r := <-res:
		if r.err != nil {
			msg := d.stderr.String()
			d.kill()
			a := &Answer{Cause: "crash", Msg: lastLine(msg)}
			if r.a != nil && r.a.referenceOK {
				// The algorithm was realised: the scheduled pipeline crashed.
				a.Cause = "crash-scheduled"
			}
			return a, nil
		}
		return r.a, nil
	case <-timer.C:
		d.kill()
		<-res
		return &Answer{Cause: "timeout", Msg: fmt.Sprintf("no answer within %v", d.limit)}, nil
	case <-ctx.Done():
		d.kill()
		<-res
		return nil, ctx.Err()
	}
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if l := lines[len(lines)-1]; l != "" {
		return l
	}
	return "the driver died"
}

func readAnswer(r *bufio.Reader) (*Answer, error) {
	a := &Answer{Params: map[string]string{}, Tensors: map[string]string{}}
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			return a, err
		}
		line = strings.TrimSuffix(line, "\n")
		head, rest, _ := strings.Cut(line, " ")
		switch head {
		case "done":
			return a, nil
		case "ok":
		case "fail":
			a.Cause, a.Msg, _ = strings.Cut(rest, " ")
		case "param", "tensor":
			k, v, _ := strings.Cut(rest, " ")
			if head == "param" {
				a.Params[k] = v
			} else {
				a.Tensors[k] = v
			}
		case "spec", "sched":
			n, err := strconv.Atoi(rest)
			if err != nil {
				return a, fmt.Errorf("bad answer line %q", line)
			}
			b := make([]byte, n+1)
			if _, err := io.ReadFull(r, b); err != nil {
				return a, err
			}
			if head == "spec" {
				a.Spec = string(b[:n])
			} else {
				a.Sched = string(b[:n])
			}
		case "reference":
			a.referenceOK = rest == "ok"
		case "match":
		case "mismatch":
			n, first, _ := strings.Cut(rest, " ")
			a.Mismatch, _ = strconv.Atoi(n)
			a.First = first
		default:
			return a, errors.New("bad answer line " + strconv.Quote(line))
		}
	}
}
