package main

import (
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"net/url"
	"os"
	osexec "os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// The end-to-end proofs of incremental delivery (docs/using/runtime.md#defer-and-stream):
// an operation with @defer or @stream answers multipart/mixed parts to a
// client that accepts them, the complete result to any other.

// incrementalAnswer is one runtime answer: its parts when multipart, or
// its body as the only part.
type incrementalAnswer struct {
	contentType string
	header      http.Header
	parts       []map[string]any
}

// askIncremental runs q on path with accept (method GET or POST) and reads
// the answer's parts with the standard library's multipart reader.
func askIncremental(t *testing.T, s *server, method, path, q string, vars map[string]any, accept string, headers ...string) incrementalAnswer {
	t.Helper()
	var body io.Reader
	u := s.base + path
	if method == http.MethodGet {
		sep := "?"
		if strings.Contains(u, "?") {
			sep = "&"
		}
		u += sep + "query=" + url.QueryEscape(q)
	} else {
		b, _ := json.Marshal(map[string]any{"query": q, "variables": vars})
		body = strings.NewReader(string(b))
	}
	req, err := http.NewRequest(method, u, body)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	if accept != "" {
		req.Header.Set("Accept", accept)
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	a := incrementalAnswer{contentType: resp.Header.Get("Content-Type"), header: resp.Header}
	mt, params, _ := mime.ParseMediaType(a.contentType)
	if resp.StatusCode != 200 {
		raw, _ := io.ReadAll(resp.Body)
		t.Fatalf("%s %s: %d %s", method, q, resp.StatusCode, raw)
	}
	if mt != "multipart/mixed" {
		var v map[string]any
		if err := json.NewDecoder(resp.Body).Decode(&v); err != nil {
			t.Fatal(err)
		}
		a.parts = []map[string]any{v}
		return a
	}
	mr := multipart.NewReader(resp.Body, params["boundary"])
	for {
		p, err := mr.NextPart()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("reading the parts of %s: %v", q, err)
		}
		if ct := p.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
			t.Fatalf("a part's Content-Type is %q", ct)
		}
		var v map[string]any
		if err := json.NewDecoder(p).Decode(&v); err != nil {
			t.Fatalf("a part of %s is not JSON: %v", q, err)
		}
		a.parts = append(a.parts, v)
	}
	return a
}

// mergeAt deep-merges src into dst at path, as clients apply increments.
func mergeAt(dst any, path []any, src any) any {
	if len(path) > 0 {
		switch d := dst.(type) {
		case map[string]any:
			k := path[0].(string)
			d[k] = mergeAt(d[k], path[1:], src)
		case []any:
			i := int(path[0].(float64))
			d[i] = mergeAt(d[i], path[1:], src)
		}
		return dst
	}
	sm, ok := src.(map[string]any)
	dm, ok2 := dst.(map[string]any)
	if !ok || !ok2 {
		return src
	}
	for k, v := range sm {
		dm[k] = mergeAt(dm[k], nil, v)
	}
	return dm
}

// assemble applies a multipart answer's increments (either format) to
// its initial data, checking hasNext, ids and paths on the way, and
// returns the data and the labels of the increments in order.
func assemble(t *testing.T, a incrementalAnswer) (any, []string) {
	t.Helper()
	if len(a.parts) < 2 || a.parts[0]["hasNext"] != true {
		t.Fatalf("want an initial part with hasNext and increments, got %v (%s)", a.parts, a.contentType)
	}
	data := a.parts[0]["data"]
	pending := map[string][]any{}
	addPending := func(p map[string]any) {
		for _, e := range asList(p["pending"]) {
			pending[get(e, "id").(string)] = asList(get(e, "path"))
		}
	}
	addPending(a.parts[0])
	var labels []string
	for i, p := range a.parts[1:] {
		if last := i == len(a.parts)-2; p["hasNext"] != !last {
			t.Fatalf("part %d: hasNext %v", i+1, p["hasNext"])
		}
		addPending(p)
		for _, inc := range asList(p["incremental"]) {
			path := asList(get(inc, "path"))
			if id, ok := get(inc, "id").(string); ok {
				if path, ok = pending[id]; !ok {
					t.Fatalf("part %d delivers id %s, never pending", i+1, id)
				}
			}
			if items, ok := get(inc, "items").([]any); ok {
				data = appendItems(data, path, items)
				continue
			}
			data = mergeAt(data, path, get(inc, "data"))
			if l, ok := get(inc, "label").(string); ok {
				labels = append(labels, l)
			}
		}
	}
	return data, labels
}

// appendItems appends streamed items to the list at path (the list's own
// path in v0.2, its next index's in the 2022-08-24 format).
func appendItems(data any, path []any, items []any) any {
	if _, ok := path[len(path)-1].(float64); ok {
		path = path[:len(path)-1]
	}
	var walk func(v any, p []any) any
	walk = func(v any, p []any) any {
		if len(p) == 0 {
			return append(v.([]any), items...)
		}
		switch d := v.(type) {
		case map[string]any:
			d[p[0].(string)] = walk(d[p[0].(string)], p[1:])
		case []any:
			d[int(p[0].(float64))] = walk(d[int(p[0].(float64))], p[1:])
		}
		return v
	}
	return walk(data, path)
}

func asList(v any) []any {
	l, _ := v.([]any)
	return l
}

// TestRuntimeIncremental: @defer on a table project over POST and GET,
// in both formats, against the complete result of the same query; a
// client that accepts only JSON, and @defer(if: false), get the complete
// result; the request log holds one entry and faults apply; @stream
// streams a table's list; a mutation's answer is deferred too.
func TestRuntimeIncremental(t *testing.T) {
	s := startServer(t)
	sh := newShop(t, s, "defer@example.com", "df")
	auth := []string{"Authorization", "Bearer " + sh.fullKey}
	const q = `{ categories { items { id ... @defer(label: "more") { title products { name } } } total } }`
	complete := askIncremental(t, s, "POST", sh.runtime, q, nil, "application/json", auth...)
	if len(complete.parts) != 1 || complete.parts[0]["errors"] != nil || !strings.HasPrefix(complete.contentType, "application/json") {
		t.Fatalf("the complete answer: %s %v", complete.contentType, complete.parts)
	}
	want := complete.parts[0]["data"]
	n := len(asList(get(want, "categories", "items")))

	t.Run("Apollo Client 3's Accept: the 2022-08-24 format", func(t *testing.T) {
		a := askIncremental(t, s, "POST", sh.runtime, q, nil, "multipart/mixed;deferSpec=20220824,application/json", auth...)
		if !strings.Contains(a.contentType, "deferSpec=20220824") {
			t.Fatalf("Content-Type %q", a.contentType)
		}
		if fmt.Sprint(get(a.parts[0], "data", "categories", "items", 0)) != fmt.Sprintf("map[id:%v]", get(want, "categories", "items", 0, "id")) {
			t.Fatalf("the initial part delivers the deferred fields: %v", a.parts[0])
		}
		got, labels := assemble(t, a)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("assembled %v\nwant %v", got, want)
		}
		if len(labels) != n || labels[0] != "more" || fmt.Sprint(get(a.parts[2], "incremental", 0, "path")) != "[categories items 1]" {
			t.Fatalf("labels %v, second part %v", labels, a.parts[2])
		}
	})
	t.Run("graphql-js 17's format over GET", func(t *testing.T) {
		a := askIncremental(t, s, "GET", sh.runtime, q, nil, "multipart/mixed", auth...)
		if fmt.Sprint(get(a.parts[0], "pending", 1)) != "map[id:1 label:more path:[categories items 1]]" || get(a.parts[1], "completed", 0, "id") != "0" {
			t.Fatalf("parts %v", a.parts)
		}
		if got, _ := assemble(t, a); !reflect.DeepEqual(got, want) {
			t.Fatalf("assembled %v\nwant %v", got, want)
		}
	})
	t.Run("no multipart/mixed, if: false: the complete result", func(t *testing.T) {
		for _, c := range []struct{ q, accept string }{
			{q, "application/graphql-response+json, application/json"},
			{q, "multipart/mixed;deferSpec=20991231"},
			{strings.Replace(q, `@defer(label: "more")`, `@defer(if: false)`, 1), "multipart/mixed"},
		} {
			a := askIncremental(t, s, "POST", sh.runtime, c.q, nil, c.accept, auth...)
			if len(a.parts) != 1 || !reflect.DeepEqual(a.parts[0]["data"], want) || a.parts[0]["hasNext"] != nil {
				t.Fatalf("%s with Accept %s: %s %v", c.q, c.accept, a.contentType, a.parts)
			}
		}
	})
	t.Run("@stream on a table's list, not in introspection", func(t *testing.T) {
		const sq = `{ categories { items @stream(initialCount: 1, label: "rest") { id title } } }`
		whole := askIncremental(t, s, "POST", sh.runtime, sq, nil, "", auth...).parts[0]
		a := askIncremental(t, s, "POST", sh.runtime, sq, nil, "multipart/mixed;deferSpec=20220824,application/json", auth...)
		if len(asList(get(a.parts[0], "data", "categories", "items"))) != 1 || fmt.Sprint(get(a.parts[1], "incremental", 0, "path")) != "[categories items 1]" {
			t.Fatalf("parts %v", a.parts)
		}
		if got, _ := assemble(t, a); !reflect.DeepEqual(got, whole["data"]) {
			t.Fatalf("assembled %v\nwant %v", got, whole["data"])
		}
		dirs := fmt.Sprint(sh.query(`{ __schema { directives { name } } }`, nil).data(t))
		if strings.Contains(dirs, "stream") || strings.Contains(dirs, "defer") || !strings.Contains(dirs, "skip") {
			t.Fatalf("introspection lists %s", dirs)
		}
	})
	t.Run("one log entry, faults apply", func(t *testing.T) {
		sh.owner.must(`mutation($p:ID!){ clearRequestLog(projectId:$p) { id } }`, map[string]any{"p": sh.project["id"]})
		sh.setFaults("", map[string]any{"latencyMinMs": 5, "latencyMaxMs": 5}).data(t)
		a := askIncremental(t, s, "POST", sh.runtime, q, nil, "multipart/mixed", auth...)
		if len(a.parts) != n+1 || !strings.Contains(a.header.Get("X-Mock-Fault-Applied"), "latency") {
			t.Fatalf("%d parts, X-Mock-Fault-Applied %q", len(a.parts), a.header.Get("X-Mock-Fault-Applied"))
		}
		if log := sh.requestLog(t, 10); len(log) != 1 || log[0]["status"] != float64(200) {
			t.Fatalf("request log %v", log)
		}
		sh.setFaults("", nil).data(t)
	})
	t.Run("a mutation", func(t *testing.T) { // last: it adds a category
		a := askIncremental(t, s, "POST", sh.runtime, `mutation { createCategory(input: {title: "Garden"}) { id ... @defer(label: "t") { title } } }`, nil, "multipart/mixed", auth...)
		initial := fmt.Sprint(a.parts[0]["data"])
		if got, _ := assemble(t, a); strings.Contains(initial, "Garden") || get(got, "createCategory", "title") != "Garden" {
			t.Fatalf("initial %s, parts %v", initial, a.parts)
		}
		if r := sh.query(`{ categories { total } }`, nil).data(t); get(r, "categories", "total") != float64(n+1) {
			t.Fatalf("the mutation did not run once: %v", r)
		}
	})
}

// incrementalSDL is a schema that defines @defer and @stream, as
// graphql-js 17's schemas do.
const incrementalSDL = `directive @defer(if: Boolean! = true, label: String) on FRAGMENT_SPREAD | INLINE_FRAGMENT
directive @stream(if: Boolean! = true, label: String, initialCount: Int! = 0) on FIELD
type Query { books: [Book!]!  book(id: ID!): Book }
type Book { id: ID!  title: String!  author: Author! }
type Author { id: ID!  name: String!  books: [Book!]! }
`

// TestContractIncremental: a contract project streams a list's items past
// initialCount and defers a nested fragment, in both formats.
func TestContractIncremental(t *testing.T) {
	s := startServer(t)
	cp := newContractProject(t, s, "stream@example.com", incrementalSDL)
	auth := []string{"Authorization", "Bearer " + cp.key}
	const q = `query($n: Int = 2) { books @stream(initialCount: $n, label: "rest") { id title ... @defer(label: "who") { author { name } } } }`
	want := askIncremental(t, s, "POST", cp.runtime, q, nil, "", auth...).parts[0]["data"]
	books := asList(get(want, "books"))
	if len(books) < 3 {
		t.Fatalf("want at least 3 books, got %v", want)
	}
	for _, accept := range []string{"multipart/mixed; incrementalSpec=v0.2", "multipart/mixed; deferSpec=20220824"} {
		a := askIncremental(t, s, "POST", cp.runtime, q, nil, accept, auth...)
		if got := len(asList(get(a.parts[0], "data", "books"))); got != 2 {
			t.Fatalf("%s: the initial part has %d books, want initialCount 2", accept, got)
		}
		if got, _ := assemble(t, a); !reflect.DeepEqual(got, want) {
			t.Fatalf("%s: assembled %v\nwant %v", accept, got, want)
		}
		if len(a.parts) != 4 { // initial, the 2 deferred authors, the stream
			t.Fatalf("%s: %d parts: %v", accept, len(a.parts), a.parts)
		}
	}
}

// TestIncrementalGraphQLJS17 checks the runtime's increments against
// graphql-js 17's own incremental execution of the same operations on the
// same schema and data, read with meros (testdata/js17/incremental17.mjs).
func TestIncrementalGraphQLJS17(t *testing.T) {
	node, err := osexec.LookPath("node")
	if err == nil {
		_, err = os.Stat(filepath.Join("testdata", "js17", "node_modules", "meros"))
	}
	if err != nil {
		skipOrFail(t, "node or testdata/js17's packages missing: run `make js-deps`: "+err.Error())
	}
	s := startServer(t)
	cp := newContractProject(t, s, "js17@example.com", incrementalSDL)
	sdl := filepath.Join(t.TempDir(), "schema.graphql")
	if err := os.WriteFile(sdl, []byte(incrementalSDL), 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := osexec.Command(node, "incremental17.mjs", s.base+cp.runtime, cp.key, sdl)
	cmd.Dir = filepath.Join("testdata", "js17")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("incremental17.mjs: %v\n%s", err, out)
	}
}

// TestApolloClientDefer: Apollo Client 3's watchQuery sees a table
// project's initial result, then the completed data; meros reads the
// parts (testdata/js/defer.mjs).
func TestApolloClientDefer(t *testing.T) {
	node, err := osexec.LookPath("node")
	if err == nil {
		_, err = os.Stat(filepath.Join("testdata", "js", "node_modules", "meros"))
	}
	if err != nil {
		skipOrFail(t, "node or testdata/js's packages missing: run `make js-deps`: "+err.Error())
	}
	s := startServer(t)
	sh := newShop(t, s, "apollo-defer@example.com", "ad")
	cmd := osexec.Command(node, "defer.mjs", s.base+sh.runtime, sh.rtKey)
	cmd.Dir = filepath.Join("testdata", "js")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("defer.mjs: %v\n%s", err, out)
	}
}

// TestRuntimeIncrementalBound: increments that would pass the
// response-bytes bound, which the complete result fits, give the complete
// result as one JSON answer.
func TestRuntimeIncrementalBound(t *testing.T) {
	// 30 aliases: an answer larger than what the fixture's management calls answer.
	var b strings.Builder
	for i := range 30 {
		fmt.Fprintf(&b, `c%d: categories { items { id ... @defer { title products { name } } } } `, i)
	}
	q := "{ " + b.String() + "}"
	measure := startServer(t)
	sh := newShop(t, measure, "bound-measure@example.com", "bm")
	var complete struct{ Data json.RawMessage }
	if err := json.Unmarshal(sh.query(q, nil).Raw, &complete); err != nil || len(complete.Data) == 0 {
		t.Fatalf("the complete answer: %v", err)
	}
	if a := askIncremental(t, measure, "POST", sh.runtime, q, nil, "multipart/mixed", "Authorization", "Bearer "+sh.fullKey); len(a.parts) != 91 {
		t.Fatalf("under the default bound: %d parts, want 91", len(a.parts))
	}
	// The parts carry paths, ids and framing on top of the data: more than 64 bytes.
	bound := len(complete.Data) + 64
	s := startServer(t, func(c *serveConfig) { c.Surface.MaxResponseBytes = bound })
	sh = newShop(t, s, "bound@example.com", "bd")
	a := askIncremental(t, s, "POST", sh.runtime, q, nil, "multipart/mixed", "Authorization", "Bearer "+sh.fullKey)
	if len(a.parts) != 1 || !strings.HasPrefix(a.contentType, "application/json") || a.parts[0]["errors"] != nil {
		t.Fatalf("with a bound of %d bytes: %s %v", bound, a.contentType, a.parts)
	}
	if got, _ := json.Marshal(a.parts[0]["data"]); !strings.Contains(string(got), `"title"`) {
		t.Fatalf("not the complete result: %s", got)
	}
}
