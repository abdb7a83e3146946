// Package openapi brings a model in from an OpenAPI contract and takes it
// out as one (docs/using/import-export.md).
//
// Import reads OpenAPI 3.0, 3.1 and Swagger 2.0 documents, JSON or YAML,
// with github.com/getkin/kin-openapi (Swagger 2.0 through its openapi2conv
// conversion), and turns the selected component schemas into unbound
// tables: one attribute per property, nested objects flattened into dot
// paths. Export writes an OpenAPI 3.1 document of a project: a schema per
// table and a path per enabled operation, in the REST shape the generated
// code package (model/codegen) serves, with the query power of the
// operations that opt in as query parameters and paths (export_power.go).
// The two round-trip: importing an export's table schemas gives the same
// tables.
//
//	tables, err := openapi.Import(doc, []string{"Pet"}, openapi.ImportOptions{})
//	if err != nil { /* a *model.Error: BAD_USER_INPUT or PAYLOAD_TOO_LARGE saying what */ }
//	spec, err := openapi.Export(project, "yaml", "")
//
// Every function is pure and safe for concurrent use.
package openapi
