package main

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/base64"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/oasdiff/yaml"

	"github.com/mockgql/mockgql/internal/testdata"
)

// readOpenAPIDoc returns a public example document of the repository's
// testdata/openapi, failing the test when it is not there.
func readOpenAPIDoc(t *testing.T, name string) string {
	t.Helper()
	return string(testdata.Read(t, "openapi", name))
}

const importMutation = `mutation($p:ID!,$d:String!,$s:[String!]){ importOpenApi(projectId:$p, document:$d, schemas:$s) {
	id name ready source { importCode } attributes { name type required mappingType sourceMapping { path } } } }`

// importDoc runs importOpenApi as u.
func (u *user) importDoc(projectID any, doc string, schemas ...string) response {
	u.s.t.Helper()
	vars := map[string]any{"p": projectID, "d": doc}
	if schemas != nil {
		vars["s"] = schemas
	}
	return u.gql(importMutation, vars)
}

// newProject creates a project as u and returns its ID.
func (u *user) newProject(name string) string {
	u.s.t.Helper()
	return get(u.must(`mutation($n:String!){ createProject(name:$n) { id } }`, map[string]any{"n": name}), "createProject", "id").(string)
}

// tableShapes returns each table of a project as "Name: attr:TYPE ...",
// attributes sorted by name.
func (u *user) tableShapes(projectID any) []string {
	u.s.t.Helper()
	d := u.must(`query($id:ID){ project(id:$id) { tables { name attributes { name type } } } }`, map[string]any{"id": projectID})
	var out []string
	for _, t := range get(d, "project", "tables").([]any) {
		out = append(out, tableShape(t))
	}
	return out
}

// tableShape writes a Table result as "Name: attr:TYPE ...".
func tableShape(t any) string {
	var attrs []string
	for _, a := range get(t, "attributes").([]any) {
		attrs = append(attrs, fmt.Sprintf("%s:%s", get(a, "name"), get(a, "type")))
	}
	slices.Sort(attrs)
	return fmt.Sprintf("%s: %s", get(t, "name"), strings.Join(attrs, " "))
}

// TestOpenAPIImport imports the public petstore documents (OpenAPI 3.0 and
// Swagger 2.0 with allOf) over HTTP, selected schemas only, and checks that
// every refusal says why and imports nothing.
func TestOpenAPIImport(t *testing.T) {
	s := startServer(t)
	u := s.signUp("openapi-import@example.com")
	u.must(`mutation { setPlan(plan: PROFESSIONAL) { plan } }`, nil)
	t.Run("petstore OpenAPI 3.0", func(t *testing.T) {
		pid := u.newProject("Pets v3")
		d := u.importDoc(pid, readOpenAPIDoc(t, "petstore-v3.0.yaml"), "Pet").data(t)
		tables := get(d, "importOpenApi").([]any)
		if len(tables) != 1 || tableShape(tables[0]) != "Pet: id:ID name:STRING tag:STRING" {
			t.Fatalf("imported %v", tables)
		}
		if get(tables[0], "ready") != false || get(tables[0], "source") != nil || get(tables[0], "attributes", 1, "mappingType") != "NONE" ||
			get(tables[0], "attributes", 1, "required") != true {
			t.Errorf("not an unbound table with required name: %v", tables[0])
		}
		if got := u.tableShapes(pid); !slices.Equal(got, []string{"Pet: id:ID name:STRING tag:STRING"}) {
			t.Errorf("project tables: %v", got)
		}
	})
	t.Run("petstore-expanded Swagger 2.0", func(t *testing.T) {
		pid := u.newProject("Pets v2")
		u.importDoc(pid, readOpenAPIDoc(t, "petstore-expanded-v2.0.yaml"), "Pet", "Error").data(t)
		want := []string{"Pet: id:ID name:STRING tag:STRING", "Error: code:INT message:STRING"}
		if got := u.tableShapes(pid); !slices.Equal(got, want) {
			t.Errorf("project tables: %v, want %v", got, want)
		}
	})
	t.Run("petstore-expanded Swagger 2.0 as JSON", func(t *testing.T) {
		doc, err := yaml.YAMLToJSON([]byte(readOpenAPIDoc(t, "petstore-expanded-v2.0.yaml")))
		if err != nil {
			t.Fatal(err)
		}
		pid := u.newProject("Pets v2 JSON")
		u.importDoc(pid, string(doc), "NewPet").data(t)
		if got, want := u.tableShapes(pid), []string{"NewPet: name:STRING tag:STRING"}; !slices.Equal(got, want) {
			t.Errorf("project tables: %v, want %v", got, want)
		}
	})
	t.Run("refusals", func(t *testing.T) { importRefusals(t, u) })
	t.Run("table limit on STARTER", func(t *testing.T) {
		starter := s.signUp("openapi-starter@example.com")
		pid := starter.newProject("Small")
		for i := range 4 {
			starter.must(`mutation($p:ID!,$n:String!){ createModellingTable(input:{projectId:$p, name:$n}) { id } }`, map[string]any{"p": pid, "n": fmt.Sprintf("T%d", i)})
		}
		r := starter.importDoc(pid, genOpenAPI(2, 0), "S0", "S1")
		if r.errCode() != "LIMIT_REACHED" {
			t.Fatalf("import past the table limit: %s", r.Raw)
		}
		if got := starter.tableShapes(pid); len(got) != 4 {
			t.Fatalf("after the refused import: %v", got)
		}
		starter.importDoc(pid, genOpenAPI(2, 0), "S1").data(t)
	})
}

// importRefusals checks each refused import on a fresh project.
func importRefusals(t *testing.T, u *user) {
	pid := u.newProject("Refusals")
	v3 := func(schemas string) string {
		return `{"openapi":"3.0.0","info":{"title":"t","version":"1"},"paths":{},"components":{"schemas":{` + schemas + `}}}`
	}
	for _, tc := range []struct {
		name, doc string
		schemas   []string
		code      string
		says      string
	}{
		{"unsupported version", "openapi: 3.2.0\ninfo: {title: t, version: '1'}\npaths: {}\n", nil, "BAD_USER_INPUT", `OpenAPI version "3.2.0" is not supported`},
		{"over 1 MB", genOpenAPI(1, 1<<20), []string{"S0"}, "PAYLOAD_TOO_LARGE", "at most 1048576 (1 MB)"},
		{"over 50 schemas", genOpenAPI(51, 0), genNames(51), "BAD_USER_INPUT", "51 schemas selected; one import takes at most 50"},
		{"unknown schema", genOpenAPI(2, 0), []string{"S0", "Nope"}, "BAD_USER_INPUT", `schema "Nope" is not in the document`},
		{"empty selection", genOpenAPI(2, 0), []string{}, "BAD_USER_INPUT", "no schemas selected"},
		{"broken $ref", v3(`"A":{"type":"object","properties":{"b":{"$ref":"#/components/schemas/Gone"}}}`), []string{"A"},
			"BAD_USER_INPUT", `broken $ref "#/components/schemas/Gone" at #/components/schemas/A/properties/b`},
		{"name clash", v3(`"A":{"type":"object","properties":{"x":{"type":"string"}}},"AInput":{"type":"object","properties":{"y":{"type":"string"}}}`),
			[]string{"A", "AInput"}, "CONFLICT", "clashes"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := u.importDoc(pid, tc.doc, tc.schemas...)
			if msg, _ := get(r.JSON, "errors", 0, "message").(string); r.errCode() != tc.code || !strings.Contains(msg, tc.says) {
				t.Fatalf("want %s saying %q, got %s", tc.code, tc.says, truncate(r.Raw))
			}
			if got := u.tableShapes(pid); len(got) != 0 {
				t.Fatalf("a refused import left tables: %v", got)
			}
		})
	}
}

// genOpenAPI writes an OpenAPI 3.0 JSON document with n object schemas
// S0..Sn-1 and a description of pad bytes.
func genOpenAPI(n, pad int) string {
	var b strings.Builder
	fmt.Fprintf(&b, `{"openapi":"3.0.3","info":{"title":"gen","version":"1","description":"%s"},"paths":{},"components":{"schemas":{`, strings.Repeat("x", pad))
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `"S%d":{"type":"object","properties":{"id":{"type":"integer"},"label":{"type":"string"}}}`, i)
	}
	b.WriteString(`}}}`)
	return b.String()
}

func genNames(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("S%d", i)
	}
	return out
}

func truncate(b []byte) string {
	if len(b) > 600 {
		return string(b[:600]) + "…"
	}
	return string(b)
}

// TestOpenAPIExport exports the shop as JSON and YAML, validates both with
// kin-openapi and imports them into a new project: the same tables.
func TestOpenAPIExport(t *testing.T) {
	s := startServer(t)
	sh := newShop(t, s, "openapi-export@example.com", "oa")
	pid := sh.project["id"]
	want := sh.owner.tableShapes(pid)
	for _, format := range []string{"json", "yaml"} {
		t.Run(format, func(t *testing.T) {
			d := sh.owner.must(`query($p:ID!,$f:String){ exportOpenApi(projectId:$p, format:$f) }`, map[string]any{"p": pid, "f": format})
			doc := get(d, "exportOpenApi").(string)
			spec, err := openapi3.NewLoader().LoadFromData([]byte(doc))
			if err != nil {
				t.Fatalf("load: %v", err)
			}
			if err := spec.Validate(context.Background()); err != nil {
				t.Fatalf("validate: %v", err)
			}
			for _, path := range []string{"/products", "/products/{id}", "/products/-/searchProducts", "/categories", "/categories/{id}"} {
				if spec.Paths.Value(path) == nil {
					t.Errorf("no path %s", path)
				}
			}
			if op := spec.Paths.Value("/products/-/searchProducts").Get; op == nil || op.Parameters.GetByInAndName("query", "minPrice") == nil {
				t.Errorf("searchProducts has no minPrice parameter")
			}
			copyID := sh.owner.newProject("Round trip " + format)
			sh.owner.importDoc(copyID, doc, "Product", "Category").data(t)
			if got := sh.owner.tableShapes(copyID); !slices.Equal(got, want) {
				t.Errorf("round trip:\n got %v\nwant %v", got, want)
			}
		})
	}
	if r := sh.owner.gql(`query($p:ID!){ exportOpenApi(projectId:$p, format:"xml") }`, map[string]any{"p": pid}); r.errCode() != "BAD_USER_INPUT" {
		t.Errorf("format xml: %s", r.Raw)
	}
}

// TestCodePackage builds and tests the generated Go backend of the shop
// offline, and checks who may have one.
func TestCodePackage(t *testing.T) {
	s := startServer(t)
	sh := newShop(t, s, "codegen@example.com", "cg")
	pid := sh.project["id"]
	const export = `mutation($p:ID!,$l:String!){ exportCodePackage(projectId:$p, language:$l) }`
	t.Run("go builds, vets and passes its tests", func(t *testing.T) {
		goTool, err := exec.LookPath("go")
		if err != nil {
			t.Skip("no go command in PATH")
		}
		d := sh.owner.must(export, map[string]any{"p": pid, "l": "go"})
		raw, err := base64.StdEncoding.DecodeString(get(d, "exportCodePackage").(string))
		if err != nil {
			t.Fatal(err)
		}
		dir := unzipTo(t, raw)
		runGo(t, goTool, dir, "vet", "./...")
		runGo(t, goTool, dir, "build", "./...")
		// -v: the generated tests must run (one per table), not just compile.
		out := runGo(t, goTool, dir, "test", "-count=1", "-v", "./...")
		for _, test := range []string{"--- PASS: TestProduct ", "--- PASS: TestCategory "} {
			if !strings.Contains(out, test) {
				t.Errorf("go test ran no %q:\n%s", strings.TrimSpace(test), out)
			}
		}
	})
	t.Run("an EDITOR may", func(t *testing.T) {
		editor := sh.member(t, "codegen-editor@example.com", "EDITOR")
		d := editor.must(export, map[string]any{"p": pid, "l": "go"})
		if raw, err := base64.StdEncoding.DecodeString(get(d, "exportCodePackage").(string)); err != nil || !bytes.HasPrefix(raw, []byte("PK")) {
			t.Fatalf("editor's package: %v", err)
		}
	})
	t.Run("unknown language", func(t *testing.T) {
		if r := sh.owner.gql(export, map[string]any{"p": pid, "l": "cobol"}); r.errCode() != "BAD_USER_INPUT" {
			t.Fatalf("cobol: %s", r.Raw)
		}
	})
	t.Run("FORBIDDEN on STARTER", func(t *testing.T) {
		starter := s.signUp("codegen-starter@example.com")
		r := starter.gql(export, map[string]any{"p": starter.newProject("Cheap"), "l": "go"})
		if r.errCode() != "FORBIDDEN" || !strings.Contains(string(r.Raw), "PROFESSIONAL") {
			t.Fatalf("starter: %s", r.Raw)
		}
	})
	t.Run("FORBIDDEN for a VIEWER", func(t *testing.T) {
		viewer := sh.member(t, "codegen-viewer@example.com", "VIEWER")
		viewer.must(`query($p:ID!){ exportOpenApi(projectId:$p) }`, map[string]any{"p": pid})
		if r := viewer.gql(export, map[string]any{"p": pid, "l": "go"}); r.errCode() != "FORBIDDEN" || !strings.Contains(string(r.Raw), "EDITOR") {
			t.Fatalf("viewer: %s", r.Raw)
		}
		if r := viewer.importDoc(pid, genOpenAPI(1, 0), "S0"); r.errCode() != "FORBIDDEN" {
			t.Fatalf("viewer imported: %s", r.Raw)
		}
		// The right to edit comes before the document: a viewer is not
		// told what is wrong with a document it may not import anyway.
		if r := viewer.importDoc(pid, "openapi: 9.9\n", "S0"); r.errCode() != "FORBIDDEN" {
			t.Fatalf("viewer importing a broken document: %s", r.Raw)
		}
	})
}

// member signs up a user, makes them a member of the shop's account with
// role and signs them in to it.
func (sh *shop) member(t *testing.T, email, role string) *user {
	t.Helper()
	return join(t, sh.owner, sh.s.signUp(email), role)
}

// unzipTo writes a zip into a new temporary directory.
func unzipTo(t *testing.T, raw []byte) string {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(raw), int64(len(raw)))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, f := range zr.File {
		path := filepath.Join(dir, filepath.FromSlash(f.Name))
		if !strings.HasPrefix(path, dir+string(filepath.Separator)) {
			t.Fatalf("zip entry %q leaves the directory", f.Name)
		}
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(rc)
		rc.Close()
		if err == nil {
			err = os.MkdirAll(filepath.Dir(path), 0o755)
		}
		if err == nil {
			err = os.WriteFile(path, b, 0o644)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// runGo runs the go command in dir without the network (the generated
// module has no dependencies) and returns its output.
func runGo(t *testing.T, goTool, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command(goTool, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOPROXY=off", "GOWORK=off", "GOTOOLCHAIN=local")
	if out, err := exec.Command(goTool, "env", "GOCACHE").Output(); err != nil || strings.TrimSpace(string(out)) == "" {
		cmd.Env = append(cmd.Env, "GOCACHE="+t.TempDir())
	}
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// TestSchemaVersioning saves a baseline, renames an operation and finds
// the breaking change, over HTTP and with `mockgql schema diff`.
func TestSchemaVersioning(t *testing.T) {
	s := startServer(t)
	sh := newShop(t, s, "versioning@example.com", "vs")
	pid := sh.project["id"]
	const changes = `query($p:ID!){ schemaChanges(projectId:$p) { type criticality path message } }`
	if r := sh.owner.gql(changes, map[string]any{"p": pid}); r.errCode() != "NOT_FOUND" {
		t.Fatalf("changes without a baseline: %s", r.Raw)
	}
	sh.owner.must(`mutation($p:ID!){ setSchemaBaseline(projectId:$p) }`, map[string]any{"p": pid})
	if got := get(sh.owner.must(changes, map[string]any{"p": pid}), "schemaChanges").([]any); len(got) != 0 {
		t.Fatalf("changes right after the baseline: %v", got)
	}
	oldSDL := sdl(t, sh.owner, pid)
	opID := operationID(t, sh.owner, pid, "products")
	sh.owner.must(`mutation($o:ID!){ updateOperation(input:{operationId:$o, name:"allProducts"}) { name } }`, map[string]any{"o": opID})

	viewer := sh.member(t, "versioning-viewer@example.com", "VIEWER")
	got := changeLines(t, get(viewer.must(changes, map[string]any{"p": pid}), "schemaChanges").([]any))
	want := []string{"BREAKING FIELD_REMOVED Query.products", "SAFE FIELD_ADDED Query.allProducts"}
	if !slices.Equal(got, want) {
		t.Errorf("schemaChanges: %v, want %v", got, want)
	}
	if r := viewer.gql(`mutation($p:ID!){ setSchemaBaseline(projectId:$p) }`, map[string]any{"p": pid}); r.errCode() != "FORBIDDEN" {
		t.Errorf("a viewer set the baseline: %s", r.Raw)
	}

	dir := t.TempDir()
	oldFile, newFile := filepath.Join(dir, "old.graphql"), filepath.Join(dir, "new.graphql")
	writeFile(t, oldFile, oldSDL)
	writeFile(t, newFile, sdl(t, sh.owner, pid))
	out, code := runSchemaDiff(t, oldFile, newFile)
	if code != 1 || !strings.Contains(out, "BREAKING  FIELD_REMOVED  Query.products") {
		t.Errorf("schema diff of a breaking change: exit %d\n%s", code, out)
	}
	if out, code := runSchemaDiff(t, oldFile, oldFile); code != 0 || !strings.Contains(out, "0 changes") {
		t.Errorf("schema diff of one schema: exit %d\n%s", code, out)
	}
	if _, code := runSchemaDiff(t, oldFile, filepath.Join(dir, "missing.graphql")); code != 2 {
		t.Errorf("schema diff of a missing file: exit %d, want 2", code)
	}
}

func sdl(t *testing.T, u *user, pid any) string {
	t.Helper()
	return get(u.must(`query($id:ID){ project(id:$id) { sdl } }`, map[string]any{"id": pid}), "project", "sdl").(string)
}

func operationID(t *testing.T, u *user, pid any, name string) any {
	t.Helper()
	for _, o := range get(u.must(`query($id:ID){ project(id:$id) { operations { id name } } }`, map[string]any{"id": pid}), "project", "operations").([]any) {
		if get(o, "name") == name {
			return get(o, "id")
		}
	}
	t.Fatalf("no operation %s", name)
	return nil
}

// changeLines writes SchemaChange results as "CRITICALITY TYPE PATH"; a
// change without a message fails the test.
func changeLines(t *testing.T, changes []any) []string {
	t.Helper()
	var out []string
	for _, c := range changes {
		if msg, _ := get(c, "message").(string); msg == "" {
			t.Errorf("change without a message: %v", c)
		}
		out = append(out, fmt.Sprintf("%s %s %s", get(c, "criticality"), get(c, "type"), get(c, "path")))
	}
	return out
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// runSchemaDiff runs `mockgql schema diff old new` as a real process and
// returns its output and exit code.
func runSchemaDiff(t *testing.T, oldFile, newFile string) (string, int) {
	t.Helper()
	return runSchema(t, "diff", oldFile, newFile)
}

// runSchema runs `mockgql schema args...` as a real process (this test
// binary, see TestSchemaDiffChild) and returns its output and exit code.
func runSchema(t *testing.T, args ...string) (string, int) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestSchemaDiffChild$")
	cmd.Env = append(os.Environ(), "MGQ_SCHEMA_CHILD=1", "MGQ_SCHEMA_ARGS="+strings.Join(args, "\n"))
	out, err := cmd.CombinedOutput()
	if exit, ok := err.(*exec.ExitError); ok {
		return string(out), exit.ExitCode()
	}
	if err != nil {
		t.Fatal(err)
	}
	return string(out), 0
}

// TestSchemaDiffChild is the child process of runSchema: it runs main as
// `mockgql schema` with the arguments in MGQ_SCHEMA_ARGS (one a line), and
// main sets the exit code. Run directly, it skips.
func TestSchemaDiffChild(t *testing.T) {
	if os.Getenv("MGQ_SCHEMA_CHILD") != "1" {
		t.Skip("the child process of TestSchemaVersioning and TestSchemaDiffCommand")
	}
	os.Args = []string{"mockgql", "schema"}
	if args := os.Getenv("MGQ_SCHEMA_ARGS"); args != "" {
		os.Args = append(os.Args, strings.Split(args, "\n")...)
	}
	main()
	os.Exit(0)
}
