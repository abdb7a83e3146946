package openapi

import (
	"fmt"
	"strings"
	"testing"

	"github.com/mockgql/mockgql/model"
)

// TestImportPublicDocuments imports selected schemas of the public example
// documents: OpenAPI 3.0 YAML and Swagger 2.0 YAML with allOf.
func TestImportPublicDocuments(t *testing.T) {
	for _, tc := range []struct {
		name, file string
		schemas    []string
		want       map[string]string // table → attributes
	}{
		{"v3 Pet", "petstore-v3.0.yaml", []string{"Pet"}, map[string]string{"Pet": "id:ID! name:STRING! tag:STRING"}},
		{"v3 Pet and Error", "petstore-v3.0.yaml", []string{"Error", "Pet"},
			map[string]string{"Pet": "id:ID! name:STRING! tag:STRING", "Error": "code:INT! message:STRING!"}},
		{"v3 all objects", "petstore-v3.0.yaml", nil,
			map[string]string{"Pet": "id:ID! name:STRING! tag:STRING", "Error": "code:INT! message:STRING!"}},
		{"v2 allOf", "petstore-expanded-v2.0.yaml", []string{"Pet"}, map[string]string{"Pet": "id:ID! name:STRING! tag:STRING"}},
		{"v2 two", "petstore-expanded-v2.0.yaml", []string{"NewPet", "Pet"},
			map[string]string{"NewPet": "name:STRING! tag:STRING", "Pet": "id:ID! name:STRING! tag:STRING"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tables, err := Import(readPublicDoc(t, tc.file), tc.schemas, ImportOptions{})
			check(t, err)
			if len(tables) != len(tc.want) {
				t.Fatalf("got %d tables, want %d: %+v", len(tables), len(tc.want), tables)
			}
			for i, tb := range tables {
				if tc.schemas != nil && tb.Schema != tc.schemas[i] {
					t.Errorf("table %d is schema %s, want %s (selection order)", i, tb.Schema, tc.schemas[i])
				}
				if got := attrText(tb.Attributes); got != tc.want[tb.Name] {
					t.Errorf("%s: %s, want %s", tb.Name, got, tc.want[tb.Name])
				}
				for _, a := range tb.Attributes {
					if a.Mapping != model.MappingNone || a.TableID != "" || a.ID != "" {
						t.Errorf("%s.%s: not an unbound attribute: %+v", tb.Name, a.Name, a)
					}
				}
			}
		})
	}
}

// genDoc writes an OpenAPI 3.0 JSON document with n object schemas S0..Sn-1
// and a description padded to at least size bytes.
func genDoc(n, size int) []byte {
	var b strings.Builder
	b.WriteString(`{"openapi":"3.0.3","info":{"title":"gen","version":"1","description":"`)
	b.WriteString(strings.Repeat("x", max(0, size)))
	b.WriteString(`"},"paths":{},"components":{"schemas":{`)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `"S%d":{"type":"object","properties":{"id":{"type":"integer"},"name":{"type":"string"}}}`, i)
	}
	b.WriteString(`}}}`)
	return []byte(b.String())
}

// schemaNames returns S0..Sn-1.
func schemaNames(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("S%d", i)
	}
	return out
}

// TestImportRefusals checks that each refusal says what is wrong.
func TestImportRefusals(t *testing.T) {
	v3 := func(body string) []byte {
		return []byte(`{"openapi":"3.0.0","info":{"title":"t","version":"1"},"paths":{},"components":{"schemas":{` + body + `}}}`)
	}
	petstore := readPublicDoc(t, "petstore-v3.0.yaml")
	for _, tc := range []struct {
		name    string
		doc     []byte
		schemas []string
		code    model.Code
		says    []string
	}{
		{"too big", genDoc(1, 1<<20), []string{"S0"}, model.CodePayloadTooLarge, []string{"1 MB", "bytes"}},
		{"51 schemas", genDoc(51, 0), schemaNames(51), model.CodeBadUserInput, []string{"51 schemas", "at most 50"}},
		{"all of 51 schemas", genDoc(51, 0), nil, model.CodeBadUserInput, []string{"51 schemas", "select up to 50"}},
		{"OpenAPI 3.2", []byte("openapi: 3.2.0\ninfo: {title: t, version: '1'}\npaths: {}\n"), nil, model.CodeBadUserInput, []string{`"3.2.0"`, "not supported"}},
		{"OpenAPI 2.0 field", []byte(`{"openapi":"2.0"}`), nil, model.CodeBadUserInput, []string{`"2.0"`, "not supported"}},
		{"Swagger 1.2", []byte("swagger: '1.2'\n"), nil, model.CodeBadUserInput, []string{`Swagger version "1.2"`}},
		{"no version", []byte(`{"info":{}}`), nil, model.CodeBadUserInput, []string{"no openapi or swagger field"}},
		{"not an object", []byte(`- a list`), nil, model.CodeBadUserInput, []string{"not a JSON or YAML object"}},
		{"not YAML", []byte("openapi: [3.0\n"), nil, model.CodeBadUserInput, []string{"not a JSON or YAML object"}},
		{"unknown schema", genDoc(2, 0), []string{"S1", "Nope"}, model.CodeBadUserInput, []string{`schema "Nope" is not in the document`, "S0, S1"}},
		{"broken ref", v3(`"A":{"type":"object","properties":{"b":{"$ref":"#/components/schemas/Missing"}}}`), []string{"A"},
			model.CodeBadUserInput, []string{`broken $ref "#/components/schemas/Missing"`, "#/components/schemas/A/properties/b"}},
		{"broken ref elsewhere", []byte(`{"openapi":"3.1.0","info":{"title":"t","version":"1"},"paths":{"/a":{"get":{"responses":{"200":{"description":"d","content":{"application/json":{"schema":{"$ref":"#/components/schemas/Gone"}}}}}}}},"components":{"schemas":{"A":{"type":"object","properties":{"b":{"type":"string"}}}}}}`),
			[]string{"A"}, model.CodeBadUserInput, []string{`"#/components/schemas/Gone"`, "/paths/~1a/get"}},
		{"broken ref Swagger", []byte("swagger: '2.0'\ninfo: {title: t, version: '1'}\npaths: {}\ndefinitions:\n  A:\n    properties:\n      b: {$ref: '#/definitions/B'}\n"),
			[]string{"A"}, model.CodeBadUserInput, []string{`broken $ref "#/definitions/B"`}},
		{"external ref", v3(`"A":{"type":"object","properties":{"b":{"$ref":"other.yaml#/B"}}}`), []string{"A"},
			model.CodeBadUserInput, []string{`"other.yaml#/B"`, "outside the document"}},
		{"empty selection", genDoc(2, 0), []string{}, model.CodeBadUserInput, []string{"no schemas selected"}},
		{"array schema", petstore, []string{"Pets"}, model.CodeBadUserInput, []string{`schema "Pets" is an array`, "select Pet instead"}},
		{"oneOf schema", v3(`"A":{"type":"object","properties":{"x":{"type":"string"}}},"B":{"type":"object","properties":{"y":{"type":"string"}}},"U":{"oneOf":[{"$ref":"#/components/schemas/A"},{"$ref":"#/components/schemas/B"}]}`),
			[]string{"U"}, model.CodeBadUserInput, []string{"a oneOf of 2 schemas", "select A or B instead"}},
		{"string schema", v3(`"Name":{"type":"string"}`), []string{"Name"}, model.CodeBadUserInput, []string{"of type string"}},
		{"no schemas", []byte(`{"openapi":"3.0.0","info":{"title":"t","version":"1"},"paths":{}}`), nil, model.CodeBadUserInput, []string{"no schemas"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tables, err := Import(tc.doc, tc.schemas, ImportOptions{})
			if tables != nil {
				t.Errorf("tables returned with a refusal: %+v", tables)
			}
			wantCode(t, err, tc.code, tc.says...)
		})
	}
}

// TestImportLimits checks the edges of the size and count limits and that
// the options change them.
func TestImportLimits(t *testing.T) {
	doc := genDoc(50, 0)
	doc = genDoc(50, 1<<20-len(doc)) // exactly 1 MB
	if len(doc) != 1<<20 {
		t.Fatalf("generated %d bytes", len(doc))
	}
	tables, err := Import(doc, schemaNames(50), ImportOptions{})
	check(t, err)
	if len(tables) != 50 {
		t.Fatalf("got %d tables", len(tables))
	}
	_, err = Import(genDoc(3, 0), schemaNames(3), ImportOptions{MaxSchemas: 2})
	wantCode(t, err, model.CodeBadUserInput, "at most 2")
	_, err = Import(genDoc(1, 2000), nil, ImportOptions{MaxBytes: 1024})
	wantCode(t, err, model.CodePayloadTooLarge, "at most 1024 (1 KB)")
}

// shapesDoc exercises nesting, arrays, composition, 3.1 type arrays,
// cycles and names that are not GraphQL names.
const shapesDoc = `
openapi: 3.1.0
info: {title: shapes, version: "1"}
paths: {}
components:
  schemas:
    pet-store.Order:
      type: object
      required: [id, address]
      properties:
        id: {type: string, format: uuid}
        placed: {type: string, format: date-time}
        day: {type: string, format: date}
        total: {type: [number, "null"]}
        count: {type: integer}
        paid: {type: boolean}
        tags: {type: array, items: {type: string}}
        lines: {type: array, items: {$ref: "#/components/schemas/Line"}}
        status: {enum: [open, closed]}
        address:
          type: object
          required: [city]
          properties:
            city: {type: string}
            geo: {type: object, properties: {lat: {type: number}, lng: {type: number}}}
        customer: {$ref: "#/components/schemas/Customer"}
        note: {allOf: [{$ref: "#/components/schemas/Text"}], description: a note}
        amount: {oneOf: [{type: integer}, {type: "null"}]}
        either: {anyOf: [{type: string}, {type: integer}]}
        free: {type: object, additionalProperties: true}
        anything: {}
        first-name: {type: string}
        2fa: {type: boolean}
    Line: {type: object, properties: {sku: {type: string}}}
    Customer:
      allOf:
        - $ref: "#/components/schemas/Named"
        - type: object
          properties: {email: {type: string}}
    Named: {type: object, required: [name], properties: {name: {type: string}}}
    Text: {type: string}
    Node:
      type: object
      properties:
        label: {type: string}
        parent: {$ref: "#/components/schemas/Node"}
    Query: {type: object, properties: {q: {type: string}}}
    query: {type: object, properties: {q: {type: string}}}
`

// TestImportShapes checks how property shapes become attribute types.
func TestImportShapes(t *testing.T) {
	tables, err := Import([]byte(shapesDoc), []string{"pet-store.Order", "Customer", "Node", "Query", "query"}, ImportOptions{})
	check(t, err)
	want := map[string]string{
		"PetStoreOrder": "id:ID! _2fa:BOOLEAN addressCity:STRING! addressGeoLat:FLOAT addressGeoLng:FLOAT amount:INT anything:JSON " +
			"count:INT customerEmail:STRING customerName:STRING day:STRING either:JSON firstName:STRING free:JSON lines:JSON " +
			"note:STRING paid:BOOLEAN placed:DATETIME status:STRING tags:JSON total:FLOAT",
		"Customer":    "email:STRING name:STRING!",
		"Node":        "label:STRING parent:JSON",
		"QueryRecord": "q:STRING", "QueryRecord2": "q:STRING",
	}
	for _, tb := range tables {
		if got := attrText(tb.Attributes); got != want[tb.Name] {
			t.Errorf("%s (%s):\n got %s\nwant %s", tb.Name, tb.Schema, got, want[tb.Name])
		}
	}
	if len(tables) != len(want) {
		t.Errorf("got %d tables, want %d", len(tables), len(want))
	}
	paths := map[string]string{}
	for _, a := range tables[0].Attributes {
		paths[a.Name] = a.SourcePath
	}
	if paths["addressGeoLat"] != "address.geo.lat" || paths["firstName"] != "first-name" {
		t.Errorf("source paths: %v", paths)
	}
}

// TestImportedTablesFitTheModel adds imported tables to a project: names
// are valid and distinct, so the model accepts them all.
func TestImportedTablesFitTheModel(t *testing.T) {
	tables, err := Import([]byte(shapesDoc), nil, ImportOptions{})
	check(t, err)
	p := &model.Project{ID: "p"}
	for i, tb := range tables {
		id := fmt.Sprintf("t%d", i)
		check(t, p.AddTable(&model.Table{ID: id, Name: tb.Name}))
		for j, a := range tb.Attributes {
			a.ID, a.TableID = fmt.Sprintf("%s.a%d", id, j), id
			check(t, p.AddAttribute(&a))
		}
	}
}
