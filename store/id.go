package store

import (
	"crypto/rand"
	"fmt"
	"strings"
	"sync"
	"time"
)

// crockford is Crockford's base-32 alphabet, whose order is ASCII order,
// so that IDs sort as strings in the order of their timestamps.
const crockford = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"

// idGen makes ULID-like IDs: 26 characters encoding 48 bits of Unix
// milliseconds then 80 random bits. Within one millisecond, the random
// part is incremented, so IDs from one generator strictly increase.
type idGen struct {
	mu   sync.Mutex
	ms   int64
	last [10]byte
}

// next returns a fresh ID and the time it encodes.
func (g *idGen) next(now time.Time) (string, time.Time, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	ms := now.UnixMilli()
	if ms <= g.ms {
		// Same (or earlier, if the clock stepped back) millisecond: keep
		// the previous timestamp and increment the random part.
		ms = g.ms
		i := len(g.last) - 1
		for ; i >= 0; i-- {
			g.last[i]++
			if g.last[i] != 0 {
				break
			}
		}
		if i < 0 {
			ms++ // overflow of 80 bits: move to the next millisecond
		}
	} else if _, err := rand.Read(g.last[:]); err != nil {
		return "", time.Time{}, fmt.Errorf("store: random ID: %w", err)
	}
	g.ms = ms
	var b [16]byte
	for i := 0; i < 6; i++ {
		b[i] = byte(ms >> (40 - 8*i))
	}
	copy(b[6:], g.last[:])
	return encodeID(b), time.UnixMilli(ms), nil
}

// validID reports whether s has the form of a validation's ID: 26 digits
// of Crockford's base 32, in upper case.
func validID(s string) bool {
	if len(s) != 26 || s[0] > '7' {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !strings.ContainsRune(crockford, rune(s[i])) {
			return false
		}
	}
	return true
}

// encodeID writes 128 bits as 26 base-32 digits, most significant first.
func encodeID(b [16]byte) string {
	var out [26]byte
	// 26 digits * 5 bits = 130 bits: the first digit holds 3 bits.
	var acc uint64
	bits := 2 // two leading zero bits
	j := 0
	for _, x := range b {
		acc = acc<<8 | uint64(x)
		bits += 8
		for bits >= 5 {
			bits -= 5
			out[j] = crockford[(acc>>bits)&31]
			j++
		}
	}
	return string(out[:])
}
