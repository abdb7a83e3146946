package model_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/mockgql/mockgql/model"
)

// TestPowerNameClashes covers the names the opt-in query power reserves:
// PageInfo and FilterOperators always; a table's <T>Where, <T>OrderBy,
// <T>Connection, <T>Aggregate, … and the where filter's and/or/not only
// while an operation of the table asks for them, refused by whichever edit
// comes second.
func TestPowerNameClashes(t *testing.T) {
	addTable := func(name string) func(p *model.Project) error {
		return func(p *model.Project) error { return p.AddTable(&model.Table{ID: "tn", Name: name}) }
	}
	options := func(opt model.OperationOptions) func(p *model.Project) error {
		return func(p *model.Project) error {
			_, err := p.UpdateOperation("op1", model.OperationPatch{Options: &opt})
			return err
		}
	}
	aggregate := func(p *model.Project) error {
		return p.AddOperation(&model.Operation{ID: "agg", TableID: "tp", Name: "productsAggregate", Kind: model.OpAggregate, Enabled: true})
	}
	type edit = func(p *model.Project) error
	renameTable := func(id, name string) edit {
		return func(p *model.Project) error {
			_, err := p.UpdateTable(id, model.TablePatch{Name: &name})
			return err
		}
	}
	attr := func(name string) edit {
		return func(p *model.Project) error {
			return p.AddAttribute(&model.Attribute{ID: "an", TableID: "tp", Name: name, Type: model.TypeString})
		}
	}
	rename := func(name string) edit {
		return func(p *model.Project) error {
			_, err := p.UpdateAttribute("ap-sku", model.AttributePatch{Name: &name})
			return err
		}
	}
	where, relay := options(model.OperationOptions{Where: true}), options(model.OperationOptions{Relay: true})
	cases := []powerCase{
		{name: "PageInfo reserved", edit: addTable("PageInfo"), code: model.CodeBadUserInput, msg: []string{"PageInfo", "reserved"}},
		{name: "FilterOperators reserved", edit: addTable("FilterOperators"), code: model.CodeBadUserInput, msg: []string{"reserved"}},
		{name: "ProductWhere without options", edit: addTable("ProductWhere")},
		{name: "ProductEdge without options", edit: addTable("ProductEdge")},
		{name: "ProductGroup without aggregate", edit: addTable("ProductGroup")},
		{name: "ProductWhere after where", setup: []edit{where}, edit: addTable("productwhere"),
			code: model.CodeConflict, msg: []string{`table "Product"`, "ProductWhere"}},
		{name: "ProductOrderField after orderBy", setup: []edit{options(model.OperationOptions{OrderBy: true})}, edit: addTable("ProductOrderField"),
			code: model.CodeConflict, msg: []string{"ProductOrderField"}},
		{name: "ProductEdge after relay", setup: []edit{relay}, edit: addTable("ProductEdge"), code: model.CodeConflict, msg: []string{"ProductEdge"}},
		{name: "ProductConnection after relay", setup: []edit{relay}, edit: addTable("ProductConnection"), code: model.CodeConflict, msg: []string{"ProductConnection"}},
		{name: "ProductNumbers after aggregate", setup: []edit{aggregate}, edit: addTable("ProductNumbers"), code: model.CodeConflict, msg: []string{"ProductNumbers"}},
		{name: "ProductWhere after aggregate", setup: []edit{aggregate}, edit: addTable("ProductWhere"), code: model.CodeConflict, msg: []string{"ProductWhere"}},
		{name: "relay after ProductEdge", setup: []edit{addTable("ProductEdge")}, edit: relay,
			code: model.CodeConflict, msg: []string{"operation", "products", `table "ProductEdge"`}},
		{name: "aggregate after ProductAggregate", setup: []edit{addTable("ProductAggregate")}, edit: aggregate,
			code: model.CodeConflict, msg: []string{"productsAggregate", "ProductAggregate"}},
		{name: "where after ProductEdge", setup: []edit{addTable("ProductEdge")}, edit: where},
		{name: "rename into a clash", setup: []edit{where}, edit: renameTable("tc", "ProductWhere"), code: model.CodeConflict, msg: []string{"ProductWhere"}},
		{name: "the new name's own types clash", setup: []edit{addTable("ShopWhere"), where}, edit: renameTable("tp", "Shop"),
			code: model.CodeConflict, msg: []string{`table name "Shop"`, "ShopWhere"}},
		{name: "attribute and without where", edit: attr("and")},
		{name: "attribute or with where", setup: []edit{where}, edit: attr("or"), code: model.CodeBadUserInput, msg: []string{`"or"`, "ProductWhere"}},
		{name: "attribute renamed not with aggregate", setup: []edit{aggregate}, edit: rename("not"), code: model.CodeBadUserInput, msg: []string{`"not"`}},
		{name: "attribute nota with where", setup: []edit{where}, edit: attr("nota")},
		{name: "where after attribute and", setup: []edit{attr("and")}, edit: where, code: model.CodeBadUserInput, msg: []string{`"and"`, "turn where off"}},
		{name: "aggregate after attribute or", setup: []edit{attr("or")}, edit: aggregate, code: model.CodeBadUserInput, msg: []string{`"or"`}},
		{name: "relay after attribute not", setup: []edit{attr("not")}, edit: options(model.OperationOptions{Relay: true, OrderBy: true})},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := fixture(t)
			for _, f := range c.setup {
				if err := f(p); err != nil {
					t.Fatalf("setup: %v", err)
				}
			}
			before := p.Clone()
			err := c.edit(p)
			if got := model.ErrorCode(err); got != c.code {
				t.Fatalf("error code = %q (%v), want %q", got, err, c.code)
			}
			for _, m := range c.msg {
				if !strings.Contains(err.Error(), m) {
					t.Errorf("error %q does not mention %q", err, m)
				}
			}
			if c.code != "" && !reflect.DeepEqual(p.Clone(), before) {
				t.Errorf("a refused edit changed the project")
			}
		})
	}
}

// powerCase is an edit of the fixture after the setup edits.
type powerCase struct {
	name  string
	setup []func(p *model.Project) error
	edit  func(p *model.Project) error
	code  model.Code
	msg   []string
}
