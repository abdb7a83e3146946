package http

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/vektah/gqlparser/v2/ast"
)

// testSurfaces are the static surfaces under test.
var testSurfaces = []struct {
	name string
	new  surfaceMaker
}{
	{"management", managementSurface},
	{"public", publicSurface},
}

// TestManagementAndPublicDescriptions checks that every type, field,
// argument, input field and enum value of both schemas is described.
func TestManagementAndPublicDescriptions(t *testing.T) {
	for _, sf := range testSurfaces {
		t.Run(sf.name, func(t *testing.T) {
			s, _ := mustSurface(t, sf.new)
			for _, def := range mustSchema(t, s).Types {
				if def.BuiltIn {
					continue
				}
				for _, where := range undescribed(def) {
					t.Errorf("%s has no description", where)
				}
			}
		})
	}
}

// undescribed names the parts of def without a description.
func undescribed(def *ast.Definition) []string {
	var out []string
	if strings.TrimSpace(def.Description) == "" {
		out = append(out, def.Name)
	}
	for _, f := range def.Fields {
		if strings.HasPrefix(f.Name, "__") {
			continue
		}
		if strings.TrimSpace(f.Description) == "" {
			out = append(out, def.Name+"."+f.Name)
		}
		for _, a := range f.Arguments {
			if strings.TrimSpace(a.Description) == "" {
				out = append(out, def.Name+"."+f.Name+"("+a.Name+")")
			}
		}
	}
	for _, v := range def.EnumValues {
		if strings.TrimSpace(v.Description) == "" {
			out = append(out, def.Name+"."+v.Name)
		}
	}
	return out
}

// publicOnly are the public API's own types and mutations.
var publicOnly = map[string]bool{"GuestProject": true, "SessionProject": true, "RuntimeListResult": true,
	"createGuestProject": true, "createSessionProject": true, "createAdoptionLink": true}

// TestPublicSchemaMatchesManagement checks that the types and model
// mutations the public API shares with the management API are the same
// but for their descriptions.
func TestPublicSchemaMatchesManagement(t *testing.T) {
	ms, _ := mustSurface(t, managementSurface)
	ps, _ := mustSurface(t, publicSurface)
	mgmt, pub := mustSchema(t, ms), mustSchema(t, ps)
	for name, def := range pub.Types {
		if def.BuiltIn || name == "Query" || name == "Mutation" || publicOnly[name] {
			continue
		}
		other, ok := mgmt.Types[name]
		if !ok {
			t.Errorf("type %s is not in the management schema", name)
			continue
		}
		if got, want := signature(def.Kind, def.Fields, def.EnumValues), signature(other.Kind, other.Fields, other.EnumValues); got != want {
			t.Errorf("type %s differs:\npublic:     %s\nmanagement: %s", name, got, want)
		}
	}
	for _, f := range pub.Mutation.Fields {
		if publicOnly[f.Name] || strings.HasPrefix(f.Name, "__") {
			continue
		}
		other := mgmt.Mutation.Fields.ForName(f.Name)
		if other == nil {
			t.Errorf("mutation %s is not in the management schema", f.Name)
			continue
		}
		if got, want := signature(ast.Object, ast.FieldList{f}, nil), signature(ast.Object, ast.FieldList{other}, nil); got != want {
			t.Errorf("mutation %s differs:\npublic:     %s\nmanagement: %s", f.Name, got, want)
		}
	}
}

// signature renders a type's shape without descriptions.
func signature(kind ast.DefinitionKind, fields ast.FieldList, values ast.EnumValueList) string {
	var b strings.Builder
	b.WriteString(string(kind))
	for _, f := range fields {
		if strings.HasPrefix(f.Name, "__") {
			continue
		}
		fmt.Fprintf(&b, " %s(", f.Name)
		for _, a := range f.Arguments {
			fmt.Fprintf(&b, "%s:%s=%v,", a.Name, a.Type, a.DefaultValue)
		}
		fmt.Fprintf(&b, "):%s", f.Type)
	}
	for _, v := range values {
		b.WriteString(" " + v.Name)
	}
	return b.String()
}

// introspectionQuery reads what GraphiQL and codegen tools read.
const introspectionQuery = `query {
  __schema {
    queryType { name } mutationType { name }
    types { name kind description fields { name description args { name description defaultValue } } }
  }
  ds: __type(name: "DataSource") { fields { name args { name defaultValue } } }
}`

// TestManagementAndPublicIntrospection checks that both testSurfaces answer
// introspection without a credential, with their descriptions.
func TestManagementAndPublicIntrospection(t *testing.T) {
	for _, sf := range testSurfaces {
		t.Run(sf.name, func(t *testing.T) {
			out := runSurface(t, sf.new, anonymousPrincipal, introspectionQuery, nil, nil)
			if len(out.result.Errors) > 0 || len(out.Calls) > 0 {
				t.Fatalf("errors %v, Backend calls %v", out.result.Errors, out.Calls)
			}
			var resp struct {
				Data struct {
					Schema struct {
						QueryType, MutationType struct{ Name string }
						Types                   []struct {
							Name, Description string
						}
					} `json:"__schema"`
					DS struct {
						Fields []struct {
							Name string
							Args []struct{ Name, DefaultValue string }
						}
					} `json:"ds"`
				}
			}
			if err := json.Unmarshal(out.Response, &resp); err != nil {
				t.Fatal(err)
			}
			sch := resp.Data.Schema
			if sch.QueryType.Name != "Query" || sch.MutationType.Name != "Mutation" {
				t.Errorf("root types = %q, %q", sch.QueryType.Name, sch.MutationType.Name)
			}
			described := map[string]bool{}
			for _, ty := range sch.Types {
				described[ty.Name] = ty.Description != ""
			}
			for _, name := range []string{"Query", "Mutation", "DataSource", "Table", "Attribute", "JSON", "DateTime"} {
				if !described[name] {
					t.Errorf("type %s missing or without description", name)
				}
			}
			limit := ""
			for _, f := range resp.Data.DS.Fields {
				if f.Name == "sampleDocuments" && len(f.Args) == 1 {
					limit = f.Args[0].Name + "=" + f.Args[0].DefaultValue
				}
			}
			if limit != "limit=3" {
				t.Errorf("DataSource.sampleDocuments args = %q, want limit=3", limit)
			}
		})
	}
}

// TestManagementSDL checks that SDL returns the embedded schema and that
// the operations of import, export and versioning are in it as
// docs/using/import-export.md names them.
func TestManagementSDL(t *testing.T) {
	ms, _ := mustSurface(t, managementSurface)
	schema := mustSchema(t, ms)
	for _, name := range []string{"exportOpenApi", "schemaChanges"} {
		if schema.Query.Fields.ForName(name) == nil {
			t.Errorf("Query.%s is not in the schema", name)
		}
	}
	for _, name := range []string{"importOpenApi", "exportCodePackage", "setSchemaBaseline"} {
		if schema.Mutation.Fields.ForName(name) == nil {
			t.Errorf("Mutation.%s is not in the schema", name)
		}
	}
	if ms.SDL() != managementSDL {
		t.Error("SDL() is not the embedded management schema")
	}
	ps, _ := mustSurface(t, publicSurface)
	if ps.SDL() != publicSDL {
		t.Error("SDL() is not the embedded public schema")
	}
}

// TestManagementCheckRoots checks that a root field without a resolver is
// refused when a surface is built.
func TestManagementCheckRoots(t *testing.T) {
	ms, _ := mustSurface(t, managementSurface)
	schema := mustSchema(t, ms)
	resolvers := ms.managementResolvers(newFakeManagement())
	if err := checkRoots(schema, resolvers); err != nil {
		t.Fatalf("checkRoots = %v", err)
	}
	delete(resolvers, "Mutation.setPlan")
	if err := checkRoots(schema, resolvers); err == nil || !strings.Contains(err.Error(), "Mutation.setPlan") {
		t.Errorf("checkRoots without Mutation.setPlan = %v", err)
	}
}
