package graphql

import (
	"encoding/base64"
	"fmt"
	"testing"
	"time"

	"github.com/mockgql/mockgql/model"
)

// BenchmarkPowerShapes measures the query-power shapes of `make bench`
// over 1M rows in-engine, indexes built, uncached (distinct pages or
// cursors).
func BenchmarkPowerShapes(b *testing.B) {
	ds := rtBenchDataset(b, 1_000_000)
	pool := memPool{"bench": ds}
	p := rtBenchProject(b)
	mb := &rtModel{tb: b, p: p}
	t := p.Tables[0]
	mb.must(p.AddOperation(&model.Operation{ID: mb.id("o"), TableID: t.ID, Name: "power", Kind: model.OpList, Enabled: true,
		Options: &model.OperationOptions{Relay: true, Where: true, OrderBy: true}}))
	mb.op(t, "agg", model.OpAggregate)
	rt := rtCompile(b, p, Options{CacheRows: 1})
	for _, path := range []string{"price", "name", "category", "customerId"} {
		ds.Order(path)
	}
	for ds.GroupsReady("category") == nil || ds.GroupsReady("customerId") == nil || ds.SumsReady("category", "price") == nil ||
		ds.SumsReady("", "price") == nil || ds.SumsReady("category", "customerId") == nil || ds.SumsReady("", "customerId") == nil {
		time.Sleep(time.Millisecond)
	}
	cursor := func(i int) string {
		return base64.RawURLEncoding.EncodeToString(fmt.Appendf(nil, "row:%d", 400_000+i*997))
	}
	for _, sh := range []struct {
		name  string
		query func(i int) string
	}{
		{"where or + not", func(i int) string {
			return fmt.Sprintf(`{ power(page: %d, where: {or: [{category: {eq: "toys"}}, {price: {lt: 10}}], not: {customerId: {lt: 500}}}) { total items { id } } }`, i+1)
		}},
		{"orderBy 2 keys, 10%", func(i int) string {
			return fmt.Sprintf(`{ power(page: %d, where: {price: {gte: 900}}, orderBy: [{field: category}, {field: price, direction: DESC}]) { total items { id } } }`, i+1)
		}},
		{"after a cursor", func(i int) string {
			return fmt.Sprintf(`{ powerConnection(first: 20, after: %q) { totalCount edges { node { id } } } }`, cursor(i))
		}},
		{"after a cursor, 2 keys", func(i int) string {
			return fmt.Sprintf(`{ powerConnection(first: 20, after: %q, orderBy: [{field: category}, {field: price, direction: DESC}]) { totalCount edges { node { id } } } }`, cursor(i))
		}},
		{"aggregate where", func(i int) string {
			return fmt.Sprintf(`{ agg(where: {category: {eq: "toys"}, customerId: {gte: %d}}) { count sum { price } avg { price } min { price } max { price } } }`, i)
		}},
		{"groupBy category", func(i int) string {
			return fmt.Sprintf(`{ agg(groupBy: [category]) { count groups { key count avg { price } } } a%d: agg { count } }`, i)
		}},
		{"groupBy customerId under where", func(i int) string {
			return fmt.Sprintf(`{ agg(where: {price: {gte: %d}}, groupBy: [customerId]) { count groups { key count avg { price } } } }`, 500+i)
		}},
	} {
		b.Run(sh.name, func(b *testing.B) {
			preps := make([]*Prepared, 50)
			for i := range preps {
				preps[i] = rtPrepare(b, rt, sh.query(i))
			}
			benchQueries(b, rt, preps, pool, nil)
		})
	}
}
