package gen

import (
	"testing"

	"github.com/mockgql/mockgql/internal/testdata"
)

// packageVarsAllowed are the package-level variables of the generators,
// each with why it is not mutable state.
var packageVarsAllowed = map[string]string{
	"aliasMeta":      "the generator catalog's read-only table of option descriptions, never written",
	"aliasCategory":  "the generator catalog's read-only table of categories, never written",
	"lookupCategory": "the generator catalog's read-only table of categories, never written",
	"catalog":        "the generator catalog, computed once from constants and never written",
	"genAliases":     "the generator kinds, computed once from constants and never written",
}

// TestNoPackageState: package graphql's doc says the runtime keeps no
// mutable package state; its generators are part of it.
func TestNoPackageState(t *testing.T) { testdata.NoPackageState(t, packageVarsAllowed) }
