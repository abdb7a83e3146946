package main

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
)

// TestBoardPagesHeaders: every HTML page and the board's scripts carry the
// strict CSP (no inline script, no framing) and nosniff; a path outside
// web/static is not served from it.
func TestBoardPagesHeaders(t *testing.T) {
	s := startServer(t)
	tests := []struct {
		name, path, accept string
		status             int
		ctype              string
	}{
		{"landing", "/", "", 200, "text/html"},
		{"board", "/board/projects", "", 200, "text/html"},
		{"board project", "/board/projects/p1/keys", "", 200, "text/html"},
		{"preview page", "/preview/x?token=y", "", 200, "text/html"},
		{"used adoption link", "/auth/adopt/adp_0123456789abcdef0123456789abcdef", "text/html,application/xhtml+xml", 410, "text/html"},
		{"script", "/board/static/app.js", "", 200, "text/javascript"},
		{"style", "/board/static/board.css", "", 200, "text/css"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var h []string
			if tt.accept != "" {
				h = []string{"Accept", tt.accept}
			}
			r := s.do("GET", tt.path, nil, h...)
			if r.Status != tt.status || !strings.HasPrefix(r.Header.Get("Content-Type"), tt.ctype) {
				t.Fatalf("%d %s", r.Status, r.Header.Get("Content-Type"))
			}
			csp := r.Header.Get("Content-Security-Policy")
			for _, want := range []string{"script-src 'self'", "frame-ancestors 'none'", "object-src 'none'"} {
				if !strings.Contains(csp, want) {
					t.Errorf("CSP %q lacks %q", csp, want)
				}
			}
			if strings.Contains(csp, "unsafe-inline") || strings.Contains(csp, "unsafe-eval") {
				t.Errorf("CSP allows inline or eval: %q", csp)
			}
			if r.Header.Get("X-Content-Type-Options") != "nosniff" {
				t.Error("no nosniff")
			}
			if tt.ctype == "text/html" && strings.Contains(strings.ToLower(string(r.Raw)), "<script>") {
				t.Error("the page has an inline script")
			}
		})
	}
	for _, bad := range []string{"/board/static/../web.go", "/board/static/nope.js", "/board/static/index.html"} {
		if r := s.do("GET", bad, nil); r.Status != http.StatusNotFound && r.Status != http.StatusMovedPermanently && r.Status != http.StatusTemporaryRedirect {
			t.Errorf("GET %s: %d %s", bad, r.Status, r.Raw)
		}
	}
}

// TestBoardAPIAdditions: the management API fields the board added.
func TestBoardAPIAdditions(t *testing.T) {
	s := startServer(t)
	sh := newShop(t, s, "api@example.com", "ap")
	pid := sh.project["id"].(string)

	t.Run("logout deletes the board's cookies", func(t *testing.T) {
		r := s.gql("/graphql", `mutation { logout }`, nil)
		var names []string
		for _, c := range r.Header.Values("Set-Cookie") {
			if strings.Contains(c, "Max-Age=0") || strings.Contains(c, "Max-Age=-1") || strings.Contains(c, "1970") {
				names = append(names, strings.SplitN(c, "=", 2)[0])
			}
		}
		if fmt.Sprint(names) != "[mgq_jwt mgq_board]" || string(r.Raw) != `{"data":{"logout":true}}` {
			t.Fatalf("logout: %s, deleted %v", r.Raw, names)
		}
	})
	t.Run("demo is null without the demo", func(t *testing.T) {
		if r := s.gql("/graphql", `{ demo { slug } }`, nil); string(r.Raw) != `{"data":{"demo":null}}` {
			t.Fatalf("%s", r.Raw)
		}
	})
	t.Run("generator kinds and previews", func(t *testing.T) {
		d := s.gql("/graphql", `{ generatorKinds a: generatorPreview(kind: "number.int", options: {min: 1, max: 3}, count: 50) b: generatorPreview(kind: "person.email") c: generatorPreview(kind: "person.email") }`, nil).data(t)
		if !strings.Contains(fmt.Sprint(d["generatorKinds"]), "person.email") {
			t.Error("person.email is not listed")
		}
		if a := d["a"].([]any); len(a) != 20 {
			t.Errorf("count 50 gave %d values, want the bound 20", len(a))
		}
		for _, v := range d["a"].([]any) {
			if n := v.(float64); n < 1 || n > 3 {
				t.Errorf("number.int {1,3} gave %v", n)
			}
		}
		if b := d["b"].([]any); len(b) != 5 || fmt.Sprint(b) != fmt.Sprint(d["c"]) || !strings.Contains(b[0].(string), "@") {
			t.Errorf("person.email previews are not 5 stable emails: %v / %v", b, d["c"])
		}
		if r := s.gql("/graphql", `{ generatorPreview(kind: "no.such") }`, nil); r.errCode() != "BAD_USER_INPUT" {
			t.Errorf("unknown kind: %s", r.Raw)
		}
	})
	t.Run("notReadyReason", func(t *testing.T) {
		tid := get(sh.owner.must(`mutation($p:ID!){ createModellingTable(input:{projectId:$p, name:"Loose"}) { id ready notReadyReason } }`, map[string]any{"p": pid}), "createModellingTable").(map[string]any)
		if tid["ready"] != false || !strings.Contains(tid["notReadyReason"].(string), "not bound to a dataset") {
			t.Fatalf("%v", tid)
		}
		d := sh.owner.must(`query($id:ID){ project(id:$id) { tables { name ready notReadyReason } } }`, map[string]any{"id": pid})
		if !strings.Contains(fmt.Sprint(d), "map[name:Product notReadyReason:<nil> ready:true]") {
			t.Fatalf("%v", d)
		}
	})
	t.Run("schemaChangesOfEdit", func(t *testing.T) {
		var opID, attrID string
		d := sh.owner.must(`query($id:ID){ project(id:$id) { operations { id name } tables { name attributes { id name } } } }`, map[string]any{"id": pid})
		for _, o := range get(d, "project", "operations").([]any) {
			if get(o, "name") == "products" {
				opID = get(o, "id").(string)
			}
		}
		for _, tb := range get(d, "project", "tables").([]any) {
			for _, a := range get(tb, "attributes").([]any) {
				if get(tb, "name") == "Product" && get(a, "name") == "stock" {
					attrID = get(a, "id").(string)
				}
			}
		}
		q := `query($p:ID!,$e:ModelEditInput!){ schemaChangesOfEdit(projectId:$p, edit:$e) { criticality path } }`
		got := fmt.Sprint(sh.owner.must(q, map[string]any{"p": pid, "e": map[string]any{"kind": "RENAME_OPERATION", "id": opID, "name": "allProducts"}}))
		if !strings.Contains(got, "criticality:BREAKING path:Query.products") || !strings.Contains(got, "criticality:SAFE path:Query.allProducts") {
			t.Errorf("rename: %s", got)
		}
		if got := fmt.Sprint(sh.owner.must(q, map[string]any{"p": pid, "e": map[string]any{"kind": "DELETE_ATTRIBUTE", "id": attrID}})); !strings.Contains(got, "BREAKING path:Product.stock") {
			t.Errorf("delete attribute: %s", got)
		}
		if got := fmt.Sprint(sh.owner.must(q, map[string]any{"p": pid, "e": map[string]any{"kind": "CHANGE_ATTRIBUTE_TYPE", "id": attrID, "type": "INT"}})); !strings.Contains(got, "BREAKING path:Product.stock") {
			t.Errorf("change type: %s", got)
		}
		relID := get(sh.owner.must(`query($id:ID){ project(id:$id) { relations { id } } }`, map[string]any{"id": pid}), "project", "relations").([]any)[0].(map[string]any)["id"]
		if got := fmt.Sprint(sh.owner.must(q, map[string]any{"p": pid, "e": map[string]any{"kind": "DELETE_RELATION", "id": relID}})); !strings.Contains(got, "BREAKING path:Category.products") || !strings.Contains(got, "BREAKING path:Product.category") {
			t.Errorf("delete relation: %s", got)
		}
		if r := sh.owner.gql(q, map[string]any{"p": pid, "e": map[string]any{"kind": "RENAME_OPERATION", "id": opID}}); r.errCode() != "BAD_USER_INPUT" {
			t.Errorf("rename without a name: %s", r.Raw)
		}
		if r := s.gql("/graphql", q, map[string]any{"p": pid, "e": map[string]any{"kind": "DELETE_OPERATION", "id": opID}}); r.errCode() != "UNAUTHENTICATED" {
			t.Errorf("anonymous: %s", r.Raw)
		}
		other := s.signUp("other@example.com")
		if r := other.gql(q, map[string]any{"p": pid, "e": map[string]any{"kind": "DELETE_OPERATION", "id": opID}}); r.errCode() == "" {
			t.Errorf("another account read the model: %s", r.Raw)
		}
		// Nothing was saved.
		if d := fmt.Sprint(sh.owner.must(`query($id:ID){ project(id:$id) { operations { name } } }`, map[string]any{"id": pid})); strings.Contains(d, "allProducts") {
			t.Error("the previewed edit was saved")
		}
	})
}

// TestBoardCSPRuntimeOrigin: when the runtime's public address is not the
// board's, the pages may connect to it too (the demo's query box, and the
// playground's subscriptions over WebSocket), and to nothing else.
func TestBoardCSPRuntimeOrigin(t *testing.T) {
	// One in-process node at a time (protoactor's globals race between two
	// nodes of one process): each subtest's node stops when it ends.
	t.Run("two addresses", func(t *testing.T) {
		s := startServer(t, func(c *serveConfig) { c.BaseURL = "https://api.example.test"; c.AppURL = "https://board.example.test" })
		s.base = "http://" + s.run.srv.Addr() // the public addresses are not this listener's
		csp := s.do("GET", "/", nil).Header.Get("Content-Security-Policy")
		if !strings.Contains(csp, "connect-src 'self' https://api.example.test wss://api.example.test;") {
			t.Fatalf("CSP: %q", csp)
		}
	})
	t.Run("one address", func(t *testing.T) {
		same := startServer(t)
		if csp := same.do("GET", "/", nil).Header.Get("Content-Security-Policy"); !strings.Contains(csp, "connect-src 'self';") {
			t.Fatalf("CSP with one address: %q", csp)
		}
	})
}
