package graphql

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/mockgql/mockgql/contract"
	"github.com/mockgql/mockgql/engine"
	"github.com/mockgql/mockgql/model"
)

// contractProject returns a project imported from the contract test
// schema file (contract/testdata or graphql/testdata/contract).
func contractProject(tb testing.TB, file string) *model.Project {
	tb.Helper()
	doc, err := os.ReadFile(file)
	if err != nil {
		tb.Fatal(err)
	}
	p := &model.Project{ID: "pcontract1", Slug: "contract", Name: "contract", Kind: model.KindGuest}
	if _, err := contract.Apply(p, doc, time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)); err != nil {
		tb.Fatal(err)
	}
	return p
}

// contractSchemas are the golden schemas the contract runtime is tested on.
func contractSchemas(tb testing.TB) []string {
	tb.Helper()
	var out []string
	for _, glob := range []string{"../contract/testdata/*.graphql", "../contract/testdata/*.introspection.json", "testdata/contract/*.graphql"} {
		m, err := filepath.Glob(glob)
		if err != nil {
			tb.Fatal(err)
		}
		out = append(out, m...)
	}
	return out
}

// newContractHarness compiles the contract project of file with an empty
// pool and overlay.
func newContractHarness(tb testing.TB, file string) *rtHarness {
	tb.Helper()
	return &rtHarness{tb: tb, rt: rtCompile(tb, contractProject(tb, file), Options{}), pool: memPool{}, ov: engine.NewOverlay()}
}
