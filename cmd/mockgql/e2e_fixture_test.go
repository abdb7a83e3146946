package main

import (
	"testing"
)

// shop is an account project over the products dataset, with a category
// table, a relation, default operations and a filtered list operation.
type shop struct {
	s       *server
	owner   *user
	project map[string]any
	slug    string
	tables  map[string]string // name → ID
	runtime string            // /mock/<slug>/graphql
	fullKey string
	rtKey   string
	mgmtKey string
}

const categoriesJSON = `[{"id":1,"title":"Office"},{"id":2,"title":"Lighting"},{"id":3,"title":"Empty"}]`

// newShop builds the fixture on s with its own owner and datasets.
func newShop(t *testing.T, s *server, email, prefix string) *shop {
	t.Helper()
	u := s.signUp(email)
	u.must(`mutation { setPlan(plan: PROFESSIONAL) { plan } }`, nil)
	u.importVia(prefix+"products", "json", productsJSON, "market").data(t)
	u.importVia(prefix+"categories", "json", categoriesJSON, "").data(t)
	p := get(u.must(`mutation($n:String!){ createProject(name:$n) { id slug kind runtimeUrl } }`, map[string]any{"n": prefix + " shop"}), "createProject").(map[string]any)
	sh := &shop{s: s, owner: u, project: p, slug: p["slug"].(string), tables: map[string]string{}}
	sh.runtime = "/mock/" + sh.slug + "/graphql"
	pid := p["id"].(string)
	sh.tables["Product"] = sh.table(t, pid, "Product", prefix+"products", [][3]string{
		{"id", "ID", "id"}, {"name", "STRING", "name"}, {"price", "FLOAT", "price.amount"}, {"currency", "STRING", "price.currency"},
		{"stock", "STRING", "stock"}, {"categoryId", "INT", "categoryId"}, {"market", "STRING", "market"}})
	sh.tables["Category"] = sh.table(t, pid, "Category", prefix+"categories", [][3]string{{"id", "ID", "id"}, {"title", "STRING", "title"}})
	u.must(`mutation($s:ID!,$t:ID!){ createRelation(input:{sourceTableId:$s, targetTableId:$t, cardinality: ONE_TO_MANY,
		sourceAttribute:"id", targetAttribute:"categoryId", fieldName:"products", inverseFieldName:"category"}) { id } }`,
		map[string]any{"s": sh.tables["Category"], "t": sh.tables["Product"]})
	u.must(`mutation($p:ID!){ generateDefaultGqlOperations(projectId:$p) { name } }`, map[string]any{"p": pid})
	u.must(`mutation($t:ID!){ createOperation(input:{tableId:$t, name:"searchProducts", kind: LIST, parameters:[
		{name:"minPrice", attribute:"price", operator: gte}, {name:"category", attribute:"categoryId", operator: eq},
		{name:"q", attribute:"name", operator: like}, {name:"ids", attribute:"id", operator: in}]}) { id } }`,
		map[string]any{"t": sh.tables["Product"]})
	sh.fullKey = sh.key(t, "FULL")
	sh.rtKey = sh.key(t, "RUNTIME")
	sh.mgmtKey = sh.key(t, "MANAGEMENT")
	return sh
}

// table creates a bound table with SOURCE attributes {name, type, path}.
func (sh *shop) table(t *testing.T, projectID, name, code string, attrs [][3]string) string {
	t.Helper()
	d := sh.owner.must(`mutation($p:ID!,$n:String!,$c:String!){ createModellingTable(input:{projectId:$p, name:$n, source:{importCode:$c}}) { id ready } }`,
		map[string]any{"p": projectID, "n": name, "c": code})
	id := get(d, "createModellingTable", "id").(string)
	for _, a := range attrs {
		sh.owner.must(`mutation($t:ID!,$n:String!,$ty:ScalarType!,$path:String!){ createModellingAttribute(input:{tableId:$t, name:$n, type:$ty,
			mappingType: SOURCE, sourceMapping:{path:$path}}) { id } }`, map[string]any{"t": id, "n": a[0], "ty": a[1], "path": a[2]})
	}
	return id
}

// key creates an API key of the scope and returns its value.
func (sh *shop) key(t *testing.T, scope string) string {
	t.Helper()
	d := sh.owner.must(`mutation($p:ID!,$s:ApiKeyScope!){ createApiKey(projectId:$p, name:"k", scope:$s) { value key { id prefix scope } } }`,
		map[string]any{"p": sh.project["id"], "s": scope})
	return get(d, "createApiKey", "value").(string)
}

// query runs a runtime query with the FULL key.
func (sh *shop) query(q string, vars map[string]any) response {
	return sh.s.gql(sh.runtime, q, vars, "Authorization", "Bearer "+sh.fullKey)
}
