package actors

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/mockgql/mockgql/model"
)

// TestStoredContractCompressed: a project serving a large schema is
// stored with its document compressed, reads back whole, and the states
// an edit makes from it reuse the compressed bytes; a small document and
// a record of the plain form read as before.
func TestStoredContractCompressed(t *testing.T) {
	t.Parallel()
	doc := "type Query { a: Int }\n" + strings.Repeat("\"\"\"A documented shelf of books.\"\"\"\nenum E { A B C }\n", 30_000)
	st := &projectState{Project: &model.Project{ID: "p1", Name: "Big", Contract: &model.Contract{Document: doc, Version: 1}}}
	b, err := json.Marshal(st)
	if err != nil {
		t.Fatal(err)
	}
	if len(b) > len(doc)/20 || bytes.Contains(b, []byte("documented shelf")) {
		t.Fatalf("a %d-byte document stored in %d bytes, or in the clear", len(doc), len(b))
	}
	var back projectState
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if back.Project.Contract.Document != doc || back.Project.Name != "Big" {
		t.Fatalf("read back: a document of %d bytes, name %q", len(back.Project.Contract.Document), back.Project.Name)
	}
	next := back // an edit's copy: the same document, another model
	next.Project = back.Project.Clone()
	next.Project.Name = "Renamed"
	again, err := json.Marshal(&next)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(again, []byte(`"Renamed"`)) || len(again) != len(b)+len("Renamed")-len("Big") {
		t.Errorf("the edited state: %d bytes (was %d)", len(again), len(b))
	}
	if next.pack == nil || &next.pack.gz[0] != &back.pack.gz[0] {
		t.Errorf("the edit compressed the document again")
	}

	for _, rec := range []string{
		`{"project":{"id":"p2","contract":{"document":"type Query { a: Int }","version":1}},"calls":{}}`,
	} {
		var old projectState
		if err := json.Unmarshal([]byte(rec), &old); err != nil || old.Project.Contract.Document != "type Query { a: Int }" {
			t.Errorf("a plain record: %v %+v", err, old.Project)
		}
		if b, _ := json.Marshal(&old); !bytes.Contains(b, []byte(`"document":"type Query { a: Int }"`)) {
			t.Errorf("a small document is not kept plain: %s", b)
		}
	}
}
