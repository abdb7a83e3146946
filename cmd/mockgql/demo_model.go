package main

import (
	"context"
	"encoding/json"

	"github.com/mockgql/mockgql/app"
	"github.com/mockgql/mockgql/model"
)

// demoAttr is one attribute of the demo model: name, type, source path (or
// a constant / generator).
type demoAttr struct {
	name  string
	typ   model.ScalarType
	path  string
	konst string
	gen   string
}

// demoTables is the demo shop's model over the demo data pool.
var demoTables = []struct {
	name, code string
	attrs      []demoAttr
}{
	{"Category", "categories", []demoAttr{{name: "id", typ: model.TypeID, path: "id"}, {name: "name", typ: model.TypeString, path: "name"}, {name: "slug", typ: model.TypeString, path: "slug"}}},
	{"Product", "products", []demoAttr{{name: "id", typ: model.TypeID, path: "id"}, {name: "sku", typ: model.TypeString, path: "sku"},
		{name: "name", typ: model.TypeString, path: "name"}, {name: "description", typ: model.TypeString, path: "description"},
		{name: "categoryId", typ: model.TypeInt, path: "categoryId"}, {name: "price", typ: model.TypeFloat, path: "price.amount"},
		{name: "currency", typ: model.TypeString, path: "price.currency"}, {name: "stock", typ: model.TypeString, path: "stock"},
		{name: "inStock", typ: model.TypeBoolean, path: "inStock"}, {name: "tags", typ: model.TypeJSON, path: "tags"},
		{name: "market", typ: model.TypeString, path: "market"}}},
	{"Customer", "customers", []demoAttr{{name: "id", typ: model.TypeID, path: "id"}, {name: "firstName", typ: model.TypeString, path: "firstName"},
		{name: "lastName", typ: model.TypeString, path: "lastName"}, {name: "email", typ: model.TypeString, path: "email"},
		{name: "city", typ: model.TypeString, path: "address.city"}, {name: "country", typ: model.TypeString, path: "address.country"},
		{name: "createdAt", typ: model.TypeDateTime, path: "createdAt"}, {name: "phone", typ: model.TypeString, gen: "phone"},
		{name: "tier", typ: model.TypeString, konst: `"standard"`}}},
	{"Order", "orders", []demoAttr{{name: "id", typ: model.TypeID, path: "id"}, {name: "customerId", typ: model.TypeInt, path: "customerId"},
		{name: "productId", typ: model.TypeInt, path: "productId"}, {name: "quantity", typ: model.TypeInt, path: "quantity"},
		{name: "total", typ: model.TypeFloat, path: "total"}, {name: "status", typ: model.TypeString, path: "status"},
		{name: "createdAt", typ: model.TypeDateTime, path: "createdAt"}}},
}

// buildDemoModel creates the demo tables, relations, default operations, a
// filtered list operation and views.
func buildDemoModel(ctx context.Context, svc *app.Management, p model.Principal, projectID string) error {
	ids := map[string]string{}
	for _, t := range demoTables {
		tbl, err := svc.CreateTable(ctx, p, projectID, t.name, &model.TableSource{ImportCode: t.code})
		if err != nil {
			return err
		}
		ids[t.name] = tbl.ID
		for _, a := range t.attrs {
			if _, err := svc.CreateAttribute(ctx, p, demoAttribute(tbl.ID, a)); err != nil {
				return err
			}
		}
	}
	rels := []model.Relation{
		{SourceTableID: ids["Category"], TargetTableID: ids["Product"], Cardinality: model.OneToMany, SourceAttribute: "id", TargetAttribute: "categoryId", FieldName: "products", InverseFieldName: "category"},
		{SourceTableID: ids["Customer"], TargetTableID: ids["Order"], Cardinality: model.OneToMany, SourceAttribute: "id", TargetAttribute: "customerId", FieldName: "orders", InverseFieldName: "customer"},
		{SourceTableID: ids["Product"], TargetTableID: ids["Order"], Cardinality: model.OneToMany, SourceAttribute: "id", TargetAttribute: "productId", FieldName: "orders", InverseFieldName: "product"},
	}
	for _, r := range rels {
		if _, err := svc.CreateRelation(ctx, p, r); err != nil {
			return err
		}
	}
	ops, err := svc.GenerateDefaultOperations(ctx, p, projectID, "")
	if err != nil {
		return err
	}
	// products also sends subscriptions (productCreated, productUpdated,
	// productDeleted): make run prints how to watch them.
	for _, o := range ops {
		if o.TableID == ids["Product"] && o.Kind == model.OpList {
			if _, err := svc.UpdateOperation(ctx, p, o.ID, model.OperationPatch{Options: &model.OperationOptions{Subscriptions: true}}); err != nil {
				return err
			}
			break
		}
	}
	_, err = svc.CreateOperation(ctx, p, model.Operation{TableID: ids["Product"], Name: "searchProducts", Kind: model.OpList,
		Parameters: []model.Parameter{{Name: "minPrice", Attribute: "price", Operator: model.OpGte}, {Name: "maxPrice", Attribute: "price", Operator: model.OpLte},
			{Name: "category", Attribute: "categoryId", Operator: model.OpEq}, {Name: "q", Attribute: "name", Operator: model.OpLike}}})
	if err != nil {
		return err
	}
	_, err = svc.GenerateMissingViews(ctx, p, projectID)
	return err
}

func demoAttribute(tableID string, a demoAttr) model.Attribute {
	out := model.Attribute{TableID: tableID, Name: a.name, Type: a.typ, Sortable: true, Filterable: true}
	switch {
	case a.path != "":
		out.Mapping, out.SourcePath = model.MappingSource, a.path
	case a.konst != "":
		out.Mapping, out.Constant = model.MappingConstant, json.RawMessage(a.konst)
	default:
		out.Mapping, out.Generator = model.MappingGenerated, &model.Generator{Kind: a.gen}
	}
	return out
}
