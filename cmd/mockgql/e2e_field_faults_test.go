package main

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// fieldRuleFields selects every field of FieldRule.
const fieldRuleFields = `fieldRules { path message code extensions rate count sandbox }`

// setFieldRules sets the project's faults to the field rules alone.
func (sh *shop) setFieldRules(t *testing.T, rules ...map[string]any) response {
	t.Helper()
	return sh.owner.gql(`mutation($p:ID!,$f:FaultSettingsInput){ setFaults(projectId:$p, faults:$f) { id faults { `+fieldRuleFields+` } } }`,
		map[string]any{"p": sh.project["id"], "f": map[string]any{"fieldRules": rules}})
}

// lastFault is the fault of the request log's newest entry.
func (sh *shop) lastFault(t *testing.T) any {
	t.Helper()
	return sh.requestLog(t, 1)[0]["fault"]
}

// errorsOf returns the answer's errors as path, message, code and
// locations, for comparisons.
func errorsOf(r response) []string {
	var out []string
	errs, _ := r.JSON["errors"].([]any)
	for _, e := range errs {
		m := e.(map[string]any)
		ext, _ := json.Marshal(m["extensions"])
		out = append(out, fmt.Sprintf("%v %q %s %v", m["path"], m["message"], ext, m["locations"]))
	}
	return out
}

// at is the locations member errorsOf shows for the field that begins
// with sub in the one-line query q.
func at(q, sub string) string {
	return fmt.Sprintf("[map[column:%d line:1]]", strings.Index(q, sub)+1)
}

// TestFieldFaults drives field rules on a real `mockgql serve` process:
// set through setFaults and through X-Mock-Fault, on a table project and
// a contract project; the answer holds the field's null and an error
// naming it; a count rule fires in as many requests as it says; a rule of
// a sandbox fires in that sandbox alone; a mutation's failing root field
// writes nothing; the request log and X-Mock-Fault-Applied name the rules
// that fired.
func TestFieldFaults(t *testing.T) {
	t.Parallel() // its nodes are processes: see startProc
	p := startProc(t, t.TempDir(), freePort(t))
	sh := newShop(t, p.server, "field-faults@example.com", "ff")
	const q = `{ products(pageSize: 2) { total items { id name price category { title } } } }`

	t.Run("bad rules are refused, naming the rule", func(t *testing.T) {
		for _, tc := range []struct {
			rule  map[string]any
			names string
		}{
			{map[string]any{"path": "price", "code": "INTERNAL", "rate": 1}, "fieldRules[0].path"},
			{map[string]any{"path": "Product.price", "code": "TEAPOT", "rate": 1}, "fieldRules[0].code"},
			{map[string]any{"path": "Product.price", "code": "INTERNAL"}, "rate above 0 or a count"},
			{map[string]any{"path": "Product.price", "code": "INTERNAL", "rate": 1, "extensions": map[string]any{"code": "X"}}, "must not hold code"},
			{map[string]any{"path": "Product.price", "code": "INTERNAL", "rate": 1, "sandbox": "no spaces"}, "sandbox"},
			{map[string]any{"path": "Product.price", "code": "INTERNAL", "rate": 1, "message": strings.Repeat("m", 513)}, "message"},
		} {
			r := sh.setFieldRules(t, tc.rule)
			if msg := fmt.Sprint(get(r.JSON, "errors", 0, "message")); r.errCode() != "BAD_USER_INPUT" || !strings.Contains(msg, tc.names) {
				t.Errorf("%v: %s", tc.rule, r.Raw)
			}
		}
		rules := make([]map[string]any, 33)
		for i := range rules {
			rules[i] = map[string]any{"path": "Product.price", "code": "INTERNAL", "rate": 1}
		}
		if r := sh.setFieldRules(t, rules...); r.errCode() != "BAD_USER_INPUT" || !strings.Contains(string(r.Raw), "at most 32") {
			t.Errorf("33 rules: %s", r.Raw)
		}
	})

	t.Run("a rule set through setFaults, past the answer cache", func(t *testing.T) {
		sh.faulted(q, "").data(t)
		sh.faulted(q, "").data(t) // now a kept answer
		d := sh.setFieldRules(t, map[string]any{"path": "Product.price", "message": "price feed down", "code": "UNAVAILABLE",
			"extensions": map[string]any{"retryable": true}, "rate": 1}).data(t)
		if got := fmt.Sprint(get(d, "setFaults", "faults", "fieldRules")); got != "[map[code:UNAVAILABLE count:0 extensions:map[retryable:true] message:price feed down path:Product.price rate:1 sandbox:<nil>]]" {
			t.Fatalf("rules read back as %s", got)
		}
		r := sh.faulted(q, "")
		want := []string{
			`[products items 0 price] "price feed down" {"code":"UNAVAILABLE","retryable":true} ` + at(q, "price"),
			`[products items 1 price] "price feed down" {"code":"UNAVAILABLE","retryable":true} ` + at(q, "price"),
		}
		if r.Status != 200 || !reflect.DeepEqual(errorsOf(r), want) || get(r.JSON, "data", "products", "items", 1, "price") != nil ||
			get(r.JSON, "data", "products", "items", 1, "name") == nil {
			t.Fatalf("got %d %s", r.Status, r.Raw)
		}
		if h := r.Header.Get("X-Mock-Fault-Applied"); h != "field=Product.price" {
			t.Errorf("X-Mock-Fault-Applied %q", h)
		}
		if f := sh.lastFault(t); f != "field=Product.price" {
			t.Errorf("the log's fault is %v", f)
		}
		other := sh.faulted(`{ categories { total } }`, "").data(t) // selects no price: no error, nothing logged
		if other == nil || sh.lastFault(t) != nil {
			t.Errorf("a request without the field: %v, fault %v", other, sh.lastFault(t))
		}
	})

	t.Run("a non-null field nulls its nearest nullable parent", func(t *testing.T) {
		sh.setFieldRules(t, map[string]any{"path": "Query.products.items.id", "code": "NOT_FOUND", "rate": 1}).data(t)
		r := sh.faulted(q, "")
		want := []string{`[products items 0 id] "injected fault: field=Query.products.items.id" {"code":"NOT_FOUND"} ` + at(q, "id name")}
		if !reflect.DeepEqual(errorsOf(r), want) || r.JSON["data"] != nil {
			t.Fatalf("got %s", r.Raw)
		}
	})

	t.Run("a count rule fires in the first requests that select its field", func(t *testing.T) {
		sh.setFieldRules(t, map[string]any{"path": "*.title", "code": "FORBIDDEN", "count": 2}).data(t)
		sh.faulted(`{ products(pageSize: 1) { total } }`, "").data(t) // no title: uses up nothing
		for i := range 3 {
			r := sh.faulted(q, "")
			fired := len(errorsOf(r)) > 0
			if fired != (i < 2) || (fired && sh.lastFault(t) != "field=*.title") {
				t.Fatalf("request %d: fired %v: %s", i, fired, r.Raw)
			}
		}
	})

	t.Run("a rule of a sandbox fires in it alone", func(t *testing.T) {
		sh.setFieldRules(t, map[string]any{"path": "Product.name", "code": "INTERNAL", "rate": 1, "sandbox": "ci-1"}).data(t)
		if r := sh.faulted(q, ""); len(errorsOf(r)) != 0 {
			t.Fatalf("fired without a sandbox: %s", r.Raw)
		}
		b, _ := json.Marshal(map[string]any{"query": q})
		for sandbox, fires := range map[string]bool{"ci-1": true, "ci-2": false} {
			r := sh.s.do("POST", sh.runtime, b, "Authorization", "Bearer "+sh.fullKey, "X-Mock-Sandbox", sandbox)
			if got := len(errorsOf(r)) == 2; got != fires {
				t.Errorf("in sandbox %s: fired %v, want %v: %s", sandbox, got, fires, r.Raw)
			}
		}
	})

	t.Run("mutations: a failing root field writes nothing, a failing payload field does not stop the write", func(t *testing.T) {
		total := func() any {
			return get(sh.faulted(`{ products(pageSize: 1) { total } }`, "none").data(t), "products", "total")
		}
		sh.setFieldRules(t, map[string]any{"path": "Mutation.createProduct", "code": "UNAVAILABLE", "count": 1}).data(t)
		const create = `mutation { createProduct(input: {name: "Field fault", price: 1}) { id name } }`
		before := total()
		r := sh.faulted(create, "")
		want := []string{`[createProduct] "injected fault: field=Mutation.createProduct" {"code":"UNAVAILABLE"} ` + at(create, "createProduct")}
		if !reflect.DeepEqual(errorsOf(r), want) || get(r.JSON, "data", "createProduct") != nil {
			t.Fatalf("a failing createProduct: %s", r.Raw)
		}
		if f := sh.lastFault(t); f != "field=Mutation.createProduct" {
			t.Errorf("the log's fault is %v", f)
		}
		if after := total(); after != before {
			t.Fatalf("a failing createProduct wrote a row: total %v, then %v", before, after)
		}
		if r := sh.faulted(create, ""); len(errorsOf(r)) != 0 || fmt.Sprint(total()) == fmt.Sprint(before) {
			t.Fatalf("the count's second createProduct: %s, total %v", r.Raw, total())
		}
		const priced = `mutation { createProduct(input: {name: "Priced", price: 2}) { id price } }`
		before = total()
		r = sh.faulted(priced, "field=Product.price")
		want = []string{`[createProduct price] "injected fault: field=Product.price" {"code":"INTERNAL"} ` + at(priced, "price }")}
		if !reflect.DeepEqual(errorsOf(r), want) || get(r.JSON, "data", "createProduct", "id") == nil || fmt.Sprint(total()) == fmt.Sprint(before) {
			t.Fatalf("a failing price in createProduct's answer: %s (total %v, then %v)", r.Raw, before, total())
		}
	})

	t.Run("X-Mock-Fault field= replaces the settings for one request", func(t *testing.T) {
		sh.setFieldRules(t, map[string]any{"path": "Product.price", "code": "INTERNAL", "rate": 1}).data(t)
		r := sh.faulted(q, "field=Category.title;error=NOT_FOUND")
		want := []string{
			`[products items 0 category title] "injected fault: field=Category.title" {"code":"NOT_FOUND"} ` + at(q, "title"),
			`[products items 1 category title] "injected fault: field=Category.title" {"code":"NOT_FOUND"} ` + at(q, "title"),
		}
		if !reflect.DeepEqual(errorsOf(r), want) || r.Header.Get("X-Mock-Fault-Applied") != "field=Category.title" {
			t.Fatalf("got %v %s", r.Header, r.Raw)
		}
		if f := sh.lastFault(t); f != "field=Category.title" {
			t.Errorf("the log's fault is %v", f)
		}
		if r := sh.faulted(q, "field=nope"); r.Status != 400 || r.errCode() != "BAD_USER_INPUT" {
			t.Errorf("a bad field part: %d %s", r.Status, r.Raw)
		}
	})

	t.Run("a contract project: a non-null chain to the root nulls data", func(t *testing.T) {
		cp := newContractProject(t, p.server, "field-faults-contract@example.com", contractDoc(t, "relay.graphql"))
		csh := cp.shop(p.server)
		const books = `{ books(first: 2) { edges { node { title isbn } } } }`
		r := csh.faulted(books, "field=Book.isbn")
		if len(errorsOf(r)) != 2 || get(r.JSON, "data", "books", "edges", 0, "node", "title") == nil {
			t.Fatalf("nullable isbn: %s", r.Raw)
		}
		r = csh.faulted(books, "field=Book.title")
		want := []string{`[books edges 0 node title] "injected fault: field=Book.title" {"code":"INTERNAL"} ` + at(books, "title")}
		if !reflect.DeepEqual(errorsOf(r), want) || r.JSON["data"] != nil {
			t.Fatalf("non-null title: %s", r.Raw)
		}
	})
}
