package exec

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"testing"
)

const benchSDL = `
type Query { products(page: Int = 1, pageSize: Int = 20, category: String): ProductPage! }
type ProductPage { items: [Product!]!  total: Int!  page: Int!  pageSize: Int! }
type Product { id: ID!  name: String  price: Float  stock: Int  available: Boolean  category: String }
`

const benchQuery = `query List($page: Int) {
  products(page: $page, pageSize: 20) { total page pageSize items { id name price stock available category } }
}`

// newBenchExecutor returns an executor of benchSDL whose list resolver
// serves 20 rows, as the mock runtime does: maps decoded from JSON.
func newBenchExecutor(b *testing.B) *Executor {
	b.Helper()
	rows := make([]any, 20)
	for i := range rows {
		rows[i] = map[string]any{
			"id": fmt.Sprint(i + 1), "name": fmt.Sprintf("Product %d", i), "price": 9.99 + float64(i),
			"stock": json.Number(fmt.Sprint(i * 3)), "available": i%2 == 0, "category": "tools",
		}
	}
	ex, err := NewExecutor(Executor{
		Schema: mustLoadSchema(b, benchSDL),
		Resolvers: map[string]Resolver{
			"Query.products": func(_ context.Context, f *Field) (any, error) {
				return map[string]any{"items": rows, "total": len(rows), "page": f.Args["page"], "pageSize": f.Args["pageSize"]}, nil
			},
		},
	})
	if err != nil {
		b.Fatal(err)
	}
	return ex
}

// BenchmarkExecute measures a list query of 20 items × 6 fields: Prepare
// (a cache hit, as for repeated client queries) + Execute + AppendJSON,
// and Execute alone.
func BenchmarkExecute(b *testing.B) {
	ex := newBenchExecutor(b)
	req := Request{Query: benchQuery, Variables: map[string]any{"page": json.Number("2")}}
	ctx := context.Background()
	b.Run("prepare+execute+json", func(b *testing.B) {
		buf := make([]byte, 0, 4096)
		b.ReportAllocs()
		for b.Loop() {
			p, refused := ex.Prepare(req)
			if refused != nil {
				b.Fatal(refused.Errors)
			}
			res, err := p.Execute(ctx, nil)
			if err != nil {
				b.Fatal(err)
			}
			buf = res.AppendJSON(buf[:0])
		}
		b.SetBytes(int64(len(buf)))
	})
	b.Run("execute", func(b *testing.B) {
		p, _ := ex.Prepare(req)
		b.ReportAllocs()
		for b.Loop() {
			if _, err := p.Execute(ctx, nil); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("baseline", func(b *testing.B) {
		// The floor: the same JSON written by hand from the same rows, with
		// the same map lookups and number formatting, and no GraphQL.
		// Compare execute with it.
		rows := benchRows(ex)
		b.ReportAllocs()
		for b.Loop() {
			buf := make([]byte, 0, 2048)
			benchBaseline(buf, rows)
		}
	})
	b.Run("parse+validate+execute", func(b *testing.B) {
		cold := newBenchExecutorWithCache(b, -1)
		b.ReportAllocs()
		for b.Loop() {
			p, refused := cold.Prepare(req)
			if refused != nil {
				b.Fatal(refused.Errors)
			}
			if _, err := p.Execute(ctx, nil); err != nil {
				b.Fatal(err)
			}
		}
	})
}

func newBenchExecutorWithCache(b *testing.B, size int) *Executor {
	ex := newBenchExecutor(b)
	cfg := *ex
	cfg.CacheSize = size
	out, err := NewExecutor(cfg)
	if err != nil {
		b.Fatal(err)
	}
	return out
}

// benchRows returns the rows the products resolver of ex serves.
func benchRows(ex *Executor) []any {
	v, _ := ex.types["Query"].fields["products"].resolver(context.Background(), &Field{})
	return v.(map[string]any)["items"].([]any)
}

// benchBaseline writes the response to benchQuery for rows by hand.
func benchBaseline(buf []byte, rows []any) []byte {
	buf = append(buf, `{"products":{"total":20,"page":2,"pageSize":20,"items":[`...)
	for i, r := range rows {
		m := r.(map[string]any)
		if i > 0 {
			buf = append(buf, ',')
		}
		buf = append(buf, `{"id":`...)
		buf = appendString(buf, m["id"].(string))
		buf = append(buf, `,"name":`...)
		buf = appendString(buf, m["name"].(string))
		buf = append(buf, `,"price":`...)
		buf = appendFloat(buf, m["price"].(float64))
		buf = append(buf, `,"stock":`...)
		buf = append(buf, m["stock"].(json.Number)...)
		buf = append(buf, `,"available":`...)
		buf = strconv.AppendBool(buf, m["available"].(bool))
		buf = append(buf, `,"category":`...)
		buf = appendString(buf, m["category"].(string))
		buf = append(buf, '}')
	}
	return append(buf, "]}}"...)
}
