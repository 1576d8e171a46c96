// Package fuzz is augur fuzz-halide's engine.
package fuzz
