package codegen

import (
	"archive/zip"
	"bytes"
	"embed"
	"encoding/json"
	"fmt"
	"go/format"
	"strings"
	"time"

	"github.com/mockgql/mockgql/model"
)

// modTime is the time of every file in a package: a fixed one, so the zip
// depends on the model only.
var modTime = time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)

// static holds the generated files that do not depend on the model and
// are long enough to be better read as files: the query language
// (where, orderBy), connections, aggregates and their tests. They end in
// .txt so that they are not compiled here.
//
//go:embed static/*.txt
var static embed.FS

// GoPackage generates the Go backend of p as a zip whose root holds go.mod
// (module path module), README.md, main.go and the api package with its
// tests. A module path that Go would refuse is a BAD_USER_INPUT error.
func GoPackage(p *model.Project, module string) ([]byte, error) {
	if err := checkModule(module); err != nil {
		return nil, err
	}
	d := newPackageData(p, module)
	files := []struct {
		name, tmpl, static string
	}{
		{name: "go.mod", tmpl: "go.mod"},
		{name: "README.md", tmpl: "README.md"},
		{name: "main.go", tmpl: "main.go"},
		{name: "api/handlers.go", static: handlersSource},
		{name: "api/store.go", static: storeSource},
		{name: "api/tables.go", tmpl: "tables.go"},
		{name: "api/query.go", static: staticFile("query.go")},
		{name: "api/connection.go", static: staticFile("connection.go")},
		{name: "api/aggregate.go", static: staticFile("aggregate.go")},
		{name: "api/crud_test.go", static: testHelperSource},
		{name: "api/query_test.go", static: staticFile("query_test.go")},
		{name: "api/tables_test.go", tmpl: "tables_test.go"},
	}
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, f := range files {
		src, err := render(f.name, f.tmpl, f.static, d)
		if err != nil {
			return nil, err
		}
		if err := addFile(zw, f.name, src); err != nil {
			return nil, err
		}
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// staticFile returns static/<name>.txt.
func staticFile(name string) string {
	b, err := static.ReadFile("static/" + name + ".txt")
	if err != nil {
		panic("codegen: " + err.Error()) // embedded above: a missing file is a build mistake
	}
	return string(b)
}

// render executes a template (or takes static text) and gofmts Go files.
func render(name, tmpl, static string, d pkgData) ([]byte, error) {
	src := []byte(static)
	if tmpl != "" {
		var b bytes.Buffer
		if err := templates.ExecuteTemplate(&b, tmpl, d); err != nil {
			return nil, fmt.Errorf("codegen: %s: %w", name, err)
		}
		src = b.Bytes()
	}
	if !strings.HasSuffix(name, ".go") {
		return src, nil
	}
	out, err := format.Source(src)
	if err != nil {
		return nil, fmt.Errorf("codegen: %s does not gofmt: %w", name, err)
	}
	return out, nil
}

func addFile(zw *zip.Writer, name string, src []byte) error {
	w, err := zw.CreateHeader(&zip.FileHeader{Name: name, Method: zip.Deflate, Modified: modTime})
	if err != nil {
		return err
	}
	_, err = w.Write(src)
	return err
}

// checkModule accepts module paths of letters, digits and ._~-/ with a
// first element that has a dot or is a single word, like Go's.
func checkModule(module string) error {
	bad := module == "" || strings.HasPrefix(module, "/") || strings.HasSuffix(module, "/") || strings.Contains(module, "//")
	for _, r := range module {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("._~-/", r)) {
			bad = true
		}
	}
	if bad {
		return model.Errorf(model.CodeBadUserInput, "module path %q: use letters, digits and ._~-/ like example.com/shop", module)
	}
	return nil
}

// sampleJSON encodes v for a generated test body.
func sampleJSON(v map[string]any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic("codegen: sample does not marshal: " + err.Error())
	}
	return string(b)
}
