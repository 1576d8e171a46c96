package compiler

// Injected miscompilations: each reproduces a class of compiler bug on
// purpose, so that users and tests can watch Augur catch it. An injection
// changes one place of the compilation, the first where it applies.

// Names of the injections.
const (
	InjectTailUnguarded     = "tail-unguarded"
	InjectShiftUpdate       = "shift-update"
	InjectHaloOffByOne      = "halo-off-by-one"
	InjectFoldTooSmall      = "fold-too-small"
	InjectSwapReductions    = "swap-reductions"
	InjectParallelReduction = "parallel-reduction"
	InjectMisplacedProducer = "misplaced-producer"
	InjectVectorLane        = "vector-lane"
	InjectOvercomputeOutput = "overcompute-output"
	InjectUpdateBeforePure  = "update-before-pure"
	InjectReductionSkipTail = "reduction-skip-tail"
	InjectReductionIdentity = "reduction-identity"
	InjectMergeOperator     = "merge-operator"
)

// Injection describes one kind of injected miscompilation.
type Injection struct {
	Name        string
	Description string
	// Needs says what the algorithm and schedule must have for the
	// injection to apply.
	Needs string
}

var injections = []Injection{
	{InjectTailUnguarded, "a split's tail loses its guard: the last tile runs past the end of the loop", "a split with the guard tail strategy over an extent that is not a known multiple of its factor"},
	{InjectShiftUpdate, "an update stage split with the shift-inwards tail: points of the last tile are updated twice", "a split of a pure loop of an update stage"},
	{InjectHaloOffByOne, "compute_at bounds one point short: a producer computes one row less than its consumer reads", "a func computed at a loop (compute_at)"},
	{InjectFoldTooSmall, "a folded buffer one row too small: values are overwritten before their last read", "a fold_storage with a factor of at least 2"},
	{InjectSwapReductions, "two reduction loops swapped: the reduction runs in another order than the algorithm's", "an update stage with two reduction loops (an RDom of two variables, or a split one)"},
	{InjectParallelReduction, "a reduction loop run in parallel: its iterations race on the accumulator", "an update stage with an RDom"},
	{InjectMisplacedProducer, "a producer placed after its consumer: it no longer dominates its uses", "a func that is neither an output nor inlined"},
	{InjectVectorLane, "the last lane of a vectorised loop stores a wrong value", "a vectorised loop in a stage of a numeric func"},
	{InjectOvercomputeOutput, "a bug Halide had (impure identity funcs): an output's buffer sized by its compute bounds while the schedule overcomputes", "an output whose schedule computes points outside its region (a split with the round or shift tail)"},
	{InjectUpdateBeforePure, "a bug Halide had (compute_with): an update stage runs before the pure definition of its func", "a func with an update definition"},
	{InjectReductionSkipTail, "rfactor forgets the last, partial tile of a split reduction loop: its positions are never accumulated", "an rfactor after a split of a reduction loop whose extent is not a known multiple of the factor"},
	{InjectReductionIdentity, "an accumulator initialised with a value other than its operator's identity", "a reduction scheduled with atomic() or rfactor"},
	{InjectMergeOperator, "partial results merged with another operator than the reduction's", "an rfactor"},
}

// Injections lists the injectable miscompilations.
func Injections() []Injection { return append([]Injection(nil), injections...) }

func injectionByName(name string) (Injection, bool) {
	for _, in := range injections {
		if in.Name == name {
			return in, true
		}
	}
	return Injection{}, false
}

func injectionNeeds(name string) string {
	in, _ := injectionByName(name)
	return "it needs " + in.Needs
}

// injectSchedule applies the injections that change the schedule model
// itself, after the directives were checked: each changes the first update
// stage where it applies.
func (c *compiler) injectSchedule() error {
	var change func(ls *loopSched) bool
	switch c.inject {
	case InjectShiftUpdate:
		change = func(ls *loopSched) bool {
			for i, sp := range ls.splits {
				if !sp.fuse && sp.pure {
					ls.splits[i].tail = tailShift
					return true
				}
			}
			return false
		}
	case InjectSwapReductions:
		change = func(ls *loopSched) bool {
			var red []int
			for i, d := range ls.dims {
				if !d.pure {
					red = append(red, i)
				}
			}
			if len(red) < 2 {
				return false
			}
			a, b := red[0], red[1]
			ls.dims[a], ls.dims[b] = ls.dims[b], ls.dims[a]
			return true
		}
	case InjectParallelReduction:
		change = func(ls *loopSched) bool {
			for i := len(ls.dims) - 1; i >= 0; i-- {
				if !ls.dims[i].pure {
					ls.dims[i].kind = parallel
					return true
				}
			}
			return false
		}
	default:
		return nil
	}
	for _, f := range c.p.Funcs() {
		if c.red[f.Name.Name] != nil {
			continue // its loops may be re-ordered and run in parallel
		}
		for _, st := range c.fs[f.Name.Name].stages[1:] {
			if change(st.loops) {
				c.injected = true
				return nil
			}
		}
	}
	return nil
}
