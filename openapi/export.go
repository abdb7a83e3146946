package openapi

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/oasdiff/yaml"

	"github.com/mockgql/mockgql/model"
)

// DefaultServer is the server address of an exported document when none is
// given: where the generated code package (model/codegen) listens.
const DefaultServer = "http://localhost:8080"

// errorSchema is the name of the error body schema. The dot keeps it apart
// from every table name, which is a GraphQL name.
const errorSchema = "mockgql.Error"

// Export writes p as an OpenAPI 3.1 document in format "json" (the default
// when empty) or "yaml": a schema per table (T, and TPage and TInput where
// an operation needs them) and a path per enabled operation. baseURL is
// the server the document names (DefaultServer when empty). Relations and
// COMPUTED attributes are left out, as in code packages. The output is
// deterministic (keys sorted), so exports diff cleanly in version control.
func Export(p *model.Project, format, baseURL string) ([]byte, error) {
	format = strings.ToLower(strings.TrimSpace(format))
	if format != "" && format != "json" && format != "yaml" {
		return nil, model.Errorf(model.CodeBadUserInput, "format %q: use json or yaml", format)
	}
	b, err := json.MarshalIndent(document(p, baseURL), "", "  ")
	if err != nil {
		return nil, fmt.Errorf("openapi: export of project %s: %w", p.ID, err)
	}
	if format == "yaml" {
		return yaml.JSONToYAML(b)
	}
	return append(b, '\n'), nil
}

// document builds the OpenAPI document of p.
func document(p *model.Project, baseURL string) *openapi3.T {
	if baseURL == "" {
		baseURL = DefaultServer
	}
	d := &openapi3.T{
		OpenAPI: "3.1.0",
		Info: &openapi3.Info{Title: cmpOr(p.Name, "mockgql project"), Version: strconv.FormatInt(p.Version, 10),
			Description: description(p)},
		Servers:    openapi3.Servers{{URL: baseURL}},
		Paths:      openapi3.NewPaths(),
		Components: &openapi3.Components{Schemas: openapi3.Schemas{errorSchema: {Value: errorBody()}}},
	}
	for _, t := range p.Tables {
		d.Tags = append(d.Tags, &openapi3.Tag{Name: t.Name, Description: "Table " + t.Name + "."})
		d.Components.Schemas[t.Name] = &openapi3.SchemaRef{Value: rowSchema(t)}
		ops := tableOperations(p, t)
		for _, o := range ops {
			switch o.Kind {
			case model.OpList:
				d.Components.Schemas[t.Name+"Page"] = &openapi3.SchemaRef{Value: pageSchema(t)}
			case model.OpCreate, model.OpUpdate:
				d.Components.Schemas[t.Name+"Input"] = &openapi3.SchemaRef{Value: inputSchema(t)}
			}
		}
		addPowerSchemas(d, t, ops)
		addPaths(d, t, ops)
		addEventWebhooks(d, t, ops)
	}
	return d
}

// description is info.description. A project without query power keeps
// the words of exports from before query power was exported, so that its
// export stays the same bytes.
func description(p *model.Project) string {
	s := "The model of mockgql project " + p.Slug + " as a REST API: a schema per table and a path per enabled " +
		"operation (its operationId is the GraphQL operation's name). info.version is the model version. "
	if hasPower(p) {
		return s + powerDescription
	}
	return s + "AGGREGATE operations and the opt-in GraphQL arguments of list operations (where, orderBy, Relay connections) do not translate and are left out."
}

func cmpOr(s, def string) string {
	if strings.TrimSpace(s) == "" {
		return def
	}
	return s
}

// errorBody is the schema of a refusal.
func errorBody() *openapi3.Schema {
	s := openapi3.NewObjectSchema()
	s.Description = "A refusal: a code to branch on and a message."
	s.Properties = openapi3.Schemas{
		"code":    {Value: openapi3.NewStringSchema()},
		"message": {Value: openapi3.NewStringSchema()},
	}
	s.Required = []string{"code", "message"}
	return s
}

// rowSchema is a table's record: id (always there, as in the runtime
// schema) and one property per attribute that is not COMPUTED.
func rowSchema(t *model.Table) *openapi3.Schema {
	s := openapi3.NewObjectSchema()
	s.Description = "A row of table " + t.Name + "."
	s.Properties = openapi3.Schemas{}
	s.Required = []string{"id"}
	if t.Attribute("id") == nil {
		id := openapi3.NewStringSchema()
		id.Description = "The row's id: its record's id or _id field, else its position."
		id.Extensions = map[string]any{implicitExtension: true}
		s.Properties["id"] = &openapi3.SchemaRef{Value: id}
	}
	for _, a := range t.Attributes {
		if a.Mapping == model.MappingComputed {
			continue
		}
		s.Properties[a.Name] = &openapi3.SchemaRef{Value: attributeSchema(a)}
		if a.Required && a.Name != "id" {
			s.Required = append(s.Required, a.Name)
		}
	}
	return s
}

// inputSchema is the body of create and update: the attributes that take
// input (not CONSTANT, not COMPUTED), all optional; null clears a value.
func inputSchema(t *model.Table) *openapi3.Schema {
	s := openapi3.NewObjectSchema()
	s.Description = "Field values of a " + t.Name + " row. Omitted fields are left as they are (update) or get their mapped value (create)."
	s.Properties = openapi3.Schemas{}
	for _, a := range t.Attributes {
		if a.Mapping != model.MappingComputed && a.Mapping != model.MappingConstant {
			s.Properties[a.Name] = &openapi3.SchemaRef{Value: attributeSchema(a)}
		}
	}
	return s
}

// pageSchema is the answer of a list operation.
func pageSchema(t *model.Table) *openapi3.Schema {
	s := openapi3.NewObjectSchema()
	s.Description = "One page of " + t.Name + " rows."
	s.Properties = openapi3.Schemas{
		"items":    {Value: &openapi3.Schema{Type: &openapi3.Types{openapi3.TypeArray}, Items: schemaRef(t.Name)}},
		"total":    {Value: withDescription(openapi3.NewIntegerSchema(), "Number of matching rows before paging.")},
		"page":     {Value: withDescription(openapi3.NewIntegerSchema(), "The page served (1-based).")},
		"pageSize": {Value: withDescription(openapi3.NewIntegerSchema(), "The page size served.")},
	}
	s.Required = []string{"items", "total", "page", "pageSize"}
	return s
}

// attributeSchema is the JSON Schema of an attribute's values. Values may
// be null (the runtime's fields are nullable) but for the id attribute.
// typeExtension keeps the exact type where JSON Schema cannot: ID, and
// the type of the id attribute, which is always a string in the API.
func attributeSchema(a *model.Attribute) *openapi3.Schema {
	s := valueSchema(a.Type)
	s.Description = fmt.Sprintf("%s (%s).", a.Name, a.Type)
	if a.Name == "id" {
		s = openapi3.NewStringSchema()
		s.Description = "The row's id (attribute id, " + string(a.Type) + ")."
	} else if !s.Type.IsEmpty() {
		s.Type = &openapi3.Types{s.Type.Slice()[0], openapi3.TypeNull}
	}
	if a.Type == model.TypeID || a.Name == "id" {
		s.Extensions = map[string]any{typeExtension: string(a.Type)}
	}
	return s
}

// valueSchema is the JSON Schema of a scalar type; JSON is any value.
func valueSchema(t model.ScalarType) *openapi3.Schema {
	switch t {
	case model.TypeInt:
		return openapi3.NewInt64Schema()
	case model.TypeFloat:
		return openapi3.NewFloat64Schema()
	case model.TypeBoolean:
		return openapi3.NewBoolSchema()
	case model.TypeDateTime:
		return openapi3.NewDateTimeSchema()
	case model.TypeJSON:
		return &openapi3.Schema{}
	}
	return openapi3.NewStringSchema() // ID, STRING
}

func withDescription(s *openapi3.Schema, d string) *openapi3.Schema {
	s.Description = d
	return s
}

// schemaRef refers to a component schema.
func schemaRef(name string) *openapi3.SchemaRef {
	return openapi3.NewSchemaRef("#/components/schemas/"+name, nil)
}
