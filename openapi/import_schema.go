package openapi

import (
	"slices"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/mockgql/mockgql/model"
)

// How schemas become attributes.
const (
	// maxNesting is how many levels of nested objects are flattened into
	// dot paths; a deeper object becomes one JSON attribute.
	maxNesting = 4
	// maxAttributes is the most attributes one schema may give.
	maxAttributes = 500
	// maxComposition bounds allOf/oneOf recursion (a cycle ends there).
	maxComposition = 16
	// typeExtension on a property names the attribute type exactly (Export
	// writes it where the JSON Schema type is ambiguous, e.g. ID).
	typeExtension = "x-mockgql-type"
	// implicitExtension marks the id property Export adds for a table
	// without an id attribute; Import skips it.
	implicitExtension = "x-mockgql-implicit"
)

// buildTables makes a table of each named component schema. With all set
// (nothing was selected) schemas that are not objects are left out.
func buildTables(d *openapi3.T, names []string, all bool) ([]ImportedTable, error) {
	used := map[string]bool{}
	out := make([]ImportedTable, 0, len(names))
	for _, n := range names {
		attrs, err := tableAttributes(n, d.Components.Schemas[n])
		if err != nil && all {
			continue
		}
		if err != nil {
			return nil, err
		}
		out = append(out, ImportedTable{Schema: n, Name: unique(typeName(n), used), Attributes: attrs})
	}
	if len(out) == 0 {
		return nil, model.Errorf(model.CodeBadUserInput, "none of the document's schemas is an object with properties; nothing to import")
	}
	return out, nil
}

// tableAttributes flattens one selected schema, which must be an object.
func tableAttributes(name string, ref *openapi3.SchemaRef) ([]model.Attribute, error) {
	if ref == nil || ref.Value == nil {
		return nil, model.Errorf(model.CodeBadUserInput, "schema %q is empty", name)
	}
	obj, ok := objectOf(ref.Value, 0)
	if !ok || len(obj.props) == 0 {
		return nil, model.Errorf(model.CodeBadUserInput, "schema %q is %s, not an object with properties, so it cannot be a table%s",
			name, describe(ref.Value), hint(ref.Value))
	}
	f := &flattener{names: map[string]bool{}, seen: map[*openapi3.Schema]bool{ref.Value: true}}
	f.object(obj, nil, true, 0)
	switch {
	case len(f.attrs) == 0:
		return nil, model.Errorf(model.CodeBadUserInput, "schema %q has no properties to make attributes of", name)
	case len(f.attrs) > maxAttributes:
		return nil, model.Errorf(model.CodeBadUserInput, "schema %q gives %d attributes with its nested objects; a table takes at most %d", name, len(f.attrs), maxAttributes)
	}
	return f.attrs, nil
}

// object is a schema's properties with those of its allOf parts merged.
type object struct {
	props    map[string]*openapi3.SchemaRef
	required map[string]bool
}

// objectOf merges s and its allOf parts; ok is false when none of them
// describes an object (type object or properties).
func objectOf(s *openapi3.Schema, depth int) (o object, ok bool) {
	o = object{props: map[string]*openapi3.SchemaRef{}, required: map[string]bool{}}
	if depth > maxComposition {
		return o, false
	}
	ok = s.Type.Includes(openapi3.TypeObject) || len(s.Properties) > 0
	for _, part := range s.AllOf {
		if part == nil || part.Value == nil {
			continue
		}
		po, pok := objectOf(part.Value, depth+1)
		ok = ok || pok
		for k, v := range po.props {
			o.props[k] = v
		}
		for k := range po.required {
			o.required[k] = true
		}
	}
	for k, v := range s.Properties {
		o.props[k] = v
	}
	for _, k := range s.Required {
		o.required[k] = true
	}
	return o, ok
}

// flattener collects the attributes of one table.
type flattener struct {
	attrs []model.Attribute
	names map[string]bool
	// seen are the schemas being flattened, so a $ref cycle stops as JSON.
	seen map[*openapi3.Schema]bool
}

// object adds o's properties under path; required says whether the
// enclosing object is required all the way up.
func (f *flattener) object(o object, path []string, required bool, depth int) {
	for _, name := range propertyOrder(o.props) {
		s := o.props[name].Value
		p := append(slices.Clone(path), name)
		req := required && o.required[name]
		if s == nil {
			f.add(p, model.TypeJSON, req)
			continue
		}
		if len(path) == 0 && s.Extensions[implicitExtension] == true {
			continue
		}
		if nested, ok := objectOf(s, 0); ok && len(nested.props) > 0 && depth < maxNesting && !f.seen[s] && s.Extensions[typeExtension] == nil {
			f.seen[s] = true
			f.object(nested, p, req, depth+1)
			delete(f.seen, s)
			continue
		}
		f.add(p, scalarType(s, 0), req)
	}
}

// add appends the attribute of a property path. A top-level id becomes ID
// unless the schema says otherwise: it is every runtime type's id.
func (f *flattener) add(path []string, t model.ScalarType, required bool) {
	if len(path) == 1 && path[0] == "id" && (t == model.TypeString || t == model.TypeInt) {
		t = model.TypeID
	}
	f.attrs = append(f.attrs, model.Attribute{
		Name: unique(attributeName(path), f.names), Type: t, Required: required,
		Mapping: model.MappingNone, SourcePath: strings.Join(path, "."),
	})
}

// propertyOrder sorts property names, id first (kin-openapi keeps
// properties in a map, so the document's order is not known).
func propertyOrder(props map[string]*openapi3.SchemaRef) []string {
	names := make([]string, 0, len(props))
	for k := range props {
		names = append(names, k)
	}
	slices.SortFunc(names, func(a, b string) int {
		switch {
		case a == b:
			return 0
		case a == "id":
			return -1
		case b == "id":
			return 1
		}
		return strings.Compare(a, b)
	})
	return names
}

// scalarType is the attribute type of a property that is not flattened.
func scalarType(s *openapi3.Schema, depth int) model.ScalarType {
	if t, ok := s.Extensions[typeExtension].(string); ok && model.ScalarType(t).Valid() {
		return model.ScalarType(t)
	}
	if depth > maxComposition {
		return model.TypeJSON
	}
	if len(s.AllOf) == 1 && s.Type.IsEmpty() && s.AllOf[0].Value != nil {
		return scalarType(s.AllOf[0].Value, depth+1)
	}
	if alts := slices.Concat(s.OneOf, s.AnyOf); len(alts) > 0 {
		return commonType(alts, depth)
	}
	types := slices.DeleteFunc(slices.Clone(s.Type.Slice()), func(t string) bool { return t == openapi3.TypeNull })
	if len(types) != 1 {
		if len(types) == 0 && len(s.Enum) > 0 && allStrings(s.Enum) {
			return model.TypeString
		}
		return model.TypeJSON
	}
	return jsonSchemaType(types[0], s.Format)
}

// jsonSchemaType maps a JSON Schema type (and format) to an attribute type.
func jsonSchemaType(t, format string) model.ScalarType {
	switch t {
	case openapi3.TypeString:
		if format == "date-time" {
			return model.TypeDateTime
		}
		return model.TypeString
	case openapi3.TypeInteger:
		return model.TypeInt
	case openapi3.TypeNumber:
		return model.TypeFloat
	case openapi3.TypeBoolean:
		return model.TypeBoolean
	}
	return model.TypeJSON // array, object, anything else
}

// commonType is the type of a oneOf/anyOf: the alternatives' type if they
// share one (null alternatives aside), else JSON.
func commonType(alts openapi3.SchemaRefs, depth int) model.ScalarType {
	var common model.ScalarType
	for _, a := range alts {
		if a == nil || a.Value == nil {
			return model.TypeJSON
		}
		if a.Value.Type.Is(openapi3.TypeNull) {
			continue
		}
		t := scalarType(a.Value, depth+1)
		if common != "" && t != common {
			return model.TypeJSON
		}
		common = t
	}
	if common == "" {
		return model.TypeJSON
	}
	return common
}

func allStrings(vs []any) bool {
	for _, v := range vs {
		if _, ok := v.(string); !ok {
			return false
		}
	}
	return true
}

// describe says what a schema that is not an object is, for a refusal.
func describe(s *openapi3.Schema) string {
	switch {
	case len(s.OneOf) > 0:
		return "a oneOf of " + itoa(len(s.OneOf)) + " schemas"
	case len(s.AnyOf) > 0:
		return "an anyOf of " + itoa(len(s.AnyOf)) + " schemas"
	case s.Type.Includes(openapi3.TypeArray):
		return "an array"
	case s.Type.IsEmpty():
		return "a schema without type or properties"
	}
	return "of type " + strings.Join(s.Type.Slice(), " or ")
}

// hint suggests what to select instead of a schema that is not an object.
func hint(s *openapi3.Schema) string {
	var refs []string
	if s.Items != nil && s.Items.Ref != "" {
		refs = append(refs, refName(s.Items.Ref))
	}
	for _, a := range slices.Concat(s.OneOf, s.AnyOf) {
		if a != nil && a.Ref != "" {
			refs = append(refs, refName(a.Ref))
		}
	}
	if len(refs) == 0 {
		return ""
	}
	return "; select " + strings.Join(refs, " or ") + " instead"
}

// refName is the last segment of a $ref ("#/components/schemas/Pet" → "Pet").
func refName(ref string) string { return ref[strings.LastIndex(ref, "/")+1:] }
