//go:build isl

package islcheck

/*
#cgo LDFLAGS: -lisl
#include <stdlib.h>
#include <isl/ctx.h>
#include <isl/options.h>
#include <isl/set.h>
#include <isl/map.h>
#include <isl/union_set.h>
#include <isl/union_map.h>
#include <isl/point.h>
#include <isl/aff.h>
*/
import "C"

import (
	"errors"
	"fmt"
	"unsafe"
)

// Ctx owns an isl_ctx and counts the isl objects handed out through it that
// have not been freed yet. It is not safe for concurrent use: isl contexts
// are single-threaded.
type Ctx struct {
	p    *C.isl_ctx
	live int
}

// NewCtx allocates an isl context. isl is told to report errors to the
// caller (as nil results) instead of printing or aborting.
func NewCtx() *Ctx {
	p := C.isl_ctx_alloc()
	C.isl_options_set_on_error(p, C.ISL_ON_ERROR_CONTINUE)
	return &Ctx{p: p}
}

// Live returns the number of objects of c not freed yet.
func (c *Ctx) Live() int { return c.live }

// SetMaxOperations bounds the work of every following isl operation on c
// (0: no bound); an operation exceeding it fails with an error.
func (c *Ctx) SetMaxOperations(n uint64) {
	C.isl_ctx_reset_operations(c.p)
	C.isl_ctx_set_max_operations(c.p, C.ulong(n))
}

// Free releases the isl context. It fails, leaving the context allocated,
// if objects obtained from c have not been freed.
func (c *Ctx) Free() error {
	if c.p == nil {
		return nil
	}
	if c.live != 0 {
		return fmt.Errorf("islcheck: %d isl objects still alive at context release", c.live)
	}
	C.isl_ctx_free(c.p)
	c.p = nil
	return nil
}

// ErrFreed is returned when an operation is applied to a freed object or to
// objects of different contexts.
var ErrFreed = errors.New("islcheck: object freed or from another context")

// islError returns isl's last error for operation op and clears it.
func (c *Ctx) islError(op string) error {
	msg := "unknown error"
	if m := C.isl_ctx_last_error_msg(c.p); m != nil {
		msg = C.GoString(m)
	}
	if C.isl_ctx_last_error(c.p) == C.isl_error_quota {
		msg = "operation quota exceeded"
	}
	C.isl_ctx_reset_error(c.p)
	return fmt.Errorf("isl %s: %s", op, msg)
}

func (c *Ctx) boolean(op string, b C.isl_bool) (bool, error) {
	if b < 0 {
		return false, c.islError(op)
	}
	return b == C.isl_bool_true, nil
}

func cstr(s string) (*C.char, func()) {
	p := C.CString(s)
	return p, func() { C.free(unsafe.Pointer(p)) }
}

func goString(p *C.char) string {
	if p == nil {
		return "<isl print error>"
	}
	defer C.free(unsafe.Pointer(p))
	return C.GoString(p)
}

// owner is implemented by the wrappers; check verifies that objects are
// alive and share one context before they are handed to isl.
type owner interface{ ctxOf() *Ctx }

func check(c *Ctx, objs ...owner) error {
	if c == nil || c.p == nil {
		return ErrFreed
	}
	for _, o := range objs {
		if o == nil || o.ctxOf() != c {
			return ErrFreed
		}
	}
	return nil
}

// DimKind selects a group of dimensions in ProjectOut.
type DimKind int

// The dimension groups, as in isl.
const (
	DimParam DimKind = iota
	DimIn
	DimOut
)

func (k DimKind) isl() C.enum_isl_dim_type {
	switch k {
	case DimParam:
		return C.isl_dim_param
	case DimIn:
		return C.isl_dim_in
	}
	return C.isl_dim_out
}

// ---------------------------------------------------------------------------
// Sets

// Set is an isl_set. Every operation leaves its operands unchanged and
// returns a new object that the caller must Free.
type Set struct {
	ctx *Ctx
	p   *C.isl_set
}

func (s *Set) ctxOf() *Ctx {
	if s == nil || s.p == nil {
		return nil
	}
	return s.ctx
}

func (c *Ctx) newSet(op string, p *C.isl_set) (*Set, error) {
	if p == nil {
		return nil, c.islError(op)
	}
	c.live++
	return &Set{c, p}, nil
}

// ReadSet parses a set in isl notation.
func (c *Ctx) ReadSet(src string) (*Set, error) {
	if err := check(c); err != nil {
		return nil, err
	}
	cs, free := cstr(src)
	defer free()
	return c.newSet("set_read_from_str", C.isl_set_read_from_str(c.p, cs))
}

// Free releases s; freeing twice is harmless.
func (s *Set) Free() {
	if s == nil || s.p == nil {
		return
	}
	C.isl_set_free(s.p)
	s.p = nil
	s.ctx.live--
}

func (s *Set) cp() *C.isl_set { return C.isl_set_copy(s.p) }

// String prints s in isl notation.
func (s *Set) String() string {
	if s == nil || s.p == nil {
		return "<freed>"
	}
	return goString(C.isl_set_to_str(s.p))
}

func (s *Set) unary(op string, f func(*C.isl_set) *C.isl_set) (*Set, error) {
	if err := check(s.ctx, s); err != nil {
		return nil, err
	}
	return s.ctx.newSet(op, f(s.cp()))
}

func (s *Set) binary(op string, o *Set, f func(a, b *C.isl_set) *C.isl_set) (*Set, error) {
	if err := check(s.ctx, s, o); err != nil {
		return nil, err
	}
	return s.ctx.newSet(op, f(s.cp(), o.cp()))
}

// Intersect returns s ∩ o.
func (s *Set) Intersect(o *Set) (*Set, error) {
	return s.binary("set_intersect", o, func(a, b *C.isl_set) *C.isl_set { return C.isl_set_intersect(a, b) })
}

// Union returns s ∪ o.
func (s *Set) Union(o *Set) (*Set, error) {
	return s.binary("set_union", o, func(a, b *C.isl_set) *C.isl_set { return C.isl_set_union(a, b) })
}

// Subtract returns s \ o.
func (s *Set) Subtract(o *Set) (*Set, error) {
	return s.binary("set_subtract", o, func(a, b *C.isl_set) *C.isl_set { return C.isl_set_subtract(a, b) })
}

// Gist returns a set equal to s on the points of context (isl_set_gist).
func (s *Set) Gist(context *Set) (*Set, error) {
	return s.binary("set_gist", context, func(a, b *C.isl_set) *C.isl_set { return C.isl_set_gist(a, b) })
}

// Complement returns the points of s's space not in s.
func (s *Set) Complement() (*Set, error) {
	return s.unary("set_complement", func(a *C.isl_set) *C.isl_set { return C.isl_set_complement(a) })
}

// Params returns the parameter values for which s is not empty.
func (s *Set) Params() (*Set, error) {
	return s.unary("set_params", func(a *C.isl_set) *C.isl_set { return C.isl_set_params(a) })
}

// LexMin returns the lexicographically smallest point of s for every value
// of the parameters.
func (s *Set) LexMin() (*Set, error) {
	return s.unary("set_lexmin", func(a *C.isl_set) *C.isl_set { return C.isl_set_lexmin(a) })
}

// LexMax returns the lexicographically largest point of s for every value
// of the parameters.
func (s *Set) LexMax() (*Set, error) {
	return s.unary("set_lexmax", func(a *C.isl_set) *C.isl_set { return C.isl_set_lexmax(a) })
}

// Coalesce returns s with pieces merged where isl can (same points).
func (s *Set) Coalesce() (*Set, error) {
	return s.unary("set_coalesce", func(a *C.isl_set) *C.isl_set { return C.isl_set_coalesce(a) })
}

// ProjectOut existentially quantifies n dimensions of kind (DimParam or
// DimOut, the set dimensions) starting at first.
func (s *Set) ProjectOut(kind DimKind, first, n int) (*Set, error) {
	if kind == DimIn {
		return nil, fmt.Errorf("islcheck: ProjectOut: a set has no input dimensions")
	}
	return s.unary("set_project_out", func(a *C.isl_set) *C.isl_set {
		return C.isl_set_project_out(a, kind.isl(), C.uint(first), C.uint(n))
	})
}

// SamplePoint returns a set holding one point of s, or an empty set if s is
// empty.
func (s *Set) SamplePoint() (*Set, error) {
	return s.unary("set_sample_point", func(a *C.isl_set) *C.isl_set {
		return C.isl_set_from_point(C.isl_set_sample_point(a))
	})
}

// Apply returns the image of s under relation m.
func (s *Set) Apply(m *Map) (*Set, error) {
	if err := check(s.ctx, s, m); err != nil {
		return nil, err
	}
	return s.ctx.newSet("set_apply", C.isl_set_apply(s.cp(), C.isl_map_copy(m.p)))
}

// FromRange returns the relation { [] -> x : x in s } with a zero-dimensional
// domain; it is single-valued iff s has at most one point per parameter
// value.
func (s *Set) FromRange() (*Map, error) {
	if err := check(s.ctx, s); err != nil {
		return nil, err
	}
	return s.ctx.newMap("map_from_range", C.isl_map_from_range(s.cp()))
}

// IsEmpty reports whether s has no point for any parameter value.
func (s *Set) IsEmpty() (bool, error) {
	if err := check(s.ctx, s); err != nil {
		return false, err
	}
	return s.ctx.boolean("set_is_empty", C.isl_set_is_empty(s.p))
}

// IsSubset reports whether s ⊆ o.
func (s *Set) IsSubset(o *Set) (bool, error) {
	if err := check(s.ctx, s, o); err != nil {
		return false, err
	}
	return s.ctx.boolean("set_is_subset", C.isl_set_is_subset(s.p, o.p))
}

// IsEqual reports whether s and o have the same points.
func (s *Set) IsEqual(o *Set) (bool, error) {
	if err := check(s.ctx, s, o); err != nil {
		return false, err
	}
	return s.ctx.boolean("set_is_equal", C.isl_set_is_equal(s.p, o.p))
}

// NumBasic returns the number of conjunctions isl keeps for s.
func (s *Set) NumBasic() (int, error) {
	if err := check(s.ctx, s); err != nil {
		return 0, err
	}
	n := C.isl_set_n_basic_set(s.p)
	if n < 0 {
		return 0, s.ctx.islError("set_n_basic_set")
	}
	return int(n), nil
}

// ---------------------------------------------------------------------------
// Relations

// Map is an isl_map. Every operation leaves its operands unchanged and
// returns a new object that the caller must Free.
type Map struct {
	ctx *Ctx
	p   *C.isl_map
}

func (m *Map) ctxOf() *Ctx {
	if m == nil || m.p == nil {
		return nil
	}
	return m.ctx
}

func (c *Ctx) newMap(op string, p *C.isl_map) (*Map, error) {
	if p == nil {
		return nil, c.islError(op)
	}
	c.live++
	return &Map{c, p}, nil
}

// ReadMap parses a relation in isl notation.
func (c *Ctx) ReadMap(src string) (*Map, error) {
	if err := check(c); err != nil {
		return nil, err
	}
	cs, free := cstr(src)
	defer free()
	return c.newMap("map_read_from_str", C.isl_map_read_from_str(c.p, cs))
}

// Free releases m; freeing twice is harmless.
func (m *Map) Free() {
	if m == nil || m.p == nil {
		return
	}
	C.isl_map_free(m.p)
	m.p = nil
	m.ctx.live--
}

func (m *Map) cp() *C.isl_map { return C.isl_map_copy(m.p) }

// String prints m in isl notation.
func (m *Map) String() string {
	if m == nil || m.p == nil {
		return "<freed>"
	}
	return goString(C.isl_map_to_str(m.p))
}

func (m *Map) unary(op string, f func(*C.isl_map) *C.isl_map) (*Map, error) {
	if err := check(m.ctx, m); err != nil {
		return nil, err
	}
	return m.ctx.newMap(op, f(m.cp()))
}

func (m *Map) binary(op string, o *Map, f func(a, b *C.isl_map) *C.isl_map) (*Map, error) {
	if err := check(m.ctx, m, o); err != nil {
		return nil, err
	}
	return m.ctx.newMap(op, f(m.cp(), o.cp()))
}

func (m *Map) toSet(op string, f func(*C.isl_map) *C.isl_set) (*Set, error) {
	if err := check(m.ctx, m); err != nil {
		return nil, err
	}
	return m.ctx.newSet(op, f(m.cp()))
}

// Intersect returns m ∩ o.
func (m *Map) Intersect(o *Map) (*Map, error) {
	return m.binary("map_intersect", o, func(a, b *C.isl_map) *C.isl_map { return C.isl_map_intersect(a, b) })
}

// Union returns m ∪ o.
func (m *Map) Union(o *Map) (*Map, error) {
	return m.binary("map_union", o, func(a, b *C.isl_map) *C.isl_map { return C.isl_map_union(a, b) })
}

// Subtract returns m \ o.
func (m *Map) Subtract(o *Map) (*Map, error) {
	return m.binary("map_subtract", o, func(a, b *C.isl_map) *C.isl_map { return C.isl_map_subtract(a, b) })
}

// ApplyRange composes m: A -> B with o: B -> C into A -> C.
func (m *Map) ApplyRange(o *Map) (*Map, error) {
	return m.binary("map_apply_range", o, func(a, b *C.isl_map) *C.isl_map { return C.isl_map_apply_range(a, b) })
}

// Gist returns a relation equal to m on the pairs of context (isl_map_gist).
func (m *Map) Gist(context *Map) (*Map, error) {
	return m.binary("map_gist", context, func(a, b *C.isl_map) *C.isl_map { return C.isl_map_gist(a, b) })
}

// IntersectDomain restricts m to the pairs whose domain element is in s.
func (m *Map) IntersectDomain(s *Set) (*Map, error) {
	if err := check(m.ctx, m, s); err != nil {
		return nil, err
	}
	return m.ctx.newMap("map_intersect_domain", C.isl_map_intersect_domain(m.cp(), s.cp()))
}

// IntersectRange restricts m to the pairs whose range element is in s.
func (m *Map) IntersectRange(s *Set) (*Map, error) {
	if err := check(m.ctx, m, s); err != nil {
		return nil, err
	}
	return m.ctx.newMap("map_intersect_range", C.isl_map_intersect_range(m.cp(), s.cp()))
}

// Complement returns the pairs of m's space not in m.
func (m *Map) Complement() (*Map, error) {
	return m.unary("map_complement", func(a *C.isl_map) *C.isl_map { return C.isl_map_complement(a) })
}

// Reverse returns the inverse relation.
func (m *Map) Reverse() (*Map, error) {
	return m.unary("map_reverse", func(a *C.isl_map) *C.isl_map { return C.isl_map_reverse(a) })
}

// LexMin relates every domain element of m to its lexicographically
// smallest image.
func (m *Map) LexMin() (*Map, error) {
	return m.unary("map_lexmin", func(a *C.isl_map) *C.isl_map { return C.isl_map_lexmin(a) })
}

// LexMax relates every domain element of m to its lexicographically largest
// image.
func (m *Map) LexMax() (*Map, error) {
	return m.unary("map_lexmax", func(a *C.isl_map) *C.isl_map { return C.isl_map_lexmax(a) })
}

// Coalesce returns m with pieces merged where isl can (same pairs).
func (m *Map) Coalesce() (*Map, error) {
	return m.unary("map_coalesce", func(a *C.isl_map) *C.isl_map { return C.isl_map_coalesce(a) })
}

// ProjectOut existentially quantifies n dimensions of kind starting at
// first.
func (m *Map) ProjectOut(kind DimKind, first, n int) (*Map, error) {
	return m.unary("map_project_out", func(a *C.isl_map) *C.isl_map {
		return C.isl_map_project_out(a, kind.isl(), C.uint(first), C.uint(n))
	})
}

// Sample returns a relation holding one pair of m, or an empty relation if m
// is empty.
func (m *Map) Sample() (*Map, error) {
	return m.unary("map_sample", func(a *C.isl_map) *C.isl_map {
		return C.isl_map_from_basic_map(C.isl_map_sample(a))
	})
}

// Domain returns the set of domain elements of m.
func (m *Map) Domain() (*Set, error) {
	return m.toSet("map_domain", func(a *C.isl_map) *C.isl_set { return C.isl_map_domain(a) })
}

// Range returns the set of range elements of m.
func (m *Map) Range() (*Set, error) {
	return m.toSet("map_range", func(a *C.isl_map) *C.isl_set { return C.isl_map_range(a) })
}

// Wrap returns the set of pairs [a -> b] of m.
func (m *Map) Wrap() (*Set, error) {
	return m.toSet("map_wrap", func(a *C.isl_map) *C.isl_set { return C.isl_map_wrap(a) })
}

// IsEmpty reports whether m has no pair for any parameter value.
func (m *Map) IsEmpty() (bool, error) {
	if err := check(m.ctx, m); err != nil {
		return false, err
	}
	return m.ctx.boolean("map_is_empty", C.isl_map_is_empty(m.p))
}

// IsSubset reports whether m ⊆ o.
func (m *Map) IsSubset(o *Map) (bool, error) {
	if err := check(m.ctx, m, o); err != nil {
		return false, err
	}
	return m.ctx.boolean("map_is_subset", C.isl_map_is_subset(m.p, o.p))
}

// IsEqual reports whether m and o have the same pairs.
func (m *Map) IsEqual(o *Map) (bool, error) {
	if err := check(m.ctx, m, o); err != nil {
		return false, err
	}
	return m.ctx.boolean("map_is_equal", C.isl_map_is_equal(m.p, o.p))
}

// IsSingleValued reports whether m relates every domain element to at most
// one range element.
func (m *Map) IsSingleValued() (bool, error) {
	if err := check(m.ctx, m); err != nil {
		return false, err
	}
	return m.ctx.boolean("map_is_single_valued", C.isl_map_is_single_valued(m.p))
}

// IsInjective reports whether m relates every range element to at most one
// domain element.
func (m *Map) IsInjective() (bool, error) {
	if err := check(m.ctx, m); err != nil {
		return false, err
	}
	return m.ctx.boolean("map_is_injective", C.isl_map_is_injective(m.p))
}

// NumBasic returns the number of conjunctions isl keeps for m.
func (m *Map) NumBasic() (int, error) {
	if err := check(m.ctx, m); err != nil {
		return 0, err
	}
	n := C.isl_map_n_basic_map(m.p)
	if n < 0 {
		return 0, m.ctx.islError("map_n_basic_map")
	}
	return int(n), nil
}

// ReadPwMultiAffAsMap parses a piecewise quasi-affine function
// (isl_pw_multi_aff) and returns its graph.
func (c *Ctx) ReadPwMultiAffAsMap(src string) (*Map, error) {
	if err := check(c); err != nil {
		return nil, err
	}
	cs, free := cstr(src)
	defer free()
	pma := C.isl_pw_multi_aff_read_from_str(c.p, cs)
	if pma == nil {
		return nil, c.islError("pw_multi_aff_read_from_str")
	}
	return c.newMap("map_from_pw_multi_aff", C.isl_map_from_pw_multi_aff(pma))
}

// ReadPwMultiAffAsSet parses a piecewise quasi-affine function of the
// parameters only and returns the set of its values.
func (c *Ctx) ReadPwMultiAffAsSet(src string) (*Set, error) {
	if err := check(c); err != nil {
		return nil, err
	}
	cs, free := cstr(src)
	defer free()
	pma := C.isl_pw_multi_aff_read_from_str(c.p, cs)
	if pma == nil {
		return nil, c.islError("pw_multi_aff_read_from_str")
	}
	return c.newSet("set_from_pw_multi_aff", C.isl_set_from_pw_multi_aff(pma))
}

// ---------------------------------------------------------------------------
// Unions

// UnionSet is an isl_union_set: sets living in several spaces.
type UnionSet struct {
	ctx *Ctx
	p   *C.isl_union_set
}

func (s *UnionSet) ctxOf() *Ctx {
	if s == nil || s.p == nil {
		return nil
	}
	return s.ctx
}

func (c *Ctx) newUnionSet(op string, p *C.isl_union_set) (*UnionSet, error) {
	if p == nil {
		return nil, c.islError(op)
	}
	c.live++
	return &UnionSet{c, p}, nil
}

// ReadUnionSet parses a union set in isl notation.
func (c *Ctx) ReadUnionSet(src string) (*UnionSet, error) {
	if err := check(c); err != nil {
		return nil, err
	}
	cs, free := cstr(src)
	defer free()
	return c.newUnionSet("union_set_read_from_str", C.isl_union_set_read_from_str(c.p, cs))
}

// Free releases s; freeing twice is harmless.
func (s *UnionSet) Free() {
	if s == nil || s.p == nil {
		return
	}
	C.isl_union_set_free(s.p)
	s.p = nil
	s.ctx.live--
}

func (s *UnionSet) cp() *C.isl_union_set { return C.isl_union_set_copy(s.p) }

// String prints s in isl notation.
func (s *UnionSet) String() string {
	if s == nil || s.p == nil {
		return "<freed>"
	}
	return goString(C.isl_union_set_to_str(s.p))
}

func (s *UnionSet) unary(op string, f func(*C.isl_union_set) *C.isl_union_set) (*UnionSet, error) {
	if err := check(s.ctx, s); err != nil {
		return nil, err
	}
	return s.ctx.newUnionSet(op, f(s.cp()))
}

func (s *UnionSet) binary(op string, o *UnionSet, f func(a, b *C.isl_union_set) *C.isl_union_set) (*UnionSet, error) {
	if err := check(s.ctx, s, o); err != nil {
		return nil, err
	}
	return s.ctx.newUnionSet(op, f(s.cp(), o.cp()))
}

// Intersect returns s ∩ o.
func (s *UnionSet) Intersect(o *UnionSet) (*UnionSet, error) {
	return s.binary("union_set_intersect", o, func(a, b *C.isl_union_set) *C.isl_union_set { return C.isl_union_set_intersect(a, b) })
}

// Union returns s ∪ o.
func (s *UnionSet) Union(o *UnionSet) (*UnionSet, error) {
	return s.binary("union_set_union", o, func(a, b *C.isl_union_set) *C.isl_union_set { return C.isl_union_set_union(a, b) })
}

// Subtract returns s \ o.
func (s *UnionSet) Subtract(o *UnionSet) (*UnionSet, error) {
	return s.binary("union_set_subtract", o, func(a, b *C.isl_union_set) *C.isl_union_set { return C.isl_union_set_subtract(a, b) })
}

// LexMin returns the lexicographic minimum of every space's component.
func (s *UnionSet) LexMin() (*UnionSet, error) {
	return s.unary("union_set_lexmin", func(a *C.isl_union_set) *C.isl_union_set { return C.isl_union_set_lexmin(a) })
}

// LexMax returns the lexicographic maximum of every space's component.
func (s *UnionSet) LexMax() (*UnionSet, error) {
	return s.unary("union_set_lexmax", func(a *C.isl_union_set) *C.isl_union_set { return C.isl_union_set_lexmax(a) })
}

// Coalesce coalesces every component.
func (s *UnionSet) Coalesce() (*UnionSet, error) {
	return s.unary("union_set_coalesce", func(a *C.isl_union_set) *C.isl_union_set { return C.isl_union_set_coalesce(a) })
}

// Apply returns the image of s under m.
func (s *UnionSet) Apply(m *UnionMap) (*UnionSet, error) {
	if err := check(s.ctx, s, m); err != nil {
		return nil, err
	}
	return s.ctx.newUnionSet("union_set_apply", C.isl_union_set_apply(s.cp(), C.isl_union_map_copy(m.p)))
}

// IsEmpty reports whether s has no element.
func (s *UnionSet) IsEmpty() (bool, error) {
	if err := check(s.ctx, s); err != nil {
		return false, err
	}
	return s.ctx.boolean("union_set_is_empty", C.isl_union_set_is_empty(s.p))
}

// IsSubset reports whether s ⊆ o.
func (s *UnionSet) IsSubset(o *UnionSet) (bool, error) {
	if err := check(s.ctx, s, o); err != nil {
		return false, err
	}
	return s.ctx.boolean("union_set_is_subset", C.isl_union_set_is_subset(s.p, o.p))
}

// IsEqual reports whether s and o have the same elements.
func (s *UnionSet) IsEqual(o *UnionSet) (bool, error) {
	if err := check(s.ctx, s, o); err != nil {
		return false, err
	}
	return s.ctx.boolean("union_set_is_equal", C.isl_union_set_is_equal(s.p, o.p))
}

// UnionMap is an isl_union_map: relations living in several spaces.
type UnionMap struct {
	ctx *Ctx
	p   *C.isl_union_map
}

func (m *UnionMap) ctxOf() *Ctx {
	if m == nil || m.p == nil {
		return nil
	}
	return m.ctx
}

func (c *Ctx) newUnionMap(op string, p *C.isl_union_map) (*UnionMap, error) {
	if p == nil {
		return nil, c.islError(op)
	}
	c.live++
	return &UnionMap{c, p}, nil
}

// ReadUnionMap parses a union map in isl notation.
func (c *Ctx) ReadUnionMap(src string) (*UnionMap, error) {
	if err := check(c); err != nil {
		return nil, err
	}
	cs, free := cstr(src)
	defer free()
	return c.newUnionMap("union_map_read_from_str", C.isl_union_map_read_from_str(c.p, cs))
}

// Free releases m; freeing twice is harmless.
func (m *UnionMap) Free() {
	if m == nil || m.p == nil {
		return
	}
	C.isl_union_map_free(m.p)
	m.p = nil
	m.ctx.live--
}

func (m *UnionMap) cp() *C.isl_union_map { return C.isl_union_map_copy(m.p) }

// String prints m in isl notation.
func (m *UnionMap) String() string {
	if m == nil || m.p == nil {
		return "<freed>"
	}
	return goString(C.isl_union_map_to_str(m.p))
}

func (m *UnionMap) unary(op string, f func(*C.isl_union_map) *C.isl_union_map) (*UnionMap, error) {
	if err := check(m.ctx, m); err != nil {
		return nil, err
	}
	return m.ctx.newUnionMap(op, f(m.cp()))
}

func (m *UnionMap) binary(op string, o *UnionMap, f func(a, b *C.isl_union_map) *C.isl_union_map) (*UnionMap, error) {
	if err := check(m.ctx, m, o); err != nil {
		return nil, err
	}
	return m.ctx.newUnionMap(op, f(m.cp(), o.cp()))
}

func (m *UnionMap) toSet(op string, f func(*C.isl_union_map) *C.isl_union_set) (*UnionSet, error) {
	if err := check(m.ctx, m); err != nil {
		return nil, err
	}
	return m.ctx.newUnionSet(op, f(m.cp()))
}

// Intersect returns m ∩ o.
func (m *UnionMap) Intersect(o *UnionMap) (*UnionMap, error) {
	return m.binary("union_map_intersect", o, func(a, b *C.isl_union_map) *C.isl_union_map { return C.isl_union_map_intersect(a, b) })
}

// Union returns m ∪ o.
func (m *UnionMap) Union(o *UnionMap) (*UnionMap, error) {
	return m.binary("union_map_union", o, func(a, b *C.isl_union_map) *C.isl_union_map { return C.isl_union_map_union(a, b) })
}

// Subtract returns m \ o.
func (m *UnionMap) Subtract(o *UnionMap) (*UnionMap, error) {
	return m.binary("union_map_subtract", o, func(a, b *C.isl_union_map) *C.isl_union_map { return C.isl_union_map_subtract(a, b) })
}

// ApplyRange composes every matching pair of components of m and o.
func (m *UnionMap) ApplyRange(o *UnionMap) (*UnionMap, error) {
	return m.binary("union_map_apply_range", o, func(a, b *C.isl_union_map) *C.isl_union_map { return C.isl_union_map_apply_range(a, b) })
}

// Reverse inverts every component.
func (m *UnionMap) Reverse() (*UnionMap, error) {
	return m.unary("union_map_reverse", func(a *C.isl_union_map) *C.isl_union_map { return C.isl_union_map_reverse(a) })
}

// LexMin relates every domain element to its lexicographically smallest
// image within each range space.
func (m *UnionMap) LexMin() (*UnionMap, error) {
	return m.unary("union_map_lexmin", func(a *C.isl_union_map) *C.isl_union_map { return C.isl_union_map_lexmin(a) })
}

// LexMax relates every domain element to its lexicographically largest
// image within each range space.
func (m *UnionMap) LexMax() (*UnionMap, error) {
	return m.unary("union_map_lexmax", func(a *C.isl_union_map) *C.isl_union_map { return C.isl_union_map_lexmax(a) })
}

// Coalesce coalesces every component.
func (m *UnionMap) Coalesce() (*UnionMap, error) {
	return m.unary("union_map_coalesce", func(a *C.isl_union_map) *C.isl_union_map { return C.isl_union_map_coalesce(a) })
}

// Domain returns the union of the domains of the components.
func (m *UnionMap) Domain() (*UnionSet, error) {
	return m.toSet("union_map_domain", func(a *C.isl_union_map) *C.isl_union_set { return C.isl_union_map_domain(a) })
}

// Range returns the union of the ranges of the components.
func (m *UnionMap) Range() (*UnionSet, error) {
	return m.toSet("union_map_range", func(a *C.isl_union_map) *C.isl_union_set { return C.isl_union_map_range(a) })
}

// IsEmpty reports whether m has no element.
func (m *UnionMap) IsEmpty() (bool, error) {
	if err := check(m.ctx, m); err != nil {
		return false, err
	}
	return m.ctx.boolean("union_map_is_empty", C.isl_union_map_is_empty(m.p))
}

// IsSubset reports whether m ⊆ o.
func (m *UnionMap) IsSubset(o *UnionMap) (bool, error) {
	if err := check(m.ctx, m, o); err != nil {
		return false, err
	}
	return m.ctx.boolean("union_map_is_subset", C.isl_union_map_is_subset(m.p, o.p))
}

// IsEqual reports whether m and o have the same elements.
func (m *UnionMap) IsEqual(o *UnionMap) (bool, error) {
	if err := check(m.ctx, m, o); err != nil {
		return false, err
	}
	return m.ctx.boolean("union_map_is_equal", C.isl_union_map_is_equal(m.p, o.p))
}

// IsSingleValued reports whether m relates every domain element to at most
// one range element.
func (m *UnionMap) IsSingleValued() (bool, error) {
	if err := check(m.ctx, m); err != nil {
		return false, err
	}
	return m.ctx.boolean("union_map_is_single_valued", C.isl_union_map_is_single_valued(m.p))
}

// IsInjective reports whether m relates every range element to at most one
// domain element.
func (m *UnionMap) IsInjective() (bool, error) {
	if err := check(m.ctx, m); err != nil {
		return false, err
	}
	return m.ctx.boolean("union_map_is_injective", C.isl_union_map_is_injective(m.p))
}
