package graphql

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"strconv"
	"testing"
	"time"

	"github.com/mockgql/mockgql/dataset"
	"github.com/mockgql/mockgql/graphql/exec"
	"github.com/mockgql/mockgql/model"
)

// powerBenchRows are the documents of `make bench`'s 1M-row dataset
// (cmd/benchmark rows): 50 categories, a third out of stock.
func powerBenchRows(n int) string {
	var buf bytes.Buffer
	for i := 1; i <= n; i++ {
		price := float64((i*7919)%100000) / 100
		fmt.Fprintf(&buf, `{"id":%d,"name":"Product %d","price":%s,"category":"cat-%d","inStock":%t,"sku":"SKU-%08d"}`+"\n",
			i, i, strconv.FormatFloat(price, 'f', -1, 64), i%50, i%3 != 0, i)
	}
	return buf.String()
}

// BenchmarkPowerShapes measures the query-power scenarios of `make bench`
// (`-only list`) in-engine, on the same 1M rows, indexes built: the
// cost of the query itself without HTTP.
func BenchmarkPowerShapes(b *testing.B) {
	ds := rtDataset(b, "large", dataset.NDJSON, "", powerBenchRows(1_000_000))
	pool := memPool{"large": ds}
	p := &model.Project{ID: "bench"}
	mb := &rtModel{tb: b, p: p}
	t := mb.table("Large", "large", nil)
	for _, a := range []struct {
		name string
		typ  model.ScalarType
	}{{"name", model.TypeString}, {"price", model.TypeFloat}, {"category", model.TypeString}, {"inStock", model.TypeBoolean}, {"sku", model.TypeString}} {
		mb.src(t, a.name, a.typ, a.name)
	}
	mb.defaults(t)
	mb.must(p.AddOperation(&model.Operation{ID: mb.id("o"), TableID: t.ID, Name: "powerLarge", Kind: model.OpList, Enabled: true,
		Options: &model.OperationOptions{Relay: true, Where: true, OrderBy: true}}))
	mb.op(t, "aggLarge", model.OpAggregate)
	rt := rtCompile(b, p, Options{CacheRows: 1})
	for _, path := range []string{"price", "category", "inStock"} {
		ds.Order(path)
	}
	for ds.GroupsReady("category") == nil || ds.SumsReady("category", "price") == nil || ds.SumsReady("", "price") == nil {
		time.Sleep(time.Millisecond)
	}
	cursor := func(i int) string {
		return base64.RawURLEncoding.EncodeToString(fmt.Appendf(nil, "row:%d", 500_000+i*997))
	}
	const items = `items { id name price category inStock sku }`
	const edges = `totalCount edges { cursor node { id name price category inStock sku } } pageInfo { hasNextPage endCursor }`
	for _, sh := range []struct {
		name  string
		query func(i int) string // i: 0..49, distinct pages or cursors
	}{
		{"where and", func(i int) string {
			return fmt.Sprintf(`{ powerLarge(page: %d, where: {price: {gte: 500}, category: {eq: "cat-7"}}, orderBy: [{field: price, direction: DESC}]) { total %s } }`, i+1, items)
		}},
		{"where or not", func(i int) string {
			return fmt.Sprintf(`{ powerLarge(page: %d, where: {or: [{category: {eq: "cat-7"}}, {price: {lt: 10}}], not: {inStock: {eq: false}}}) { total %s } }`, i+1, items)
		}},
		{"orderBy 2 keys", func(i int) string {
			return fmt.Sprintf(`{ powerLarge(page: %d, where: {price: {gte: 900}}, orderBy: [{field: category}, {field: price, direction: DESC}]) { total %s } }`, i+1, items)
		}},
		{"after a cursor", func(i int) string {
			return fmt.Sprintf(`{ powerLargeConnection(first: 20, after: %q) { %s } }`, cursor(i), edges)
		}},
		{"after a cursor 2 keys", func(i int) string {
			return fmt.Sprintf(`{ powerLargeConnection(first: 20, after: %q, orderBy: [{field: category}, {field: price, direction: DESC}]) { %s } }`, cursor(i), edges)
		}},
		{"last before a cursor", func(i int) string {
			return fmt.Sprintf(`{ powerLargeConnection(last: 20, before: %q) { %s } }`, cursor(i), edges)
		}},
		{"last before a cursor 2 keys", func(i int) string {
			return fmt.Sprintf(`{ powerLargeConnection(last: 20, before: %q, orderBy: [{field: category}, {field: price, direction: DESC}]) { %s } }`, cursor(i), edges)
		}},
		{"aggregate where", func(i int) string {
			return fmt.Sprintf(`{ aggLarge(where: {category: {eq: "cat-%d"}}) { count sum { price } avg { price } min { price } max { price } } }`, i)
		}},
		{"groupBy", func(i int) string {
			return fmt.Sprintf(`{ aggLarge(groupBy: [category]) { count groups { key count avg { price } } } a%d: aggLarge { count } }`, i)
		}},
		{"groupBy under where", func(i int) string {
			return fmt.Sprintf(`{ aggLarge(where: {price: {gte: %d}}, groupBy: [category]) { count groups { key count avg { price } } } }`, 500+i)
		}},
	} {
		b.Run(sh.name, func(b *testing.B) {
			preps := make([]*exec.Prepared, 50)
			for i := range preps {
				preps[i] = rtPrepare(b, rt, sh.query(i))
			}
			benchQueries(b, rt, preps[:1], pool, nil) // builds the id lookup once
			benchQueries(b, rt, preps, pool, nil)
		})
	}
}
