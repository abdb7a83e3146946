package engine

import (
	"testing"

	"github.com/mockgql/mockgql/internal/testdata"
)

// packageVarsAllowed are the package-level variables of the engine, each
// with why it is not mutable state: everything else an Overlay or a Cache
// needs is a field of it.
var packageVarsAllowed = map[string]string{
	"emptyState":    "the empty overlay version, never written through",
	"bitsPool":      "a sync.Pool of scratch bitsets: one call at a time holds each, and its words are written before they are read",
	"sparseScratch": "a sync.Pool of scratch sparse plans: one call at a time holds each, reset before use",
}

// TestNoPackageState: the package doc says the engine keeps no mutable
// package state, so a package-level var must be one of the allowed ones.
func TestNoPackageState(t *testing.T) { testdata.NoPackageState(t, packageVarsAllowed) }
