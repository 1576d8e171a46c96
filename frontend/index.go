package frontend

import "fmt"

// IndexObligation is the verification condition that one access of the
// final statement computes its index without overflow (Clément 2022,
// section 9.5): at every point of Facts (the access's loops, conditions,
// predicate, lets and Halide's checks before it, over the integers),
// every term of Terms (the index's signed Add, Sub, Mul and
// Ramp lanes, and those of the lets it reads, as the statement writes
// them) is a value of its type. A front end reads them from its
// compiler (the Halide driver's index.json at --stage final);
// validate.CheckIndexes decides them.
type IndexObligation struct {
	// Access is "load" or "store"; Buffer the array's Halide name; Index
	// the flat index as Halide prints it.
	Access string `json:"access"`
	Buffer string `json:"buffer"`
	Index  string `json:"index"`
	// Vars are the integer constants of Facts and Terms.
	Vars []IndexVar `json:"vars"`
	// Facts are booleans over Vars.
	Facts []*IntTerm `json:"facts"`
	// Terms are the index's arithmetic.
	Terms []IndexTerm `json:"terms"`
	// Dropped lists the facts that could not be read exactly and were
	// left out: the domain is then wider than the access's, a proof still
	// holds but a witness may not be a run of the statement.
	Dropped []string `json:"dropped"`
	// Undecided, when set, names the term of the index that could not be
	// translated: the obligation is not decided.
	Undecided string `json:"undecided,omitempty"`
}

// IndexVar is one integer constant of an obligation: its name in the
// obligation's terms,
// its Halide name, and its kind (param: a parameter or a buffer's field;
// loop: a loop's variable; let: a let's; lane: a vector access's lane).
type IndexVar struct {
	SMT  string `json:"smt"`
	Name string `json:"name"`
	Kind string `json:"kind"`
}

// IndexTerm is one term of an index: its exact reading over the
// obligation's Vars, its Halide text and its type's width in bits (a
// signed integer's).
type IndexTerm struct {
	Term   *IntTerm `json:"smt"`
	Halide string   `json:"halide"`
	Bits   int      `json:"bits"`
}

// Check checks that o's facts are booleans and its terms integers, over
// its Vars only, and that its Vars are distinct.
func (o *IndexObligation) Check() error {
	vars := map[string]bool{}
	for _, v := range o.Vars {
		if !symbol(v.SMT) {
			return fmt.Errorf("the variable %q of %s: not a name", v.SMT, v.Name)
		}
		if vars[v.SMT] {
			return fmt.Errorf("the variable %s is declared twice", v.SMT)
		}
		vars[v.SMT] = true
	}
	var err error
	declared := func(what string, t *IntTerm) {
		t.Vars(func(name string) {
			if err == nil && !vars[name] {
				err = fmt.Errorf("%s %s reads %s, not a variable of the obligation", what, t, name)
			}
		})
	}
	for i, f := range o.Facts {
		if f == nil || !f.IsBool() {
			return fmt.Errorf("fact %d is not a boolean", i+1)
		}
		declared("the fact", f)
	}
	for i, t := range o.Terms {
		if t.Term == nil || t.Term.IsBool() {
			return fmt.Errorf("term %d (%s) is not an integer", i+1, t.Halide)
		}
		if t.Bits < 2 || t.Bits > 64 {
			return fmt.Errorf("term %d (%s) has a type of %d bits", i+1, t.Halide, t.Bits)
		}
		declared("the term", t.Term)
	}
	return err
}
