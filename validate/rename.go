package validate

import "strings"

// Rename puts the report under other names of its two inputs: a verdict
// reused for an identical submission (the service's cache) names that
// submission's files, not those of the one that was validated. Every file
// position, the reproduce command and the replay's messages that named
// the old specification or kernel name the new ones.
func (r *Report) Rename(spec, program string) {
	oldSpec, oldProg := r.Spec, r.Program
	if oldSpec == spec && oldProg == program {
		return
	}
	file := func(f string) string {
		switch f {
		case oldProg:
			return program
		case oldSpec:
			return spec
		}
		return f
	}
	text := func(s string) string {
		if oldProg != "" {
			s = strings.ReplaceAll(s, oldProg+":", program+":")
		}
		if oldSpec != "" {
			s = strings.ReplaceAll(s, oldSpec+":", spec+":")
		}
		return s
	}
	r.Spec, r.Program = spec, program
	renamed := map[*Counterexample]bool{}
	renameCX := func(cx *Counterexample) {
		if cx == nil || renamed[cx] {
			return
		}
		renamed[cx] = true
		cx.File = file(cx.File)
		cx.Replay = text(cx.Replay)
		if rest, ok := strings.CutPrefix(cx.Command, "augur run "+oldSpec+" "+oldProg); ok {
			cx.Command = "augur run " + spec + " " + program + rest
		}
	}
	for i := range r.Conditions {
		r.Conditions[i].File = file(r.Conditions[i].File)
		renameCX(r.Conditions[i].Counterexample)
	}
	for i := range r.Errors {
		e := &r.Errors[i]
		e.File, e.Text = file(e.File), text(e.Text)
	}
	renameCX(r.Counterexample)
}
