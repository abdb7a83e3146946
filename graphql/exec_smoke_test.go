package graphql

import "testing"

func TestSmoke(t *testing.T) {
	ex := newTestExecutor(t, nil)
	for _, q := range []string{
		`{ products { total page pageSize items { id name price stock available tags category { id name } sizes(limit: 2) __typename } } }`,
		`{ a: product(id: 2) { name secret } b: product(id: "3") { name } }`,
		`{ node(id: "c1") { __typename id ... on Category { name } } n2: node(id: "1") { id ... on Product { name } } }`,
		`{ search(text: "x") { __typename ... on Product { id } ... on Category { name } } }`,
		`{ fail internal panics failNonNull }`,
		`{ notReady { id } path badInt bigInt badEnum wrongType }`,
		`{ echo(i: 1, f: 2, s: "x", b: true, id: 5, e: DESC, input: {name: "n"}, ints: 3, j: {a: [1, 2.5, "s", null, X]}) }`,
		`{ loose(page: 2, extra: "x", n: 5) }`,
		`{ __type(name: "Product") { name kind fields { name type { kind name ofType { kind name } } } } }`,
		`{ products(page: 99999999999) { total } }`,
		`{ nope }`,
		`{`,
	} {
		_, out := runQuery(t, ex, q, "", "")
		t.Logf("%s\n=> %s", q, out)
	}
}
