package model_test

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/mockgql/mockgql/model"
)

// ids returns a newID function for GenerateDefaultOperations and
// GenerateMissingViews: prefix1, prefix2, ...
func ids(prefix string) func() string {
	n := 0
	return func() string { n++; return fmt.Sprintf("%s%d", prefix, n) }
}

func ptr[T any](v T) *T { return &v }

// fixture builds, through the edit methods themselves, a project with:
//
//	Product  (tp): name, price (price.amount), category, sku (no mapping)
//	Customer (tc): email
//	Order    (to): customerId, total
//	relation r1: Customer.id → Order.customerId, ONE_TO_MANY, BIDIRECTIONAL,
//	             field Customer.orders, inverse Order.customer
//	operations: the five defaults of Product (op1..op5) and
//	             productsByCategory (opc, LIST, parameters category eq, minPrice gte)
//	views: a list and a form view of every table
func fixture(tb testing.TB) *model.Project {
	tb.Helper()
	p := &model.Project{ID: "p1", Slug: "shop", Name: "Shop", Kind: model.KindAccount}
	must := func(err error) {
		tb.Helper()
		if err != nil {
			tb.Fatalf("fixture: %v", err)
		}
	}
	must(p.AddTable(&model.Table{ID: "tp", Name: "Product", Source: &model.TableSource{ImportCode: "products"}}))
	must(p.AddTable(&model.Table{ID: "tc", Name: "Customer", Source: &model.TableSource{ImportCode: "customers"}}))
	must(p.AddTable(&model.Table{ID: "to", Name: "Order"}))
	for _, a := range []*model.Attribute{
		{ID: "ap-name", TableID: "tp", Name: "name", Type: model.TypeString, Mapping: model.MappingSource, SourcePath: "name"},
		{ID: "ap-price", TableID: "tp", Name: "price", Type: model.TypeFloat, Mapping: model.MappingSource, SourcePath: "price.amount"},
		{ID: "ap-cat", TableID: "tp", Name: "category", Type: model.TypeString, Mapping: model.MappingSource, SourcePath: "category"},
		{ID: "ap-sku", TableID: "tp", Name: "sku", Type: model.TypeString},
		{ID: "ac-email", TableID: "tc", Name: "email", Type: model.TypeString, Mapping: model.MappingSource, SourcePath: "email"},
		{ID: "ao-cust", TableID: "to", Name: "customerId", Type: model.TypeID, Mapping: model.MappingSource, SourcePath: "customerId"},
		{ID: "ao-total", TableID: "to", Name: "total", Type: model.TypeFloat, Mapping: model.MappingSource, SourcePath: "total"},
	} {
		must(p.AddAttribute(a))
	}
	must(p.AddRelation(&model.Relation{ID: "r1", SourceTableID: "tc", TargetTableID: "to", Cardinality: model.OneToMany,
		SourceAttribute: "id", TargetAttribute: "customerId", FieldName: "orders", InverseFieldName: "customer"}))
	if _, err := p.GenerateDefaultOperations("tp", ids("op")); err != nil {
		tb.Fatalf("fixture: %v", err)
	}
	must(p.AddOperation(&model.Operation{ID: "opc", TableID: "tp", Name: "productsByCategory", Kind: model.OpList, Enabled: true,
		Parameters: []model.Parameter{{Name: "category", Attribute: "category", Operator: model.OpEq}, {Name: "minPrice", Attribute: "price", Operator: model.OpGte}}}))
	p.GenerateMissingViews(ids("v"))
	return p
}

// editCase is one edit of the fixture: refused with code (and a message
// containing every string of msg), or accepted when code is "".
type editCase struct {
	name  string
	edit  func(p *model.Project) error
	code  model.Code
	msg   []string
	check func(t *testing.T, p *model.Project) // after an accepted edit
}

// runEdits applies each case to a fresh fixture. A refused edit must leave
// the project exactly as it was (Version included); an accepted one must
// increment Version by one.
func runEdits(t *testing.T, cases []editCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := fixture(t)
			before := p.Clone()
			err := c.edit(p)
			if c.code == "" {
				if err != nil {
					t.Fatalf("edit refused: %v", err)
				}
				if p.Version != before.Version+1 {
					t.Errorf("Version = %d, want %d", p.Version, before.Version+1)
				}
				if c.check != nil {
					c.check(t, p)
				}
				return
			}
			if got := model.ErrorCode(err); got != c.code {
				t.Fatalf("error code = %q (%v), want %q", got, err, c.code)
			}
			for _, s := range c.msg {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("error %q does not mention %q", err, s)
				}
			}
			if !reflect.DeepEqual(p.Clone(), before) {
				t.Errorf("a refused edit changed the project:\n got %s\nwant %s", mustJSON(t, p), mustJSON(t, before))
			}
		})
	}
}

func mustJSON(tb testing.TB, v any) string {
	tb.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		tb.Fatal(err)
	}
	return string(b)
}

func TestAddTable(t *testing.T) {
	add := func(name string) func(p *model.Project) error {
		return func(p *model.Project) error { return p.AddTable(&model.Table{ID: "tn", Name: name}) }
	}
	cases := []editCase{
		{name: "new", edit: add("Supplier"), check: func(t *testing.T, p *model.Project) {
			tb := p.Table("tn")
			if tb == nil || tb.Name != "Supplier" || tb.Attributes == nil || len(tb.Attributes) != 0 {
				t.Errorf("table = %+v, want Supplier with an empty, non-nil attribute list", tb)
			}
			if p.Tables[len(p.Tables)-1] != tb {
				t.Error("the table is not appended")
			}
		}},
		{name: "underscore and digits", edit: add("_Order_Line2")},
		{name: "Page alone is free", edit: add("Page")},
		{name: "with source", edit: func(p *model.Project) error {
			return p.AddTable(&model.Table{ID: "tn", Name: "Supplier", Source: &model.TableSource{ImportCode: "suppliers"}})
		}},
		{name: "empty name", edit: add(""), code: model.CodeBadUserInput, msg: []string{"table name"}},
		{name: "starts with digit", edit: add("1Product"), code: model.CodeBadUserInput},
		{name: "space", edit: add("Line Item"), code: model.CodeBadUserInput},
		{name: "dash", edit: add("Line-Item"), code: model.CodeBadUserInput},
		{name: "double underscore", edit: add("__Type"), code: model.CodeBadUserInput},
		{name: "non-ASCII letter", edit: add("Café"), code: model.CodeBadUserInput},
		{name: "blank source", edit: func(p *model.Project) error {
			return p.AddTable(&model.Table{ID: "tn", Name: "Supplier", Source: &model.TableSource{ImportCode: "  "}})
		}, code: model.CodeBadUserInput, msg: []string{"importCode"}},
		{name: "same name", edit: add("Product"), code: model.CodeConflict, msg: []string{`"Product"`}},
		{name: "lower case clash", edit: add("product"), code: model.CodeConflict, msg: []string{`"product"`, `table "Product"`}},
		{name: "upper case clash", edit: add("CUSTOMER"), code: model.CodeConflict, msg: []string{`table "Customer"`}},
		{name: "clashes with generated Page type", edit: add("ProductPage"), code: model.CodeConflict, msg: []string{`table "Product"`, "ProductPage"}},
		{name: "clashes with generated Input type", edit: add("orderinput"), code: model.CodeConflict, msg: []string{`table "Order"`, "OrderInput"}},
	}
	for _, name := range []string{"Query", "Mutation", "Subscription", "SortDirection", "FilterValue", "JSON", "String", "Int", "Float", "Boolean", "ID"} {
		cases = append(cases, editCase{name: "reserved " + name, edit: add(name), code: model.CodeBadUserInput, msg: []string{"reserved"}})
	}
	runEdits(t, cases)
}

// TestAddTableGeneratedNames checks the clash in the other direction: the
// new table's generated <T>Page and <T>Input types against existing tables.
func TestAddTableGeneratedNames(t *testing.T) {
	tests := []struct {
		existing, name string
	}{
		{"InvoicePage", "Invoice"},
		{"invoiceINPUT", "Invoice"},
		{"InvoicePage", "invoicepage"},
		{"InvoiceInputPage", "InvoiceInput"},
	}
	for _, tt := range tests {
		t.Run(tt.existing+"/"+tt.name, func(t *testing.T) {
			p := &model.Project{ID: "p"}
			if err := p.AddTable(&model.Table{ID: "t1", Name: tt.existing}); err != nil {
				t.Fatal(err)
			}
			before := p.Clone()
			err := p.AddTable(&model.Table{ID: "t2", Name: tt.name})
			if model.ErrorCode(err) != model.CodeConflict || !strings.Contains(err.Error(), tt.existing) {
				t.Fatalf("AddTable(%q) = %v, want CONFLICT naming %q", tt.name, err, tt.existing)
			}
			if !reflect.DeepEqual(p.Clone(), before) {
				t.Error("a refused AddTable changed the project")
			}
		})
	}
}

func TestUpdateTable(t *testing.T) {
	update := func(id string, patch model.TablePatch) func(p *model.Project) error {
		return func(p *model.Project) error { _, err := p.UpdateTable(id, patch); return err }
	}
	runEdits(t, []editCase{
		{name: "rename", edit: update("tp", model.TablePatch{Name: ptr("Item")}), check: func(t *testing.T, p *model.Project) {
			if p.Table("tp").Name != "Item" || p.TableByName("Product") != nil {
				t.Errorf("table = %+v, want Item", p.Table("tp"))
			}
			if p.Operation("op1").Name != "products" {
				t.Error("renaming a table renamed its operations: they are a contract")
			}
		}},
		{name: "same name", edit: update("tp", model.TablePatch{Name: ptr("Product")})},
		{name: "change of case of its own name", edit: update("tp", model.TablePatch{Name: ptr("PRODUCT")})},
		{name: "to its own Page name", edit: update("tp", model.TablePatch{Name: ptr("ProductPage")})},
		{name: "rebind", edit: update("to", model.TablePatch{Source: &model.TableSource{ImportCode: "orders", Variant: ptr("2024")}}),
			check: func(t *testing.T, p *model.Project) {
				s := p.Table("to").Source
				if s == nil || s.ImportCode != "orders" || s.Variant == nil || *s.Variant != "2024" {
					t.Errorf("source = %+v", s)
				}
				if p.Table("to").Name != "Order" {
					t.Error("a nil name patch changed the name")
				}
			}},
		{name: "empty patch", edit: update("tp", model.TablePatch{})},
		{name: "unknown table", edit: update("nope", model.TablePatch{Name: ptr("X")}), code: model.CodeNotFound, msg: []string{"nope"}},
		{name: "invalid name", edit: update("tp", model.TablePatch{Name: ptr("9lives")}), code: model.CodeBadUserInput},
		{name: "reserved name", edit: update("tp", model.TablePatch{Name: ptr("Query")}), code: model.CodeBadUserInput, msg: []string{"reserved"}},
		{name: "other table's name", edit: update("tp", model.TablePatch{Name: ptr("customer")}), code: model.CodeConflict, msg: []string{`table "Customer"`}},
		{name: "other table's Input name", edit: update("tp", model.TablePatch{Name: ptr("CustomerInput")}), code: model.CodeConflict, msg: []string{`table "Customer"`}},
		{name: "valid name with blank source", edit: update("tp", model.TablePatch{Name: ptr("Item"), Source: &model.TableSource{}}),
			code: model.CodeBadUserInput, msg: []string{"importCode"}},
	})
}

func TestUpdateTableCopiesSource(t *testing.T) {
	p := fixture(t)
	src := &model.TableSource{ImportCode: "orders"}
	if _, err := p.UpdateTable("to", model.TablePatch{Source: src}); err != nil {
		t.Fatal(err)
	}
	src.ImportCode = "changed later"
	if got := p.Table("to").Source.ImportCode; got != "orders" {
		t.Errorf("the table shares the caller's TableSource: importCode = %q", got)
	}
}

func TestRemoveTable(t *testing.T) {
	runEdits(t, []editCase{
		{name: "unknown", edit: func(p *model.Project) error { return p.RemoveTable("nope") }, code: model.CodeNotFound},
		{name: "cascades", edit: func(p *model.Project) error { return p.RemoveTable("tc") }, check: func(t *testing.T, p *model.Project) {
			if p.Table("tc") != nil {
				t.Error("table still there")
			}
			if p.Relation("r1") != nil {
				t.Error("the relation to Order survived its source table")
			}
			for _, v := range p.Views {
				if v.TableID == "tc" {
					t.Errorf("view %+v survived its table", v)
				}
			}
			if p.Table("to") == nil || p.Table("tp") == nil || len(p.Views) != 4 {
				t.Errorf("other tables or views went too: %d tables, %d views", len(p.Tables), len(p.Views))
			}
		}},
		{name: "target of a relation", edit: func(p *model.Project) error { return p.RemoveTable("to") }, check: func(t *testing.T, p *model.Project) {
			if len(p.Relations) != 0 {
				t.Errorf("relations = %+v, want none", p.Relations)
			}
		}},
		{name: "operations go", edit: func(p *model.Project) error { return p.RemoveTable("tp") }, check: func(t *testing.T, p *model.Project) {
			if len(p.Operations) != 0 {
				t.Errorf("operations = %d, want 0", len(p.Operations))
			}
		}},
	})
}

func TestAddAttribute(t *testing.T) {
	add := func(a model.Attribute) func(p *model.Project) error {
		return func(p *model.Project) error {
			a.ID = "an"
			if a.TableID == "" {
				a.TableID = "tp"
			}
			if a.Type == "" {
				a.Type = model.TypeString
			}
			return p.AddAttribute(&a)
		}
	}
	gen := func(kind, options string) *model.Generator {
		g := &model.Generator{Kind: kind}
		if options != "" {
			g.Options = json.RawMessage(options)
		}
		return g
	}
	cases := []editCase{
		{name: "no mapping", edit: add(model.Attribute{Name: "stock", Mapping: model.MappingNone})},
		{name: "empty mapping becomes NONE", edit: add(model.Attribute{Name: "stock"}), check: func(t *testing.T, p *model.Project) {
			if a := p.Table("tp").Attribute("stock"); a == nil || a.Mapping != model.MappingNone {
				t.Errorf("attribute = %+v, want mapping NONE", a)
			}
		}},
		{name: "source", edit: add(model.Attribute{Name: "weight", Mapping: model.MappingSource, SourcePath: "dims.weight.kg"})},
		{name: "constant string", edit: add(model.Attribute{Name: "currency", Mapping: model.MappingConstant, Constant: json.RawMessage(`"EUR"`)})},
		{name: "constant null", edit: add(model.Attribute{Name: "note", Mapping: model.MappingConstant, Constant: json.RawMessage(`null`)})},
		{name: "constant object", edit: add(model.Attribute{Name: "meta", Type: model.TypeJSON, Mapping: model.MappingConstant, Constant: json.RawMessage(`{"a":[1]}`)})},
		{name: "computed", edit: add(model.Attribute{Name: "gross", Mapping: model.MappingComputed, Computed: "price * 1.2"})},
		{name: "generated", edit: add(model.Attribute{Name: "mail", Mapping: model.MappingGenerated, Generator: gen("person.email", "")})},
		{name: "generated with options", edit: add(model.Attribute{Name: "qty", Type: model.TypeInt, Mapping: model.MappingGenerated, Generator: gen("number.int", `{"min":1,"max":9}`)})},
		{name: "implicit id made explicit", edit: add(model.Attribute{Name: "id", Type: model.TypeID, Mapping: model.MappingSource, SourcePath: "sku"})},
		{name: "name of an attribute of another table", edit: add(model.Attribute{Name: "email"})},
		{name: "case differs from an attribute", edit: add(model.Attribute{Name: "Name"})},
		{name: "type ID", edit: add(model.Attribute{Name: "x", Type: model.TypeID})},
		{name: "type STRING", edit: add(model.Attribute{Name: "x", Type: model.TypeString})},
		{name: "type INT", edit: add(model.Attribute{Name: "x", Type: model.TypeInt})},
		{name: "type FLOAT", edit: add(model.Attribute{Name: "x", Type: model.TypeFloat})},
		{name: "type BOOLEAN", edit: add(model.Attribute{Name: "x", Type: model.TypeBoolean})},
		{name: "type DATETIME", edit: add(model.Attribute{Name: "x", Type: model.TypeDateTime})},
		{name: "type JSON", edit: add(model.Attribute{Name: "x", Type: model.TypeJSON})},

		{name: "unknown table", edit: add(model.Attribute{TableID: "nope", Name: "x"}), code: model.CodeNotFound},
		{name: "empty name", edit: add(model.Attribute{Name: ""}), code: model.CodeBadUserInput, msg: []string{"attribute name"}},
		{name: "invalid name", edit: add(model.Attribute{Name: "unit price"}), code: model.CodeBadUserInput},
		{name: "reserved prefix", edit: add(model.Attribute{Name: "__typename"}), code: model.CodeBadUserInput},
		{name: "unknown type", edit: add(model.Attribute{Name: "x", Type: "TEXT"}), code: model.CodeBadUserInput, msg: []string{"TEXT"}},
		{name: "same name", edit: add(model.Attribute{Name: "price"}), code: model.CodeConflict, msg: []string{`"price"`, "attribute price", "Product"}},
		{name: "relation field", edit: add(model.Attribute{TableID: "tc", Name: "orders"}), code: model.CodeConflict, msg: []string{"relation field orders", "Customer"}},
		{name: "inverse relation field", edit: add(model.Attribute{TableID: "to", Name: "customer"}), code: model.CodeConflict, msg: []string{"relation field customer", "Order"}},
		{name: "unknown mapping", edit: add(model.Attribute{Name: "x", Mapping: "MAGIC"}), code: model.CodeBadUserInput, msg: []string{"MAGIC"}},
		{name: "source without path", edit: add(model.Attribute{Name: "x", Mapping: model.MappingSource}), code: model.CodeBadUserInput, msg: []string{"sourceMapping.path"}},
		{name: "source with blank path", edit: add(model.Attribute{Name: "x", Mapping: model.MappingSource, SourcePath: " "}), code: model.CodeBadUserInput},
		{name: "source with empty segment", edit: add(model.Attribute{Name: "x", Mapping: model.MappingSource, SourcePath: "price..amount"}), code: model.CodeBadUserInput, msg: []string{"empty segment"}},
		{name: "source with leading dot", edit: add(model.Attribute{Name: "x", Mapping: model.MappingSource, SourcePath: ".price"}), code: model.CodeBadUserInput},
		{name: "source with trailing dot", edit: add(model.Attribute{Name: "x", Mapping: model.MappingSource, SourcePath: "price."}), code: model.CodeBadUserInput},
		{name: "constant without value", edit: add(model.Attribute{Name: "x", Mapping: model.MappingConstant}), code: model.CodeBadUserInput, msg: []string{"constantValue"}},
		{name: "constant not JSON", edit: add(model.Attribute{Name: "x", Mapping: model.MappingConstant, Constant: json.RawMessage(`EUR`)}), code: model.CodeBadUserInput},
		{name: "computed without expression", edit: add(model.Attribute{Name: "x", Mapping: model.MappingComputed, Computed: "  "}), code: model.CodeBadUserInput, msg: []string{"computedExpression"}},
		{name: "generated without generator", edit: add(model.Attribute{Name: "x", Mapping: model.MappingGenerated}), code: model.CodeBadUserInput, msg: []string{"generator.kind"}},
		{name: "generated without kind", edit: add(model.Attribute{Name: "x", Mapping: model.MappingGenerated, Generator: gen("", "")}), code: model.CodeBadUserInput},
		{name: "generated with bad options", edit: add(model.Attribute{Name: "x", Mapping: model.MappingGenerated, Generator: gen("person.email", `{min:1}`)}), code: model.CodeBadUserInput, msg: []string{"options"}},
	}
	runEdits(t, cases)
}

// TestAddAttributeID: every type has an implicit id; one attribute may take
// the name (it then maps the id), a second may not, and no relation field may.
func TestAddAttributeID(t *testing.T) {
	p := fixture(t)
	if err := p.AddAttribute(&model.Attribute{ID: "id1", TableID: "to", Name: "id", Type: model.TypeID}); err != nil {
		t.Fatalf("first id attribute: %v", err)
	}
	before := p.Clone()
	err := p.AddAttribute(&model.Attribute{ID: "id2", TableID: "to", Name: "id", Type: model.TypeID})
	if model.ErrorCode(err) != model.CodeConflict || !strings.Contains(err.Error(), "attribute id") {
		t.Fatalf("second id attribute: %v, want CONFLICT naming attribute id", err)
	}
	if !reflect.DeepEqual(p.Clone(), before) {
		t.Error("a refused AddAttribute changed the project")
	}
}

func TestUpdateAttribute(t *testing.T) {
	update := func(id string, patch model.AttributePatch) func(p *model.Project) error {
		return func(p *model.Project) error { _, err := p.UpdateAttribute(id, patch); return err }
	}
	attr := func(p *model.Project, id string) *model.Attribute { _, a := p.Attribute(id); return a }
	mt := func(m model.MappingType) *model.MappingType { return &m }
	st := func(s model.ScalarType) *model.ScalarType { return &s }
	runEdits(t, []editCase{
		{name: "rename unused", edit: update("ap-sku", model.AttributePatch{Name: ptr("code")}), check: func(t *testing.T, p *model.Project) {
			if a := attr(p, "ap-sku"); a.Name != "code" || a.Type != model.TypeString {
				t.Errorf("attribute = %+v", a)
			}
		}},
		{name: "rename to id when there is none", edit: update("ap-sku", model.AttributePatch{Name: ptr("id")})},
		{name: "rename to its own name", edit: update("ap-cat", model.AttributePatch{Name: ptr("category")})},
		{name: "flags of a used attribute", edit: update("ap-cat", model.AttributePatch{Sortable: ptr(true), Filterable: ptr(true), Required: ptr(true)}),
			check: func(t *testing.T, p *model.Project) {
				if a := attr(p, "ap-cat"); !a.Sortable || !a.Filterable || !a.Required {
					t.Errorf("flags not set: %+v", a)
				}
			}},
		{name: "remap to constant", edit: update("ap-sku", model.AttributePatch{Mapping: mt(model.MappingConstant), Constant: json.RawMessage(`"X-1"`)}),
			check: func(t *testing.T, p *model.Project) {
				if a := attr(p, "ap-sku"); a.Mapping != model.MappingConstant || string(a.Constant) != `"X-1"` {
					t.Errorf("attribute = %+v", a)
				}
			}},
		{name: "retype", edit: update("ap-price", model.AttributePatch{Type: st(model.TypeString)})},
		{name: "generator", edit: update("ap-sku", model.AttributePatch{Mapping: mt(model.MappingGenerated), Generator: &model.Generator{Kind: "company.name"}})},

		{name: "unknown", edit: update("nope", model.AttributePatch{Name: ptr("x")}), code: model.CodeNotFound},
		{name: "invalid name", edit: update("ap-sku", model.AttributePatch{Name: ptr("a-b")}), code: model.CodeBadUserInput},
		{name: "rename onto another attribute", edit: update("ap-sku", model.AttributePatch{Name: ptr("price")}), code: model.CodeConflict, msg: []string{"attribute price"}},
		{name: "rename onto a relation field", edit: update("ac-email", model.AttributePatch{Name: ptr("orders")}), code: model.CodeConflict, msg: []string{"relation field orders"}},
		{name: "rename used by a relation", edit: update("ao-cust", model.AttributePatch{Name: ptr("buyerId")}), code: model.CodeConflict,
			msg: []string{`"customerId"`, "relation orders"}},
		{name: "rename used by a parameter", edit: update("ap-cat", model.AttributePatch{Name: ptr("kind")}), code: model.CodeConflict,
			msg: []string{`"category"`, "parameter category of operation productsByCategory"}},
		{name: "unknown type", edit: update("ap-sku", model.AttributePatch{Type: st("TEXT")}), code: model.CodeBadUserInput},
		{name: "source without path", edit: update("ap-sku", model.AttributePatch{Mapping: mt(model.MappingSource)}), code: model.CodeBadUserInput},
		{name: "valid rename with invalid mapping", edit: update("ap-sku", model.AttributePatch{Name: ptr("code"), Mapping: mt(model.MappingComputed)}),
			code: model.CodeBadUserInput, msg: []string{"computedExpression"}},
		{name: "bad constant", edit: update("ap-sku", model.AttributePatch{Mapping: mt(model.MappingConstant), Constant: json.RawMessage(`{`)}), code: model.CodeBadUserInput},
	})
}

// TestUpdateAttributeIDAttribute: an attribute called id may keep its name
// and may be renamed away; then another may take it.
func TestUpdateAttributeIDAttribute(t *testing.T) {
	p := fixture(t)
	if err := p.AddAttribute(&model.Attribute{ID: "aid", TableID: "tp", Name: "id", Type: model.TypeID}); err != nil {
		t.Fatal(err)
	}
	if _, err := p.UpdateAttribute("aid", model.AttributePatch{Name: ptr("id"), Sortable: ptr(true)}); err != nil {
		t.Fatalf("keeping the name id: %v", err)
	}
	if _, err := p.UpdateAttribute("ap-sku", model.AttributePatch{Name: ptr("id")}); model.ErrorCode(err) != model.CodeConflict {
		t.Fatalf("second attribute renamed to id: %v, want CONFLICT", err)
	}
	if _, err := p.UpdateAttribute("aid", model.AttributePatch{Name: ptr("legacyId")}); err != nil {
		t.Fatalf("renaming id away: %v", err)
	}
	if _, err := p.UpdateAttribute("ap-sku", model.AttributePatch{Name: ptr("id")}); err != nil {
		t.Fatalf("renaming to the freed id: %v", err)
	}
}

func TestRemoveAttribute(t *testing.T) {
	remove := func(id string) func(p *model.Project) error {
		return func(p *model.Project) error { return p.RemoveAttribute(id) }
	}
	runEdits(t, []editCase{
		{name: "unused", edit: remove("ap-sku"), check: func(t *testing.T, p *model.Project) {
			if p.Table("tp").Attribute("sku") != nil {
				t.Error("attribute still there")
			}
		}},
		{name: "unknown", edit: remove("nope"), code: model.CodeNotFound},
		{name: "used by a relation", edit: remove("ao-cust"), code: model.CodeConflict, msg: []string{"customerId", "relation orders"}},
		{name: "used by a parameter", edit: remove("ap-price"), code: model.CodeConflict, msg: []string{"parameter minPrice of operation productsByCategory"}},
	})
}

func TestAddRelation(t *testing.T) {
	add := func(r model.Relation) func(p *model.Project) error {
		return func(p *model.Project) error { r.ID = "rn"; return p.AddRelation(&r) }
	}
	rel := func(p *model.Project) *model.Relation { return p.Relation("rn") }
	// productOrder links Order.total to Product.price: silly but valid.
	base := model.Relation{SourceTableID: "to", TargetTableID: "tp", Cardinality: model.OneToOne, SourceAttribute: "total", TargetAttribute: "price", FieldName: "product"}
	with := func(f func(r *model.Relation)) model.Relation { r := base; f(&r); return r }
	runEdits(t, []editCase{
		{name: "direction defaults to SOURCE_TO_TARGET", edit: add(base), check: func(t *testing.T, p *model.Project) {
			if r := rel(p); r.Direction != model.SourceToTarget || r.InverseFieldName != "" {
				t.Errorf("relation = %+v", r)
			}
		}},
		{name: "an inverse name makes it BIDIRECTIONAL", edit: add(with(func(r *model.Relation) { r.InverseFieldName = "order" })),
			check: func(t *testing.T, p *model.Project) {
				if r := rel(p); r.Direction != model.Bidirectional || r.InverseFieldName != "order" {
					t.Errorf("relation = %+v", r)
				}
			}},
		{name: "inverse name defaults to the source table", edit: add(with(func(r *model.Relation) { r.Direction = model.Bidirectional })),
			check: func(t *testing.T, p *model.Project) {
				if r := rel(p); r.InverseFieldName != "order" {
					t.Errorf("inverse field = %q, want order", r.InverseFieldName)
				}
			}},
		{name: "SOURCE_TO_TARGET drops the inverse name", edit: add(with(func(r *model.Relation) { r.Direction = model.SourceToTarget; r.InverseFieldName = "order" })),
			check: func(t *testing.T, p *model.Project) {
				if r := rel(p); r.InverseFieldName != "" {
					t.Errorf("inverse field = %q, want none", r.InverseFieldName)
				}
			}},
		{name: "implicit id", edit: add(with(func(r *model.Relation) { r.SourceAttribute, r.TargetAttribute = "id", "id" }))},
		{name: "self relation", edit: add(model.Relation{SourceTableID: "tc", TargetTableID: "tc", Cardinality: model.OneToMany, Direction: model.Bidirectional,
			SourceAttribute: "id", TargetAttribute: "email", FieldName: "referrals", InverseFieldName: "referrer"})},
		{name: "same field name on another table", edit: add(with(func(r *model.Relation) {
			r.FieldName = "orders"
			r.SourceTableID = "tp"
			r.TargetTableID = "to"
			r.SourceAttribute = "id"
			r.TargetAttribute = "id"
		}))},

		{name: "unknown source table", edit: add(with(func(r *model.Relation) { r.SourceTableID = "nope" })), code: model.CodeNotFound, msg: []string{"source table"}},
		{name: "unknown target table", edit: add(with(func(r *model.Relation) { r.TargetTableID = "nope" })), code: model.CodeNotFound, msg: []string{"target table"}},
		{name: "no cardinality", edit: add(with(func(r *model.Relation) { r.Cardinality = "" })), code: model.CodeBadUserInput, msg: []string{"cardinality"}},
		{name: "many to many", edit: add(with(func(r *model.Relation) { r.Cardinality = "MANY_TO_MANY" })), code: model.CodeBadUserInput},
		{name: "unknown source attribute", edit: add(with(func(r *model.Relation) { r.SourceAttribute = "sum" })), code: model.CodeBadUserInput, msg: []string{`"sum"`, "Order"}},
		{name: "unknown target attribute", edit: add(with(func(r *model.Relation) { r.TargetAttribute = "cost" })), code: model.CodeBadUserInput, msg: []string{`"cost"`, "Product"}},
		{name: "unknown direction", edit: add(with(func(r *model.Relation) { r.Direction = "BOTH" })), code: model.CodeBadUserInput, msg: []string{"BOTH"}},
		{name: "invalid field name", edit: add(with(func(r *model.Relation) { r.FieldName = "the product" })), code: model.CodeBadUserInput, msg: []string{"fieldName"}},
		{name: "empty field name", edit: add(with(func(r *model.Relation) { r.FieldName = "" })), code: model.CodeBadUserInput},
		{name: "field shadows an attribute", edit: add(with(func(r *model.Relation) { r.FieldName = "total" })), code: model.CodeConflict,
			msg: []string{`fieldName "total"`, "attribute total", "Order"}},
		{name: "field shadows id", edit: add(with(func(r *model.Relation) { r.FieldName = "id" })), code: model.CodeConflict, msg: []string{`fieldName "id"`, "id field"}},
		{name: "field shadows a relation field", edit: add(with(func(r *model.Relation) { r.FieldName = "customer" })), code: model.CodeConflict,
			msg: []string{`fieldName "customer"`, "relation field customer", "Order"}},
		{name: "inverse shadows an attribute", edit: add(with(func(r *model.Relation) { r.InverseFieldName = "price" })), code: model.CodeConflict,
			msg: []string{`inverseFieldName "price"`, "attribute price", "Product"}},
		{name: "inverse invalid", edit: add(with(func(r *model.Relation) { r.InverseFieldName = "1st" })), code: model.CodeBadUserInput, msg: []string{"inverseFieldName"}},
		{name: "self relation with one name twice", edit: add(model.Relation{SourceTableID: "tc", TargetTableID: "tc", Cardinality: model.OneToOne, Direction: model.Bidirectional,
			SourceAttribute: "id", TargetAttribute: "id", FieldName: "twin", InverseFieldName: "twin"}), code: model.CodeConflict, msg: []string{"twin", "Customer"}},
	})
}

// The "default inverse shadows an attribute" case above needs an attribute
// called customer on Product; check it separately so the fixture stays small.
func TestAddRelationDefaultInverseClash(t *testing.T) {
	p := fixture(t)
	if err := p.AddAttribute(&model.Attribute{ID: "ap-customer", TableID: "tp", Name: "customer", Type: model.TypeString}); err != nil {
		t.Fatal(err)
	}
	before := p.Clone()
	err := p.AddRelation(&model.Relation{ID: "rn", SourceTableID: "tc", TargetTableID: "tp", Cardinality: model.OneToOne,
		Direction: model.Bidirectional, SourceAttribute: "id", TargetAttribute: "id", FieldName: "favourite"})
	if model.ErrorCode(err) != model.CodeConflict || !strings.Contains(err.Error(), `inverseFieldName "customer" shadows attribute customer of table Product`) {
		t.Fatalf("AddRelation = %v, want CONFLICT naming both sides", err)
	}
	if !reflect.DeepEqual(p.Clone(), before) {
		t.Error("a refused AddRelation changed the project")
	}
}

func TestRemoveRelation(t *testing.T) {
	runEdits(t, []editCase{
		{name: "known", edit: func(p *model.Project) error { return p.RemoveRelation("r1") }, check: func(t *testing.T, p *model.Project) {
			if len(p.Relations) != 0 {
				t.Error("relation still there")
			}
			// The linking attribute is free again.
			if err := p.RemoveAttribute("ao-cust"); err != nil {
				t.Errorf("attribute still held by the removed relation: %v", err)
			}
		}},
		{name: "unknown", edit: func(p *model.Project) error { return p.RemoveRelation("nope") }, code: model.CodeNotFound},
	})
}

func TestAddOperation(t *testing.T) {
	add := func(o model.Operation) func(p *model.Project) error {
		return func(p *model.Project) error {
			o.ID = "on"
			if o.TableID == "" {
				o.TableID = "tp"
			}
			return p.AddOperation(&o)
		}
	}
	list := func(params ...model.Parameter) model.Operation {
		return model.Operation{Name: "cheapProducts", Kind: model.OpList, Parameters: params}
	}
	prm := func(name, attr string, op model.Operator) model.Parameter {
		return model.Parameter{Name: name, Attribute: attr, Operator: op}
	}
	cases := []editCase{
		{name: "list without parameters", edit: add(list()), check: func(t *testing.T, p *model.Project) {
			if o := p.Operation("on"); o.Parameters == nil {
				t.Error("nil parameters; want an empty list")
			}
		}},
		{name: "list with parameters", edit: add(list(prm("maxPrice", "price", model.OpLte), prm("ids", "id", model.OpIn), prm("q", "name", model.OpLike)))},
		{name: "single", edit: add(model.Operation{Name: "productBySku", Kind: model.OpSingle})},
		{name: "mutation", edit: add(model.Operation{Name: "addProduct", Kind: model.OpCreate})},
		{name: "empty parameter list on a single", edit: add(model.Operation{Name: "productBySku", Kind: model.OpSingle, Parameters: []model.Parameter{}})},

		{name: "unknown table", edit: add(model.Operation{TableID: "nope", Name: "x", Kind: model.OpList}), code: model.CodeNotFound},
		{name: "unknown kind", edit: add(model.Operation{Name: "x", Kind: "SEARCH"}), code: model.CodeBadUserInput, msg: []string{"SEARCH"}},
		{name: "invalid name", edit: add(model.Operation{Name: "all products", Kind: model.OpList}), code: model.CodeBadUserInput, msg: []string{"operation name"}},
		{name: "name taken", edit: add(model.Operation{Name: "products", Kind: model.OpList}), code: model.CodeConflict,
			msg: []string{`"products"`, "operation products of table Product"}},
		{name: "name taken, other table", edit: add(model.Operation{TableID: "to", Name: "productsByCategory", Kind: model.OpList}), code: model.CodeConflict,
			msg: []string{"operation productsByCategory of table Product"}},
		{name: "parameters on a single", edit: add(model.Operation{Name: "x", Kind: model.OpSingle, Parameters: []model.Parameter{prm("a", "name", model.OpEq)}}),
			code: model.CodeBadUserInput, msg: []string{"only LIST"}},
		{name: "parameters on a mutation", edit: add(model.Operation{Name: "x", Kind: model.OpDelete, Parameters: []model.Parameter{prm("a", "name", model.OpEq)}}),
			code: model.CodeBadUserInput},
		{name: "parameter twice", edit: add(list(prm("a", "name", model.OpEq), prm("a", "price", model.OpGt))), code: model.CodeConflict, msg: []string{`"a"`}},
		{name: "invalid parameter name", edit: add(list(prm("min-price", "price", model.OpGte))), code: model.CodeBadUserInput, msg: []string{"parameter name"}},
		{name: "unknown attribute", edit: add(list(prm("a", "colour", model.OpEq))), code: model.CodeBadUserInput, msg: []string{`"colour"`, "Product"}},
		{name: "attribute of another table", edit: add(list(prm("a", "email", model.OpEq))), code: model.CodeBadUserInput},
		{name: "unknown operator", edit: add(list(prm("a", "name", "contains"))), code: model.CodeBadUserInput, msg: []string{"contains"}},
		{name: "operator in upper case", edit: add(list(prm("a", "name", "EQ"))), code: model.CodeBadUserInput},
	}
	for _, arg := range []string{"page", "pageSize", "sortField", "sortDirection"} {
		cases = append(cases, editCase{name: "parameter named " + arg, edit: add(list(prm(arg, "price", model.OpEq))), code: model.CodeConflict, msg: []string{arg}})
	}
	for _, op := range []model.Operator{model.OpEq, model.OpNeq, model.OpGt, model.OpGte, model.OpLt, model.OpLte, model.OpIn, model.OpLike} {
		cases = append(cases, editCase{name: "operator " + string(op), edit: add(list(prm("a", "price", op)))})
	}
	runEdits(t, cases)
}

func TestUpdateOperation(t *testing.T) {
	update := func(id string, patch model.OperationPatch) func(p *model.Project) error {
		return func(p *model.Project) error { _, err := p.UpdateOperation(id, patch); return err }
	}
	runEdits(t, []editCase{
		{name: "rename", edit: update("op1", model.OperationPatch{Name: ptr("allProducts")}), check: func(t *testing.T, p *model.Project) {
			if p.Operation("op1").Name != "allProducts" {
				t.Error("not renamed")
			}
		}},
		{name: "same name", edit: update("op1", model.OperationPatch{Name: ptr("products")})},
		{name: "disable", edit: update("op2", model.OperationPatch{Enabled: ptr(false)}), check: func(t *testing.T, p *model.Project) {
			if p.Operation("op2").Enabled {
				t.Error("still enabled")
			}
		}},
		{name: "nil parameters keep them", edit: update("opc", model.OperationPatch{Enabled: ptr(false)}), check: func(t *testing.T, p *model.Project) {
			if len(p.Operation("opc").Parameters) != 2 {
				t.Errorf("parameters = %+v", p.Operation("opc").Parameters)
			}
		}},
		{name: "empty parameters clear them", edit: update("opc", model.OperationPatch{Parameters: []model.Parameter{}}), check: func(t *testing.T, p *model.Project) {
			if ps := p.Operation("opc").Parameters; ps == nil || len(ps) != 0 {
				t.Errorf("parameters = %#v, want empty", ps)
			}
		}},
		{name: "replace parameters", edit: update("op1", model.OperationPatch{Parameters: []model.Parameter{{Name: "q", Attribute: "name", Operator: model.OpLike}}})},
		{name: "empty parameters on a single", edit: update("op2", model.OperationPatch{Parameters: []model.Parameter{}})},

		{name: "unknown", edit: update("nope", model.OperationPatch{Enabled: ptr(true)}), code: model.CodeNotFound},
		{name: "invalid name", edit: update("op1", model.OperationPatch{Name: ptr("")}), code: model.CodeBadUserInput},
		{name: "name taken", edit: update("op1", model.OperationPatch{Name: ptr("productsByCategory")}), code: model.CodeConflict,
			msg: []string{"operation productsByCategory of table Product"}},
		{name: "parameters on a single", edit: update("op2", model.OperationPatch{Parameters: []model.Parameter{{Name: "q", Attribute: "name", Operator: model.OpEq}}}),
			code: model.CodeBadUserInput, msg: []string{"only LIST"}},
		{name: "parameter named page", edit: update("op1", model.OperationPatch{Parameters: []model.Parameter{{Name: "page", Attribute: "name", Operator: model.OpEq}}}),
			code: model.CodeConflict},
		{name: "valid rename with an unknown attribute", edit: update("opc", model.OperationPatch{Name: ptr("byCategory"), Enabled: ptr(false),
			Parameters: []model.Parameter{{Name: "c", Attribute: "colour", Operator: model.OpEq}}}), code: model.CodeBadUserInput},
		{name: "unknown operator", edit: update("opc", model.OperationPatch{Parameters: []model.Parameter{{Name: "c", Attribute: "category", Operator: "~"}}}),
			code: model.CodeBadUserInput},
	})
}

func TestUpdateOperationCopiesParameters(t *testing.T) {
	p := fixture(t)
	params := []model.Parameter{{Name: "q", Attribute: "name", Operator: model.OpLike}}
	if _, err := p.UpdateOperation("op1", model.OperationPatch{Parameters: params}); err != nil {
		t.Fatal(err)
	}
	params[0].Name = "changed"
	if got := p.Operation("op1").Parameters[0].Name; got != "q" {
		t.Errorf("the operation shares the caller's slice: parameter name = %q", got)
	}
}

func TestRemoveOperation(t *testing.T) {
	runEdits(t, []editCase{
		{name: "known", edit: func(p *model.Project) error { return p.RemoveOperation("opc") }, check: func(t *testing.T, p *model.Project) {
			if p.Operation("opc") != nil {
				t.Error("still there")
			}
			if err := p.RemoveAttribute("ap-cat"); err != nil {
				t.Errorf("attribute still held by the removed operation's parameter: %v", err)
			}
		}},
		{name: "unknown", edit: func(p *model.Project) error { return p.RemoveOperation("nope") }, code: model.CodeNotFound},
	})
}

func opNames(ops []*model.Operation) map[model.OperationKind]string {
	out := map[model.OperationKind]string{}
	for _, o := range ops {
		out[o.Kind] = o.Name
	}
	return out
}

func TestGenerateDefaultOperations(t *testing.T) {
	t.Run("names and idempotence", func(t *testing.T) {
		p := fixture(t)
		if err := p.AddTable(&model.Table{ID: "tk", Name: "Category"}); err != nil {
			t.Fatal(err)
		}
		v := p.Version
		ops, err := p.GenerateDefaultOperations("tk", ids("g"))
		if err != nil {
			t.Fatal(err)
		}
		want := map[model.OperationKind]string{model.OpList: "categories", model.OpSingle: "category",
			model.OpCreate: "createCategory", model.OpUpdate: "updateCategory", model.OpDelete: "deleteCategory"}
		if got := opNames(ops); !reflect.DeepEqual(got, want) || len(ops) != 5 {
			t.Errorf("operations = %v, want %v", got, want)
		}
		for _, o := range ops {
			if !o.Enabled || o.TableID != "tk" || o.Parameters == nil {
				t.Errorf("operation %+v: want enabled, of table tk, with an empty parameter list", o)
			}
		}
		if p.Version != v+1 {
			t.Errorf("Version = %d, want %d", p.Version, v+1)
		}
		before := p.Clone()
		again, err := p.GenerateDefaultOperations("tk", ids("h"))
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(p.Clone(), before) {
			t.Error("a second call changed the project")
		}
		if len(again) != 5 || again[0].ID != "g1" {
			t.Errorf("second call returned %d operations starting %q, want the 5 existing ones", len(again), again[0].ID)
		}
	})
	t.Run("only missing kinds", func(t *testing.T) {
		p := fixture(t)
		if err := p.AddOperation(&model.Operation{ID: "mine", TableID: "to", Name: "allOrders", Kind: model.OpList}); err != nil {
			t.Fatal(err)
		}
		ops, err := p.GenerateDefaultOperations("to", ids("g"))
		if err != nil {
			t.Fatal(err)
		}
		got := opNames(ops)
		if len(ops) != 5 || got[model.OpList] != "allOrders" || got[model.OpSingle] != "order" || got[model.OpCreate] != "createOrder" {
			t.Errorf("operations = %v", got)
		}
	})
	t.Run("every table", func(t *testing.T) {
		p := fixture(t)
		ops, err := p.GenerateDefaultOperations("", ids("g"))
		if err != nil {
			t.Fatal(err)
		}
		// Product already has its six; Customer and Order get five each.
		if len(ops) != 16 {
			t.Errorf("got %d operations, want 16", len(ops))
		}
		for _, name := range []string{"customers", "customer", "orders", "order", "deleteOrder"} {
			found := false
			for _, o := range ops {
				found = found || o.Name == name
			}
			if !found {
				t.Errorf("no operation %q", name)
			}
		}
	})
	t.Run("unknown table", func(t *testing.T) {
		p := fixture(t)
		before := p.Clone()
		if _, err := p.GenerateDefaultOperations("nope", ids("g")); model.ErrorCode(err) != model.CodeNotFound {
			t.Errorf("err = %v, want NOT_FOUND", err)
		}
		if !reflect.DeepEqual(p.Clone(), before) {
			t.Error("project changed")
		}
	})
	t.Run("clash with an existing operation adds nothing", func(t *testing.T) {
		p := fixture(t)
		if err := p.AddOperation(&model.Operation{ID: "x", TableID: "tp", Name: "createOrder", Kind: model.OpCreate}); err != nil {
			t.Fatal(err)
		}
		before := p.Clone()
		_, err := p.GenerateDefaultOperations("", ids("g"))
		if model.ErrorCode(err) != model.CodeConflict {
			t.Fatalf("err = %v, want CONFLICT", err)
		}
		for _, s := range []string{`"createOrder"`, "table Order", "operation createOrder of table Product"} {
			if !strings.Contains(err.Error(), s) {
				t.Errorf("error %q does not mention %q", err, s)
			}
		}
		if !reflect.DeepEqual(p.Clone(), before) {
			t.Error("a refused generation added operations (Customer's come before the clash)")
		}
	})
	t.Run("clash between two generated operations", func(t *testing.T) {
		// Serie's list and Series' single are both "series".
		p := &model.Project{ID: "p"}
		for i, name := range []string{"Serie", "Series"} {
			if err := p.AddTable(&model.Table{ID: fmt.Sprint("t", i), Name: name}); err != nil {
				t.Fatal(err)
			}
		}
		before := p.Clone()
		_, err := p.GenerateDefaultOperations("", ids("g"))
		if model.ErrorCode(err) != model.CodeConflict || !strings.Contains(err.Error(), `"series"`) {
			t.Fatalf("err = %v, want CONFLICT about series", err)
		}
		if !reflect.DeepEqual(p.Clone(), before) {
			t.Error("a refused generation changed the project")
		}
	})
}

func TestGenerateMissingViews(t *testing.T) {
	p := fixture(t)
	if err := p.AddTable(&model.Table{ID: "tk", Name: "Category"}); err != nil {
		t.Fatal(err)
	}
	v := p.Version
	views := p.GenerateMissingViews(ids("w"))
	if len(views) != 8 {
		t.Fatalf("got %d views, want 8 (the fixture's 6 and 2 new)", len(views))
	}
	var kinds []string
	for _, w := range views {
		if w.TableID == "tk" {
			kinds = append(kinds, w.Kind+" "+w.Name)
		}
	}
	if want := []string{"LIST Category list", "FORM Category form"}; !reflect.DeepEqual(kinds, want) {
		t.Errorf("new views = %q, want %q", kinds, want)
	}
	if p.Version <= v {
		t.Error("adding views did not increment Version")
	}
	before := p.Clone()
	if again := p.GenerateMissingViews(ids("x")); len(again) != 8 {
		t.Errorf("second call returned %d views", len(again))
	}
	if !reflect.DeepEqual(p.Clone(), before) {
		t.Error("a second call changed the project")
	}
}

func TestProjectLookups(t *testing.T) {
	p := fixture(t)
	if p.Table("tp") == nil || p.Table("nope") != nil || p.TableByName("Order") == nil || p.TableByName("order") != nil {
		t.Error("Table/TableByName")
	}
	if tb, a := p.Attribute("ao-total"); tb == nil || tb.ID != "to" || a.Name != "total" {
		t.Error("Attribute")
	}
	if tb, a := p.Attribute("nope"); tb != nil || a != nil {
		t.Error("Attribute of an unknown ID")
	}
	if p.Operation("opc") == nil || p.Relation("r1") == nil || p.Operation("r1") != nil {
		t.Error("Operation/Relation")
	}
}

func TestTableReady(t *testing.T) {
	p := fixture(t)
	tests := []struct {
		table string
		want  bool
	}{
		{"tp", true},
		{"tc", true},
		{"to", false}, // attributes mapped but no source
	}
	for _, tt := range tests {
		if got := p.Table(tt.table).Ready(); got != tt.want {
			t.Errorf("%s.Ready() = %v, want %v", tt.table, got, tt.want)
		}
	}
	unmapped := &model.Table{Source: &model.TableSource{ImportCode: "x"}, Attributes: []*model.Attribute{{Name: "a", Mapping: model.MappingConstant}}}
	if unmapped.Ready() {
		t.Error("a table with no SOURCE attribute is ready")
	}
}

func TestCloneIsDeep(t *testing.T) {
	p := fixture(t)
	c := p.Clone()
	c.Tables[0].Attributes[0].Name = "changed"
	c.Operations[5].Parameters[0].Name = "changed"
	c.Tables[0].Source.ImportCode = "changed"
	if p.Tables[0].Attributes[0].Name == "changed" || p.Operations[5].Parameters[0].Name == "changed" || p.Tables[0].Source.ImportCode == "changed" {
		t.Error("Clone shares memory with the original")
	}
}
