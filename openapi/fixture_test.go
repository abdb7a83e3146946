package openapi

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/mockgql/mockgql/internal/testdata"
	"github.com/mockgql/mockgql/model"
)

// readPublicDoc returns a public example document of the repository's
// testdata/openapi (see its README for sources and licence), failing the
// test when it is not there.
func readPublicDoc(t testing.TB, name string) []byte {
	t.Helper()
	return testdata.Read(t, "openapi", name)
}

// fixtureProject is a shop with every attribute type and mapping, a table
// without an id attribute, a relation, default operations (one disabled)
// and a filtered list operation.
func fixtureProject(t testing.TB) *model.Project {
	t.Helper()
	p := &model.Project{ID: "prj", Slug: "shop", Name: "Shop", Kind: model.KindAccount}
	check(t, p.AddTable(&model.Table{ID: "t1", Name: "Product", Source: &model.TableSource{ImportCode: "products"}}))
	check(t, p.AddTable(&model.Table{ID: "t2", Name: "Category"}))
	attrs := []model.Attribute{
		{TableID: "t1", Name: "id", Type: model.TypeID, Mapping: model.MappingSource, SourcePath: "id", Required: true},
		{TableID: "t1", Name: "name", Type: model.TypeString, Mapping: model.MappingSource, SourcePath: "name", Required: true},
		{TableID: "t1", Name: "price", Type: model.TypeFloat, Mapping: model.MappingSource, SourcePath: "price.amount"},
		{TableID: "t1", Name: "stock", Type: model.TypeInt, Mapping: model.MappingNone},
		{TableID: "t1", Name: "active", Type: model.TypeBoolean, Mapping: model.MappingNone},
		{TableID: "t1", Name: "createdAt", Type: model.TypeDateTime, Mapping: model.MappingNone},
		{TableID: "t1", Name: "meta", Type: model.TypeJSON, Mapping: model.MappingNone},
		{TableID: "t1", Name: "categoryId", Type: model.TypeID, Mapping: model.MappingNone},
		{TableID: "t1", Name: "currency", Type: model.TypeString, Mapping: model.MappingConstant, Constant: json.RawMessage(`"EUR"`)},
		{TableID: "t1", Name: "label", Type: model.TypeString, Mapping: model.MappingComputed, Computed: "name"},
		{TableID: "t2", Name: "title", Type: model.TypeString, Mapping: model.MappingNone},
	}
	for i := range attrs {
		attrs[i].ID = fmt.Sprintf("a%d", i)
		check(t, p.AddAttribute(&attrs[i]))
	}
	check(t, p.AddRelation(&model.Relation{ID: "r1", SourceTableID: "t2", TargetTableID: "t1", Cardinality: model.OneToMany,
		SourceAttribute: "id", TargetAttribute: "categoryId", FieldName: "products", InverseFieldName: "category"}))
	n := 0
	ops, err := p.GenerateDefaultOperations("", func() string { n++; return fmt.Sprintf("o%d", n) })
	check(t, err)
	for _, o := range ops {
		if o.Name == "deleteCategory" {
			o.Enabled = false
		}
	}
	check(t, p.AddOperation(&model.Operation{ID: "o99", TableID: "t1", Name: "searchProducts", Kind: model.OpList, Enabled: true,
		Parameters: []model.Parameter{{Name: "minPrice", Attribute: "price", Operator: model.OpGte},
			{Name: "ids", Attribute: "id", Operator: model.OpIn}, {Name: "q", Attribute: "name", Operator: model.OpLike}}}))
	return p
}

func check(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// attrText writes attributes as "name:TYPE" (with "!" when required), for
// comparisons.
func attrText(attrs []model.Attribute) string {
	var out []string
	for _, a := range attrs {
		s := a.Name + ":" + string(a.Type)
		if a.Required {
			s += "!"
		}
		out = append(out, s)
	}
	return strings.Join(out, " ")
}

// wantCode checks that err is a *model.Error with code whose message
// contains every part.
func wantCode(t *testing.T, err error, code model.Code, parts ...string) {
	t.Helper()
	if model.ErrorCode(err) != code {
		t.Fatalf("err = %v, want %s", err, code)
	}
	for _, p := range parts {
		if !strings.Contains(err.Error(), p) {
			t.Errorf("message %q does not say %q", err.Error(), p)
		}
	}
}
