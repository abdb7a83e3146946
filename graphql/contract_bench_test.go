package graphql

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/mockgql/mockgql/contract"
	"github.com/mockgql/mockgql/model"
)

// wideSchema is an SDL of n entity types of fields scalar fields each,
// every type linked to the next, with a list root field per type.
func wideSchema(n, fields int) string {
	var b strings.Builder
	b.WriteString("type Query {\n")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "  items%d(limit: Int, offset: Int, name: String): [Item%d!]!\n", i, i)
	}
	b.WriteString("}\n")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "type Item%d {\n  id: ID!\n  name: String!\n  email: String\n  price: Float!\n  createdAt: String!\n", i)
		for f := 0; f < fields; f++ {
			fmt.Fprintf(&b, "  field%d: Int\n", f)
		}
		if i+1 < n {
			fmt.Fprintf(&b, "  next: Item%d\n", i+1)
		}
		b.WriteString("}\n")
	}
	return b.String()
}

// BenchmarkContractCompile measures compiling the largest contracts the
// bounds allow (docs/reference/bounds.md): rows at the project's bound
// (10 types of 10,000 rows), and a 1 MB document of many types at the
// default row count.
func BenchmarkContractCompile(b *testing.B) {
	cases := []struct {
		name          string
		types, fields int
		rows          int
	}{
		{"rows-bound", 10, 20, model.MaxContractTableRows},
		{"one-table", 1, 20, model.MaxContractTableRows},
		{"document-bound", 1500, 20, model.DefaultContractRows},
	}
	for _, c := range cases {
		doc := wideSchema(c.types, c.fields)
		if len(doc) > contract.MaxDocumentBytes {
			b.Fatalf("%s: the document has %d bytes", c.name, len(doc))
		}
		p := &model.Project{ID: "pbench"}
		if _, err := contract.Apply(p, []byte(doc), time.Now()); err != nil {
			b.Fatal(err)
		}
		for i := 0; i < c.types; i++ {
			p.Contract.Tables = append(p.Contract.Tables, model.ContractTable{Type: fmt.Sprintf("Item%d", i), Rows: c.rows})
		}
		b.Run(fmt.Sprintf("%s/%dKB", c.name, len(doc)>>10), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				rtCompile(b, p, Options{})
			}
		})
	}
}
