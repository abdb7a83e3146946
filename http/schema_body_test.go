package http

import "testing"

// TestImportsSchema: only an operation that selects nothing but the
// schema-taking root fields may have a body past its route's bound.
func TestImportsSchema(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, body string
		want       bool
	}{
		{"import", `{"query":"mutation($p:ID!,$s:String!){ importGraphQLSchema(projectId:$p, sdl:$s) { project { id } } }","variables":{"s":"type Query { a: Int }"}}`, true},
		{"check and typename", `{"query":"query($s:String!){ __typename checkGraphQLSchema(sdl:$s) { tables } }"}`, true},
		{"create project", `{"query":"mutation($s:String!){ createProject(name:\"x\", sdl:$s) { id } }"}`, true},
		{"named among others", `{"query":"query A { projects { id } } mutation B($s:String!){ importGraphQLSchema(projectId:\"p\", sdl:$s) { project { id } } }","operationName":"B"}`, true},
		{"the other operation", `{"query":"query A { projects { id } } mutation B($s:String!){ importGraphQLSchema(projectId:\"p\", sdl:$s) { project { id } } }","operationName":"A"}`, false},
		{"two operations, no name", `{"query":"query A { projects { id } } mutation B { importGraphQLSchema(projectId:\"p\", sdl:\"\") { project { id } } }"}`, false},
		{"beside another field", `{"query":"mutation($s:String!){ importGraphQLSchema(projectId:\"p\", sdl:$s) { project { id } } importDataset(importCode:\"a\", format:\"json\", content:$s) { name } }"}`, false},
		{"aliased other field", `{"query":"mutation { importGraphQLSchema: importDataset(importCode:\"a\", format:\"json\", content:\"[]\") { name } }"}`, false},
		{"through a fragment", `{"query":"mutation { ...F } fragment F on Mutation { importGraphQLSchema(projectId:\"p\", sdl:\"\") { project { id } } }"}`, false},
		{"another operation", `{"query":"mutation($n:String!){ createGuestProject(name:$n) { slug } }"}`, false},
		{"not JSON", `importGraphQLSchema`, false},
		{"not GraphQL", `{"query":"mutation { importGraphQLSchema("}`, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := importsSchema([]byte(tc.body)); got != tc.want {
				t.Errorf("importsSchema = %t, want %t", got, tc.want)
			}
		})
	}
}
