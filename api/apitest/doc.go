// Package apitest provides an in-memory store.Store for tests of the HTTP
// layer and of the command line, where no database runs. It honours the
// interface's documented semantics: identical submissions answered from a
// stored verdict, newest-first pages with cursors, cancellation of queued
// and running validations, pruning, and workers that requeue on shutdown.
//
// Files, in reading order: store.go.
package apitest
