package main

import (
	"encoding/json"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestBoardStartAndProjects: the landing page, sign-up through its form,
// the project list with create, rename, change slug and delete (after a
// confirmation naming the project), and logout.
func TestBoardStartAndProjects(t *testing.T) {
	s := startServer(t)
	p := newPage(t, s)
	p.open("/", "#signup")
	p.shot("start")
	p.signUpOnLanding("ann@example.com")
	if !strings.HasSuffix(p.location(), "/board/projects") {
		t.Fatalf("after sign-up: %s", p.location())
	}
	p.shot("projects-empty")
	p.set("#newName", "Shop")
	p.set("#newSlug", "ann-shop")
	p.click("#create")
	p.wait(`#tableName`)
	p.open("/board/projects", `[data-project="Shop"]`)
	p.shot("projects")
	p.clickText(`[data-project="Shop"] summary`, "Rename or change slug")
	p.set(`[aria-label="New name of Shop"]`, "Ann's shop")
	p.set(`[aria-label="New slug of Shop"]`, "anns-shop")
	p.clickText(`[data-project="Shop"] button`, "Save")
	p.waitText("#projects", "anns-shop")
	p.clickText(`[data-project="Ann's shop"] button`, "Delete…")
	p.waitText(`[data-project="Ann's shop"] .warning`, "Delete the project “Ann's shop” (/mock/anns-shop/graphql)")
	p.clickText(`[data-project="Ann's shop"] button`, "Delete “Ann's shop”")
	p.waitText("main", "No projects yet")
	p.click("#logout")
	p.wait("#signup")
	p.open("/board/projects", "main h1")
	p.waitText("main", "Not signed in")
	if r := s.gql("/graphql", `{ me { email } }`, nil); r.errCode() != "UNAUTHENTICATED" {
		t.Fatalf("after logout the API still knows the browser? %s", r.Raw)
	}
}

// hostileCSV has values that are HTML and script: the board must show them
// as text.
const hostileCSV = "id,name,price,categoryId\n" +
	"1,Desk lamp,25.5,2\n" +
	"2,\"<img src=x onerror=\"\"window.__xss=1\"\">\",12,1\n" +
	"3,<script>window.__xss=2</script>,99,1\n" +
	"4,Office chair,149,1\n"

// TestBoardModellingFlow is the whole flow in Chromium: sign up,
// import a CSV through the file input with progress, model two tables
// with a relation binding attributes from the sample-value picker,
// generate operations, add a parameter, run a query in the playground,
// create a key and copy it, query the runtime over plain HTTP with it,
// revoke it and see 401. Dataset values that are HTML and script stay text.
func TestBoardModellingFlow(t *testing.T) {
	s := startServer(t)
	p := newPage(t, s)
	dir := t.TempDir()
	files := map[string]string{"products.csv": hostileCSV, "categories.csv": "id,title\n1,Office\n2,Lighting\n"}
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	p.open("/", "#signup")
	p.signUpOnLanding("bea@example.com")

	// The plan: keys need PROFESSIONAL.
	p.open("/board/account", "#planSelect")
	p.waitText("#usage", "of 1,000 requests used in the period")
	p.choose("#planSelect", "professional")
	p.click("#setPlan")
	p.waitText("#plan", "professional")
	p.shot("account")

	// The data pool: both CSVs through the file input, with progress.
	for _, f := range []struct{ file, code string }{{"products.csv", "products"}, {"categories.csv", "categories"}} {
		p.open("/board/data", "#dsFile")
		if err := chromedp.Do(p.ctx, chromedp.SetUploadFiles("#dsFile", []string{filepath.Join(dir, f.file)})); err != nil {
			t.Fatal(err)
		}
		p.waitText("#dsStatus", "Chosen: "+f.file)
		if got := p.js(`document.getElementById("dsCode").value + "/" + document.getElementById("dsFormat").value`); got != f.code+"/csv" {
			t.Fatalf("the form guessed %v from %s", got, f.file)
		}
		p.click("#dsUpload")
		p.waitText("#dsStatus", "Imported "+f.code)
		if v := p.js(`document.getElementById("dsProgress").value`); v != float64(100) {
			t.Fatalf("progress after the upload: %v", v)
		}
	}
	p.open("/board/data", `[data-dataset="products"]`)
	p.waitText(`[data-dataset="products"]`, "4 records")
	p.js(`(document.querySelectorAll("[data-dataset] details").forEach((d) => d.open = true), true)`)
	p.shot("data-pool")

	// A bad file: the error names the line.
	p.open("/board/data", "#dsFile")
	bad := filepath.Join(dir, "bad.ndjson")
	if err := os.WriteFile(bad, []byte("{\"id\":1}\n{\"id\":2,\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(p.ctx, chromedp.SetUploadFiles("#dsFile", []string{bad})); err != nil {
		t.Fatal(err)
	}
	p.waitText("#dsStatus", "Chosen: bad.ndjson")
	p.click("#dsUpload")
	p.waitText("#dsStatus", "The import failed")
	if msg := p.text("#dsStatus"); !strings.Contains(msg, "line 2") {
		t.Errorf("the upload error does not name the line: %q", msg)
	}

	// An own dataset no table uses is deleted after a confirmation naming
	// it; the curated pool's datasets have no delete button.
	spare := filepath.Join(dir, "spare.csv")
	if err := os.WriteFile(spare, []byte("x\n1\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	p.open("/board/data", "#dsFile")
	if err := chromedp.Do(p.ctx, chromedp.SetUploadFiles("#dsFile", []string{spare})); err != nil {
		t.Fatal(err)
	}
	p.waitText("#dsStatus", "Chosen: spare.csv")
	p.click("#dsUpload")
	p.waitText("#dsStatus", "Imported spare")
	p.open("/board/data", `[data-dataset="spare"]`)
	if n := p.js(`[...document.querySelectorAll("[data-dataset] .dataset-actions")].length`); n != float64(3) {
		t.Fatalf("delete controls: %v (the account's three datasets wanted)", n)
	}
	p.clickText(`[data-dataset="spare"] button`, "Delete spare…")
	p.waitText(`[data-dataset="spare"] .warning`, "Delete the dataset “spare” (1 record)?")
	p.clickText(`[data-dataset="spare"] button`, "Delete “spare”")
	p.gone(`[data-dataset="spare"]`)

	// A project with two tables bound through the picker.
	p.open("/board/projects", "#newName")
	p.set("#newName", "Shop")
	p.click("#create")
	p.wait("#tableName")
	pid := strings.TrimPrefix(p.location(), s.base+"/board/projects/")
	for _, tb := range []struct{ name, code string }{{"Category", "categories"}, {"Product", "products"}} {
		p.set("#tableName", tb.name)
		p.choose("#tableSource", tb.code)
		p.click("#addTable")
		p.wait(`section[data-table="` + tb.name + `"]`)
	}
	p.waitText(`section[data-table="Product"] .notready`, "no attributes: add one bound to a field path of products")
	// A dataset a table is bound to is not deleted: the refusal names the table.
	p.open("/board/data", `[data-dataset="products"]`)
	p.clickText(`[data-dataset="products"] button`, "Delete products…")
	p.clickText(`[data-dataset="products"] button`, "Delete “products”")
	p.waitText(`[data-dataset="products"] .dataset-actions .status`, "Shop.Product")
	p.open("/board/projects/"+pid, "#tableName")
	bind := func(table, attr, typ, path string) {
		t.Helper()
		form := `form.add-attribute[data-table="` + table + `"]`
		p.js(`(document.querySelector('` + form + `').closest("details").open = true, true)`)
		p.set(form+` input[type=text]`, attr)
		p.choose(form+` .field select`, typ)
		p.waitText(form+` [data-path="`+path+`"]`, "")
		p.click(form + ` [data-path="` + path + `"]`)
		p.waitText(form, "Chosen: "+path)
		p.clickText(form+` button`, "Add attribute")
		p.wait(`section[data-table="` + table + `"] tr[data-attribute="` + attr + `"]`)
	}
	// The picker shows sample values beside each path.
	p.js(`(document.querySelector('form.add-attribute[data-table="Product"]').closest("details").open = true, true)`)
	p.waitText(`form.add-attribute[data-table="Product"] [data-path="name"]`, "Desk lamp")
	bind("Product", "id", "ID", "id")
	bind("Product", "name", "STRING", "name")
	bind("Product", "price", "FLOAT", "price")
	bind("Product", "categoryId", "INT", "categoryId")
	bind("Category", "id", "ID", "id")
	bind("Category", "title", "STRING", "title")
	p.waitText(`section[data-table="Product"]`, "✓ ready")

	// The relation.
	p.js(`(document.getElementById("addRelationBox").open = true, true)`)
	p.choose("#relA", "Category")
	p.choose("#relB", "Product")
	p.click("#relShape-oneToMany")
	p.waitText("#relPreview", "Category.products: [Product!]! and Product.category: Category")
	p.click("#addRelation")
	p.wait(`#relations tr[data-relation="products"]`)
	p.shot("model")
	p.open("/board/projects/"+pid+"/diagram", "svg.diagram")
	if n := p.js(`document.querySelectorAll("svg.diagram .edge").length`); n != float64(1) {
		t.Fatalf("diagram edges: %v", n)
	}
	p.shot("diagram")

	// Operations and a parameter.
	p.open("/board/projects/"+pid+"/design", "#generateOps")
	p.click("#generateOps")
	p.wait(`tr[data-operation="products"]`)
	form := `details.add-parameter[data-operation="products"]`
	p.js(`(document.querySelector('` + form + `').open = true, true)`)
	p.set(form+` input[type=text]`, "q")
	p.choose(form+` .field:nth-of-type(2) select`, "name")
	p.choose(form+` .field:nth-of-type(3) select`, "like")
	p.clickText(form+` button`, "Add parameter")
	p.waitText(`tr[data-operation="products"]`, "q: name like")
	p.shot("design")

	// The playground, through previewQuery.
	res := p.playground(pid, `{ products(q: "script", pageSize: 5) { total items { id name category { title } } } }`, `"total": 1`)
	if !strings.Contains(res, "<script>window.__xss=2</script>") || !strings.Contains(res, `"title": "Office"`) {
		t.Fatalf("playground result: %s", res)
	}
	// Docs from introspection (through previewQuery): the explorer lists the project's types.
	p.click(`.graphiql-sidebar button[aria-label="Show Documentation Explorer"]`)
	p.waitText(".graphiql-doc-explorer", "Query")
	p.clickText(".graphiql-doc-explorer a", "Query")
	p.waitText(".graphiql-doc-explorer", "products")
	p.shot("playground")
	p.allowClipboard()
	p.click("#pgCurl")
	p.waitText("#pgCurl", "Copied")
	curl, err := chromedp.Run(p.ctx, chromedp.Evaluate[string](`navigator.clipboard.readText()`, chromedp.EvalAwaitPromise))
	if err != nil || !strings.Contains(curl, "curl -s '"+s.base+"/mock/") || !strings.Contains(curl, `-H "Authorization: Bearer $MGQ_API_KEY"`) ||
		!strings.Contains(curl, `products(q: \"script\"`) {
		t.Fatalf("copy as curl: %q (%v)", curl, err)
	}

	// A key: created, shown once, copied; it opens the runtime until revoked.
	p.open("/board/projects/"+pid+"/keys", "#keyName")
	p.set("#keyName", "web app")
	p.click("#createKey")
	key := p.waitText("#keyValue", "mgq_")
	p.waitText("#keyValueBox", "never in a front-end bundle")
	p.click("#copyKey")
	p.waitText("#copyKey", "Copied")
	copied, err := chromedp.Run(p.ctx, chromedp.Evaluate[string](`navigator.clipboard.readText()`, chromedp.EvalAwaitPromise))
	if err != nil || copied != key {
		t.Fatalf("clipboard %q (%v), key %q", copied, err, key)
	}
	p.shot("key-created")
	runtime := func() response {
		body, _ := json.Marshal(map[string]any{"query": `{ products(pageSize: 2) { total } }`})
		return s.do("POST", "/mock/"+slugOf(t, s, p, pid)+"/graphql", body, "Content-Type", "application/json", "Authorization", "Bearer "+copied)
	}
	if r := runtime(); r.Status != http.StatusOK || !strings.Contains(string(r.Raw), `"total":4`) {
		t.Fatalf("runtime with the copied key: %d %s", r.Status, r.Raw)
	}
	// The playground's "Copy as curl", run as copied with the key in its variable.
	if _, err := exec.LookPath("curl"); err == nil {
		cmd := exec.Command("sh", "-c", curl)
		cmd.Env = append(os.Environ(), "MGQ_API_KEY="+copied)
		out, err := cmd.Output()
		if err != nil || !strings.Contains(string(out), `"total":1`) {
			t.Fatalf("the copied curl command: %v %s", err, out)
		}
	} else {
		t.Log("no curl here: the copied command was checked by its text only")
	}
	if r := s.do("POST", "/runtime/actors", nil, "Authorization", "Bearer "+copied); r.Status != http.StatusOK {
		t.Fatalf("actor token: %d %s", r.Status, r.Raw)
	}
	p.open("/board/projects/"+pid+"/keys", `tr[data-key="web app"]`)
	p.waitText(`tr[data-key="web app"]`, "1 of 5")
	p.shot("keys")
	p.click(`[aria-label="Revoke web app"]`)
	p.waitText("#confirmWarning", "Revoke the runtime key “web app”")
	p.click("#confirmYes")
	p.waitText(`tr[data-key="web app"]`, "revoked")
	runtime().refusal(t, http.StatusUnauthorized, "API_KEY_INVALID")

	// Values that are HTML and script were shown as text everywhere.
	p.open("/board/projects/"+pid, `section[data-table="Product"]`)
	p.clickText(`section[data-table="Product"] button`, "Show the first rows (products)")
	p.waitText(`section[data-table="Product"] .view-rows`, "<script>window.__xss=2</script>")
	if x := p.js(`window.__xss === undefined && !document.querySelector("main img")`); x != true {
		t.Fatal("a dataset value ran as HTML on the board")
	}
}

// slugOf reads the project's slug from the board's own page title line.
func slugOf(t *testing.T, s *server, p *page, pid string) string {
	t.Helper()
	code := p.text("#runtimeUrl") // "<base>/mock/<slug>/graphql[?token=…]"
	code, _, _ = strings.Cut(strings.TrimPrefix(code, s.base), "?")
	slug := strings.TrimSuffix(strings.TrimPrefix(code, "/mock/"), "/graphql")
	if slug == "" || strings.Contains(slug, "/") {
		t.Fatalf("no slug on the page of %s: %q", pid, code)
	}
	return slug
}
