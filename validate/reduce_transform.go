package validate

import "github.com/augur-verify/augur/symeval"

// This file transforms a pair for its reductions, by
// symeval.TransformReductions: the validation's input becomes the
// transformed pair, whose symbolic evaluation checks every accumulation
// against the reduction's body at its position, and whose reduction
// conditions reduce.go adds.

// reductionPair is the pair transformed for its reductions, as the input
// of the validation.
type reductionPair struct {
	in   *input
	pair *symeval.ReductionPair
}

// transformReductions returns the transformed pair of in.
func transformReductions(in *input) (*reductionPair, error) {
	p, err := symeval.TransformReductions(in.spec, in.kernel, in.kinfo)
	if err != nil {
		return nil, err
	}
	tin := &input{specSrc: in.specSrc, progSrc: in.progSrc, spec: p.Spec, sinfo: p.SpecInfo, kernel: p.Kernel, kinfo: p.KernelInfo}
	return &reductionPair{in: tin, pair: p}, nil
}

// analyzeOptions returns the options of the symbolic evaluation of the
// transformed pair.
func (rp *reductionPair) analyzeOptions(o symeval.AnalyzeOptions) symeval.AnalyzeOptions {
	return rp.pair.AnalyzeOptions(o)
}
