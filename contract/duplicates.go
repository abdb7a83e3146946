package contract

import (
	"strings"

	"github.com/vektah/gqlparser/v2/ast"
)

// DropRepeatedFields removes from each definition and extension of sd a
// field defined a second time with the same signature (type, arguments
// with their types and defaults, directives) as its first definition, and
// returns how many it removed. Such a document is not valid GraphQL, but
// it is what real schemas ship: GitHub's public schema (testdata/
// SOURCES.md) prints EnterpriseOwnerInfo.repositoryDeployKeySetting and
// …Organizations twice, identical but for a description, and introspection
// of GitHub's API lists each field once. Keeping the first definition
// serves exactly that API. A field defined twice with different signatures
// is left for the validator to refuse, since no one schema serves both.
// Everything that reads an imported document calls it before validating
// (Parse; graphql.DiffSchemas), so that they agree on its fields.
func DropRepeatedFields(sd *ast.SchemaDocument) int {
	dropped := 0
	for _, list := range []ast.DefinitionList{sd.Definitions, sd.Extensions} {
		for _, d := range list {
			dropped += dropRepeated(d)
		}
	}
	return dropped
}

// dropRepeated is DropRepeatedFields for one definition.
func dropRepeated(d *ast.Definition) int {
	if len(d.Fields) < 2 {
		return 0
	}
	first := make(map[string]*ast.FieldDefinition, len(d.Fields))
	var kept ast.FieldList
	for i, f := range d.Fields {
		g, ok := first[f.Name]
		switch {
		case !ok:
			first[f.Name] = f
		case signature(g) == signature(f):
			if kept == nil {
				kept = append(make(ast.FieldList, 0, len(d.Fields)), d.Fields[:i]...)
			}
			continue
		}
		if kept != nil {
			kept = append(kept, f)
		}
	}
	if kept == nil {
		return 0
	}
	dropped := len(d.Fields) - len(kept)
	d.Fields = kept
	return dropped
}

// signature writes what a field definition means to a client: its type,
// its arguments in order with their types and defaults, and its
// directives with their arguments; not its description or position.
func signature(f *ast.FieldDefinition) string {
	var b strings.Builder
	b.WriteString(f.Type.String())
	for _, a := range f.Arguments {
		b.WriteString("|" + a.Name + ":" + a.Type.String())
		if a.DefaultValue != nil {
			b.WriteString("=" + a.DefaultValue.String())
		}
		directives(&b, a.Directives)
	}
	directives(&b, f.Directives)
	return b.String()
}

func directives(b *strings.Builder, dirs ast.DirectiveList) {
	for _, d := range dirs {
		b.WriteString("@" + d.Name)
		for _, a := range d.Arguments {
			b.WriteString("," + a.Name + ":" + a.Value.String())
		}
	}
}
