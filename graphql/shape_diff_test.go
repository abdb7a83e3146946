package graphql

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/mockgql/mockgql/graphql/exec"
)

// The shape differential: literal documents of a few shapes, valid and
// not, through a runtime whose executor caches plans by shape
// (graphql/exec/shape.go) and through the same runtime without that cache,
// byte for byte: data, errors with their locations in each text, refusals.

// withoutShapes returns rt with an executor that parses, validates and
// plans every text on its own.
func withoutShapes(tb testing.TB, rt *Runtime) *Runtime {
	tb.Helper()
	cfg := *rt.exec
	cfg.NoShapes = true
	ex, err := exec.NewExecutor(cfg)
	if err != nil {
		tb.Fatal(err)
	}
	plain := *rt
	plain.exec = ex
	return &plain
}

// shapeFill fills %I (Int), %N (number), %S (string), %L (list of numbers)
// and %D (Int or string) from rnd, with values that fail too, and spaces
// tokens differently now and then.
func shapeFill(tmpl string, rnd *rand.Rand) string {
	lits := map[byte][]string{
		'I': {"1", "2", "3", "7", "20", "0", "-1", "1000", "5000", "2147483648", "1.5", `"2"`},
		'N': {"10", "12.5", "0", "-3", "99.99", "1e3", "1e400", `"10"`, "99999999999999999999", "7"},
		'S': {`"a"`, `"Tools"`, `"%a%"`, `"tools"`, `""`, `"é\n"`, `"\u0041"`, `"YXJyYXljb25uZWN0aW9uOjE="`, "1"},
		'L': {"[1, 2]", "[]", "[10.5]", "3", `["x"]`},
		'D': {`"1"`, `"3"`, "2", `"nope"`, `"products:1"`},
	}
	var b strings.Builder
	for i := 0; i < len(tmpl); i++ {
		switch c := tmpl[i]; {
		case c == '%' && i+1 < len(tmpl):
			vals := lits[tmpl[i+1]]
			b.WriteString(vals[rnd.IntN(len(vals))])
			i++
		case c == ' ' && rnd.IntN(6) == 0:
			b.WriteString([]string{"\n  ", "\t", ", ", " # c\n"}[rnd.IntN(4)])
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

func TestShapeDifferential(t *testing.T) {
	cases := []struct {
		name      string
		harness   func(testing.TB) *rtHarness
		templates []string
	}{
		{"table project", newRTHarness, []string{
			`{ searchProducts(page: %I, pageSize: %I, sortField: %S, minPrice: %N) { total items { id name price } } }`,
			`{ searchProducts(page: %I, pageSize: %I, sortField: "price", sortDirection: DESC, maxPrice: %N, category: %S) { total items { id name category } } }`,
			`{ searchProducts(categories: %L, nameLike: %S, page: %I) { total items { name } } }`,
			`{ a: searchProducts(page: %I) { total } b: searchProducts(page: %I, bogus: %I) { total } }`,
			`{ searchProducts(productId: %D, inStock: true) { items { id inStock } } ghosts(name: %S) { total } }`,
			`{ product(id: %D) { id name price supplier { name } } customer(id: %D) { name orders { qty placedAt } } }`,
			`{ searchProducts(priceGt: %N, priceLt: %N, pageSize: %I) { total } hiddenProducts(page: %I) { total } }`,
			`{ searchProducts(page: %I, pageSize: %I) { total items { id } } nope(x: %I) }`,
			`{ x: searchProducts(page: %I) @include(if: true) { total } y: productAs(page: %I) { items { name } } }`,
		}},
		{"contract project", func(tb testing.TB) *rtHarness { return newContractHarness(tb, "testdata/contract/filters.graphql") }, []string{
			`{ hasuraBooks(where: {price: {_gt: %N}}, limit: %I, offset: %I) { id title price } }`,
			`{ hasuraBooks(where: {_or: [{price: {_lte: %N}}, {genre: {_eq: FICTION}}], title: {_like: %S}}, order_by: [{price: desc}], limit: %I) { id genre } }`,
			`{ prismaBooks(where: {title: {contains: %S}}, skip: %I, take: %I) { id title author { name } } }`,
			`{ plainBooks(filter: {minPrice: %N, maxPrice: %N}) { id price } bookPage(page: %I, perPage: %I) { total items { id } } }`,
			`{ bookConnection(first: %I, after: %S) { totalCount edges { cursor node { id } } } }`,
			`{ book(id: %D) { id title pages } a: hasuraBooks(limit: %I) { id } }`,
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			rnd := rand.New(rand.NewPCG(33, 2))
			h := tc.harness(t)
			plain := &rtHarness{tb: t, rt: withoutShapes(t, h.rt), pool: h.pool, ov: h.ov}
			shaped, total := 0, 0
			for round := 0; round < 120; round++ {
				for _, tmpl := range tc.templates {
					q := shapeFill(tmpl, rnd)
					want := plain.raw(q, nil)
					got := h.raw(q, nil)
					if !bytes.Equal(got, want) {
						t.Fatalf("%q:\nshaped %s\nplain  %s", q, got, want)
					}
					total++
					if p, res := h.rt.Prepare(exec.Request{Query: q}); res == nil && p.Shaped() {
						shaped++
					}
				}
			}
			if shaped < total/8 { // most texts are refused or of a shape seen for the first time
				t.Fatalf("%d of %d documents ran on a shape", shaped, total)
			}
			t.Logf("%d of %d documents ran on a shape", shaped, total)
		})
	}
}
