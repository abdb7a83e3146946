package main

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
)

const productsJSON = `[
 {"id": 1, "name": "Desk", "price": {"amount": 120.5, "currency": "EUR"}, "stock": "9",  "market": "eu", "categoryId": 1},
 {"id": 2, "name": "Chair", "price": {"amount": 45, "currency": "EUR"},   "stock": "12", "market": "eu", "categoryId": 1},
 {"id": 3, "name": "Lamp", "price": {"amount": 19.99, "currency": "USD"}, "stock": "100","market": "us", "categoryId": 2},
 {"id": 4, "name": "desk lamp", "price": {"amount": 25, "currency": "USD"},"stock": "7", "market": "us", "categoryId": 2}
]`

// importVia imports a dataset through the importDataset mutation.
func (u *user) importVia(code, format, content, variantField string) response {
	u.s.t.Helper()
	vars := map[string]any{"c": code, "f": format, "x": content}
	if variantField != "" {
		vars["v"] = variantField
	}
	return u.gql(`mutation($c:String!,$f:String!,$x:String!,$v:String){ importDataset(importCode:$c, format:$f, content:$x, variantField:$v) {
		importCode recordCount fieldPaths variants { name recordCount } sampleDocuments(limit: 2) } }`, vars)
}

func TestDataPool(t *testing.T) {
	s := startServer(t)
	u := s.signUp("pool@example.com")

	t.Run("import JSON with nested paths and variants", func(t *testing.T) {
		d := u.importVia("products", "json", productsJSON, "market").data(t)
		ds := get(d, "importDataset")
		if get(ds, "recordCount") != 4.0 {
			t.Fatalf("recordCount: %v", ds)
		}
		paths := fmt.Sprint(get(ds, "fieldPaths"))
		for _, p := range []string{"price.amount", "price.currency", "stock", "market"} {
			if !strings.Contains(paths, p) {
				t.Errorf("fieldPaths %s lack %s", paths, p)
			}
		}
		if fmt.Sprint(get(ds, "variants")) != "[map[name:eu recordCount:2] map[name:us recordCount:2]]" {
			t.Errorf("variants: %v", get(ds, "variants"))
		}
		if get(ds, "sampleDocuments", 0, "price", "amount") != 120.5 {
			t.Errorf("sample: %v", get(ds, "sampleDocuments"))
		}
	})
	t.Run("duplicate importCode is a conflict", func(t *testing.T) {
		if code := u.importVia("products", "json", productsJSON, "").errCode(); code != "CONFLICT" {
			t.Fatalf("want CONFLICT, got %s", code)
		}
	})
	t.Run("NDJSON and CSV", func(t *testing.T) {
		nd := "{\"id\":1,\"city\":\"Oslo\"}\n\n{\"id\":2,\"city\":\"Rome\"}\n"
		if d := u.importVia("cities", "ndjson", nd, "").data(t); get(d, "importDataset", "recordCount") != 2.0 {
			t.Fatalf("ndjson: %v", d)
		}
		csv := "id,name,address.city\n1,Ann,Oslo\n2,Bob,Rome\n3,Cy,Paris\n"
		if d := u.importVia("people", "csv", csv, "").data(t); get(d, "importDataset", "recordCount") != 3.0 {
			t.Fatalf("csv: %v", d)
		}
	})
	t.Run("malformed input says where and stores nothing", func(t *testing.T) {
		cases := []struct{ name, format, content, want string }{
			{"broken json", "json", `[{"id":1},{"id":2,}]`, "record"},
			{"ndjson line", "ndjson", "{\"id\":1}\n{\"id\":\n", "line 2"},
			{"csv fields", "csv", "a,b\n1,2\n3\n", "line 3"},
			{"empty", "json", `[]`, "empty"},
			{"unknown format", "xml", `<a/>`, "format"},
		}
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				r := u.importVia("bad_"+strings.ReplaceAll(c.name, " ", "_"), c.format, c.content, "")
				if r.errCode() != "BAD_USER_INPUT" || !strings.Contains(strings.ToLower(string(r.Raw)), c.want) {
					t.Fatalf("want BAD_USER_INPUT mentioning %q, got %s", c.want, r.Raw)
				}
			})
		}
		d := u.must(`{ dataSources { importCode } }`, nil)
		if strings.Contains(fmt.Sprint(d), "bad_") {
			t.Fatalf("a failed import left a dataset: %v", d)
		}
	})
	t.Run("streaming upload route", func(t *testing.T) {
		r := s.do(http.MethodPost, "/datasets/uploaded?format=ndjson&variantField=kind", []byte("{\"kind\":\"a\",\"v\":1}\n{\"kind\":\"b\",\"v\":2}\n"),
			"Authorization", "Bearer "+u.token)
		if r.Status != 200 || r.JSON["recordCount"] != 2.0 {
			t.Fatalf("upload: %d %s", r.Status, r.Raw)
		}
		r = s.do(http.MethodPost, "/datasets/uploaded?format=ndjson", []byte("{\"v\":1}\n"), "Authorization", "Bearer "+u.token)
		r.refusal(t, 409, "CONFLICT")
		r = s.do(http.MethodPost, "/datasets/broken?format=json", []byte(`[{"v":1},`), "Authorization", "Bearer "+u.token)
		r.refusal(t, 400, "BAD_USER_INPUT")
		r = s.do(http.MethodPost, "/datasets/anon?format=json", []byte(`[{"v":1}]`))
		r.refusal(t, 401, "UNAUTHENTICATED")
	})
}

// TestUploadOverLimit has a server of its own: protoactor-go's remote
// writes a process-global gRPC logger when a node starts, which races with
// a node already running in the same process, so each test runs one node.
func TestUploadOverLimit(t *testing.T) {
	small := startServer(t, func(c *serveConfig) { c.MaxDatasetBytes = 64 })
	o := small.signUp("small@example.com")
	body := []byte("[" + strings.Repeat(`{"v":1},`, 20) + `{"v":1}]`)
	r := small.do(http.MethodPost, "/datasets/big?format=json", body, "Authorization", "Bearer "+o.token)
	r.refusal(t, 413, "PAYLOAD_TOO_LARGE")
}
