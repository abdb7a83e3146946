package dataset

import (
	"bytes"
	"reflect"
	"slices"
	"testing"
)

func TestDemo(t *testing.T) {
	tests := map[string]struct {
		rows     int
		paths    []string
		variants []Variant
	}{
		"categories": {20, []string{"id", "name", "slug"}, nil},
		"products": {demoProducts, []string{"id", "sku", "name", "description", "categoryId", "price.amount",
			"price.currency", "stock", "inStock", "tags", "market"}, []Variant{{"eu", 1000}, {"us", 1000}}},
		"customers": {demoCustomers, []string{"id", "firstName", "lastName", "email", "address.street",
			"address.city", "address.country", "createdAt"}, nil},
		"orders": {demoOrders, []string{"id", "customerId", "productId", "quantity", "total", "status", "createdAt"}, nil},
	}
	sets := Demo()
	if len(sets) != len(tests) {
		t.Fatalf("Demo has %d sets, want %d", len(sets), len(tests))
	}
	for _, set := range sets {
		t.Run(set.ImportCode, func(t *testing.T) {
			want := tests[set.ImportCode]
			d := mustRead(t, set.Format, string(set.Data), set.VariantField)
			if d.Len() != want.rows || !slices.Equal(d.Paths(), want.paths) || !reflect.DeepEqual(d.Variants(), want.variants) {
				t.Errorf("got %d rows, paths %q, variants %v; want %d, %q, %v",
					d.Len(), d.Paths(), d.Variants(), want.rows, want.paths, want.variants)
			}
		})
	}
	products := mustRead(t, JSON, string(sets[1].Data), "market")
	if k := products.Value(0, "stock").Kind; k != String {
		t.Errorf("stock is a %v, want a number stored as text", k)
	}
	if k := products.Value(0, "tags").Kind; k != Raw {
		t.Errorf("tags is a %v, want raw JSON", k)
	}
	categories := mustRead(t, JSON, string(sets[0].Data))
	for row := range products.Len() {
		id := products.Value(row, "categoryId").Key()
		if len(categories.Lookup("id", id)) != 1 {
			t.Fatalf("product %d: category %s not found", row, id)
		}
	}
}

func TestDemoDeterministic(t *testing.T) {
	a, b := Demo(), Demo()
	for i := range a {
		if !bytes.Equal(a[i].Data, b[i].Data) {
			t.Errorf("Demo %s differs between calls", a[i].ImportCode)
		}
	}
}

func BenchmarkDemo(b *testing.B) {
	for range b.N {
		Demo()
	}
}
