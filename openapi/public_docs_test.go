package openapi

import (
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/oasdiff/yaml"

	"github.com/mockgql/mockgql/internal/testdata"
)

// publicDocTables is what importing every object schema of each public
// example document gives (table → attributes). Every document in
// publicDocs must be listed here, so a document added there is exercised
// rather than silently ignored.
var publicDocTables = map[string]map[string]string{
	"petstore-v3.0.yaml": {
		"Error": "code:INT! message:STRING!",
		"Pet":   "id:ID! name:STRING! tag:STRING",
	},
	"petstore-expanded-v2.0.yaml": {
		"Error":  "code:INT! message:STRING!",
		"NewPet": "name:STRING! tag:STRING",
		"Pet":    "id:ID! name:STRING! tag:STRING",
	},
}

// TestImportEveryPublicDocument imports every object schema of every
// public example document as it is, as JSON, and (OpenAPI 3.0 documents)
// declared as OpenAPI 3.1, all converted in memory: the same tables each
// time. It fails when the directory holds a document it does not know.
func TestImportEveryPublicDocument(t *testing.T) {
	publicDocs := testdata.Dir(t, "openapi")
	entries, err := os.ReadDir(publicDocs)
	check(t, err)
	seen := map[string]bool{}
	for _, e := range entries {
		ext := filepath.Ext(e.Name())
		if e.IsDir() || (ext != ".yaml" && ext != ".yml" && ext != ".json") {
			continue
		}
		seen[e.Name()] = true
		want, ok := publicDocTables[e.Name()]
		if !ok {
			t.Errorf("%s: a public document no test imports; add its tables to publicDocTables", e.Name())
			continue
		}
		for variant, doc := range docVariants(t, readPublicDoc(t, e.Name())) {
			t.Run(e.Name()+"/"+variant, func(t *testing.T) {
				tables, err := Import(doc, nil, ImportOptions{})
				check(t, err)
				got := map[string]string{}
				for _, tb := range tables {
					got[tb.Name] = attrText(tb.Attributes)
				}
				if !maps.Equal(got, want) {
					t.Errorf("tables:\n got %v\nwant %v", got, want)
				}
			})
		}
	}
	for name := range publicDocTables {
		if !seen[name] {
			t.Errorf("publicDocTables names %s, which is not in %s", name, publicDocs)
		}
	}
}

// docVariants returns a document as it is, as JSON, and for OpenAPI 3.0
// also with its openapi field set to 3.1.0 (a 3.0 document without
// nullable is a valid 3.1 one).
func docVariants(t *testing.T, doc []byte) map[string][]byte {
	t.Helper()
	asJSON, err := yaml.YAMLToJSON(doc)
	check(t, err)
	out := map[string][]byte{"as is": doc, "JSON": asJSON}
	var raw map[string]any
	check(t, json.Unmarshal(asJSON, &raw))
	if v, _ := raw["openapi"].(string); strings.HasPrefix(v, "3.0") {
		raw["openapi"] = "3.1.0"
		b, err := json.Marshal(raw)
		check(t, err)
		out["OpenAPI 3.1 JSON"] = b
	}
	return out
}
