package validate

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/augur-verify/augur/presburger"
	"github.com/augur-verify/augur/smt"
	"github.com/augur-verify/augur/symeval"
)

// pieceGroups partitions the pieces of an obligation's points by their
// substitution (substitute): the pieces of one group give the parameters
// and holes the same terms, so that their sides are encoded alike but for
// the guards decided over their points. A boundary condition splits the
// points into many pieces (one per case of each clamp, times the cases of
// the assumptions) that often differ only by inequalities the sides never
// consult.
type pieceGroups struct {
	// key[pi] is the substitution key of piece pi.
	key []string
	// members lists, by key, the pieces of that key in order.
	members map[string][]int
	// subst is, by key, the substitution of the group's first piece:
	// the query to complete for the whole group (encodePieces). It keeps
	// the terms that the keys name alive.
	subst map[string]*query
}

// groupPieces returns the pieces of ob's points grouped by substitution.
func (s *solver) groupPieces(ob *symeval.Obligation, pieces []*presburger.BasicMap) *pieceGroups {
	g := &pieceGroups{key: make([]string, len(pieces)), members: map[string][]int{}, subst: map[string]*query{}}
	for pi, piece := range pieces {
		q := s.substitute(ob, piece)
		g.key[pi] = q.key
		if _, ok := g.subst[q.key]; !ok {
			g.subst[q.key] = q
		}
		g.members[q.key] = append(g.members[q.key], pi)
	}
	return g
}

// substitution returns the query to complete for the group key, whose
// first piece is first: the group's own (subst), or, once the solver's
// context was renewed (renewed), the substitution made again in the
// fresh context, the same terms for every member as in the old one.
func (g *pieceGroups) substitution(s *solver, ob *symeval.Obligation, key string, first *presburger.BasicMap, renewed bool) *query {
	if renewed {
		return s.substitute(ob, first)
	}
	return g.subst[key]
}

// closeGroups tries to close the pieces of ob's points group by group
// (pieceGroups), with matchFirst's criteria: the sides substituted to one
// term, or the query unsatisfiable within matchFirstResources units. Each
// group is encoded once, over the union of its pieces' points: every guard
// decided over the union holds the same way at each of its pieces, and a
// query over the union is unsatisfiable exactly when the query of each
// piece over the same sides is. The groups whose sides, their shared
// guards peeled off (peelGuards), are the same terms are then closed by one
// query over the union of their points, within matchFirstResources units
// per group; those it does not close are tried alone (closeQuickly),
// until one is not closed.
//
// It returns the keys of the groups closed; the pieces of the others are
// to be tried one by one (over a single piece, more guards may be
// decided).
func (s *solver) closeGroups(c *symeval.Condition, st strategy, g *pieceGroups, all []*presburger.BasicMap, earlier map[string]*query, scripts *[]string) map[string]bool {
	ob := c.Obligation
	closed := map[string]bool{}
	script := map[string]int{} // by key: the index of the group's script in scripts
	note := func(key, how string) {
		if how != "" {
			closed[key] = true
		}
		if i, ok := script[key]; ok && how != "" {
			// After the line naming the pieces (groupScript).
			head, rest, _ := strings.Cut((*scripts)[i], "\n")
			(*scripts)[i] = head + "\n" + comment(closedNote(how)) + rest
		}
		if s.v.opts.Trace != nil {
			what := "piece " + pieceList(g.members[key])
			if len(g.members[key]) > 1 {
				what = "pieces " + pieceList(g.members[key])
			}
			s.v.trace(fmt.Sprintf("C%d: %s, first, %s of %d (one substitution): %s", c.ID, st.name, what, len(all), orNot(how)))
		}
	}
	// The groups left to a solver, by their peeled sides and axioms: the
	// queries keep those terms alive, so their identifiers are a key.
	type open struct {
		key     string
		q       *query
		relaxed *smt.Term
	}
	var order []string
	buckets := map[string][]open{}
	// renewed: the solver's context was renewed (solver.shed), and the
	// substitutions of g, made in the old one, are made again.
	renewed := false
	for pi := range all {
		key := g.key[pi]
		members := g.members[key]
		if members[0] != pi {
			continue
		}
		if s.ctx.Err() != nil {
			return closed
		}
		// A fresh context only while no group's query is kept for the
		// queries over unions below (buckets).
		if len(order) == 0 && s.shed(c, pi, len(all)) {
			clear(earlier)
			renewed = true
		}
		pieces := make([]*presburger.BasicMap, len(members))
		for i, m := range members {
			pieces[i] = all[m]
		}
		s.enc.ResetUnfoldings()
		q, err := s.encodePieces(ob, st, g.substitution(s, ob, key, pieces[0], renewed), pieces, earlier)
		if err != nil {
			continue
		}
		if s.v.opts.KeepSMT && !q.same && q.points != nil {
			script[key] = len(*scripts)
			*scripts = append(*scripts, s.groupScript(q, members, len(all)))
		}
		if q.bad.IsFalse() {
			note(key, "same terms")
			continue
		}
		x, y := peelGuards(q.iv, q.sv)
		eq, err := s.enc.Equal(x, y, ob.Impl.Type)
		if err != nil {
			continue
		}
		relaxed := s.z.Or(q.idef.Not(), q.sdef.Not(), eq.Not()).Simplify()
		if relaxed.IsFalse() {
			note(key, "same terms under shared guards")
			continue
		}
		b := strconv.FormatUint(uint64(relaxed.ID()), 36)
		for _, a := range q.axioms {
			b += "," + strconv.FormatUint(uint64(a.ID()), 36)
		}
		if _, ok := buckets[b]; !ok {
			order = append(order, b)
		}
		buckets[b] = append(buckets[b], open{key, q, relaxed})
	}
	for _, b := range order {
		os := buckets[b]
		if len(os) > 1 {
			points := make([]*smt.Term, len(os))
			for i, o := range os {
				points[i] = o.q.points
			}
			terms := append([]*smt.Term{s.z.Or(points...), os[0].relaxed}, os[0].q.axioms...)
			res, err := s.quickCheck(terms, matchFirstResources*uint64(len(os)))
			if err == nil && res == smt.Unsat {
				for _, o := range os {
					note(o.key, fmt.Sprintf("unsat under shared guards, with %d groups of the same terms", len(os)))
				}
				continue
			}
		}
		for _, o := range os {
			how, err := s.closeQuickly(ob, o.q)
			if err != nil {
				how = ""
			}
			note(o.key, how)
			if how == "" {
				// Its pieces are tried one by one next; a wrong kernel
				// stops there, without the queries of the other groups.
				return closed
			}
		}
	}
	return closed
}

// groupScript prints the SMT-LIB2 script of q, the query over the union of
// the pieces members of n.
func (s *solver) groupScript(q *query, members []int, n int) string {
	script := s.pieceScript(q, 0, 1, "")
	return fmt.Sprintf("; pieces %s of %d of the points\n%s", pieceList(members), n, script)
}

// pieceList prints piece indices, counted from 1, separated by commas.
func pieceList(members []int) string {
	var b strings.Builder
	for i, m := range members {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.Itoa(m + 1))
	}
	return b.String()
}

// orNot is closed, or "not closed" when it is empty.
func orNot(closed string) string {
	if closed == "" {
		return "not closed"
	}
	return closed
}
