package presburger

import (
	"sort"
	"strings"
)

// This file prints objects in isl notation. The output of String parses
// back (ParseMap, ParseUnionMap, ...) to an equal object: dimension names
// are kept when they are valid, distinct identifiers and generated
// otherwise; locals are printed as "exists (e0 = floor((...)/d), e1: ...)".

var keywords = map[string]bool{
	"and": true, "or": true, "not": true, "implies": true, "exists": true,
	"floor": true, "ceil": true, "mod": true, "min": true, "max": true,
	"true": true, "false": true,
}

func validIdent(s string) bool {
	if s == "" || keywords[s] {
		return false
	}
	for i, r := range s {
		switch {
		case r == '_' || r == '\'' && i > 0:
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z':
		case r >= '0' && r <= '9' && i > 0:
		case r == '$' && i > 0:
		default:
			return false
		}
	}
	return true
}

// namer hands out distinct printable names.
type namer struct{ used map[string]bool }

func (n *namer) take(want, prefix string, idx int) string {
	if validIdent(want) && !n.used[want] {
		n.used[want] = true
		return want
	}
	for k := idx; ; k++ {
		s := prefix + itoa(k)
		if !n.used[s] {
			n.used[s] = true
			return s
		}
	}
}

func itoa(k int) string { return NewInt(int64(k)).String() }

// colNames returns printable names for all columns but the constant of a
// basic map in sp with nl locals.
func colNames(sp Space, nl int, used map[string]bool) []string {
	nm := &namer{used: map[string]bool{}}
	for k := range used {
		nm.used[k] = true
	}
	var names []string
	names = append(names, sp.Params...) // parameters are printed as given
	if sp.In != nil {
		for i, d := range sp.In.DimNames() {
			names = append(names, nm.take(d, "i", i))
		}
	}
	prefix := "o"
	if sp.In == nil {
		prefix = "i"
	}
	for i, d := range sp.Out.DimNames() {
		names = append(names, nm.take(d, prefix, i))
	}
	for i := 0; i < nl; i++ {
		names = append(names, nm.take("", "e", i))
	}
	return names
}

// affString prints sum row[i]*names[i] + const, in isl style ("2i - N + 1").
func affString(row []Int, names []string) string {
	var b strings.Builder
	n := len(row) - 1
	first := true
	for i := 0; i < n; i++ {
		c := row[i]
		if c.IsZero() {
			continue
		}
		writeTerm(&b, c, names[i], first)
		first = false
	}
	c := row[n]
	if !c.IsZero() || first {
		writeTerm(&b, c, "", first)
	}
	return b.String()
}

func writeTerm(b *strings.Builder, c Int, name string, first bool) {
	neg := c.Sign() < 0
	a := c.Abs()
	switch {
	case first && neg:
		b.WriteString("-")
	case !first && neg:
		b.WriteString(" - ")
	case !first:
		b.WriteString(" + ")
	}
	if name == "" {
		b.WriteString(a.String())
		return
	}
	if !a.IsOne() {
		b.WriteString(a.String())
		b.WriteString("*")
	}
	b.WriteString(name)
}

// constraintString prints row = 0 or row >= 0 with positive terms on the
// left and negative terms on the right.
func constraintString(row []Int, names []string, eq bool) string {
	n := len(row) - 1
	pos := make([]Int, n+1)
	neg := make([]Int, n+1)
	for i := 0; i <= n; i++ {
		switch row[i].Sign() {
		case 1:
			pos[i] = row[i]
		case -1:
			neg[i] = row[i].Neg()
		}
	}
	op := " >= "
	if eq {
		op = " = "
	}
	return affString(pos, names) + op + affString(neg, names)
}

// basicBody prints "tuples : constraints" for one piece.
func (b *BasicMap) body(params map[string]bool) string {
	names := colNames(b.space, len(b.divs), params)
	var sb strings.Builder
	nd := b.nDims()
	np := b.nP
	if !b.space.ParamOnly {
		if b.space.In != nil {
			sb.WriteString(tupleString(*b.space.In, names[np:np+b.nI]))
			sb.WriteString(" -> ")
		}
		sb.WriteString(tupleString(b.space.Out, names[np+b.nI:nd]))
	}
	var cons []string
	if b.empty {
		cons = append(cons, "false")
	} else {
		eqs, ineqs := copyRows(b.eqs), copyRows(b.ineqs)
		sortRows(eqs)
		sortRows(ineqs)
		for _, r := range eqs {
			cons = append(cons, constraintString(r, names, true))
		}
		for _, r := range ineqs {
			cons = append(cons, constraintString(r, names, false))
		}
	}
	if len(b.divs) > 0 && !b.empty {
		var ls []string
		for i, d := range b.divs {
			nm := names[nd+i]
			if d.Den.IsZero() {
				ls = append(ls, nm)
				continue
			}
			num := affString(d.Num, names)
			// Only a plain name goes unparenthesised: isl reads neither
			// floor(i + 1/2) as meant nor floor(-3/2) at all.
			if !isPlainName(num) {
				num = "(" + num + ")"
			}
			ls = append(ls, nm+" = floor("+num+"/"+d.Den.String()+")")
		}
		c := "true"
		if len(cons) > 0 {
			c = strings.Join(cons, " and ")
		}
		cons = []string{"exists (" + strings.Join(ls, ", ") + ": " + c + ")"}
	}
	if len(cons) == 0 {
		if b.space.ParamOnly {
			return ": true"
		}
		return sb.String()
	}
	if !b.space.ParamOnly {
		sb.WriteString(" ")
	}
	sb.WriteString(": ")
	sb.WriteString(strings.Join(cons, " and "))
	return sb.String()
}

func paramPrefix(ps []string) string {
	if len(ps) == 0 {
		return ""
	}
	return "[" + strings.Join(ps, ", ") + "] -> "
}

func paramSet(ps []string) map[string]bool {
	m := map[string]bool{}
	for _, p := range ps {
		m[p] = true
	}
	for k := range keywords {
		m[k] = true
	}
	return m
}

// String prints b in isl notation, e.g. "[N] -> { A[i] -> B[o0] : ... }".
func (b *BasicMap) String() string {
	return paramPrefix(b.space.Params) + "{ " + b.body(paramSet(b.space.Params)) + " }"
}

// String prints m in isl notation; pieces are separated by ";". An empty
// map prints as "{ T : false }" so that its space survives a round trip.
func (m *Map) String() string {
	ps := paramSet(m.space.Params)
	var parts []string
	for _, b := range m.basics {
		parts = append(parts, b.body(ps))
	}
	if len(parts) == 0 {
		parts = append(parts, EmptyBasicMap(m.space).body(ps))
	}
	return paramPrefix(m.space.Params) + "{ " + strings.Join(parts, "; ") + " }"
}

// String prints u in isl notation, with one parameter list for all spaces.
func (u *UnionMap) String() string {
	var params []string
	keys := u.keys()
	for _, k := range keys {
		params = alignParamNames(params, u.maps[k].space.Params)
	}
	ps := paramSet(params)
	var parts []string
	for _, k := range keys {
		m := u.maps[k].withParams(params)
		for _, b := range m.basics {
			parts = append(parts, b.body(ps))
		}
	}
	if len(parts) == 0 {
		return paramPrefix(params) + "{  }"
	}
	return paramPrefix(params) + "{ " + strings.Join(parts, "; ") + " }"
}

func (u *UnionMap) keys() []string {
	keys := make([]string, 0, len(u.maps))
	for k := range u.maps {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// isPlainName reports whether s is a single identifier.
func isPlainName(s string) bool {
	for i, r := range s {
		if !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || i > 0 && (r >= '0' && r <= '9' || r == '\'')) {
			return false
		}
	}
	return s != ""
}
