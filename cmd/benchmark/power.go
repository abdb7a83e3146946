package main

import (
	"encoding/base64"
	"fmt"
	"time"
)

// The query power scenarios (issue 14): the opt-in where, orderBy, Relay
// connection and AGGREGATE operation on the 1M-row table, each measured
// against the bare handler like the other list scenarios.

// powerOperations adds to a table the LIST operation power<Table> with
// every option and the AGGREGATE operation agg<Table>.
func powerOperations(m *mockgql, tableID, table string) error {
	if _, err := m.gql(`mutation($t:ID!,$n:String!){ createOperation(input:{tableId:$t, name:$n, kind: LIST, options:{relay: true, where: true, orderBy: true}}) { id } }`,
		map[string]any{"t": tableID, "n": "power" + table}); err != nil {
		return err
	}
	_, err := m.gql(`mutation($t:ID!,$n:String!){ createOperation(input:{tableId:$t, name:$n, kind: AGGREGATE}) { id } }`,
		map[string]any{"t": tableID, "n": "agg" + table})
	return err
}

// powerScenarios are the scenarios on table Large.
func powerScenarios() []scenario {
	const items = `items { id name price category inStock sku }`
	const edges = `totalCount edges { cursor node { id name price category inStock sku } } pageInfo { hasNextPage endCursor }`
	after := base64.RawURLEncoding.EncodeToString([]byte("row:500000"))
	return []scenario{
		{"where 1M (and: range + eq, sorted)", `{ powerLarge(pageSize: 20, where: {price: {gte: 500}, category: {eq: "cat-7"}}, orderBy: [{field: price, direction: DESC}]) { total ` + items + ` } }`},
		{"where 1M (or + not)", `{ powerLarge(pageSize: 20, where: {or: [{category: {eq: "cat-7"}}, {price: {lt: 10}}], not: {inStock: {eq: false}}}) { total ` + items + ` } }`},
		{"orderBy 1M (2 keys, 10% of rows)", `{ powerLarge(pageSize: 20, where: {price: {gte: 900}}, orderBy: [{field: category}, {field: price, direction: DESC}]) { total ` + items + ` } }`},
		{"connection 1M (first 20, sorted)", `{ powerLargeConnection(first: 20, orderBy: [{field: price}]) { ` + edges + ` } }`},
		{"connection 1M (after a cursor)", fmt.Sprintf(`{ powerLargeConnection(first: 20, after: %q) { %s } }`, after, edges)},
		{"connection 1M (after a cursor, 2 keys)", fmt.Sprintf(`{ powerLargeConnection(first: 20, after: %q, orderBy: [{field: category}, {field: price, direction: DESC}]) { %s } }`, after, edges)},
		{"Relay last 20 before a cursor (1M)", fmt.Sprintf(`{ powerLargeConnection(last: 20, before: %q) { %s } }`, after, edges)},
		{"Relay last 20 before a cursor (1M, 2 keys)", fmt.Sprintf(`{ powerLargeConnection(last: 20, before: %q, orderBy: [{field: category}, {field: price, direction: DESC}]) { %s } }`, after, edges)},
		{"aggregate 1M (count, sum, avg, where)", `{ aggLarge(where: {category: {eq: "cat-7"}}) { count sum { price } avg { price } min { price } max { price } } }`},
		{"aggregate 1M (groupBy category)", `{ aggLarge(groupBy: [category]) { count groups { key count avg { price } } } }`},
	}
}

// warmPower sends each scenario three times, two seconds apart: the
// indexes they need build in the background on first use (a column's
// Order, then its Groups, then their sums), and until then the queries
// scan, so the measurement would mix scans into the steady state.
func warmPower(m *mockgql, fx *fixture, scs []scenario) error {
	for range 3 {
		for _, sc := range scs {
			if _, err := m.post(fx.runtimePath, fmt.Sprintf(`{"query":%q}`, sc.query), "X-API-Key", fx.key); err != nil {
				return fmt.Errorf("%s: %w", sc.name, err)
			}
		}
		time.Sleep(2 * time.Second)
	}
	return nil
}
