package store

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"hash"
)

// Key identifies a submission's content: the SHA-256, in hexadecimal, of a
// canonical encoding of the specification, the kernel and the options
// that change a verdict. Names of files and metadata do not count: two
// submissions with the same Key get the same verdict.
//
// The encoding is versioned and length-prefixed, so that no two different
// inputs share it; an empty ValueModel counts as "real".
func Key(spec, program string, o Options) string {
	h := sha256.New()
	writeField(h, "augur-key-v1")
	writeField(h, spec)
	writeField(h, program)
	model := o.ValueModel
	if model == "" {
		model = "real"
	}
	writeField(h, model)
	var n [8]byte
	binary.BigEndian.PutUint64(n[:], uint64(int64(o.TimeoutSeconds)))
	h.Write(n[:])
	if o.AllConditions {
		// Only when set, so that the keys of earlier submissions stay.
		writeField(h, "all-conditions")
	}
	return hex.EncodeToString(h.Sum(nil))
}

// CacheKey identifies what decides a verdict: the submission's content
// (as Key) and the verifier that gives it, such as "augur 0.2.0; z3
// 4.8.12.0" with the options of the workers that change verdicts. A
// verdict is reused only for a submission with the same CacheKey, so that
// a new release of Augur or Z3 validates again.
func CacheKey(verifier, spec, program string, o Options) string {
	h := sha256.New()
	writeField(h, "augur-cache-v1")
	writeField(h, verifier)
	writeField(h, Key(spec, program, o))
	return hex.EncodeToString(h.Sum(nil))
}

// writeField writes s with its length in front.
func writeField(h hash.Hash, s string) {
	var n [8]byte
	binary.BigEndian.PutUint64(n[:], uint64(len(s)))
	h.Write(n[:])
	h.Write([]byte(s))
}
