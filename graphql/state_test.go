package graphql

import (
	"testing"

	"github.com/mockgql/mockgql/internal/testdata"
)

// packageVarsAllowed are the package-level variables of the runtime, each
// with why it is not mutable state: everything else a Runtime needs is a
// field of it (package engine and the runtime's subpackages check their own).
var packageVarsAllowed = map[string]string{
	"errMutationInQuery":      "a sentinel error",
	"errQueryInMutate":        "a sentinel error",
	"errForeignPrepared":      "a sentinel error",
	"errNotSubscription":      "a sentinel error",
	"ErrSubscriptionOverHTTP": "a sentinel error",
}

// TestNoPackageState: the package doc says the runtime keeps no mutable
// package state, so a package-level var must be one of the allowed ones.
func TestNoPackageState(t *testing.T) { testdata.NoPackageState(t, packageVarsAllowed) }
