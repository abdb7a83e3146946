package testdata

import (
	"bytes"
	"strconv"
)

// BenchProducts is the NDJSON of the benchmarks' generated products: n
// rows with ids 1..n, a name "Item <id>", a price spread over 0–1,000, one
// of five categories and a customerId of 0–999. graphql's and engine's
// tests read it with dataset.Read.
func BenchProducts(n int) []byte {
	var buf bytes.Buffer
	cats := []string{"tools", "toys", "garden", "books", "food"}
	for i := 1; i <= n; i++ {
		buf.WriteString(`{"id":`)
		buf.WriteString(strconv.Itoa(i))
		buf.WriteString(`,"name":"Item `)
		buf.WriteString(strconv.Itoa(i))
		buf.WriteString(`","price":`)
		buf.WriteString(strconv.FormatFloat(float64(i*7919%100000)/100, 'f', -1, 64))
		buf.WriteString(`,"category":"`)
		buf.WriteString(cats[i%len(cats)])
		buf.WriteString(`","customerId":`)
		buf.WriteString(strconv.Itoa(i % 1000))
		buf.WriteString("}\n")
	}
	return buf.Bytes()
}
