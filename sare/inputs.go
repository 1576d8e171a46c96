package sare

import (
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"math/rand/v2"

	"github.com/augur-verify/augur/value"
)

// Inputs provides the elements of input tensors, whose values a
// specification leaves arbitrary.
type Inputs interface {
	// Input returns the element of t at idx; it must have t's type.
	Input(t *Tensor, idx []int64) (value.Value, error)
}

// InputFunc adapts a function to the Inputs interface.
type InputFunc func(t *Tensor, idx []int64) (value.Value, error)

// Input calls f.
func (f InputFunc) Input(t *Tensor, idx []int64) (value.Value, error) { return f(t, idx) }

// InputMap gives each input tensor, by name, a function from indices to
// values. A tensor missing from the map is an error when read.
type InputMap map[string]func(idx []int64) value.Value

// Input looks t up in m.
func (m InputMap) Input(t *Tensor, idx []int64) (value.Value, error) {
	f, ok := m[t.Name.Name]
	if !ok {
		return value.Value{}, fmt.Errorf("no values for input tensor %s", t.Name.Name)
	}
	return f(idx), nil
}

// RandomInputs returns inputs drawn by value.Random from a generator
// seeded by seed, the tensor's name and the indices: the element at a
// given point is the same whatever the order of reads, so a kernel
// interpreter and the reference evaluator given the same seed see the
// same inputs.
func RandomInputs(seed uint64) Inputs {
	return InputFunc(func(t *Tensor, idx []int64) (value.Value, error) {
		h := fnv.New64a()
		var buf [8]byte
		binary.LittleEndian.PutUint64(buf[:], seed)
		h.Write(buf[:])
		h.Write([]byte(t.Name.Name))
		for _, n := range idx {
			binary.LittleEndian.PutUint64(buf[:], uint64(n))
			h.Write(buf[:])
		}
		r := rand.New(rand.NewPCG(seed, h.Sum64()))
		return value.Random(t.Type, r), nil
	})
}
