package graphql

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"

	"github.com/mockgql/mockgql/engine"
	"github.com/mockgql/mockgql/graphql/exec"
	"github.com/mockgql/mockgql/model"
)

// tableTwin returns the table-modelled project equivalent to the contract
// project of filters.graphql, over the contract runtime's generated
// datasets: the same rows, fields and relation, served by LIST operations.
func tableTwin(tb testing.TB, ct *Runtime) (*model.Project, engine.Pool) {
	tb.Helper()
	pool := memPool{}
	for _, code := range []string{model.ContractImportCode("Book"), model.ContractImportCode("Author")} {
		pool[code] = ct.Pool(nil).Dataset(code)
	}
	b := &rtModel{tb: tb, p: &model.Project{ID: "ptwin", Tables: []*model.Table{}}}
	book := b.table("Book", model.ContractImportCode("Book"), nil)
	for _, a := range []struct {
		name string
		typ  model.ScalarType
	}{{"id", model.TypeID}, {"title", model.TypeString}, {"price", model.TypeFloat}, {"pages", model.TypeInt}, {"genre", model.TypeString}} {
		b.src(book, a.name, a.typ, a.name)
	}
	b.src(book, "authorKey", model.TypeID, "__keyauthor")
	author := b.table("Author", model.ContractImportCode("Author"), nil)
	b.src(author, "id", model.TypeID, "id")
	b.src(author, "name", model.TypeString, "name")
	b.relation(model.Relation{SourceTableID: author.ID, TargetTableID: book.ID, Direction: model.Bidirectional,
		Cardinality: model.OneToMany, SourceAttribute: "id", TargetAttribute: "authorKey", FieldName: "books", InverseFieldName: "author"})
	b.op(book, "books", model.OpList, rtParam("genre", "genre", model.OpEq), rtParam("minPrice", "price", model.OpGte))
	return b.p, pool
}

// twinCases are the same list queries on the contract project and on its
// table twin (whose list answers a page: its items are compared).
var twinCases = []struct{ name, contract, table string }{
	{"all", `{ books(limit: 200) { id title price pages genre author { id name books { id } } } }`,
		`{ books(pageSize: 200) { items { id title price pages genre author { id name books { id } } } } }`},
	{"filtered and sorted", `{ books(genre: SCIENCE, minPrice: 200, sort: PRICE_DESC, limit: 200) { id title price } }`,
		`{ books(genre: "SCIENCE", minPrice: 200, sortField: "price", sortDirection: DESC, pageSize: 200) { items { id title price } } }`},
	{"a page", `{ books(sort: TITLE_ASC, offset: 40, limit: 20) { id title } }`,
		`{ books(sortField: "title", page: 3, pageSize: 20) { items { id title } } }`},
}

// TestContractDifferential: a list query on a contract project answers
// what the same query on the equivalent table-modelled project answers:
// the same rows, values and order.
func TestContractDifferential(t *testing.T) {
	p := contractProject(t, "testdata/contract/filters.graphql")
	p.Contract.Tables = []model.ContractTable{{Type: "Book", Rows: 200}}
	ct := rtCompile(t, p, Options{})
	twin, pool := tableTwin(t, ct)
	tt := rtCompile(t, twin, Options{})
	for _, c := range twinCases {
		t.Run(c.name, func(t *testing.T) {
			got, _ := json.Marshal(jsonAt(decoded(t, runOn(t, ct, memPool{}, c.contract)), "data.books"))
			want, _ := json.Marshal(jsonAt(decoded(t, runOn(t, tt, pool, c.table)), "data.books.items"))
			if !bytes.Equal(got, want) || len(got) < 100 {
				t.Errorf("contract project:\n%s\ntable project:\n%s", got, want)
			}
		})
	}
}

func decoded(tb testing.TB, body []byte) map[string]any {
	tb.Helper()
	var out map[string]any
	if err := json.Unmarshal(body, &out); err != nil || out["errors"] != nil {
		tb.Fatalf("%s: %v", body, err)
	}
	return out
}

// runOn runs a query on rt and returns the response bytes.
func runOn(tb testing.TB, rt *Runtime, pool engine.Pool, query string) []byte {
	tb.Helper()
	prep, refused := rt.Prepare(exec.Request{Query: query})
	if refused != nil {
		tb.Fatalf("%s: %s", query, refused.AppendJSON(nil))
	}
	res, err := rt.Query(context.Background(), prep, pool, nil)
	if err != nil {
		tb.Fatal(err)
	}
	return res.AppendJSON(nil)
}

// BenchmarkContractList compares a list query on a contract project with
// the same query on the equivalent table project (make bench -only sdl
// reports the ratio).
func BenchmarkContractList(b *testing.B) {
	p := contractProject(b, "testdata/contract/filters.graphql")
	p.Contract.Tables = []model.ContractTable{{Type: "Book", Rows: 1000}}
	ct := rtCompile(b, p, Options{})
	twin, pool := tableTwin(b, ct)
	tt := rtCompile(b, twin, Options{})
	for _, c := range twinCases {
		b.Run(c.name+"/contract", func(b *testing.B) {
			for b.Loop() {
				runOn(b, ct, memPool{}, c.contract)
			}
		})
		b.Run(c.name+"/table", func(b *testing.B) {
			for b.Loop() {
				runOn(b, tt, pool, c.table)
			}
		})
	}
}
