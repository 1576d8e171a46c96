package iscc

import (
	"context"
	"errors"
	"fmt"

	"github.com/augur-verify/augur/presburger"
)

// Kind is the type of a calculator value.
type Kind int

// The kinds of values. A literal without any piece ("{ }") is an empty
// Set that is also accepted wherever a Relation is expected, as in iscc.
const (
	Set      Kind = iota // a union of sets (isl's union_set), or a parameter domain
	Relation             // a union of relations (isl's union_map)
	Bool                 // the result of a test
)

// String returns "set", "relation" or "boolean".
func (k Kind) String() string {
	switch k {
	case Set:
		return "set"
	case Relation:
		return "relation"
	case Bool:
		return "boolean"
	}
	return fmt.Sprintf("Kind(%d)", int(k))
}

// article returns k with its indefinite article, for messages.
func (k Kind) article() string {
	if k == Relation {
		return "a relation"
	}
	return "a " + k.String()
}

// Value is the value of an expression: a union of sets, a union of
// relations, or a boolean.
type Value struct {
	kind Kind
	u    *presburger.UnionMap
	b    bool
}

// UnionValue returns u as a value: a Set if its components are sets (or
// if it has none), a Relation if they are relations. It fails if u mixes
// sets and relations.
func UnionValue(u *presburger.UnionMap) (Value, error) {
	sets, rels := 0, 0
	for _, m := range u.Maps() {
		if m.Space().IsSet() {
			sets++
		} else {
			rels++
		}
	}
	switch {
	case sets > 0 && rels > 0:
		return Value{}, errors.New("mixes sets and relations")
	case rels > 0:
		return Value{kind: Relation, u: u}, nil
	}
	return Value{kind: Set, u: u}, nil
}

// BoolValue returns b as a value.
func BoolValue(b bool) Value { return Value{kind: Bool, b: b} }

// Kind returns the type of v.
func (v Value) Kind() Kind { return v.kind }

// Union returns the sets or relations of v (nil for a boolean).
func (v Value) Union() *presburger.UnionMap { return v.u }

// Bool returns the truth value of a boolean v.
func (v Value) Bool() bool { return v.b }

// String returns v in isl notation, or True or False, without any
// simplification (see Format).
func (v Value) String() string {
	if v.kind == Bool {
		if v.b {
			return "True"
		}
		return "False"
	}
	return v.u.String()
}

// isVoid reports whether v is a union without any component, which iscc
// accepts as a set and as a relation.
func (v Value) isVoid() bool { return v.kind == Set && len(v.u.Maps()) == 0 }

// isRel reports whether v can be used as a relation.
func (v Value) isRel() bool { return v.kind == Relation || v.isVoid() }

// isParams reports whether v is a set whose components are all parameter
// domains.
func (v Value) isParams() bool {
	if v.kind != Set || v.isVoid() {
		return false
	}
	for _, m := range v.u.Maps() {
		if !m.Space().IsParams() {
			return false
		}
	}
	return true
}

// Format returns v as the calculator prints it: a union is simplified
// first (empty pieces and redundant constraints removed, see
// presburger.Map.Simplify); if the budget does not allow it, v is printed
// as it is.
func Format(ctx context.Context, v Value) (string, error) {
	if v.kind == Bool {
		return v.String(), nil
	}
	s, err := v.u.Simplify(ctx)
	switch {
	case errors.Is(err, presburger.ErrBudget):
		return v.String(), nil
	case err != nil:
		return "", err
	}
	return s.String(), nil
}
