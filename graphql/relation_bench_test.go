package graphql

import (
	"bytes"
	"context"
	"fmt"
	"testing"

	"github.com/mockgql/mockgql/dataset"
	"github.com/mockgql/mockgql/graphql/exec"
	"github.com/mockgql/mockgql/model"
)

// BenchmarkRelations compares a flat page of 20 of 1M products with the
// same page and each product's customer (many-to-one), and with a page of
// 20 of 50k customers and their 20 products each (one-to-many). The flat
// page of 420 writes as many rows as the one-to-many page: next to it, the
// one-to-many figure shows what finding the children costs.
func BenchmarkRelations(b *testing.B) {
	var pb, cb bytes.Buffer
	for i := 1; i <= 1_000_000; i++ {
		fmt.Fprintf(&pb, `{"id":%d,"name":"Item %d","price":%d,"customerId":%d}`+"\n", i, i, i*7919%100000, i%50_000)
	}
	for i := 0; i < 50_000; i++ {
		fmt.Fprintf(&cb, `{"id":%d,"name":"Customer %d"}`+"\n", i, i)
	}
	pool := memPool{"products": rtDataset(b, "products", dataset.NDJSON, "", pb.String()), "custs": rtDataset(b, "custs", dataset.NDJSON, "", cb.String())}
	m := &rtModel{tb: b, p: &model.Project{ID: "rel"}}
	product := m.table("Product", "products", nil)
	m.src(product, "name", model.TypeString, "name")
	m.src(product, "price", model.TypeFloat, "price")
	m.src(product, "customerId", model.TypeInt, "customerId")
	m.defaults(product)
	customer := m.table("Customer", "custs", nil)
	m.src(customer, "name", model.TypeString, "name")
	m.defaults(customer)
	m.relation(model.Relation{SourceTableID: customer.ID, TargetTableID: product.ID, Cardinality: model.OneToMany,
		Direction: model.Bidirectional, SourceAttribute: "id", TargetAttribute: "customerId", FieldName: "products", InverseFieldName: "customer"})
	rt := rtCompile(b, m.p, Options{CacheRows: 1})
	pool["products"].Order("price")
	ctx := context.Background()
	for _, tc := range []struct{ name, query string }{
		{"flat page", `{ products(page: %d, sortField: "price") { total items { id name price } } }`},
		{"flat page of 420", `{ products(page: %d, pageSize: 420, sortField: "price") { total items { id name price } } }`},
		{"many-to-one", `{ products(page: %d, sortField: "price") { total items { id name price customer { id name } } } }`},
		{"one-to-many", `{ customers(page: %d) { total items { id name products { id name price } } } }`},
	} {
		b.Run(tc.name, func(b *testing.B) {
			preps := make([]*exec.Prepared, 50)
			for i := range preps {
				preps[i] = rtPrepare(b, rt, fmt.Sprintf(tc.query, i+1))
				if _, err := rt.Query(ctx, preps[i], pool, nil); err != nil {
					b.Fatal(err)
				}
			}
			benchQueries(b, rt, preps, pool, nil)
		})
	}
}
