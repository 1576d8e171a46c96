package validate

import (
	"fmt"

	"github.com/augur-verify/augur/expr"
	"github.com/augur-verify/augur/sare"
	"github.com/augur-verify/augur/sched"
	"github.com/augur-verify/augur/syntax"
	"github.com/augur-verify/augur/value"
)

// Pair is a specification and a kernel, parsed and type-checked against
// each other.
type Pair struct {
	Spec     *sare.Spec
	SpecInfo *expr.Info
	// Kernel and KernelInfo are nil when no kernel was given.
	Kernel     *sched.Kernel
	KernelInfo *sched.Info
}

// Load parses and type-checks the specification spec and, when prog is
// not nil, the kernel prog against it: the first step of augur validate,
// augur check and augur run, and what the service checks at submission.
// spec may be nil when the specification could not be read; the kernel
// is then parsed only.
//
// Load returns the pair, complete only when errs is empty, and every
// error: the specification's, sorted by position, then the kernel's. A
// kernel that parses against a specification that does not check is not
// type-checked; an error of code syntax.CodeNotChecked, without a
// position, says so.
func Load(spec, prog *syntax.Source) (p *Pair, errs syntax.ErrorList) {
	p = &Pair{}
	specOK := false
	if spec != nil {
		s, perr := sare.Parse(spec)
		errs = append(errs, perr...)
		if len(perr) == 0 {
			info, cerr := sare.Check(s)
			errs = append(errs, cerr...)
			if len(cerr) == 0 {
				p.Spec, p.SpecInfo, specOK = s, info, true
			}
		}
		errs.Sort()
	}
	if prog == nil {
		return p, errs
	}
	k, kerr := sched.Parse(prog)
	if len(kerr) > 0 {
		kerr.Sort()
		return p, append(errs, kerr...)
	}
	if !specOK {
		return p, append(errs, &syntax.Error{File: prog.Name, Msg: "not type-checked: its specification is malformed", Code: syntax.CodeNotChecked})
	}
	kinfo, cerr := sched.Check(k, p.Spec)
	cerr.Sort()
	errs = append(errs, cerr...)
	if len(cerr) == 0 {
		p.Kernel, p.KernelInfo = k, kinfo
	}
	return p, errs
}

// ErrorDetails sorts positioned errors by file and position and converts
// them for a report's or a problem's list of errors.
func ErrorDetails(errs syntax.ErrorList) []ErrorDetail {
	errs.Sort()
	out := make([]ErrorDetail, len(errs))
	for i, e := range errs {
		out[i] = ErrorDetail{File: e.File, Line: e.Pos.Line, Col: e.Pos.Col, Message: e.Msg, Code: string(e.Code), Text: e.Detail()}
	}
	return out
}

// input is a checked pair.
type input struct {
	specSrc, progSrc *syntax.Source
	spec             *sare.Spec
	sinfo            *expr.Info
	kernel           *sched.Kernel
	kinfo            *sched.Info
}

// loadInput parses and checks both sources (Load), returning every error
// sorted.
func loadInput(specSrc, progSrc *syntax.Source) (*input, syntax.ErrorList) {
	p, errs := Load(specSrc, progSrc)
	errs.Sort()
	return &input{specSrc: specSrc, progSrc: progSrc, spec: p.Spec, sinfo: p.SpecInfo, kernel: p.Kernel, kinfo: p.KernelInfo}, errs
}

// load is the load phase: the pair of sources spec and prog parsed and
// checked, and the readings of the kernel's float literals in the value
// model (literals.go). Malformed input ends the validation with the
// verdict ERROR and every error.
func (p *pipeline) load(spec, prog *syntax.Source) (*input, *value.Readings, *halt) {
	p.progress(Event{Phase: "parse"})
	in, errs := loadInput(spec, prog)
	p.phase("parse")
	if len(errs) > 0 {
		p.rep.Verdict = Error
		p.rep.Reason = fmt.Sprintf("%d error%s in the input", len(errs), plural(len(errs)))
		p.rep.Errors = ErrorDetails(errs)
		return nil, nil, &halt{rep: p.rep}
	}
	p.rep.Kernel = in.kernel.Name.Name
	hs, ds, err := checkDerived(in.spec, p.opts.Derived)
	if err != nil {
		p.rep.Verdict, p.rep.Reason = Error, err.Error()
		return nil, nil, &halt{rep: p.rep}
	}
	p.derived, p.dspec = hs, ds
	readings := literalReadings(in, p.opts.ValueModel)
	p.rep.Readings = reportReadings(readings)
	return in, readings, nil
}
