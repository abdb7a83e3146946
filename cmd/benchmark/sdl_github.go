package main

import (
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// The largest real schema the sdl group imports (issue 29): GitHub's
// public schema (contract/testdata/github.graphql.gz, 1.2 MB of SDL,
// 316 entity types), on a node of its own so that its memory is the
// project's. It prints the import's time and CPU, the first runtime
// answer's time and CPU (the first call compiles the runtime and
// generates the rows), and the node's resident and Go heap growth from
// before the import to after that answer. Targets: import under 2 s,
// first answer under 1 s; measured, never asserted.

// githubSchemaFile is GitHub's schema, from the repository's root.
const githubSchemaFile = "contract/testdata/github.graphql.gz"

// sdlGitHub runs the measurement on a server of its own.
func sdlGitHub(bin, dir string, rep *report) error {
	doc, err := gunzipFile(githubSchemaFile)
	if err != nil {
		return fmt.Errorf("GitHub's schema (run from the repository's root): %w", err)
	}
	srv, err := startMockgql(bin, filepath.Join(dir, "sdl-github"), "--ip-limit", "0", "--ip-limit-management", "0")
	if err != nil {
		return err
	}
	defer srv.stop()
	if err := benchAccount(srv); err != nil {
		return err
	}
	rss0, heap0, cpu0 := srv.rss(), heapAlloc(srv), srv.cpu()
	t0 := time.Now()
	d, err := srv.gql(`mutation($s:String!){ createProject(name: "GitHub", slug: "github", sdl:$s) { id contract { tables { type } } } }`, map[string]any{"s": doc})
	if err != nil {
		return err
	}
	imported, cpu1 := time.Since(t0), srv.cpu()
	pid := d["createProject"].(map[string]any)["id"].(string)
	tables := len(d["createProject"].(map[string]any)["contract"].(map[string]any)["tables"].([]any))
	d, err = srv.gql(`mutation($p:ID!){ createApiKey(projectId:$p, name:"bench", scope: FULL) { value } }`, map[string]any{"p": pid})
	if err != nil {
		return err
	}
	key := d["createApiKey"].(map[string]any)["value"].(string)
	t0 = time.Now()
	out, err := srv.post("/mock/github/graphql", `{"query":"{ viewer { login repositories(first: 5) { totalCount nodes { name } } } }"}`, "X-API-Key", key)
	if err != nil {
		return err
	}
	if !strings.Contains(out, `"totalCount"`) {
		return fmt.Errorf("GitHub's first runtime answer: %.300s", out)
	}
	first := time.Since(t0)
	rep.note("sdl: GitHub's schema (%d KB SDL, %d tables): import %v (%.2f CPU s; target under 2 s), first runtime answer %v (%.2f CPU s; target under 1 s); the node grew %d MB resident (peak %d MB), Go heap %+d MB (objects, garbage not yet collected included)",
		len(doc)>>10, tables, imported.Round(time.Millisecond), (cpu1 - cpu0).Seconds(), first.Round(time.Millisecond), (srv.cpu() - cpu1).Seconds(),
		(srv.rss()-rss0)>>20, srv.peak()>>20, (heapAlloc(srv)-heap0)>>20)
	return nil
}

// heapAlloc is the server's go_memstats_heap_alloc_bytes (/metrics).
func heapAlloc(srv *mockgql) int64 {
	text, err := srv.get("/metrics")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(text, "\n") {
		if v, ok := strings.CutPrefix(line, "go_memstats_heap_alloc_bytes "); ok {
			f, _ := strconv.ParseFloat(v, 64)
			return int64(f)
		}
	}
	return 0
}

// gunzipFile reads a gzipped file.
func gunzipFile(name string) (string, error) {
	f, err := os.Open(name)
	if err != nil {
		return "", err
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		return "", err
	}
	b, err := io.ReadAll(z)
	return string(b), err
}
