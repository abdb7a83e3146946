package graphql

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mockgql/mockgql/contract"
	"github.com/mockgql/mockgql/dataset"
	"github.com/mockgql/mockgql/engine"
	"github.com/mockgql/mockgql/graphql/exec"
	"github.com/mockgql/mockgql/model"
)

// TestContractCreateThenRead: a created row shows in the lists, lookups,
// filters and relations of each style; a deleted one leaves them.
func TestContractCreateThenRead(t *testing.T) {
	cases := []struct {
		file, create, id string   // id: the path of the new row's id
		reads            []string // %s is the new id; each must mention it
		remove           string
	}{
		{file: "testdata/contract/filters.graphql",
			create: `mutation { createBook(input: {title: "Zzyzx", price: 1.5, genre: HISTORY, authorId: "author-3"}) { id } }`,
			id:     "data.createBook.id",
			reads: []string{`{ books(limit: 1000) { id } }`, `{ book(id: "%s") { id title } }`,
				`{ hasuraBooks(where: {title: {_eq: "Zzyzx"}}) { id } }`, `{ prismaBooks(where: {price: {lt: 2}}) { id } }`,
				`{ authors { id books { id } } }`, `{ book(id: "%s") { author { books { id } } } }`},
			remove: `mutation { deleteBook(id: "%s") { id } }`},
		{file: "../contract/testdata/prisma.graphql",
			create: `mutation { createOnePost(data: {title: "Zzyzx", authorId: 2}) { id } }`,
			id:     "data.createOnePost.id",
			reads:  []string{`{ posts(take: 1000) { id } }`, `{ user(where: {id: 2}) { posts { id } } }`, `{ post(where: {id: %s}) { id } }`},
			remove: `mutation { deleteOnePost(where: {id: %s}) { id } }`},
		{file: "../contract/testdata/hasura.graphql",
			create: `mutation { insert_products_one(object: {name: "Zzyzx", price: 3}) { id } }`,
			id:     "data.insert_products_one.id",
			reads:  []string{`{ products(where: {name: {_eq: "Zzyzx"}}) { id } }`, `{ products_by_pk(id: "%s") { id } }`},
			remove: `mutation { delete_products_by_pk(id: "%s") { id } }`},
		{file: "../contract/testdata/pages.graphql",
			create: `mutation { addProduct(name: "Zzyzx", price: 3, category: "tools") { id } }`,
			id:     "data.addProduct.id",
			reads:  []string{`{ products(category: "tools", perPage: 100) { items { id } } }`, `{ product(id: "%s") { id } }`},
			remove: `mutation { removeProduct(id: "%s") }`},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			h := newContractHarness(t, c.file)
			out := h.do(c.create, nil)
			id := fmt.Sprint(jsonAt(out, c.id))
			if jsonAt(out, c.id) == nil {
				t.Fatalf("%s: %v", c.create, out)
			}
			for _, q := range c.reads {
				q = strings.ReplaceAll(q, "%s", id)
				if body := string(h.raw(q, nil)); !strings.Contains(body, fmt.Sprintf(":%q", id)) && !strings.Contains(body, ":"+id+"}") {
					t.Errorf("%s does not show the created row %s: %s", q, id, body)
				}
			}
			if out := h.do(strings.ReplaceAll(c.remove, "%s", id), nil); out["errors"] != nil {
				t.Fatalf("%s: %v", c.remove, out)
			}
			for _, q := range c.reads {
				q = strings.ReplaceAll(q, "%s", id)
				if body := string(h.raw(q, nil)); strings.Contains(body, fmt.Sprintf(":%q", id)) || strings.Contains(body, ":"+id+"}") {
					t.Errorf("%s still shows the deleted row %s: %s", q, id, body)
				}
			}
		})
	}
}

// TestContractRelationsBothWays: the row a to-one field names lists the
// row back (Book.author's books hold the book), through plain lists,
// connections and Hasura's related lists.
func TestContractRelationsBothWays(t *testing.T) {
	cases := []struct{ file, query, list, one, back string }{
		{"../contract/testdata/relay.graphql", `{ books(first: 50) { edges { node { id author { books(first: 100) { edges { node { id } } } } } } } }`,
			"data.books.edges", "node.id", "node.author.books.edges"},
		{"../contract/testdata/hasura.graphql", `{ products(limit: 50) { id category { products(limit: 100) { id } } } }`,
			"data.products", "id", "category.products"},
		{"testdata/contract/filters.graphql", `{ books(limit: 50) { id author { books { id } } } }`,
			"data.books", "id", "author.books"},
		{"testdata/contract/features.graphql", `{ documents(filter: {status: DRAFT}) { id folder { documents { id } } } }`,
			"data.documents", "id", "folder.documents"},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			out := newContractHarness(t, c.file).do(c.query, nil)
			items, _ := jsonAt(out, c.list).([]any)
			if len(items) == 0 {
				t.Fatalf("%s: no rows: %v", c.query, out)
			}
			for _, item := range items {
				id := jsonAt(item, c.one)
				if !strings.Contains(fmt.Sprint(jsonAt(item, c.back)), fmt.Sprint(id)+"]") {
					t.Fatalf("row %v is not listed back: %v", id, jsonAt(item, c.back))
				}
			}
		})
	}
}

// TestContractLookups: node(id:) finds a row of any type by its key,
// nodes(ids:) answers in the order asked with null for an unknown key.
func TestContractLookups(t *testing.T) {
	h := newContractHarness(t, "../contract/testdata/relay.graphql")
	out := h.do(`{ node(id: "author-2") { __typename id } nodes(ids: ["book-3", "nope", "author-1"]) { __typename id } }`, nil)
	if got := fmt.Sprint(jsonAt(out, "data.node"), jsonAt(out, "data.nodes")); got !=
		"map[__typename:Author id:author-2] [map[__typename:Book id:book-3] <nil> map[__typename:Author id:author-1]]" {
		t.Errorf("got %s", got)
	}
}

// TestContractUnwritten: a mutation that writes no table answers a
// generated payload and changes nothing; a subscription sent as a plain
// request answers the runtime's clear refusal (they run over WebSocket or SSE).
func TestContractUnwritten(t *testing.T) {
	h := newContractHarness(t, "../contract/testdata/relay.graphql")
	prep, refused := h.rt.Prepare(exec.Request{Query: `mutation { publishEverything }`})
	if refused != nil {
		t.Fatal(string(refused.AppendJSON(nil)))
	}
	res, changes, err := h.rt.Mutate(context.Background(), prep, h.pool, h.ov)
	if err != nil || len(res.Errors) > 0 || len(changes) != 0 {
		t.Fatalf("publishEverything: %s, %d changes, %v", res.AppendJSON(nil), len(changes), err)
	}
	prep, refused = h.rt.Prepare(exec.Request{Query: `subscription { bookCreated { id } }`})
	if refused != nil {
		t.Fatal(string(refused.AppendJSON(nil)))
	}
	if _, err := h.rt.Query(context.Background(), prep, h.pool, h.ov); !errors.Is(err, ErrSubscriptionOverHTTP) {
		t.Errorf("a subscription over a plain request answered %v", err)
	}
}

// TestContractBoundDataset: an entity bound to a pool dataset serves the
// dataset's rows, each field read from the path of its name.
func TestContractBoundDataset(t *testing.T) {
	p := contractProject(t, "testdata/contract/filters.graphql")
	p.Contract.Tables = []model.ContractTable{{Type: "Author", ImportCode: "writers"}}
	tables, rels, err := contract.Build(p.ID, contract.Interpret(mustParse(t, p.Contract.Document)), p.Contract)
	if err != nil {
		t.Fatal(err)
	}
	p.Tables, p.Relations = tables, rels
	pool := memPool{"writers": rtDataset(t, "writers", dataset.JSON, "", `[{"id": "w1", "name": "Ursula"}, {"id": "w2", "name": "Italo"}]`)}
	h := &rtHarness{tb: t, rt: rtCompile(t, p, Options{}), pool: pool, ov: engine.NewOverlay()}
	if got := fmt.Sprint(jsonAt(h.do(`{ authors { id name } }`, nil), "data.authors")); got != "[map[id:w1 name:Ursula] map[id:w2 name:Italo]]" {
		t.Errorf("authors = %s", got)
	}
	out := h.do(`mutation { createBook(input: {title: "T", price: 1, genre: FICTION, authorId: "w2"}) { author { name } } }`, nil)
	if got := jsonAt(out, "data.createBook.author.name"); got != "Italo" {
		t.Errorf("a book created for w2 has the author %v: %v", got, out)
	}
}

func mustParse(t *testing.T, doc string) *contract.Schema {
	t.Helper()
	s, err := contract.Parse([]byte(doc), contract.MaxDocumentBytes)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestContractNoRows: an entity with no rows answers empty lists, null
// lookups and, for a non-null field that would name one of its rows, an
// error on that field — never a panic.
func TestContractNoRows(t *testing.T) {
	p := contractProject(t, "testdata/contract/filters.graphql")
	p.Contract.Tables = []model.ContractTable{{Type: "Author", Rows: 0}}
	h := &rtHarness{tb: t, rt: rtCompile(t, p, Options{}), pool: memPool{}, ov: engine.NewOverlay()}
	out := h.do(`{ book(id: "book-1") { id author { id } } }`, nil)
	if msg := fmt.Sprint(jsonAt(out, "errors.0.message")); !strings.Contains(msg, "Cannot return null for non-nullable field Book.author") || jsonAt(out, "errors.1") != nil {
		t.Errorf("got %v", out)
	}
	if list, _ := jsonAt(h.do(`{ authors { id } }`, nil), "data.authors").([]any); len(list) != 0 {
		t.Errorf("authors = %v", list)
	}
}

// TestContractCreateInEmptyTable: a type set to 0 generated rows serves
// none, and then the rows mutations create, in lists, lookups, filters,
// pages and relations, as a type with rows does.
func TestContractCreateInEmptyTable(t *testing.T) {
	p := contractProject(t, "testdata/contract/filters.graphql")
	p.Contract.Tables = []model.ContractTable{{Type: "Book", Rows: 0}}
	h := &rtHarness{tb: t, rt: rtCompile(t, p, Options{}), pool: memPool{}, ov: engine.NewOverlay()}
	if got := listIDs(t, h, "books", `{ books(limit: 1000) { id } }`); len(got) != 0 {
		t.Fatalf("books of a type of 0 rows: %v", got)
	}
	out := h.do(`mutation { createBook(input: {title: "Zzyzx", price: 1.5, genre: HISTORY, authorId: "author-3"}) { id } }`, nil)
	id, _ := jsonAt(out, "data.createBook.id").(string)
	if id == "" {
		t.Fatalf("createBook: %v", out)
	}
	for field, q := range map[string]string{
		"books":       `{ books(limit: 1000) { id } }`,
		"hasuraBooks": `{ hasuraBooks(where: {title: {_eq: "Zzyzx"}}) { id } }`,
		"prismaBooks": `{ prismaBooks(where: {price: {lt: 2}}) { id } }`,
		"searchBooks": `{ searchBooks(search: "zzy") { id } }`,
	} {
		if got := listIDs(t, h, field, q); len(got) != 1 || got[0] != id {
			t.Errorf("%s: %v, want [%s]", q, got, id)
		}
	}
	for _, q := range []string{`{ book(id: "` + id + `") { id } }`, `{ authors { id books { id } } }`,
		`{ bookPage(page: 1, perPage: 5) { total items { id } } }`, `{ bookConnection(first: 5) { totalCount edges { node { id } } } }`,
		`{ books(sort: PRICE_DESC, offset: 0, limit: 10) { id } }`} {
		if body := string(h.raw(q, nil)); !strings.Contains(body, `"id":"`+id+`"`) {
			t.Errorf("%s does not show the created row: %s", q, body)
		}
	}
}

// TestContractEmptyTableKeys: the keys of rows created in a type of 0
// rows are those of a type with rows: numbers from 1 for a number key,
// UUID-shaped for an ID key; a key given is free even if it is "1".
func TestContractEmptyTableKeys(t *testing.T) {
	p := contractProject(t, "../contract/testdata/prisma.graphql")
	p.Contract.Tables = []model.ContractTable{{Type: "Post", Rows: 0}}
	h := &rtHarness{tb: t, rt: rtCompile(t, p, Options{}), pool: memPool{}, ov: engine.NewOverlay()}
	for want := 1; want <= 2; want++ {
		if got := jsonAt(h.do(`mutation { createOnePost(data: {title: "Zzyzx", authorId: 2}) { id } }`, nil), "data.createOnePost.id"); got != float64(want) {
			t.Errorf("created Post %d has id %v", want, got)
		}
	}
	file := filepath.Join(t.TempDir(), "things.graphql")
	sdl := "type Thing { id: ID! name: String }\ntype Query { things: [Thing!]! }\ntype Mutation { createThing(id: ID, name: String): Thing! }\n"
	if err := os.WriteFile(file, []byte(sdl), 0o600); err != nil {
		t.Fatal(err)
	}
	p = contractProject(t, file)
	p.Contract.Tables = []model.ContractTable{{Type: "Thing", Rows: 0}}
	h = &rtHarness{tb: t, rt: rtCompile(t, p, Options{}), pool: memPool{}, ov: engine.NewOverlay()}
	if out := h.do(`mutation { createThing(id: "1", name: "one") { id } }`, nil); jsonAt(out, "data.createThing.id") != "1" {
		t.Errorf("createThing(id: \"1\"): %v", out)
	}
	fresh, _ := jsonAt(h.do(`mutation { createThing(name: "two") { id } }`, nil), "data.createThing.id").(string)
	if len(fresh) != 36 || strings.Count(fresh, "-") != 4 {
		t.Errorf("a fresh ID key %q is not UUID-shaped", fresh)
	}
	if got := listIDs(t, h, "things", `{ things { id } }`); len(got) != 2 || got[0] != "1" || got[1] != fresh {
		t.Errorf("things: %v", got)
	}
}

// TestContractArithmetic: Hasura's _inc and Prisma's increment,
// decrement, multiply, divide and set change each row's number from its
// own value; a result out of Int's range or a division by 0 is refused
// and changes nothing.
func TestContractArithmetic(t *testing.T) {
	t.Run("hasura", func(t *testing.T) {
		h := newContractHarness(t, "../contract/testdata/hasura.graphql")
		before := map[string]float64{}
		for _, x := range jsonAt(h.do(`{ products(limit: 100) { id price } }`, nil), "data.products").([]any) {
			before[x.(map[string]any)["id"].(string)] = x.(map[string]any)["price"].(float64)
		}
		var id string
		for k := range before {
			id = k
			break
		}
		out := h.do(`mutation($id: uuid!) { update_products_by_pk(pk_columns: {id: $id}, _inc: {price: 2.5}, _set: {name: "Inc"}) { id name price } }`, map[string]any{"id": id})
		if jsonAt(out, "data.update_products_by_pk.price") != before[id]+2.5 || jsonAt(out, "data.update_products_by_pk.name") != "Inc" {
			t.Fatalf("update_products_by_pk _inc 2.5 on %v: %v", before[id], out)
		}
		out = h.do(`mutation { update_products(where: {price: {_gte: 0}}, _inc: {price: -1}) { affected_rows returning { id price } } }`, nil)
		if jsonAt(out, "data.update_products.affected_rows") != float64(len(before)) {
			t.Fatalf("update_products _inc: %v", out)
		}
		for _, x := range jsonAt(h.do(`{ products(limit: 100) { id price } }`, nil), "data.products").([]any) {
			m := x.(map[string]any)
			want := before[m["id"].(string)] - 1
			if m["id"] == id {
				want += 2.5
			}
			if math.Abs(m["price"].(float64)-want) > 1e-9 {
				t.Errorf("%s: price %v, want %v", m["id"], m["price"], want)
			}
		}
	})
	t.Run("prisma", func(t *testing.T) {
		h := newContractHarness(t, "../contract/testdata/prisma.graphql")
		views := func() float64 {
			return jsonAt(h.do(`{ post(where: {id: 3}) { viewCount } }`, nil), "data.post.viewCount").(float64)
		}
		v := views()
		steps := []struct {
			data string
			want float64
		}{
			{`{viewCount: {increment: 10}}`, v + 10}, {`{viewCount: {decrement: 3}}`, v + 7},
			{`{viewCount: {multiply: 2}}`, 2 * (v + 7)}, {`{viewCount: {set: 8}}`, 8}, {`{viewCount: {divide: 4}}`, 2},
		}
		for _, s := range steps {
			if out := h.do(`mutation { updateOnePost(where: {id: 3}, data: `+s.data+`) { viewCount } }`, nil); jsonAt(out, "data.updateOnePost.viewCount") != s.want {
				t.Errorf("%s: %v, want %v", s.data, out, s.want)
			}
		}
		for _, bad := range []string{`{viewCount: {divide: 0}}`, `{viewCount: {multiply: 2000000000}}`, `{viewCount: {divide: 3}}`} {
			out := h.do(`mutation { updateOnePost(where: {id: 3}, data: `+bad+`) { viewCount } }`, nil)
			if jsonAt(out, "errors.0.extensions.code") != "BAD_USER_INPUT" || views() != 2 {
				t.Errorf("%s: %v; viewCount now %v", bad, out, views())
			}
		}
	})
}
