package actors

import (
	"strings"

	"github.com/mockgql/mockgql/persistence"
)

// GrainKeyOf names the grain ("kind/identity") that owns a store record,
// which is the unit the cluster replicates (a dataset's blob is a unit of
// its own); every record written through the store is replicated (ok is
// always true today).
func GrainKeyOf(kind, id string) (key string, ok bool) {
	switch kind {
	case kindOverlay, kindReply, kindSandbox, kindSandboxRow, kindState, kindStateRows: // <projectID>/<tableID>/<rowID>, <projectID>/<requestID>, <projectID>/<sandbox>[/<tableID>/<rowID>], <projectID>/<state>
		return kindProject + "/" + before(id, '/'), true
	case kindExpiry: // <unix ms>/<projectID>
		return kindProject + "/" + id[strings.IndexByte(id, '/')+1:], true
	case kindDataBlob: // <code>/<blobID>/<chunk>
		// Its own unit, not the dataset grain's: the node that took the
		// upload writes the blob, the grain writes the catalog entry, and
		// the store's versions assume one writer per unit (two writers
		// could send different writes with the same version, and a
		// replica holding one acknowledges the other as a retry).
		return kindDataBlob + "/" + strings.TrimSuffix(blobPrefix(id), "/"), true
	}
	return kind + "/" + id, true
}

// Everywhere reports the units every node holds: datasets (catalog entries
// and blobs), which are immutable once imported and read by whichever node
// serves a project.
func Everywhere(key string) bool {
	return strings.HasPrefix(key, kindDataset+"/") || strings.HasPrefix(key, kindDataBlob+"/")
}

// GrainRecords lists where a grain's records are, for snapshots.
func GrainRecords(key string) []persistence.Range {
	kind, id, _ := strings.Cut(key, "/")
	switch kind {
	case kindProject:
		return []persistence.Range{{Kind: kindProject, Prefix: id, Exact: true},
			{Kind: kindOverlay, Prefix: id + "/"}, {Kind: kindExpiry, Suffix: "/" + id}, {Kind: kindReply, Prefix: id + "/"},
			{Kind: kindSandbox, Prefix: id + "/"}, {Kind: kindSandboxRow, Prefix: id + "/"},
			{Kind: kindState, Prefix: id + "/"}, {Kind: kindStateRows, Prefix: id + "/"}}
	case kindDataBlob: // <code>/<blobID>
		return []persistence.Range{{Kind: kindDataBlob, Prefix: id + "/"}}
	}
	return []persistence.Range{{Kind: kind, Prefix: id, Exact: true}}
}

func before(s string, sep byte) string {
	if i := strings.IndexByte(s, sep); i >= 0 {
		return s[:i]
	}
	return s
}
