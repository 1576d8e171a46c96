package main

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"sync"
)

// buildID, when set at link time (go build -ldflags "-X
// main.buildID=ID"), names this build in place of what buildIdentity
// would find: release builds and tests name their builds this way. It is
// never assigned at run time.
var buildID string

// buildIdentity names the build of this binary, computed once: part of
// the verifier's identity in the service's cache keys (verifierID), so
// that no verdict outlives the build that gave it. It is
//
//   - buildID when set at link time;
//   - "rev REVISION" for a build of a clean work tree, the revision that
//     the Go toolchain records (runtime/debug.ReadBuildInfo, vcs.revision);
//   - "rev REVISION, modified, sha256 HASH" for a build of a modified work
//     tree: two builds of one revision with different changes differ in
//     their executables, which HASH (the first 16 hexadecimal digits of
//     the executable's SHA-256) tells apart;
//   - "sha256 HASH" when the toolchain recorded no revision (go build
//     -buildvcs=false, go run, go test, a build outside a repository);
//   - "unidentified build NONCE", with a random NONCE, when the executable
//     cannot be read either: that process's verdicts then answer no other
//     process, which is safe if wasteful.
var buildIdentity = sync.OnceValue(func() string {
	if buildID != "" {
		return buildID
	}
	rev, modified := vcsRevision()
	if rev != "" && !modified {
		return "rev " + rev
	}
	hash, err := executableHash()
	if err != nil {
		return "unidentified build " + rand.Text()
	}
	if rev != "" {
		return "rev " + rev + ", modified, sha256 " + hash
	}
	return "sha256 " + hash
})

// vcsRevision returns the revision the toolchain recorded in this binary
// ("" if none) and whether the work tree had changes.
func vcsRevision() (rev string, modified bool) {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "", false
	}
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			modified = s.Value == "true"
		}
	}
	return rev, modified
}

// executableHash returns the first 16 hexadecimal digits of the SHA-256 of
// the running executable.
func executableHash() (string, error) {
	path, err := os.Executable()
	if err != nil {
		return "", fmt.Errorf("finding the executable: %w", err)
	}
	f, err := os.Open(path)
	if err != nil {
		return "", fmt.Errorf("hashing the executable: %w", err)
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", fmt.Errorf("hashing the executable: %w", err)
	}
	return hex.EncodeToString(h.Sum(nil))[:16], nil
}
