package openapi

import (
	"slices"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/mockgql/mockgql/model"
)

// Schema is one schema a document offers for import.
type Schema struct {
	Name string
	// Object is true for schemas that become tables (objects, or allOf
	// compositions); others are refused by Import.
	Object bool
	// Properties counts the top-level properties.
	Properties int
}

// Schemas lists the schemas of a document (components.schemas, or
// definitions in Swagger 2.0) in name order, for a user to choose from
// before Import. It refuses what Import refuses about the document itself.
func Schemas(doc []byte, opt ImportOptions) (out []Schema, err error) {
	defer func() {
		if r := recover(); r != nil {
			out, err = nil, model.Errorf(model.CodeBadUserInput, "the document could not be read (%v)", r)
		}
	}()
	opt = opt.withDefaults()
	if len(doc) > opt.MaxBytes {
		_, err := Import(doc, nil, opt) // the same refusal, worded once
		return nil, err
	}
	d, err := load(doc)
	if err != nil {
		return nil, err
	}
	if d.Components == nil {
		return []Schema{}, nil
	}
	for name, ref := range d.Components.Schemas {
		out = append(out, schemaInfo(name, ref))
	}
	slices.SortFunc(out, func(a, b Schema) int {
		switch {
		case a.Name < b.Name:
			return -1
		case a.Name > b.Name:
			return 1
		}
		return 0
	})
	return out, nil
}

func schemaInfo(name string, ref *openapi3.SchemaRef) Schema {
	s := Schema{Name: name}
	if ref == nil || ref.Value == nil {
		return s
	}
	v := ref.Value
	s.Properties = len(v.Properties)
	s.Object = v.Type.Is("object") || len(v.Properties) > 0 || len(v.AllOf) > 0
	return s
}
