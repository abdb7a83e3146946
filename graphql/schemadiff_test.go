package graphql

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mockgql/mockgql/model"
)

// schemaDiffWant is what each testdata/schemadiff/NAME.graphql must give,
// one "CRITICALITY TYPE PATH" per change in order; the golden file beside
// it holds the full changes with their messages (-update rewrites them).
var schemaDiffWant = map[string][]string{
	"field_removed": {"BREAKING FIELD_REMOVED Query.products"},
	"operation_renamed": {
		"BREAKING FIELD_REMOVED Mutation.createProduct", "BREAKING FIELD_REMOVED Query.products",
		"SAFE FIELD_ADDED Mutation.addProduct", "SAFE FIELD_ADDED Query.allProducts"},
	"field_added":   {"SAFE FIELD_ADDED Product.price"},
	"field_renamed": {"BREAKING FIELD_REMOVED Product.price", "SAFE FIELD_ADDED Product.cost"},
	"type_removed_and_added": {
		"BREAKING TYPE_REMOVED Product", "BREAKING TYPE_CHANGED Query.product", "SAFE TYPE_ADDED Item"},
	"type_kind_changed": {"BREAKING TYPE_KIND_CHANGED Color"},
	"field_type_changed": {
		"BREAKING TYPE_CHANGED Product.name", "BREAKING TYPE_CHANGED Product.price", "BREAKING TYPE_CHANGED Product.total",
		"SAFE TYPE_CHANGED Product.stock", "SAFE TYPE_CHANGED Product.tags"},
	"argument_removed": {"BREAKING ARGUMENT_REMOVED Query.products(category:)"},
	"argument_renamed": {"BREAKING ARGUMENT_REMOVED Query.products(category:)", "SAFE ARGUMENT_ADDED Query.products(categoryId:)"},
	"argument_added": {
		"BREAKING ARGUMENT_ADDED Query.products(market:)",
		"SAFE ARGUMENT_ADDED Query.products(limit:)", "SAFE ARGUMENT_ADDED Query.products(size:)"},
	"argument_type_changed": {
		"BREAKING TYPE_CHANGED Query.products(category:)", "BREAKING TYPE_CHANGED Query.products(ids:)",
		"SAFE TYPE_CHANGED Query.products(page:)"},
	"default_changed": {
		"DANGEROUS DEFAULT_CHANGED Query.products(page:)", "DANGEROUS DEFAULT_CHANGED Query.products(pageSize:)",
		"DANGEROUS DEFAULT_CHANGED Query.products(sortDirection:)"},
	"input_fields": {
		"BREAKING TYPE_CHANGED ProductInput.name", "BREAKING INPUT_FIELD_REMOVED ProductInput.note",
		"BREAKING INPUT_FIELD_ADDED ProductInput.sku", "DANGEROUS DEFAULT_CHANGED ProductInput.count",
		"SAFE INPUT_FIELD_ADDED ProductInput.tag"},
	"enum_values":   {"BREAKING ENUM_VALUE_REMOVED Status.RETIRED", "DANGEROUS ENUM_VALUE_ADDED Status.DRAFT"},
	"union_members": {"BREAKING UNION_MEMBER_REMOVED Result", "DANGEROUS UNION_MEMBER_ADDED Result"},
	"interfaces":    {"BREAKING INTERFACE_REMOVED Product", "DANGEROUS INTERFACE_ADDED Product"},
	"directives": {
		"BREAKING ARGUMENT_ADDED @cache(scope:)", "BREAKING DIRECTIVE_REMOVED @old", "SAFE DIRECTIVE_ADDED @new"},
	"descriptions_only": {},
}

// TestDiffSchemasGolden runs every testdata/schemadiff/*.graphql: the old
// schema, a line "# --- new", the new schema.
func TestDiffSchemasGolden(t *testing.T) {
	files, err := filepath.Glob("testdata/schemadiff/*.graphql")
	if err != nil || len(files) == 0 {
		t.Fatalf("no golden inputs: %v", err)
	}
	seen := map[string]bool{}
	for _, file := range files {
		name := strings.TrimSuffix(filepath.Base(file), ".graphql")
		seen[name] = true
		t.Run(name, func(t *testing.T) {
			changes := diffFile(t, file)
			if got, want := changeKeys(changes), schemaDiffWant[name]; !slices.Equal(got, want) {
				t.Errorf("changes:\n got %q\nwant %q", got, want)
			}
			checkSchemaDiffGolden(t, strings.TrimSuffix(file, ".graphql")+".golden.json", changes)
		})
	}
	for name := range schemaDiffWant {
		if !seen[name] {
			t.Errorf("schemaDiffWant names %s, which has no testdata file", name)
		}
	}
}

// diffFile diffs the two halves of a golden input.
func diffFile(t *testing.T, file string) []SchemaChange {
	t.Helper()
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	old, cur, ok := strings.Cut(string(src), "# --- new\n")
	if !ok {
		t.Fatalf("%s has no line \"# --- new\"", file)
	}
	changes, err := DiffSchemas(old, cur)
	if err != nil {
		t.Fatalf("DiffSchemas: %v", err)
	}
	again, _ := DiffSchemas(old, cur)
	if !slices.Equal(changes, again) {
		t.Errorf("two runs differ:\n%v\n%v", changes, again)
	}
	return changes
}

func checkSchemaDiffGolden(t *testing.T, golden string, changes []SchemaChange) {
	t.Helper()
	if changes == nil {
		changes = []SchemaChange{}
	}
	got, err := json.MarshalIndent(changes, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	got = append(got, '\n')
	if schemaDiffUpdating() {
		if err := os.WriteFile(golden, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if string(got) != string(want) {
		t.Errorf("%s differs:\n got %s\nwant %s", golden, got, want)
	}
}

// schemaDiffUpdating reports whether -update (defined by the package's
// other golden tests) asks to rewrite the golden files.
func schemaDiffUpdating() bool {
	f := flag.Lookup("update")
	return f != nil && f.Value.String() == "true"
}

// changeKeys returns "CRITICALITY TYPE PATH" of each change.
func changeKeys(changes []SchemaChange) []string {
	out := []string{}
	for _, c := range changes {
		out = append(out, c.Criticality+" "+c.Type+" "+c.Path)
	}
	return out
}

// TestDiffSchemasRuntime compares runtime schemas compiled from a model
// before and after edits, as schemaChanges does.
func TestDiffSchemasRuntime(t *testing.T) {
	p := &model.Project{ID: "p"}
	mustNoErr(t, p.AddTable(&model.Table{ID: "t", Name: "Product", Source: &model.TableSource{ImportCode: "products"}}))
	mustNoErr(t, p.AddAttribute(&model.Attribute{ID: "a1", TableID: "t", Name: "name", Type: model.TypeString, Mapping: model.MappingSource, SourcePath: "name"}))
	n := 0
	ops, err := p.GenerateDefaultOperations("", func() string { n++; return "o" + string(rune('0'+n)) })
	mustNoErr(t, err)
	baseline := runtimeSDL(t, p)
	if changes, err := DiffSchemas(baseline, runtimeSDL(t, p)); err != nil || len(changes) != 0 {
		t.Fatalf("same model: %v %v", changes, err)
	}

	name := "allProducts"
	_, err = p.UpdateOperation(ops[0].ID, model.OperationPatch{Name: &name})
	mustNoErr(t, err)
	mustNoErr(t, p.AddAttribute(&model.Attribute{ID: "a2", TableID: "t", Name: "price", Type: model.TypeFloat, Mapping: model.MappingNone}))
	changes, err := DiffSchemas(baseline, runtimeSDL(t, p))
	mustNoErr(t, err)
	want := []string{"BREAKING FIELD_REMOVED Query.products", "SAFE FIELD_ADDED Product.price",
		"SAFE INPUT_FIELD_ADDED ProductInput.price", "SAFE FIELD_ADDED Query.allProducts"}
	if got := changeKeys(changes); !slices.Equal(got, want) {
		t.Errorf("changes:\n got %q\nwant %q", got, want)
	}
}

func runtimeSDL(t *testing.T, p *model.Project) string {
	t.Helper()
	rt, err := Compile(p, Options{})
	mustNoErr(t, err)
	return rt.SDL()
}

func mustNoErr(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// TestDiffSchemasInvalid checks that a schema that does not parse is a
// BAD_USER_INPUT error naming the side.
func TestDiffSchemasInvalid(t *testing.T) {
	for _, tc := range []struct{ name, old, cur, want string }{
		{"old", "type Query {", "type Query { a: Int }", "old schema"},
		{"new", "type Query { a: Int }", "type Query { a: Nope }", "new schema"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := DiffSchemas(tc.old, tc.cur)
			if model.ErrorCode(err) != model.CodeBadUserInput || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v, want BAD_USER_INPUT about the %s", err, tc.want)
			}
		})
	}
}
