// Package structure holds tests of the repository's own layout, the
// conventions a reader relies on to find their way:
//
//   - every package has a doc.go whose package comment ends with the
//     paragraph "Files, in reading order: a.go, b.go, ...", naming every
//     non-test .go file of the package except doc.go, once each, and no
//     file that does not exist (docfiles_test.go);
//   - a test calls testtier.Long first exactly when its name starts with
//     TestLong, the prefix `make test-long` selects (tier_test.go);
//   - the layout table of README.md names every top-level folder and
//     every package directory (readme_test.go).
//
// The package has no code of its own.
package structure
