// Package corpus loads the verifier's corpus: pairs of an annotated kernel
// (.sched) and its specification (.sare), each kernel carrying in header
// comments the verdict a translation validator must reach on it.
//
// Load reads a directory such as testdata/corpus and returns one Case per
// kernel. The header format, parsed strictly, is described in the
// corpus's README.md and in the comment of Load. The corpus is checked
// against the reference interpreter by this package's tests; verifiers
// check themselves against it with Case.ExpectFor.
//
// Files, in reading order: corpus.go.
package corpus
