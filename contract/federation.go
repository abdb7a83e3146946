package contract

import (
	"slices"
	"strings"

	"github.com/vektah/gqlparser/v2/ast"
)

// Apollo Federation subgraphs (docs/using/contract.md, "Federation"). A
// subgraph's SDL uses directives that the router, not the document,
// defines (@link, @key, @shareable, …) and, in Federation 1, extends types
// that another subgraph owns. Parse serves such a document as it is: the
// definitions the document uses and lacks come from a second source,
// federationSource, so that line numbers and the served SDL stay the
// document's; and a subgraph with entities gets the fields a router asks
// of it, _service { sdl } and _entities(representations:), served by
// shapes of their own.

// federationSourceName names the second source; a definition from it is
// not the document's.
const federationSourceName = "federation.graphql"

// federationDirectives are the directive definitions of Federation 1 and 2
// (as the federation spec's subgraph definitions give them), by name.
var federationDirectives = map[string]string{
	"link":             `directive @link(url: String!, as: String, for: link__Purpose, import: [link__Import]) repeatable on SCHEMA`,
	"key":              `directive @key(fields: FieldSet!, resolvable: Boolean = true) repeatable on OBJECT | INTERFACE`,
	"requires":         `directive @requires(fields: FieldSet!) on FIELD_DEFINITION`,
	"provides":         `directive @provides(fields: FieldSet!) on FIELD_DEFINITION`,
	"external":         `directive @external(reason: String) on OBJECT | FIELD_DEFINITION`,
	"shareable":        `directive @shareable repeatable on OBJECT | FIELD_DEFINITION`,
	"inaccessible":     `directive @inaccessible on FIELD_DEFINITION | OBJECT | INTERFACE | UNION | ARGUMENT_DEFINITION | SCALAR | ENUM | ENUM_VALUE | INPUT_OBJECT | INPUT_FIELD_DEFINITION`,
	"tag":              `directive @tag(name: String!) repeatable on FIELD_DEFINITION | OBJECT | INTERFACE | UNION | ARGUMENT_DEFINITION | SCALAR | ENUM | ENUM_VALUE | INPUT_OBJECT | INPUT_FIELD_DEFINITION | SCHEMA`,
	"override":         `directive @override(from: String!, label: String) on FIELD_DEFINITION`,
	"extends":          `directive @extends on OBJECT | INTERFACE`,
	"composeDirective": `directive @composeDirective(name: String!) repeatable on SCHEMA`,
	"interfaceObject":  `directive @interfaceObject on OBJECT`,
	"authenticated":    `directive @authenticated on FIELD_DEFINITION | OBJECT | INTERFACE | SCALAR | ENUM`,
	"requiresScopes":   `directive @requiresScopes(scopes: [[federation__Scope!]!]!) on FIELD_DEFINITION | OBJECT | INTERFACE | SCALAR | ENUM`,
	"policy":           `directive @policy(policies: [[federation__Policy!]!]!) on FIELD_DEFINITION | OBJECT | INTERFACE | SCALAR | ENUM`,
	"cost":             `directive @cost(weight: Int!) on ARGUMENT_DEFINITION | ENUM | FIELD_DEFINITION | INPUT_FIELD_DEFINITION | OBJECT | SCALAR`,
	"listSize":         `directive @listSize(assumedSize: Int, slicingArguments: [String!], sizedFields: [String!], requireOneSlicingArgument: Boolean = true) on FIELD_DEFINITION`,
}

// federationTypes are the types those definitions name.
var federationTypes = map[string]string{
	"FieldSet":           `scalar FieldSet`,
	"link__Import":       `scalar link__Import`,
	"link__Purpose":      `enum link__Purpose { SECURITY EXECUTION }`,
	"federation__Scope":  `scalar federation__Scope`,
	"federation__Policy": `scalar federation__Policy`,
}

// federationSource answers the definitions sdl uses as a subgraph and
// lacks: the federation directives it uses, the types they name, empty
// bases for the types it only extends (Federation 1's extend type Query
// and extend type Product @key(…)), and, when a type has @key, _Any,
// _Service, _Entity and the root fields _service and _entities. nil for a
// document that uses none (it parses as before), or that does not parse
// (LoadSchema then reports where). doc is the subgraph's parsed document.
func federationSource(doc *ast.SchemaDocument) *ast.Source {
	defined := map[string]bool{}
	types := map[string]bool{}
	for _, d := range doc.Directives {
		defined[d.Name] = true
	}
	for _, d := range doc.Definitions {
		types[d.Name] = true
	}
	used := map[string]bool{}
	var keyed []string
	note := func(ds ast.DirectiveList) {
		for _, d := range ds {
			used[d.Name] = true
		}
	}
	scan := func(d *ast.Definition) {
		note(d.Directives)
		for _, f := range d.Fields {
			note(f.Directives)
			for _, a := range f.Arguments {
				note(a.Directives)
			}
		}
		for _, v := range d.EnumValues {
			note(v.Directives)
		}
		if d.Kind == ast.Object && keyedType(d.Directives) && !slices.Contains(keyed, d.Name) {
			keyed = append(keyed, d.Name)
		}
	}
	for _, d := range doc.Definitions {
		scan(d)
	}
	for _, d := range doc.Extensions {
		scan(d)
	}
	for _, s := range append(doc.Schema, doc.SchemaExtension...) {
		note(s.Directives)
	}

	var b strings.Builder
	needTypes := map[string]bool{}
	names := make([]string, 0, len(used))
	for name := range used {
		names = append(names, name)
	}
	slices.Sort(names) // the same source, so the same schema, each time
	for _, name := range names {
		def, ok := federationDirectives[name]
		if !ok || defined[name] {
			continue
		}
		b.WriteString(def + "\n")
		for t := range federationTypes {
			if strings.Contains(def, t) {
				needTypes[t] = true
			}
		}
	}
	for _, t := range []string{"FieldSet", "link__Import", "link__Purpose", "federation__Scope", "federation__Policy"} {
		if needTypes[t] && !types[t] {
			b.WriteString(federationTypes[t] + "\n")
		}
	}
	if b.Len() == 0 && len(keyed) == 0 {
		return nil
	}
	// Federation 1: a type the subgraph only extends is owned elsewhere;
	// here it is the subgraph's own (its fields come from the extension).
	for _, d := range doc.Extensions {
		if !types[d.Name] && d.Kind != "" {
			types[d.Name] = true
			b.WriteString(string(kindKeyword(d.Kind)) + " " + d.Name + "\n")
		}
	}
	if len(keyed) > 0 {
		query := "Query"
		for _, s := range append(doc.Schema, doc.SchemaExtension...) {
			for _, op := range s.OperationTypes {
				if op.Operation == ast.Query {
					query = op.Type
				}
			}
		}
		if !types["_Any"] {
			b.WriteString("scalar _Any\n")
		}
		if !types["_Service"] {
			b.WriteString("type _Service { sdl: String }\n")
		}
		if !types["_Entity"] {
			slices.Sort(keyed)
			b.WriteString("union _Entity = " + strings.Join(keyed, " | ") + "\n")
		}
		var roots []string
		if !hasField(doc, query, "_service") {
			roots = append(roots, "_service: _Service!")
		}
		if !hasField(doc, query, "_entities") {
			roots = append(roots, "_entities(representations: [_Any!]!): [_Entity]!")
		}
		if len(roots) > 0 {
			if !types[query] {
				b.WriteString("type " + query + "\n")
			}
			b.WriteString("extend type " + query + " {\n  " + strings.Join(roots, "\n  ") + "\n}\n")
		}
	}
	return &ast.Source{Name: federationSourceName, Input: b.String()}
}

// keyedType reports whether ds hold a @key a router may resolve
// (resolvable: false marks a stub that only references the entity).
func keyedType(ds ast.DirectiveList) bool {
	for _, d := range ds.ForNames("key") {
		if a := d.Arguments.ForName("resolvable"); a == nil || a.Value == nil || a.Value.Raw != "false" {
			return true
		}
	}
	return false
}

// hasField reports whether doc defines or extends the type typ with the
// field name.
func hasField(doc *ast.SchemaDocument, typ, name string) bool {
	for _, l := range []ast.DefinitionList{doc.Definitions, doc.Extensions} {
		for _, d := range l {
			if d.Name == typ && d.Fields.ForName(name) != nil {
				return true
			}
		}
	}
	return false
}

// kindKeyword is the SDL keyword that defines a type of kind k.
func kindKeyword(k ast.DefinitionKind) string {
	switch k {
	case ast.Object:
		return "type"
	case ast.Interface:
		return "interface"
	case ast.Union:
		return "union"
	case ast.Enum:
		return "enum"
	case ast.InputObject:
		return "input"
	}
	return "scalar"
}

// KeyFields are the field sets of the @key directives of the type typ of
// s, in the document's order: each a list of top-level field names
// ("sku package" → [sku package]; nested selections are not read).
func KeyFields(s *ast.Schema, typ string) [][]string {
	d := s.Types[typ]
	if d == nil {
		return nil
	}
	var out [][]string
	for _, k := range d.Directives.ForNames("key") {
		a := k.Arguments.ForName("fields")
		if a == nil || a.Value == nil {
			continue
		}
		var set []string
		depth := 0
		for _, w := range strings.FieldsFunc(a.Value.Raw, func(r rune) bool { return r == ' ' || r == ',' || r == '\n' || r == '\t' }) {
			switch {
			case strings.HasPrefix(w, "{"):
				depth++
			case strings.HasPrefix(w, "}"):
				depth--
			case depth == 0:
				set = append(set, w)
			}
		}
		if len(set) > 0 {
			out = append(out, set)
		}
	}
	return out
}

// SubgraphSDL is the document a schema was parsed from, without the
// definitions Parse added for a federation subgraph: what _service { sdl }
// answers a router.
func SubgraphSDL(s *ast.Schema) string {
	for _, d := range s.Types {
		if d.Position != nil && d.Position.Src != nil && !isAddedSource(d.Position.Src.Name) && !d.BuiltIn {
			return d.Position.Src.Input
		}
	}
	return ""
}

// federationField interprets the root fields a router asks of a subgraph:
// _service (the subgraph's SDL) and _entities (rows by their @key
// fields); nil for any other field.
func (in *interpreter) federationField(f *ast.FieldDefinition) *RootField {
	switch d := in.def(f.Type); {
	case f.Name == "_service" && d != nil && d.Name == "_Service":
		return &RootField{Name: f.Name, Shape: ShapeService}
	case f.Name == "_entities" && d != nil && d.Name == "_Entity" && f.Arguments.ForName("representations") != nil:
		return &RootField{Name: f.Name, Shape: ShapeEntities, Entity: d.Name}
	}
	return nil
}
