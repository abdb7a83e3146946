package main

import (
	"fmt"
	"path/filepath"
	"strings"
	"time"
)

// The SDL-first group (issue 23, docs/using/contract.md), on a server of
// its own: the import of a 300 KB schema in the styles of
// contract/testdata (target under a second), the import of GitHub's
// public schema on a node of its own (sdl_github.go), and list and nested
// (many-to-one, one-to-many) queries on a contract project bound to
// datasets next to the same queries on the table project whose runtime
// schema it imported (target: a ratio of 0.9 or more). -only sdl runs the group alone, without the main server's
// million-row setup.

// sdlSchemaBytes is the size of the generated schema.
const sdlSchemaBytes = 300 << 10

// sdlSchema generates a schema of at least size bytes: entity types with
// IDs, scalars, enums and a relation to the previous type, each with a
// Relay connection, a lookup, a page wrapper with limit/offset, a filter
// input and create, update and delete mutations. It returns the document
// and the number of entity types.
func sdlSchema(size int) (string, int) {
	var types, query, mutation strings.Builder
	types.WriteString("\"The status of an entity.\"\nenum Status { ACTIVE ARCHIVED DRAFT }\n\n")
	types.WriteString("type PageInfo { hasNextPage: Boolean! hasPreviousPage: Boolean! startCursor: String endCursor: String }\n\n")
	n := 0
	for ; types.Len()+query.Len()+mutation.Len() < size; n++ {
		t := fmt.Sprintf("Entity%d", n)
		fmt.Fprintf(&types, "\"An entity of kind %d, with the fields real schemas carry.\"\ntype %s {\n  id: ID!\n  name: String!\n  title: String\n  email: String\n  url: String\n  price: Float!\n  count: Int!\n  active: Boolean!\n  status: Status!\n  createdAt: String\n  description: String\n", n, t)
		if n > 0 {
			fmt.Fprintf(&types, "  \"The entity this one belongs to.\"\n  parent: Entity%d\n", n-1)
		}
		types.WriteString("}\n\n")
		fmt.Fprintf(&types, "type %sConnection { edges: [%sEdge!]! pageInfo: PageInfo! totalCount: Int! }\ntype %sEdge { cursor: String! node: %s! }\n", t, t, t, t)
		fmt.Fprintf(&types, "type %sPage { items: [%s!]! total: Int! }\n", t, t)
		fmt.Fprintf(&types, "input %sFilter { name: String priceGte: Float priceLte: Float status: Status active: Boolean }\n", t)
		fmt.Fprintf(&types, "input %sInput { name: String! title: String price: Float! count: Int! active: Boolean! status: Status! }\n\n", t)
		lower := strings.ToLower(t[:1]) + t[1:]
		fmt.Fprintf(&query, "  %ss(first: Int, after: String, last: Int, before: String, status: Status, minPrice: Float): %sConnection!\n", lower, t)
		fmt.Fprintf(&query, "  %s(id: ID!): %s\n", lower, t)
		fmt.Fprintf(&query, "  %sPage(limit: Int = 20, offset: Int = 0, filter: %sFilter): %sPage!\n", lower, t, t)
		fmt.Fprintf(&mutation, "  create%s(input: %sInput!): %s!\n  update%s(id: ID!, input: %sInput!): %s\n  delete%s(id: ID!): %s\n", t, t, t, t, t, t, t, t)
	}
	return types.String() + "type Query {\n" + query.String() + "}\n\ntype Mutation {\n" + mutation.String() + "}\n", n
}

// sdlBench runs the group.
func sdlBench(bin, dir string, o options, rep *report) error {
	srv, err := startMockgql(bin, filepath.Join(dir, "sdl"), "--ip-limit", "0", "--ip-limit-create", "0",
		"--ip-limit-management", "0", "--ip-limit-public", "0")
	if err != nil {
		return err
	}
	defer srv.stop()
	if err := benchAccount(srv); err != nil {
		return err
	}
	if err := sdlImport(srv, rep); err != nil {
		return err
	}
	if err := sdlGitHub(bin, dir, rep); err != nil {
		return err
	}
	return sdlLists(srv, o, rep)
}

// sdlImport times createProject with a generated 300 KB schema, and a
// second version of it through importGraphQLSchema.
func sdlImport(srv *mockgql, rep *report) error {
	doc, types := sdlSchema(sdlSchemaBytes)
	t0 := time.Now()
	d, err := srv.gql(`mutation($s:String!){ createProject(name: "Large schema", sdl:$s) { id contract { version } } }`, map[string]any{"s": doc})
	if err != nil {
		return err
	}
	first := time.Since(t0)
	pid := d["createProject"].(map[string]any)["id"].(string)
	doc2 := strings.Replace(doc, "type Query {\n", "type Query {\n  ping: Boolean\n", 1)
	t0 = time.Now()
	if _, err := srv.gql(`mutation($p:ID!,$s:String!){ importGraphQLSchema(projectId:$p, sdl:$s) { changes { path } } }`, map[string]any{"p": pid, "s": doc2}); err != nil {
		return err
	}
	rep.note("sdl: createProject from a %d KB schema (%d types, %d tables): %v; a new version of it with its diff: %v (target under 1 s)",
		len(doc)>>10, strings.Count(doc, "\ntype ")+strings.Count(doc, "\ninput ")+strings.Count(doc, "\nenum "), types,
		first.Round(time.Millisecond), time.Since(t0).Round(time.Millisecond))
	return nil
}

// sdlLists builds a table project over a dataset of o.rowsSmall products,
// imports its runtime schema as a contract project bound to the same
// dataset, and measures the same list pages on both.
func sdlLists(srv *mockgql, o options, rep *report) error {
	if _, err := srv.post("/datasets/small?format=json", string(rows(o.rowsSmall))); err != nil {
		return err
	}
	tableKey, err := simpleProject(srv, "Tables", "sdl-tables")
	if err != nil {
		return err
	}
	d, err := srv.gql(`query { project(slug: "sdl-tables") { sdl } }`, nil)
	if err != nil {
		return err
	}
	sdl := d["project"].(map[string]any)["sdl"].(string)
	d, err = srv.gql(`mutation($s:String!){ createProject(name: "Contract", slug: "sdl-contract", sdl:$s) { id } }`, map[string]any{"s": sdl})
	if err != nil {
		return err
	}
	pid := d["createProject"].(map[string]any)["id"].(string)
	if _, err := srv.gql(`mutation($p:ID!){ bindContractTable(projectId:$p, type: "Product", importCode: "small") { id } }`, map[string]any{"p": pid}); err != nil {
		return err
	}
	d, err = srv.gql(`mutation($p:ID!){ createApiKey(projectId:$p, name:"bench", scope: FULL) { value } }`, map[string]any{"p": pid})
	if err != nil {
		return err
	}
	contractKey := d["createApiKey"].(map[string]any)["value"].(string)
	for _, sc := range [][2]string{
		{"sdl: list page", `{ products(page: %d, pageSize: 20) { total items { id name price category } } }`},
		{"sdl: filtered list page", `{ searchProducts(minPrice: %d, pageSize: 20) { total items { id name price } } }`},
	} {
		if err := sdlCompare(srv, o, rep, sc[0], sc[1], 500, "sdl-tables", tableKey, "sdl-contract", contractKey); err != nil {
			return err
		}
	}
	return sdlNested(srv, o, rep)
}

// sdlNested measures nested queries (many-to-one and one-to-many) on a
// table project of products and their customers against the contract
// project that imported its runtime schema, bound to the same datasets.
func sdlNested(srv *mockgql, o options, rep *report) error {
	var p, c strings.Builder
	for i := 1; i <= 10_000; i++ {
		fmt.Fprintf(&p, `{"id":%d,"name":"Item %d","price":%d,"customerId":%d}`+"\n", i, i, i*7919%100000, i%500)
	}
	for i := range 500 {
		fmt.Fprintf(&c, `{"id":%d,"name":"Customer %d"}`+"\n", i, i)
	}
	for code, body := range map[string]string{"sdlnp": p.String(), "sdlnc": c.String()} {
		if _, err := srv.post("/datasets/"+code+"?format=ndjson", body); err != nil {
			return err
		}
	}
	pid, err := relationModel(srv, "Nested tables", "sdl-rel-tables", "sdlnp", "sdlnc")
	if err != nil {
		return err
	}
	tableKey, err := finishProject(srv, pid)
	if err != nil {
		return err
	}
	d, err := srv.gql(`query { project(slug: "sdl-rel-tables") { sdl } }`, nil)
	if err != nil {
		return err
	}
	d, err = srv.gql(`mutation($s:String!){ createProject(name: "Nested contract", slug: "sdl-rel-contract", sdl:$s) { id } }`,
		map[string]any{"s": d["project"].(map[string]any)["sdl"].(string)})
	if err != nil {
		return err
	}
	cid := d["createProject"].(map[string]any)["id"].(string)
	for typ, code := range map[string]string{"Product": "sdlnp", "Customer": "sdlnc"} {
		if _, err := srv.gql(`mutation($p:ID!,$t:String!,$c:String!){ bindContractTable(projectId:$p, type:$t, importCode:$c) { id } }`,
			map[string]any{"p": cid, "t": typ, "c": code}); err != nil {
			return err
		}
	}
	d, err = srv.gql(`mutation($p:ID!){ createApiKey(projectId:$p, name:"bench", scope: FULL) { value } }`, map[string]any{"p": cid})
	if err != nil {
		return err
	}
	contractKey := d["createApiKey"].(map[string]any)["value"].(string)
	for _, sc := range []struct {
		name, format string
		pages        int
	}{
		{"sdl: many-to-one page (20 products + customer)", `{ products(page: %d, pageSize: 20) { total items { id name price customer { id name } } } }`, 500},
		{"sdl: one-to-many page (10 customers + 20 products each)", `{ customers(page: %d, pageSize: 10) { total items { id name products { id name price } } } }`, 50},
	} {
		if err := sdlCompare(srv, o, rep, sc.name, sc.format, sc.pages, "sdl-rel-tables", tableKey, "sdl-rel-contract", contractKey); err != nil {
			return err
		}
	}
	return nil
}

// sdlCompare sends mixCount queries of format (its %d: 1 to pages) to the
// table project and to the contract project, requires the same answers,
// and measures them side by side.
func sdlCompare(srv *mockgql, o options, rep *report, name, format string, pages int, tableSlug, tableKey, contractSlug, contractKey string) error {
	tablePath, contractPath := "/mock/"+tableSlug+"/graphql", "/mock/"+contractSlug+"/graphql"
	var bodies []string
	for i := 1; i <= mixCount; i++ {
		q := fmt.Sprintf(format, i%pages+1)
		a, err := srv.post(tablePath, fmt.Sprintf(`{"query":%q}`, q), "X-API-Key", tableKey)
		if err != nil {
			return err
		}
		b, err := srv.post(contractPath, fmt.Sprintf(`{"query":%q}`, q), "X-API-Key", contractKey)
		if err != nil {
			return err
		}
		if a != b {
			return fmt.Errorf("%s: the projects answer %s differently:\ntables:   %.300s\ncontract: %.300s", name, q, a, b)
		}
		bodies = append(bodies, fmt.Sprintf(`{"query":%q}`, q))
	}
	return compareMix(name+" (contract vs table project)", "table project", srv, contractPath, contractKey, tablePath, tableKey, bodies, o, rep)
}

// simpleProject makes a project with a table Product over the small dataset
// (its six fields as SOURCE attributes), the default operations and
// searchProducts(minPrice: price gte), and returns a FULL key.
func simpleProject(m *mockgql, name, slug string) (string, error) {
	d, err := m.gql(`mutation($n:String!,$s:String!){ createProject(name:$n, slug:$s) { id } }`, map[string]any{"n": name, "s": slug})
	if err != nil {
		return "", err
	}
	pid := d["createProject"].(map[string]any)["id"].(string)
	d, err = m.gql(`mutation($p:ID!){ createModellingTable(input:{projectId:$p, name:"Product", source:{importCode:"small"}}) { id } }`, map[string]any{"p": pid})
	if err != nil {
		return "", err
	}
	tid := d["createModellingTable"].(map[string]any)["id"].(string)
	for _, a := range [][2]string{{"id", "ID"}, {"name", "STRING"}, {"price", "FLOAT"}, {"category", "STRING"}, {"inStock", "BOOLEAN"}, {"sku", "STRING"}} {
		if _, err := m.gql(`mutation($t:ID!,$n:String!,$ty:ScalarType!){ createModellingAttribute(input:{tableId:$t, name:$n, type:$ty, mappingType: SOURCE, sourceMapping:{path:$n}}) { id } }`,
			map[string]any{"t": tid, "n": a[0], "ty": a[1]}); err != nil {
			return "", err
		}
	}
	key, err := finishProject(m, pid) // the default operations first: a LIST operation already there replaces the default list
	if err != nil {
		return "", err
	}
	_, err = m.gql(`mutation($t:ID!){ createOperation(input:{tableId:$t, name:"searchProducts", kind: LIST, parameters:[{name:"minPrice", attribute:"price", operator: gte}]}) { id } }`,
		map[string]any{"t": tid})
	return key, err
}
