package main

import (
	"fmt"
	"strings"
	"testing"
)

func TestModel(t *testing.T) {
	s := startServer(t)
	sh := newShop(t, s, "model@example.com", "m")
	u, pid := sh.owner, sh.project["id"].(string)

	t.Run("slugs are unique and derived from the name", func(t *testing.T) {
		a := get(u.must(`mutation { createProject(name: "My Shop!") { slug } }`, nil), "createProject", "slug")
		b := get(u.must(`mutation { createProject(name: "My Shop!") { slug } }`, nil), "createProject", "slug")
		if a != "my-shop" || b == a || !strings.HasPrefix(b.(string), "my-shop-") {
			t.Fatalf("slugs %v %v", a, b)
		}
		if r := u.gql(`mutation { createProject(name: "x", slug: "my-shop") { slug } }`, nil); r.errCode() != "CONFLICT" {
			t.Fatalf("explicit taken slug: %s", r.Raw)
		}
		if r := u.gql(`mutation { createProject(name: "x", slug: "Bad Slug") { slug } }`, nil); r.errCode() != "BAD_USER_INPUT" {
			t.Fatalf("bad slug: %s", r.Raw)
		}
	})
	t.Run("clashes name both sides", func(t *testing.T) {
		cases := []struct{ name, query, want string }{
			{"table alike", `mutation($p:ID!){ createModellingTable(input:{projectId:$p, name:"product"}) { id } }`, "Product"},
			{"not a GraphQL name", `mutation($p:ID!){ createModellingTable(input:{projectId:$p, name:"1abc"}) { id } }`, "GraphQL name"},
			{"operation name twice", `mutation($t:ID!){ createOperation(input:{tableId:$t, name:"products", kind: LIST}) { id } }`, "products"},
			{"relation field shadows attribute", `mutation($t:ID!,$c:ID!){ createRelation(input:{sourceTableId:$t, targetTableId:$c, cardinality: ONE_TO_ONE,
				sourceAttribute:"categoryId", targetAttribute:"id", fieldName:"name"}) { id } }`, "attribute name"},
		}
		vars := map[string]any{"p": pid, "t": sh.tables["Product"], "c": sh.tables["Category"]}
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				v := map[string]any{}
				for k, val := range vars {
					if strings.Contains(c.query, "$"+k) {
						v[k] = val
					}
				}
				r := u.gql(c.query, v)
				if code := r.errCode(); (code != "CONFLICT" && code != "BAD_USER_INPUT") || !strings.Contains(string(r.Raw), c.want) {
					t.Fatalf("want a refusal naming %q, got %s", c.want, r.Raw)
				}
			})
		}
	})
	t.Run("mapping types", func(t *testing.T) {
		tid := sh.tables["Product"]
		for _, q := range []string{
			`mutation($t:ID!){ createModellingAttribute(input:{tableId:$t, name:"origin", type: STRING, mappingType: CONSTANT, constantValue: "EU"}) { id } }`,
			`mutation($t:ID!){ createModellingAttribute(input:{tableId:$t, name:"margin", type: FLOAT, mappingType: COMPUTED, computedExpression: "price * 0.2"}) { id } }`,
			`mutation($t:ID!){ createModellingAttribute(input:{tableId:$t, name:"maker", type: STRING, mappingType: GENERATED, generator: {kind: "company.name"}}) { id } }`,
			`mutation($t:ID!){ createModellingAttribute(input:{tableId:$t, name:"notes", type: STRING, mappingType: NONE}) { id } }`,
		} {
			u.must(q, map[string]any{"t": tid})
		}
		q := `{ products(pageSize: 2) { items { name origin maker notes } } }`
		first, second := sh.query(q, nil).data(t), sh.query(q, nil).data(t)
		if fmt.Sprint(first) != fmt.Sprint(second) {
			t.Fatalf("generated values are not deterministic: %v vs %v", first, second)
		}
		it := get(first, "products", "items", 0)
		if get(it, "origin") != "EU" || get(it, "notes") != nil || get(it, "maker") == nil {
			t.Fatalf("item: %v", it)
		}
		if get(first, "products", "items", 0, "maker") == get(first, "products", "items", 1, "maker") {
			t.Logf("two rows got the same generated company (possible, but unlikely): %v", first)
		}
		if r := sh.query(`{ products { items { margin } } }`, nil); r.Status != 400 {
			t.Fatalf("COMPUTED attribute is in the runtime schema: %s", r.Raw)
		}
		if r := u.gql(`mutation($t:ID!){ createModellingAttribute(input:{tableId:$t, name:"x", type: STRING, mappingType: GENERATED, generator: {kind: "no.such.thing"}}) { id } }`,
			map[string]any{"t": tid}); r.errCode() != "BAD_USER_INPUT" {
			t.Fatalf("unknown generator: %s", r.Raw)
		}
	})
	t.Run("variants", func(t *testing.T) {
		set := func(v any) {
			u.must(`mutation($t:ID!,$c:String!,$v:String){ updateModellingTable(input:{tableId:$t, source:{importCode:$c, variant:$v}}) { id } }`,
				map[string]any{"t": sh.tables["Product"], "c": "mproducts", "v": v})
		}
		set("us")
		if d := sh.query(`{ products { total } }`, nil).data(t); get(d, "products", "total") != 2.0 {
			t.Fatalf("variant us: %v", d)
		}
		set("nowhere")
		if d := sh.query(`{ products { total } }`, nil).data(t); get(d, "products", "total") != 0.0 {
			t.Fatalf("empty variant: %v", d)
		}
		set(nil)
		if d := sh.query(`{ products { total } }`, nil).data(t); get(d, "products", "total") != 4.0 {
			t.Fatalf("all variants: %v", d)
		}
	})
	t.Run("operations rename and views", func(t *testing.T) {
		var opID string
		for _, o := range get(u.must(`query($id:ID){ project(id:$id) { operations { id name } } }`, map[string]any{"id": pid}), "project", "operations").([]any) {
			if get(o, "name") == "product" {
				opID = get(o, "id").(string)
			}
		}
		u.must(`mutation($id:ID!){ updateOperation(input:{operationId:$id, name:"productById"}) { name } }`, map[string]any{"id": opID})
		sh.query(`{ productById(id: "2") { name } }`, nil).data(t)
		sh.query(`{ product(id: "2") { name } }`, nil).refusal(t, 400, "Bad Request")
		v := u.must(`mutation($p:ID!){ generateMissingViews(projectId:$p) { kind tableId } }`, map[string]any{"p": pid})
		if n := len(get(v, "generateMissingViews").([]any)); n < 4 {
			t.Fatalf("views: %v", v)
		}
		sdl := get(u.must(`query($id:ID){ project(id:$id) { sdl } }`, map[string]any{"id": pid}), "project", "sdl").(string)
		if !strings.Contains(sdl, "productById") || !strings.Contains(sdl, "type ProductPage") {
			t.Fatalf("sdl: %s", sdl)
		}
	})
}
