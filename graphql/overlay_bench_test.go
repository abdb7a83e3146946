package graphql

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// BenchmarkMutations10 is one request of 10 mutations (40% updates, 40%
// creates, 20% deletes, as make bench sends them) on the 1M-row table
// whose overlay already holds 10,000 records, followed by one list query
// of the new version: what a mutation costs as the records grow.
func BenchmarkMutations10(b *testing.B) {
	const rows = 1_000_000
	pool := memPool{"bench": rtBenchDataset(b, rows)}
	rt := rtCompile(b, rtBenchProject(b), Options{})
	ov := NewOverlay()
	rnd := rand.New(rand.NewPCG(3, 3))
	ids := rnd.Perm(rows)
	ctx := context.Background()
	list := rtPrepare(b, rt, `{ mix(minPrice: 100, sortField: "price") { total items { id name price } } }`)
	done := 0
	request := func() {
		var s strings.Builder
		s.WriteString("mutation {")
		for i := 0; i < 10; i, done = i+1, done+1 {
			id, price := ids[done%rows]+1, float64(rnd.IntN(100000))/100
			switch x := rnd.IntN(10); {
			case x < 4:
				fmt.Fprintf(&s, ` m%d: updateProduct(id: "%d", input: {price: %g, name: "Changed %d"}) { id }`, i, id, price, id)
			case x < 8:
				fmt.Fprintf(&s, ` m%d: createProduct(input: {name: "New %d", price: %g, category: "cat-%d"}) { id }`, i, done, price, rnd.IntN(50))
			default:
				fmt.Fprintf(&s, ` m%d: deleteProduct(id: "%d") { id }`, i, id)
			}
		}
		s.WriteString(" }")
		_, changes, err := rt.Mutate(ctx, rtPrepare(b, rt, s.String()), pool, ov)
		if err != nil {
			b.Fatal(err)
		}
		ov.Apply(changes)
		if _, err := rt.Query(ctx, list, pool, ov); err != nil {
			b.Fatal(err)
		}
	}
	var pre []Change // the 10,000 records, applied at once
	for ; done < 10_000; done++ {
		c := Change{TableID: "t_Product", RowID: fmt.Sprint(ids[done] + 1), Values: map[string]json.RawMessage{"a_Product_price": json.RawMessage("1.5")}}
		switch done % 5 {
		case 1, 2:
			c = Change{TableID: "t_Product", RowID: fmt.Sprintf("new%d", done), Created: true, Seq: int64(done), Values: c.Values}
		case 3:
			c.Deleted, c.Values = true, nil
		}
		pre = append(pre, c)
	}
	ov.Apply(pre)
	request()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		request()
	}
}
