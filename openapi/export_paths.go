package openapi

import (
	"fmt"
	"net/http"
	"slices"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/mockgql/mockgql/model"
)

// The paths of a table with base /products (the default list name):
//
//	LIST    GET    /products         page, pageSize, sortField, sortDirection, parameters
//	SINGLE  GET    /products/{id}
//	CREATE  POST   /products
//	UPDATE  PUT    /products/{id}    and PATCH (operationId <name>_patch)
//	DELETE  DELETE /products/{id}
//	AGGREGATE GET  /products/-/<operation name>       where, groupBy
//
// A LIST operation with the relay option has its connection at
// /products/-/<operation name>Connection (see export_power.go).
//
// The first enabled operation of each kind (the one with the default name
// when there is one) takes these paths; further ones of the same kind go
// under /products/-/<operation name>, so every operation has its own path.

// tableOperations returns t's enabled operations, those with default names
// first, otherwise in model order.
func tableOperations(p *model.Project, t *model.Table) []*model.Operation {
	var ops []*model.Operation
	for _, o := range p.Operations {
		if o.TableID == t.ID && o.Enabled {
			ops = append(ops, o)
		}
	}
	slices.SortStableFunc(ops, func(a, b *model.Operation) int {
		return boolRank(a.Name != model.DefaultOperationName(t.Name, a.Kind)) - boolRank(b.Name != model.DefaultOperationName(t.Name, b.Kind))
	})
	return ops
}

func boolRank(b bool) int {
	if b {
		return 1
	}
	return 0
}

// addPaths adds the path of each operation of t.
func addPaths(d *openapi3.T, t *model.Table, ops []*model.Operation) {
	base := "/" + model.DefaultOperationName(t.Name, model.OpList)
	taken := map[model.OperationKind]bool{}
	for _, o := range ops {
		path := base
		if taken[o.Kind] || o.Kind == model.OpAggregate {
			path = base + "/-/" + o.Name
		}
		taken[o.Kind] = true
		switch o.Kind {
		case model.OpList:
			list := listOperation(t, o)
			addListPower(list, t, o)
			setOperation(d, path, http.MethodGet, list)
			if o.Options != nil && o.Options.Relay {
				setOperation(d, base+"/-/"+o.Name+model.ConnectionSuffix, http.MethodGet, connectionOperation(t, o))
			}
		case model.OpAggregate:
			setOperation(d, path, http.MethodGet, aggregateOperation(t, o))
		case model.OpSingle:
			setOperation(d, path+"/{id}", http.MethodGet, rowOperation(t, o, "Returns the "+t.Name+" row with this id.", http.StatusOK))
		case model.OpCreate:
			setOperation(d, path, http.MethodPost, bodyOperation(t, o, o.Name, "Creates a "+t.Name+" row.", http.StatusCreated))
		case model.OpUpdate:
			setOperation(d, path+"/{id}", http.MethodPut, bodyOperation(t, o, o.Name, "Changes the given fields of the "+t.Name+" row with this id.", http.StatusOK))
			setOperation(d, path+"/{id}", http.MethodPatch, bodyOperation(t, o, o.Name+"_patch", "Changes the given fields of the "+t.Name+" row with this id (as PUT).", http.StatusOK))
		case model.OpDelete:
			setOperation(d, path+"/{id}", http.MethodDelete, rowOperation(t, o, "Deletes the "+t.Name+" row with this id and returns it as it was.", http.StatusOK))
		}
	}
}

// setOperation puts op at method and path, making the path item if needed.
func setOperation(d *openapi3.T, path, method string, op *openapi3.Operation) {
	item := d.Paths.Value(path)
	if item == nil {
		item = &openapi3.PathItem{}
		d.Paths.Set(path, item)
	}
	item.SetOperation(method, op)
}

// newOperation starts an operation of table t named after o.
func newOperation(t *model.Table, id, summary string) *openapi3.Operation {
	op := openapi3.NewOperation()
	op.OperationID, op.Summary, op.Tags = id, summary, []string{t.Name}
	op.Responses = openapi3.NewResponses()
	return op
}

// listOperation is a LIST: paging and sorting arguments, then one query
// parameter per operation parameter.
func listOperation(t *model.Table, o *model.Operation) *openapi3.Operation {
	op := newOperation(t, o.Name, "Lists "+t.Name+" rows, a page at a time.")
	op.AddParameter(openapi3.NewQueryParameter("page").WithDescription("The page, 1-based; less than 1 means 1.").
		WithSchema(withDefault(openapi3.NewIntegerSchema(), 1)))
	op.AddParameter(openapi3.NewQueryParameter("pageSize").WithDescription("Rows a page, at most 1000 (more is clamped).").
		WithSchema(withDefault(openapi3.NewIntegerSchema(), 20)))
	op.AddParameter(openapi3.NewQueryParameter("sortField").WithDescription("The attribute to sort by (case-sensitive); others keep storage order.").
		WithSchema(openapi3.NewStringSchema()))
	op.AddParameter(openapi3.NewQueryParameter("sortDirection").WithDescription("ASC or DESC.").
		WithSchema(withDefault(openapi3.NewStringSchema().WithEnum("ASC", "DESC"), "ASC")))
	for _, prm := range o.Parameters {
		op.AddParameter(filterParameter(t, prm))
	}
	op.AddResponse(http.StatusOK, jsonResponse("A page of rows.", t.Name+"Page"))
	op.AddResponse(http.StatusBadRequest, jsonResponse("An unknown argument or a malformed value.", errorSchema))
	return op
}

func withDefault(s *openapi3.Schema, v any) *openapi3.Schema {
	s.Default = v
	return s
}

// filterParameter is the query parameter of an operation parameter, typed
// as its attribute (a list for the in operator, comma-separated).
func filterParameter(t *model.Table, prm model.Parameter) *openapi3.Parameter {
	typ := model.TypeID
	if a := t.Attribute(prm.Attribute); a != nil {
		typ = a.Type
	}
	s := valueSchema(typ)
	if prm.Operator == model.OpIn {
		s = &openapi3.Schema{Type: &openapi3.Types{openapi3.TypeArray}, Items: &openapi3.SchemaRef{Value: s}}
	}
	p := openapi3.NewQueryParameter(prm.Name).WithSchema(s).
		WithDescription(fmt.Sprintf("Filter: %s %s the value; omitted, it does not filter.", prm.Attribute, operatorText(prm.Operator)))
	if prm.Operator == model.OpIn {
		explode := false
		p.Style, p.Explode = openapi3.SerializationForm, &explode
	}
	return p
}

// operatorText says what an operator does, for descriptions.
func operatorText(op model.Operator) string {
	return map[model.Operator]string{
		model.OpEq: "equals", model.OpNeq: "differs from", model.OpGt: "is greater than", model.OpGte: "is at least",
		model.OpLt: "is less than", model.OpLte: "is at most", model.OpIn: "is one of", model.OpLike: "contains (ignoring case)",
	}[op]
}

// rowOperation is SINGLE or DELETE: an id in the path, a row back.
func rowOperation(t *model.Table, o *model.Operation, summary string, status int) *openapi3.Operation {
	op := newOperation(t, o.Name, summary)
	op.AddParameter(idParameter())
	op.AddResponse(status, jsonResponse("The row.", t.Name))
	op.AddResponse(http.StatusNotFound, jsonResponse("No row has this id.", errorSchema))
	return op
}

// bodyOperation is CREATE or UPDATE: a TInput body, a row back.
func bodyOperation(t *model.Table, o *model.Operation, id, summary string, status int) *openapi3.Operation {
	op := newOperation(t, id, summary)
	if o.Kind == model.OpUpdate {
		op.AddParameter(idParameter())
		op.AddResponse(http.StatusNotFound, jsonResponse("No row has this id.", errorSchema))
	} else {
		op.AddResponse(http.StatusConflict, jsonResponse("A row with the given id exists.", errorSchema))
	}
	op.RequestBody = &openapi3.RequestBodyRef{Value: openapi3.NewRequestBody().WithRequired(true).
		WithDescription("The field values.").WithJSONSchemaRef(schemaRef(t.Name + "Input"))}
	op.AddResponse(status, jsonResponse("The row.", t.Name))
	op.AddResponse(http.StatusBadRequest, jsonResponse("A malformed body.", errorSchema))
	return op
}

func idParameter() *openapi3.Parameter {
	return openapi3.NewPathParameter("id").WithDescription("The row's id.").WithSchema(openapi3.NewStringSchema())
}

// jsonResponse is a response whose JSON body is the named schema.
func jsonResponse(description, schema string) *openapi3.Response {
	return openapi3.NewResponse().WithDescription(description).WithJSONSchemaRef(schemaRef(schema))
}
