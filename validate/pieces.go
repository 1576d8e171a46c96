package validate

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/augur-verify/augur/presburger"
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

// closeGroup tries to close, with one query over the union of their
// points, the pieces of the group whose first piece is pi (matchFirst's
// criteria: the sides substituted to one term, or the query unsatisfiable
// within matchFirstResources units). Every guard decided over the union
// holds the same way at each of its pieces, and the query over the union
// is unsatisfiable exactly when each piece's query over the same sides is:
// closing the union closes every piece of the group. It reports whether
// the group was closed; when it was not, its pieces are to be tried one by
// one (over a single piece, more guards may be decided).
func (s *solver) closeGroup(c *symeval.Condition, st strategy, g *pieceGroups, pi int, all []*presburger.BasicMap, earlier map[string]*query, scripts *[]string) bool {
	ob := c.Obligation
	key := g.key[pi]
	members := g.members[key]
	if len(members) < 2 || members[0] != pi {
		return false
	}
	pieces := make([]*presburger.BasicMap, len(members))
	for i, m := range members {
		pieces[i] = all[m]
	}
	s.enc.ResetUnfoldings()
	q, err := s.encodePieces(ob, st, g.subst[key], pieces, earlier)
	// The group's substitution is spent: its terms stay alive in q, and
	// in earlier when q is kept there.
	delete(g.subst, key)
	if err != nil {
		return false
	}
	var closed string
	switch {
	case q.same && q.bad.IsFalse():
		closed = "the terms of an earlier piece"
	case q.bad.IsFalse():
		closed = "same terms"
	default:
		if closed, err = s.closeQuickly(ob, q); err != nil {
			closed = ""
		}
	}
	if s.v.opts.KeepSMT && !q.same && q.points != nil {
		*scripts = append(*scripts, s.groupScript(q, members, len(all)))
	}
	if s.v.opts.Trace != nil {
		s.v.trace(fmt.Sprintf("C%d: %s, first, pieces %s of %d (one substitution): %s", c.ID, st.name, pieceList(members), len(all), orNot(closed)))
	}
	return closed != ""
}

// groupScript prints the SMT-LIB2 script of q, the query over the union of
// the pieces members of n.
func (s *solver) groupScript(q *query, members []int, n int) string {
	script := s.pieceScript(q, 0, 1)
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
