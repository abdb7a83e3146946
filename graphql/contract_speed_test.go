package graphql

import (
	"bytes"
	"fmt"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/mockgql/mockgql/contract"
	"github.com/mockgql/mockgql/dataset"
	"github.com/mockgql/mockgql/engine"
	"github.com/mockgql/mockgql/model"
)

// pageTwins returns a table project over a dataset of n products (default
// operations and searchProducts(minPrice)) and the contract project of its
// runtime schema bound to the same dataset: the pair make bench -only sdl
// compares, without the server around them.
func pageTwins(tb testing.TB, n int) (tables, contractRT *Runtime, pool engine.Pool) {
	tb.Helper()
	var buf bytes.Buffer
	buf.WriteByte('[')
	for i := 1; i <= n; i++ {
		if i > 1 {
			buf.WriteByte(',')
		}
		price := float64((i*7919)%100000) / 100
		fmt.Fprintf(&buf, `{"id":%d,"name":"Product %d","price":%s,"category":"cat-%d","inStock":%t,"sku":"SKU-%08d"}`,
			i, i, strconv.FormatFloat(price, 'f', -1, 64), i%50, i%3 != 0, i)
	}
	buf.WriteByte(']')
	ds, err := dataset.Read(&buf, dataset.Options{ImportCode: "small", Format: dataset.JSON})
	if err != nil {
		tb.Fatal(err)
	}
	b := &rtModel{tb: tb, p: &model.Project{ID: "ptables", Tables: []*model.Table{}}}
	t := b.table("Product", "small", nil)
	for _, a := range []struct {
		name string
		typ  model.ScalarType
	}{{"id", model.TypeID}, {"name", model.TypeString}, {"price", model.TypeFloat}, {"category", model.TypeString}, {"inStock", model.TypeBoolean}, {"sku", model.TypeString}} {
		b.src(t, a.name, a.typ, a.name)
	}
	b.defaults(t)
	b.op(t, "searchProducts", model.OpList, rtParam("minPrice", "price", model.OpGte))
	tables = rtCompile(tb, b.p, Options{})
	p := &model.Project{ID: "pcontract", Contract: &model.Contract{Tables: []model.ContractTable{{Type: "Product", ImportCode: "small"}}}}
	if _, err := contract.Apply(p, []byte(tables.SDL()), time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)); err != nil {
		tb.Fatal(err)
	}
	return tables, rtCompile(tb, p, Options{}), memPool{"small": ds}
}

// pageQueries are make bench -only sdl's list queries.
var pageQueries = []struct{ name, query string }{
	{"page", `{ products(page: 7, pageSize: 20) { total items { id name price category } } }`},
	{"filtered", `{ searchProducts(minPrice: 300, pageSize: 20) { total items { id name price } } }`},
}

// TestContractPageTwins: the two projects answer the bench's queries with
// the same bytes (so the benchmark compares the same work).
func TestContractPageTwins(t *testing.T) {
	tables, ct, pool := pageTwins(t, 2000)
	for _, q := range pageQueries {
		a, b := runOn(t, tables, pool, q.query), runOn(t, ct, ct.Pool(pool), q.query)
		if !bytes.Equal(a, b) || len(a) < 500 {
			t.Errorf("%s:\ntable project:    %s\ncontract project: %s", q.name, a, b)
		}
	}
}

// BenchmarkContractPage compares make bench -only sdl's list queries on
// a contract project with the same queries on its table project.
func BenchmarkContractPage(b *testing.B) {
	tables, ct, pool := pageTwins(b, 10_000)
	for _, q := range pageQueries {
		b.Run(q.name+"/table", func(b *testing.B) {
			for b.Loop() {
				runOn(b, tables, pool, q.query)
			}
		})
		b.Run(q.name+"/contract", func(b *testing.B) {
			cp := ct.Pool(pool)
			for b.Loop() {
				runOn(b, ct, cp, q.query)
			}
		})
	}
}

// resolversOnly returns rt answering through its resolvers alone: no
// direct writers, the behaviour they must reproduce.
func resolversOnly(tb testing.TB, rt *Runtime) *Runtime {
	tb.Helper()
	ct, err := rt.contract.ResolversOnly()
	if err != nil {
		tb.Fatal(err)
	}
	slow := *rt
	slow.contract, slow.exec = ct, ct.Executor()
	return &slow
}

// TestContractDirectRoot: list and page root fields written directly
// answer the bytes the resolvers answer, with constant and variable
// arguments, aliases, __typename, every page count and the window's
// edges (past the end, page 0, a filter that matches nothing).
func TestContractDirectRoot(t *testing.T) {
	cases := []struct {
		file    string
		queries []string
	}{
		{"../contract/testdata/pages.graphql", []string{
			`{ products { __typename total page pageSize items { id name price category tags dimensions { width } reviews { stars } } } }`,
			`{ a: products(page: 2, perPage: 3) { t: total items { name } } b: products(page: 99, perPage: 5) { total page items { id } } }`,
			`{ products(page: 0, perPage: 4, minPrice: 100, maxPrice: 600) { total pageSize items { id price } } }`,
			`{ products(category: "nothing-has-this") { total items { id } } }`,
			`{ reviews(limit: 4, offset: 2, stars_gte: 3) { count hasMore results { id stars product { name } } } }`,
			`{ reviews(limit: 400, offset: 18) { count hasMore results { id } } }`,
			`query($p: Int, $s: Int, $q: String) { products(page: $p, perPage: $s, search: $q) { total page pageSize items { id name } } }`,
		}},
		{"testdata/contract/filters.graphql", []string{
			`{ books(genre: SCIENCE, sort: PRICE_DESC, limit: 7, offset: 1) { id title price genre author { name } } }`,
			`{ hasuraBooks(where: {title: {_like: "%a%"}}, order_by: [{price: desc}], limit: 5) { id title } }`,
			`{ prismaBooks(where: {OR: [{genre: {equals: HISTORY}}, {price: {lt: 100}}]}, orderBy: [{title: asc}], skip: 2, take: 6) { id } }`,
			`{ plainBooks(filter: {genre: FICTION}) { id } searchBooks(search: "qui") { id title } }`,
			`{ bookPage(page: 3, perPage: 4) { total page perPage totalPages items { id } } }`,
			`{ bookConnection(first: 3) { __typename totalCount edges { __typename cursor node { id title } } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } } }`,
			`{ bookConnection(last: 2) { edges { cursor } pageInfo { hasNextPage hasPreviousPage startCursor } } }`,
			`{ bookConnection(first: 2, after: "cm93OmJvb2stMw") { edges { node { id } } pageInfo { endCursor } } }`,
			`{ bookConnection(first: 0) { totalCount edges { cursor } pageInfo { startCursor endCursor hasNextPage } } }`,
			`{ authors { id name books { id } } }`,
		}},
		{"../contract/testdata/relay.graphql", []string{
			`{ books(first: 4, genre: FICTION, orderBy: {field: PRICE, direction: DESC}) { totalCount edges { cursor node { id title price author { name } } } pageInfo { hasNextPage endCursor } } }`,
			`{ authors(first: 2) { edges { node { name books(first: 2) { totalCount edges { node { id } } } } } pageInfo { hasNextPage } } }`,
			`query($p: Int) { books(first: $p) { edges { cursor } } }`,
		}},
		{"../contract/testdata/hasura.graphql", []string{`{ products(limit: 5, offset: 3, order_by: [{name: asc}]) { id name price category { title } } }`}},
		{"../contract/testdata/prisma.graphql", []string{`{ posts(where: {viewCount: {gte: 100}}, take: 5) { id title author { email } } feed(searchString: "a", take: 3) { id } }`}},
	}
	vars := map[string]any{"p": 2, "s": 4, "q": "e"}
	for _, c := range cases {
		fast := newContractHarness(t, c.file)
		slow := &rtHarness{tb: t, rt: resolversOnly(t, fast.rt), pool: fast.pool, ov: fast.ov}
		for _, q := range c.queries {
			a, b := fast.raw(q, vars), slow.raw(q, vars)
			if !bytes.Equal(a, b) || bytes.Contains(a, []byte(`"errors"`)) {
				t.Errorf("%s: %s\ndirect:    %s\nresolvers: %s", c.file, q, a, b)
			}
		}
		// A plan's constant query is shared by concurrent requests (-race).
		var wg sync.WaitGroup
		for range 4 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for _, q := range c.queries {
					if a, b := fast.raw(q, vars), slow.raw(q, vars); !bytes.Equal(a, b) {
						t.Errorf("concurrently: %s", q)
					}
				}
			}()
		}
		wg.Wait()
	}
}

// BenchmarkContractShapes measures a page of 20 rows of each list shape
// of a contract project (list, page, Relay connection).
func BenchmarkContractShapes(b *testing.B) {
	p := contractProject(b, "testdata/contract/filters.graphql")
	p.Contract.Tables = []model.ContractTable{{Type: "Book", Rows: 1000}}
	h := &rtHarness{tb: b, rt: rtCompile(b, p, Options{}), pool: memPool{}, ov: engine.NewOverlay()}
	for name, q := range map[string]string{
		"list":       `{ books(limit: 20, offset: 20) { id title price } }`,
		"page":       `{ bookPage(page: 2, perPage: 20) { total items { id title price } } }`,
		"connection": `{ bookConnection(first: 20) { totalCount edges { cursor node { id title price } } pageInfo { hasNextPage endCursor } } }`,
	} {
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				runOn(b, h.rt, h.pool, q)
			}
		})
	}
}
