package main

import (
	"testing"
)

// TestBoardContractGraphiQL: the runtime's GraphiQL page of a contract
// project, opened in Chromium with a key, introspects the imported schema
// (its custom root type names included: the unions schema's QueryRoot)
// and runs one of its queries with a fragment on a union.
func TestBoardContractGraphiQL(t *testing.T) {
	s := startServer(t)
	cp := newContractProject(t, s, "contract-graphiql@example.com", contractDoc(t, "unions.graphql"))
	rt := get(cp.owner.must(`mutation($p:ID!){ createApiKey(projectId:$p, name:"rt", scope: RUNTIME) { value } }`, map[string]any{"p": cp.id}), "createApiKey", "value").(string)
	p := newPage(t, s)
	p.open(cp.runtime, "#gateKey")
	p.set("#gateKey", rt)
	p.submit("#gateKey")
	p.waitText(".graphiql-container", "")
	p.click(`button[aria-label="Show Documentation Explorer"]`)
	p.waitText(".graphiql-doc-explorer", "QueryRoot")
	p.runInGraphiQL(`{ search(text: "a", first: 3) { __typename ... on Movie { title } ... on Person { fullName } } }`, `"__typename"`)
	p.shot("runtime-graphiql-contract")
}
