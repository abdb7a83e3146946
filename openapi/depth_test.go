package openapi

import (
	"strings"
	"testing"

	"github.com/mockgql/mockgql/model"
)

// nestedDoc is a document whose one schema nests levels objects deep,
// in JSON, YAML flow style or (block) YAML block style.
func nestedDoc(levels int, style string) []byte {
	var b strings.Builder
	if style == "block" {
		b.WriteString("openapi: 3.0.3\ninfo: {title: deep, version: \"1\"}\npaths: {}\ncomponents:\n  schemas:\n    Deep:\n")
		ind := "      "
		for range levels {
			b.WriteString(ind + "type: object\n" + ind + "properties:\n" + ind + "  a:\n")
			ind += "    "
		}
		b.WriteString(ind + "type: string\n")
		return []byte(b.String())
	}
	open, str := `{"type":"object","properties":{"a":`, `{"type":"string"}`
	b.WriteString(`{"openapi":"3.0.3","info":{"title":"deep","version":"1"},"paths":{},"components":{"schemas":{"Deep":`)
	if style == "flow" {
		open, str = `{type: object, properties: {a: `, `{type: string}`
		b.Reset()
		b.WriteString(`{openapi: 3.0.3, info: {title: deep, version: "1"}, paths: {}, components: {schemas: {Deep: `)
	}
	for range levels {
		b.WriteString(open)
	}
	b.WriteString(str)
	b.WriteString(strings.Repeat("}}", levels))
	b.WriteString(`}}}`)
	return []byte(b.String())
}

// TestImportBoundsNesting: a document nested 4,000+ levels deep is refused
// at once with BAD_USER_INPUT naming the limit (it used to take 18.6 s and
// 0.8 GB at 4,000 levels, and to answer UNAVAILABLE at 4,990); a nesting
// within the limit still imports.
func TestImportBoundsNesting(t *testing.T) {
	for _, style := range []string{"json", "flow"} {
		for _, levels := range []int{4000, 5000} {
			_, err := Import(nestedDoc(levels, style), nil, ImportOptions{})
			wantCode(t, err, model.CodeBadUserInput, "nests deeper than 128 levels")
		}
	}
	// Block style: indentation grows with each level, so 1 MB holds some
	// 350 levels; the decoded document's nesting is checked.
	doc := nestedDoc(340, "block")
	if len(doc) > DefaultMaxBytes {
		t.Fatalf("block document of %d bytes", len(doc))
	}
	_, err := Import(doc, nil, ImportOptions{})
	wantCode(t, err, model.CodeBadUserInput, "nests deeper than 128 levels")
	for _, style := range []string{"json", "flow", "block"} {
		tables, err := Import(nestedDoc(20, style), nil, ImportOptions{})
		check(t, err)
		if len(tables) != 1 || len(tables[0].Attributes) != 1 {
			t.Fatalf("20 levels of %s: %+v", style, tables)
		}
	}
}

// TestImportBoundsWork: a wide document within the size limit whose
// nodes exceed the node budget is refused, naming it.
func TestImportBoundsWork(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"openapi":"3.0.3","info":{"title":"wide","version":"1"},"paths":{},"components":{"schemas":{"W":{"type":"object","properties":{"a":{"enum":[`)
	for i := range maxDocNodes + 1 {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString("0")
	}
	b.WriteString(`]}}}}}}`)
	_, err := Import([]byte(b.String()), nil, ImportOptions{})
	wantCode(t, err, model.CodeBadUserInput, "values")
}
