package main

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mockgql/mockgql/internal/testdata"
)

// TestRealOperationsShopify runs the Node test kit's realops.mjs
// (graphql-js) with a real storefront's operations — the 35 queries and
// cart mutations of Shopify's Hydrogen skeleton and cart handler, as the
// app sends them (testdata/realops/shopify-hydrogen, MIT, SOURCES.md) —
// against Shopify's Storefront API schema (contract/testdata) imported into
// a project on a real node: at least 98% of the operations that validate
// answer with data of their shape and no errors, a lookup by a handle or
// id a list answered finds that item, no string a screen shows is Latin
// placeholder text, and every image URL answers an image.
func TestRealOperationsShopify(t *testing.T) {
	js := filepath.Join("testdata", "js")
	testdata.RequireNodeModule(t, js, "graphql")
	raw, err := os.ReadFile(filepath.Join(testdata.Dir(t, "../contract/testdata"), "shopify-storefront.introspection.json.gz"))
	if err != nil {
		t.Fatal(err)
	}
	z, err := gzip.NewReader(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	doc, err := io.ReadAll(z)
	if err != nil {
		t.Fatal(err)
	}
	s := startServer(t)
	u := s.signUp("realops@example.com")
	u.must(`mutation { setPlan(plan: TEAM) { plan } }`, nil)
	p := get(u.must(`mutation($s:String!){ createProject(name: "Storefront", sdl:$s) { id slug } }`, map[string]any{"s": string(doc)}), "createProject").(map[string]any)
	key := get(u.must(`mutation($p:ID!){ createApiKey(projectId:$p, name:"app", scope: RUNTIME) { value } }`, map[string]any{"p": p["id"]}), "createApiKey", "value").(string)
	ops, err := filepath.Abs(filepath.Join("testdata", "realops", "shopify-hydrogen"))
	if err != nil {
		t.Fatal(err)
	}
	out := testdata.Node(t, js, nil, "realops.mjs", s.base+"/mock/"+p["slug"].(string)+"/graphql", key, ops)
	if !strings.HasPrefix(string(out), "ok: ") {
		t.Fatalf("realops.mjs printed %s", out)
	}
	t.Logf("%s", out)
}
