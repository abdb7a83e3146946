package answer

import (
	"testing"

	"github.com/mockgql/mockgql/internal/testdata"
)

// TestNoPackageState: the package is pure, as package graphql's doc says
// of the runtime: no package-level variables at all.
func TestNoPackageState(t *testing.T) { testdata.NoPackageState(t, nil) }
