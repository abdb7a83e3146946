package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// relayRows is a 10k-row dataset: ids 1..n, prices with many ties.
func relayRows(n int) string {
	var b bytes.Buffer
	b.WriteByte('[')
	for i := 1; i <= n; i++ {
		if i > 1 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"id":%d,"name":"Item %d","price":%d}`, i, i, (i*7919)%1000)
	}
	b.WriteByte(']')
	return b.String()
}

// TestRelayClientWalk: urql walks a 10k-row table's Relay connection
// forwards and backwards while rows are created, changed and deleted,
// and sees every row that stays exactly once (testdata/js/relay.mjs).
func TestRelayClientWalk(t *testing.T) {
	node, err := exec.LookPath("node")
	if err == nil {
		_, err = os.Stat(filepath.Join("testdata", "js", "node_modules", "@urql", "core"))
	}
	if err != nil {
		skipOrFail(t, "node or @urql/core missing: run npm ci in cmd/mockgql/testdata/js: "+err.Error())
	}
	s := startServer(t)
	u := s.signUp("relay@example.com")
	u.must(`mutation { setPlan(plan: PROFESSIONAL) { plan } }`, nil)
	const rows = 10_000
	u.importVia("relayitems", "json", relayRows(rows), "").data(t)
	p := get(u.must(`mutation { createProject(name: "relay") { id slug } }`, nil), "createProject").(map[string]any)
	sh := &shop{s: s, owner: u, project: p, slug: p["slug"].(string), tables: map[string]string{}}
	sh.table(t, p["id"].(string), "Item", "relayitems", [][3]string{{"id", "ID", "id"}, {"name", "STRING", "name"}, {"price", "INT", "price"}})
	ops := u.must(`mutation($p:ID!){ generateDefaultGqlOperations(projectId:$p) { id name } }`, map[string]any{"p": p["id"]})
	for _, o := range get(ops, "generateDefaultGqlOperations").([]any) {
		if o.(map[string]any)["name"] == "items" {
			u.must(`mutation($o:ID!){ updateOperation(input:{operationId:$o, options:{relay: true, orderBy: true}}) { id } }`, map[string]any{"o": o.(map[string]any)["id"]})
		}
	}
	cmd := exec.Command(node, "relay.mjs", s.base+"/mock/"+sh.slug+"/graphql", sh.key(t, "RUNTIME"), fmt.Sprint(rows))
	cmd.Dir = filepath.Join("testdata", "js")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("relay.mjs: %v\n%s", err, out)
	}
	t.Logf("%s", out)
}
