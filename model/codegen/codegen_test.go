package codegen

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mockgql/mockgql/model"
)

// fixtureProject has every attribute type and mapping, a relation, names
// that clash with the generated package's own (Page, key) and a table
// without attributes.
func fixtureProject(t *testing.T) *model.Project {
	t.Helper()
	p := &model.Project{ID: "prj", Slug: "shop", Name: "Shop"}
	for _, tb := range []*model.Table{{ID: "t1", Name: "Product"}, {ID: "t2", Name: "Page"}, {ID: "t3", Name: "Empty"}} {
		check(t, p.AddTable(tb))
	}
	for i, a := range []model.Attribute{
		{TableID: "t1", Name: "id", Type: model.TypeID, Mapping: model.MappingSource, SourcePath: "id"},
		{TableID: "t1", Name: "name", Type: model.TypeString, Required: true},
		{TableID: "t1", Name: "price", Type: model.TypeFloat},
		{TableID: "t1", Name: "stock", Type: model.TypeInt},
		{TableID: "t1", Name: "active", Type: model.TypeBoolean},
		{TableID: "t1", Name: "createdAt", Type: model.TypeDateTime},
		{TableID: "t1", Name: "meta", Type: model.TypeJSON},
		{TableID: "t1", Name: "pageId", Type: model.TypeID},
		{TableID: "t1", Name: "key", Type: model.TypeString, Mapping: model.MappingConstant, Constant: json.RawMessage(`"k"`)},
		{TableID: "t1", Name: "label", Type: model.TypeString, Mapping: model.MappingComputed, Computed: "name"},
		{TableID: "t2", Name: "title", Type: model.TypeString},
		{TableID: "t2", Name: "_hidden", Type: model.TypeInt},
	} {
		a.ID = fmt.Sprintf("a%d", i)
		check(t, p.AddAttribute(&a))
	}
	check(t, p.AddRelation(&model.Relation{ID: "r1", SourceTableID: "t2", TargetTableID: "t1", Cardinality: model.OneToMany,
		SourceAttribute: "id", TargetAttribute: "pageId", FieldName: "products", InverseFieldName: "page"}))
	return p
}

// powerProject is fixtureProject with its default operations and every
// query option: products with where, orderBy and relay, an AGGREGATE
// operation on Product and on Page, and a disabled one on Empty.
func powerProject(t *testing.T) *model.Project {
	t.Helper()
	p := fixtureProject(t)
	n := 0
	ops, err := p.GenerateDefaultOperations("", func() string { n++; return fmt.Sprintf("o%d", n) })
	check(t, err)
	for _, o := range ops {
		if o.Name == "products" {
			o.Options = &model.OperationOptions{Where: true, OrderBy: true, Relay: true}
		}
	}
	for i, o := range []*model.Operation{
		{TableID: "t1", Name: "productsAggregate", Kind: model.OpAggregate, Enabled: true},
		{TableID: "t2", Name: "pageStats", Kind: model.OpAggregate, Enabled: true},
		{TableID: "t3", Name: "emptiesAggregate", Kind: model.OpAggregate},
	} {
		o.ID = fmt.Sprintf("agg%d", i)
		check(t, p.AddOperation(o))
	}
	return p
}

func check(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// unzip writes the package into a new temporary directory and returns it
// with the files' contents by name.
func unzip(t *testing.T, b []byte) (string, map[string]string) {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(b), int64(len(b)))
	check(t, err)
	dir, files := t.TempDir(), map[string]string{}
	for _, f := range zr.File {
		rc, err := f.Open()
		check(t, err)
		src, err := io.ReadAll(rc)
		rc.Close()
		check(t, err)
		files[f.Name] = string(src)
		path := filepath.Join(dir, filepath.FromSlash(f.Name))
		check(t, os.MkdirAll(filepath.Dir(path), 0o755))
		check(t, os.WriteFile(path, src, 0o644))
	}
	return dir, files
}

// TestGoPackageBuildsAndPasses runs go vet, go build and the generated
// tests on a generated package, offline: a project with every query
// option on some tables (the tests of where, orderBy, connections and
// aggregates) and none on others (the plain handlers).
func TestGoPackageBuildsAndPasses(t *testing.T) {
	goTool := lookGo(t)
	b, err := GoPackage(powerProject(t), "example.com/shop")
	check(t, err)
	dir, _ := unzip(t, b)
	for _, args := range [][]string{{"vet", "./..."}, {"build", "./..."}, {"test", "-count=1", "-v", "./..."}} {
		cmd := exec.Command(goTool, args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOPROXY=off", "GOWORK=off", "GOTOOLCHAIN=local")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		for _, test := range []string{"TestWhere", "TestWhereRefused", "TestOrderBy", "TestConnection", "TestAggregate", "FuzzQuery",
			"TestProduct", "TestProductQuery", "TestPageRow", "TestPageRowQuery", "TestEmpty"} {
			if args[0] == "test" && !strings.Contains(string(out), "--- PASS: "+test+" ") {
				t.Errorf("generated test %s did not pass:\n%s", test, out)
			}
		}
	}
}

// lookGo finds the go command, skipping the test without one.
func lookGo(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds a module: not in -short")
	}
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command in PATH")
	}
	return goTool
}

// TestGoPackageContents checks the files, the naming of clashing names, and
// what the model does not carry over.
func TestGoPackageContents(t *testing.T) {
	b, err := GoPackage(fixtureProject(t), "example.com/shop")
	check(t, err)
	_, files := unzip(t, b)
	var names []string
	for n := range files {
		names = append(names, n)
	}
	slices.Sort(names)
	want := []string{"README.md", "api/aggregate.go", "api/connection.go", "api/crud_test.go", "api/handlers.go", "api/query.go",
		"api/query_test.go", "api/store.go", "api/tables.go", "api/tables_test.go", "go.mod", "main.go"}
	if !slices.Equal(names, want) {
		t.Fatalf("files %v, want %v", names, want)
	}
	tables := files["api/tables.go"]
	for _, s := range []string{"type Product struct", "type PageRow struct", "type Empty struct", "Name      *string",
		"Key       *string", "X_hidden *int64", `register[PageRow](mux, "/pages", s.PageRow, routes{})`} {
		if !strings.Contains(tables, s) {
			t.Errorf("api/tables.go lacks %q", s)
		}
	}
	for _, s := range []string{"Label", "Products ", "Page *"} {
		if strings.Contains(tables, s) {
			t.Errorf("api/tables.go has %q (COMPUTED attributes and relations are not generated)", s)
		}
	}
	if files["go.mod"] != "module example.com/shop\n\ngo 1.22\n" || strings.Contains(files["go.mod"], "require") {
		t.Errorf("go.mod:\n%s", files["go.mod"])
	}
	for _, s := range []string{"Required flags are not applied", "Relations are not generated"} {
		if !strings.Contains(files["README.md"], s) {
			t.Errorf("README lacks %q", s)
		}
	}
}

// TestGoPackageDeterministic checks that one model gives one zip.
func TestGoPackageDeterministic(t *testing.T) {
	a, _ := GoPackage(fixtureProject(t), "example.com/shop")
	b, _ := GoPackage(fixtureProject(t), "example.com/shop")
	if !bytes.Equal(a, b) {
		t.Error("two packages of one model differ")
	}
}

// TestGoPackageModulePath refuses module paths Go would refuse.
func TestGoPackageModulePath(t *testing.T) {
	for _, m := range []string{"", "has space", "/abs", "a//b", `quote"s`} {
		_, err := GoPackage(fixtureProject(t), m)
		if model.ErrorCode(err) != model.CodeBadUserInput {
			t.Errorf("module %q: err = %v, want BAD_USER_INPUT", m, err)
		}
	}
}
