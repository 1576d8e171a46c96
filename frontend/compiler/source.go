package compiler

import (
	"context"
	"path"
	"strings"

	"github.com/augur-verify/augur/frontend/compiler/alg"
	"github.com/augur-verify/augur/sare"
	"github.com/augur-verify/augur/sched"
	"github.com/augur-verify/augur/syntax"
)

// CompileSource is the whole compile flow shared by augur compile and the
// service's POST /v1/compile: it loads the algorithm src, parses schedule,
// when it is not nil, as the schedule replacing the algorithm's own, and
// compiles the program with opts into a kernel named after the algorithm's
// file (KernelName(src.Name)). opts.Schedule and opts.ScheduleSrc are set
// from schedule. Malformed input is a syntax.ErrorList; the other errors
// are Compile's.
func CompileSource(ctx context.Context, src, schedule *syntax.Source, opts Options) (*Result, error) {
	prog, err := alg.Load(src)
	if err != nil {
		return nil, err
	}
	if schedule != nil {
		sch, errs := alg.ParseSchedule(schedule)
		if len(errs) > 0 {
			return nil, errs
		}
		opts.Schedule, opts.ScheduleSrc = sch, schedule
	}
	return Compile(ctx, prog, KernelName(src.Name), opts)
}

// KernelName derives a kernel's name from the file name of its source
// (directories and the extension dropped, either kind of slash), as a
// name the kernel language accepts: characters a name may not hold become
// underscores, and a name that is still not valid (empty, a keyword, a
// reserved name) becomes "compiled".
func KernelName(file string) string {
	base := path.Base(strings.ReplaceAll(file, "\\", "/"))
	base = strings.TrimSuffix(base, path.Ext(base))
	var b strings.Builder
	for i, r := range base {
		switch {
		case r == '_' || 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || i > 0 && '0' <= r && r <= '9':
			b.WriteRune(r)
		default:
			b.WriteRune('_')
		}
	}
	if name := b.String(); syntax.ValidName(name) && !sare.IsKeyword(name) && !sched.IsKeyword(name) && !syntax.IsReserved(name) {
		return name
	}
	return "compiled"
}
