package graphql

import (
	"path/filepath"
	"testing"
)

// TestContractCompiles: every golden contract compiles and answers with
// the document's own root type name (custom root names included).
func TestContractCompiles(t *testing.T) {
	for _, f := range contractSchemas(t) {
		t.Run(filepath.Base(f), func(t *testing.T) {
			h := newContractHarness(t, f)
			got := h.do("{ __typename }", nil)
			want := h.rt.Schema().Query.Name
			if jsonAt(got, "data.__typename") != want {
				t.Fatalf("__typename = %v, want %s", got, want)
			}
		})
	}
}
