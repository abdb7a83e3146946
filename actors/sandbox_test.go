package actors

import (
	"testing"

	"github.com/mockgql/mockgql/persistence"
)

// TestSandboxRecordsReplicateWithTheProject: a sandbox's records belong to
// its project's grain, so that they are replicated, caught up and handed
// over with it (a unit of their own could be placed on other nodes than
// the project's when the cluster is larger than --replicas).
func TestSandboxRecordsReplicateWithTheProject(t *testing.T) {
	for _, c := range []struct{ kind, id string }{
		{kindSandbox, "prj_1/test-7"},
		{kindSandboxRow, "prj_1/test-7/tbl_1/42"},
		{kindState, "prj_1/cart-3"}, // named states too (mockstate.go)
		{kindStateRows, "prj_1/cart-3"},
	} {
		key, ok := GrainKeyOf(c.kind, c.id)
		if !ok || key != "project/prj_1" {
			t.Errorf("%s %s: unit %q, want project/prj_1", c.kind, c.id, key)
		}
		if !covered(GrainRecords("project/prj_1"), c.kind, c.id) {
			t.Errorf("%s %s: not among the project's records", c.kind, c.id)
		}
		if covered(GrainRecords("project/prj_2"), c.kind, c.id) {
			t.Errorf("%s %s: among another project's records", c.kind, c.id)
		}
	}
}

// covered reports whether one of rs holds the record kind/id.
func covered(rs []persistence.Range, kind, id string) bool {
	for _, r := range rs {
		if r.Kind != kind {
			continue
		}
		switch {
		case r.Exact && id == r.Prefix,
			!r.Exact && r.Suffix == "" && len(id) >= len(r.Prefix) && id[:len(r.Prefix)] == r.Prefix:
			return true
		}
	}
	return false
}
