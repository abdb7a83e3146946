package openapi

import (
	"testing"

	"github.com/mockgql/mockgql/model"
)

// FuzzImport feeds Import arbitrary documents: it must never panic, refuse
// only with BAD_USER_INPUT or PAYLOAD_TOO_LARGE, and otherwise return
// tables whose names the model accepts. The seeds are generated documents
// and the public examples.
func FuzzImport(f *testing.F) {
	export, err := Export(fixtureProject(f), "yaml", "")
	check(f, err)
	seeds := [][]byte{genDoc(3, 0), []byte(shapesDoc), export,
		[]byte("swagger: '2.0'\ninfo: {title: t, version: '1'}\npaths: {}\ndefinitions:\n  A: {properties: {b: {$ref: '#/definitions/B'}}}\n  B: {type: object, properties: {c: {type: integer}}}\n"),
		[]byte(`{"openapi":"3.1.0","info":{"title":"t","version":"1"},"components":{"schemas":{"A":{"allOf":[{"$ref":"#/components/schemas/A"}]}}}}`),
	}
	for _, name := range []string{"petstore-v3.0.yaml", "petstore-expanded-v2.0.yaml"} {
		seeds = append(seeds, readPublicDoc(f, name))
	}
	for _, s := range seeds {
		f.Add(s, "")
		f.Add(s, "A")
	}
	f.Fuzz(func(t *testing.T, doc []byte, schema string) {
		var sel []string
		if schema != "" {
			sel = []string{schema}
		}
		tables, err := Import(doc, sel, ImportOptions{MaxBytes: 64 << 10})
		if err != nil {
			if c := model.ErrorCode(err); c != model.CodeBadUserInput && c != model.CodePayloadTooLarge {
				t.Fatalf("refusal with code %s: %v", c, err)
			}
			return
		}
		checkImported(t, tables)
	})
}

// checkImported checks that tables would be accepted by the model.
func checkImported(t *testing.T, tables []ImportedTable) {
	names := map[string]bool{}
	for _, tb := range tables {
		if !model.ValidName(tb.Name) || model.ReservedTypeName(tb.Name) || names[tb.Name] {
			t.Fatalf("bad or repeated table name %q", tb.Name)
		}
		names[tb.Name] = true
		attrs := map[string]bool{}
		for _, a := range tb.Attributes {
			if !model.ValidName(a.Name) || attrs[a.Name] || !a.Type.Valid() {
				t.Fatalf("table %s: bad attribute %+v", tb.Name, a)
			}
			attrs[a.Name] = true
		}
	}
}
