package main

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mockgql/mockgql/internal/testdata"
)

// TestRealOperations runs the Node test kit's realops.mjs (graphql-js)
// with real apps' operations, as each app sends them, against the schema
// of the API it was written for (testdata/realops, SOURCES.md), each
// imported into a project on a real node: Shopify's Hydrogen storefront
// (its queries and cart mutations) on Shopify's Storefront API, and
// Apollo's Spotify showcase (its persisted queries and mutations) on its
// schema, and the refined-github extension's queries on GitHub's public
// schema. At least 98% of the operations that validate answer with data
// of their shape and no errors, a lookup by a handle or id a list answered
// finds that item, a mutation's error and warning lists are empty and its
// payload answers the row its key names, no string a screen shows is
// Latin placeholder text, and every image URL answers an image.
func TestRealOperations(t *testing.T) {
	js := filepath.Join("testdata", "js")
	testdata.RequireNodeModule(t, js, "graphql")
	s := startServer(t)
	u := s.signUp("realops@example.com")
	u.must(`mutation { setPlan(plan: TEAM) { plan } }`, nil)
	for _, c := range []struct{ app, schema string }{
		{"shopify-hydrogen", "shopify-storefront.introspection.json.gz"},
		{"spotify-showcase", "spotify-showcase.graphql"},
		{"refined-github", "github.graphql.gz"},
	} {
		t.Run(c.app, func(t *testing.T) {
			doc := readSchema(t, filepath.Join(testdata.Dir(t, "../contract/testdata"), c.schema))
			p := get(u.must(`mutation($n:String!,$s:String!){ createProject(name:$n, sdl:$s) { id slug } }`, map[string]any{"n": c.app, "s": doc}), "createProject").(map[string]any)
			key := get(u.must(`mutation($p:ID!){ createApiKey(projectId:$p, name:"app", scope: RUNTIME) { value } }`, map[string]any{"p": p["id"]}), "createApiKey", "value").(string)
			// The first call compiles the project (GitHub's 316 tables take
			// seconds under -race): wait for it as a client retries a 503.
			runtime := s.base + "/mock/" + p["slug"].(string) + "/graphql"
			for deadline := time.Now().Add(2 * time.Minute); ; time.Sleep(time.Second) {
				r := s.gql(strings.TrimPrefix(runtime, s.base), `{ __typename }`, nil, "X-API-Key", key)
				if r.Status == http.StatusOK || time.Now().After(deadline) {
					break
				}
			}
			ops, err := filepath.Abs(filepath.Join("testdata", "realops", c.app))
			if err != nil {
				t.Fatal(err)
			}
			out := testdata.Node(t, js, nil, "realops.mjs", runtime, key, ops)
			if !strings.HasPrefix(string(out), "ok: ") {
				t.Fatalf("realops.mjs printed %s", out)
			}
			t.Logf("%s", out)
		})
	}
}

// readSchema reads a schema document, gunzipping a .gz one.
func readSchema(t *testing.T, path string) string {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(path, ".gz") {
		return string(raw)
	}
	z, err := gzip.NewReader(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	doc, err := io.ReadAll(z)
	if err != nil {
		t.Fatal(err)
	}
	return string(doc)
}
