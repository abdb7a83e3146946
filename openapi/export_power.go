package openapi

import (
	"net/http"
	"slices"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/mockgql/mockgql/model"
)

// The opt-in query power of issue 14 as REST, only for the operations that
// opt in (an export without any is the same bytes as before it existed):
//
//	where     ?where={"price":{"gte":10}}     a JSON-encoded <T>Where (content
//	                                          application/json): the filter is a
//	                                          tree (and, or, not), and OpenAPI's
//	                                          deepObject style is defined for one
//	                                          level only, so brackets cannot say it
//	orderBy   ?orderBy=category,-price        comma-separated fields, "-" for DESC
//	                                          (the JSON:API sort convention)
//	relay     GET <list path>/-/<name>Connection?first=&after=&last=&before=
//	                                          a separate path, as its answer has
//	                                          another shape (<T>Connection)
//	AGGREGATE GET /<plural>/-/<name>?where=&groupBy=a,b   a <T>Aggregate
//
// Every extra path sits under "/-/", like further operations of a kind, so
// no row id (GET /products/{id}) is shadowed by it. Names are those of the
// runtime schema: ProductWhere with the shared FilterOperators, PageInfo,
// ProductConnection, ProductEdge, ProductAggregate, ProductNumbers and
// ProductGroup.

// Bounds the runtime applies, stated in the schemas.
const (
	maxOrderKeys   = 4
	maxGroupFields = 4
)

// powerDescription ends info.description when the project opts into query
// power; powerless projects keep the sentence they always had.
const powerDescription = "Query power, where an operation opts in: where is a JSON-encoded <T>Where object (and, or, not, per attribute " +
	"the FilterOperators), orderBy is comma-separated fields with - for descending (orderBy=category,-price), Relay connections are " +
	"at <list path>/-/<operation>Connection (first, after, last, before; opaque cursors) and AGGREGATE operations at /<plural>/-/<operation> " +
	"(where, groupBy=a,b)."

// hasPower reports whether an enabled operation of p opts into query power.
func hasPower(p *model.Project) bool {
	for _, o := range p.Operations {
		if o.Enabled && (o.Options.Any() || o.Kind == model.OpAggregate) {
			return true
		}
	}
	return false
}

// addPowerSchemas adds the component schemas the operations ops of table t
// need.
func addPowerSchemas(d *openapi3.T, t *model.Table, ops []*model.Operation) {
	s := d.Components.Schemas
	for _, o := range ops {
		where := o.Kind == model.OpAggregate || (o.Kind == model.OpList && o.Options != nil && o.Options.Where)
		if where {
			s["FilterOperators"] = &openapi3.SchemaRef{Value: filterOperatorsSchema()}
			s[t.Name+"Where"] = &openapi3.SchemaRef{Value: whereSchema(t)}
		}
		if o.Kind == model.OpList && o.Options != nil && o.Options.Relay {
			s["PageInfo"] = &openapi3.SchemaRef{Value: pageInfoSchema()}
			s[t.Name+"Connection"] = &openapi3.SchemaRef{Value: connectionSchema(t)}
			s[t.Name+"Edge"] = &openapi3.SchemaRef{Value: edgeSchema(t)}
		}
		if o.Kind == model.OpAggregate {
			addAggregateSchemas(s, t)
		}
	}
}

// filterValueSchema is a FilterValue: a JSON scalar, compared with the
// stored value's own type (a value of another type matches nothing).
func filterValueSchema(nullable bool) *openapi3.Schema {
	types := openapi3.Types{openapi3.TypeString, openapi3.TypeNumber, openapi3.TypeBoolean}
	if nullable {
		types = append(types, openapi3.TypeNull)
	}
	return &openapi3.Schema{Type: &types}
}

// filterOperatorsSchema is the shared FilterOperators: conditions on one
// attribute, all of which must hold.
func filterOperatorsSchema() *openapi3.Schema {
	s := openapi3.NewObjectSchema()
	s.Description = "Conditions on one attribute, all of which must hold. Values compare with the stored value's own JSON type: " +
		"a value of another type matches nothing."
	s.Properties = openapi3.Schemas{}
	for _, op := range []string{"eq", "neq", "gt", "gte", "lt", "lte", "like"} {
		s.Properties[op] = &openapi3.SchemaRef{Value: withDescription(filterValueSchema(true), model.FilterOperatorDocs[op])}
	}
	for _, op := range []string{"in", "nin"} {
		list := arrayOf(&openapi3.SchemaRef{Value: filterValueSchema(false)})
		list.Type = &openapi3.Types{openapi3.TypeArray, openapi3.TypeNull}
		s.Properties[op] = &openapi3.SchemaRef{Value: withDescription(list, model.FilterOperatorDocs[op])}
	}
	isNull := openapi3.NewBoolSchema()
	isNull.Type = &openapi3.Types{openapi3.TypeBoolean, openapi3.TypeNull}
	s.Properties["isNull"] = &openapi3.SchemaRef{Value: withDescription(isNull, model.FilterOperatorDocs["isNull"])}
	s.AdditionalProperties = openapi3.AdditionalProperties{Has: new(false)}
	return s
}

// whereAttributes are the attributes a filter or groupBy names: id and
// every attribute that is not COMPUTED, as in the runtime schema.
func whereAttributes(t *model.Table) []string {
	names := []string{}
	if t.Attribute("id") == nil {
		names = append(names, "id")
	}
	for _, a := range t.Attributes {
		if a.Mapping != model.MappingComputed && !slices.Contains(names, a.Name) {
			names = append(names, a.Name)
		}
	}
	return names
}

// whereSchema is <T>Where: every given condition must hold.
func whereSchema(t *model.Table) *openapi3.Schema {
	self := schemaRef(t.Name + "Where")
	s := openapi3.NewObjectSchema()
	s.Description = "A filter on " + t.Name + " rows: every given condition must hold. At most 256 nodes and conditions."
	s.Properties = openapi3.Schemas{
		"and": {Value: withDescription(arrayOf(self), "All of these hold.")},
		"or":  {Value: withDescription(arrayOf(self), "At least one of these holds (an empty list matches nothing).")},
		"not": self,
	}
	for _, name := range whereAttributes(t) {
		if name != "and" && name != "or" && name != "not" {
			s.Properties[name] = schemaRef("FilterOperators")
		}
	}
	s.AdditionalProperties = openapi3.AdditionalProperties{Has: new(false)}
	return s
}

func pageInfoSchema() *openapi3.Schema {
	s := openapi3.NewObjectSchema()
	s.Description = "Relay page information: whether matching rows lie before and after the edges served."
	cursor := func() *openapi3.SchemaRef {
		return &openapi3.SchemaRef{Value: &openapi3.Schema{Type: &openapi3.Types{openapi3.TypeString, openapi3.TypeNull}}}
	}
	s.Properties = openapi3.Schemas{
		"hasNextPage": {Value: openapi3.NewBoolSchema()}, "hasPreviousPage": {Value: openapi3.NewBoolSchema()},
		"startCursor": cursor(), "endCursor": cursor(),
	}
	s.Required = []string{"hasNextPage", "hasPreviousPage", "startCursor", "endCursor"}
	return s
}

func connectionSchema(t *model.Table) *openapi3.Schema {
	s := openapi3.NewObjectSchema()
	s.Description = "A Relay connection of " + t.Name + " rows."
	s.Properties = openapi3.Schemas{
		"edges":      {Value: arrayOf(schemaRef(t.Name + "Edge"))},
		"pageInfo":   schemaRef("PageInfo"),
		"totalCount": {Value: withDescription(openapi3.NewIntegerSchema(), "Number of matching rows before first/after/last/before.")},
	}
	s.Required = []string{"edges", "pageInfo", "totalCount"}
	return s
}

func edgeSchema(t *model.Table) *openapi3.Schema {
	s := openapi3.NewObjectSchema()
	s.Description = "A " + t.Name + " row and its cursor."
	s.Properties = openapi3.Schemas{
		"cursor": {Value: withDescription(openapi3.NewStringSchema(), "Opaque; stays valid while other rows are added, changed or deleted.")},
		"node":   schemaRef(t.Name),
	}
	s.Required = []string{"cursor", "node"}
	return s
}

// numericAttributes are the Int and Float attributes that are not COMPUTED.
func numericAttributes(t *model.Table) []string {
	var out []string
	for _, a := range t.Attributes {
		if a.Mapping != model.MappingComputed && (a.Type == model.TypeInt || a.Type == model.TypeFloat) {
			out = append(out, a.Name)
		}
	}
	return out
}

// addAggregateSchemas adds <T>Aggregate, <T>Group and, when t has numeric
// attributes, <T>Numbers.
func addAggregateSchemas(s openapi3.Schemas, t *model.Table) {
	nums := numericAttributes(t)
	stats := openapi3.Schemas{"count": {Value: withDescription(openapi3.NewIntegerSchema(), "Number of rows.")}}
	if len(nums) > 0 {
		n := openapi3.NewObjectSchema()
		n.Description = "One statistic per numeric attribute of " + t.Name + "; null when no row has a number there."
		n.Properties = openapi3.Schemas{}
		for _, name := range nums {
			n.Properties[name] = &openapi3.SchemaRef{Value: &openapi3.Schema{Type: &openapi3.Types{openapi3.TypeNumber, openapi3.TypeNull}}}
		}
		s[t.Name+"Numbers"] = &openapi3.SchemaRef{Value: n}
		for _, k := range []string{"sum", "avg", "min", "max"} {
			stats[k] = schemaRef(t.Name + "Numbers")
		}
	}
	group := openapi3.NewObjectSchema()
	group.Description = "The rows sharing one groupBy key."
	group.Properties = openapi3.Schemas{"key": {Value: withDescription(openapi3.NewObjectSchema(), "The groupBy attributes and their values.")}}
	agg := openapi3.NewObjectSchema()
	agg.Description = "Statistics of the matching " + t.Name + " rows, overall and per groupBy key."
	agg.Properties = openapi3.Schemas{"groups": {Value: withDescription(arrayOf(schemaRef(t.Name+"Group")),
		"Per groupBy key, in order of first row in storage order; empty without groupBy.")}}
	for k, v := range stats {
		group.Properties[k], agg.Properties[k] = v, v
	}
	group.Required, agg.Required = []string{"key", "count"}, []string{"count", "groups"}
	s[t.Name+"Group"], s[t.Name+"Aggregate"] = &openapi3.SchemaRef{Value: group}, &openapi3.SchemaRef{Value: agg}
}

// addListPower adds the where and orderBy parameters of a LIST operation
// o that opts into them, leaving out a name one of o's parameters takes.
func addListPower(op *openapi3.Operation, t *model.Table, o *model.Operation) {
	if o.Options == nil {
		return
	}
	if o.Options.Where && !hasParameter(op, "where") {
		op.AddParameter(whereParameter(t))
	}
	if o.Options.OrderBy && !hasParameter(op, "orderBy") {
		op.AddParameter(orderByParameter(t))
	}
}

func hasParameter(op *openapi3.Operation, name string) bool {
	return op.Parameters.GetByInAndName(openapi3.ParameterInQuery, name) != nil
}

// whereParameter is ?where=, a JSON-encoded <T>Where.
func whereParameter(t *model.Table) *openapi3.Parameter {
	p := openapi3.NewQueryParameter("where").WithDescription("A filter, a JSON-encoded " + t.Name + "Where object " +
		`(URL-encoded), e.g. {"or":[{"price":{"lt":5}},{"name":{"like":"lamp"}}]}; omitted, it does not filter.`)
	p.Content = openapi3.NewContentWithJSONSchemaRef(schemaRef(t.Name + "Where"))
	return p
}

// orderByParameter is ?orderBy=a,-b: sort keys in order, "-" for DESC;
// rows equal on every key keep storage order.
func orderByParameter(t *model.Table) *openapi3.Parameter {
	item := openapi3.NewStringSchema()
	for _, a := range t.Attributes {
		if a.Mapping == model.MappingSource && a.SourcePath != "" && enumSafe(a.Name) {
			item.Enum = append(item.Enum, a.Name, "-"+a.Name)
		}
	}
	s := arrayOf(&openapi3.SchemaRef{Value: item}).WithMaxItems(maxOrderKeys)
	explode := false
	p := openapi3.NewQueryParameter("orderBy").WithSchema(s).WithDescription("Sort keys in order, comma-separated, - before a field for " +
		"descending (orderBy=category,-price); rows equal on every key keep storage order. Wins over sortField.")
	p.Style, p.Explode = openapi3.SerializationForm, &explode
	return p
}

// arrayOf is an array schema of items.
func arrayOf(items *openapi3.SchemaRef) *openapi3.Schema {
	return &openapi3.Schema{Type: &openapi3.Types{openapi3.TypeArray}, Items: items}
}

// enumSafe reports whether name may be a GraphQL enum value, as the runtime
// schema's order and group fields must be.
func enumSafe(name string) bool { return name != "true" && name != "false" && name != "null" }

// connectionOperation is the Relay connection of a LIST operation o: its
// parameters and sort without page and pageSize, and first/after/last/before.
func connectionOperation(t *model.Table, o *model.Operation) *openapi3.Operation {
	list := listOperation(t, o)
	addListPower(list, t, o)
	op := newOperation(t, o.Name+model.ConnectionSuffix, "A Relay connection over the rows of "+o.Name+", with the same parameters and sort.")
	for _, n := range []string{"first", "last"} {
		op.AddParameter(openapi3.NewQueryParameter(n).WithDescription("The " + n + " rows of the window, at most the page size limit; " +
			"without first and last, first is 20.").WithSchema(openapi3.NewIntegerSchema().WithMin(0)))
	}
	for _, n := range []string{"after", "before"} {
		op.AddParameter(openapi3.NewQueryParameter(n).WithDescription("Only rows " + n + " the row of this cursor; " +
			"a cursor whose row is gone or filtered out is refused (400).").WithSchema(openapi3.NewStringSchema()))
	}
	for _, p := range list.Parameters {
		if n := p.Value.Name; n != "page" && n != "pageSize" && !hasParameter(op, n) {
			op.AddParameter(p.Value)
		}
	}
	op.AddResponse(http.StatusOK, jsonResponse("The connection.", t.Name+"Connection"))
	op.AddResponse(http.StatusBadRequest, jsonResponse("A malformed value, filter or cursor.", errorSchema))
	return op
}

// aggregateOperation is an AGGREGATE operation: where and groupBy.
func aggregateOperation(t *model.Table, o *model.Operation) *openapi3.Operation {
	op := newOperation(t, o.Name, "count, sum, avg, min and max of the numeric attributes of the "+t.Name+
		" rows that match where, overall and per groupBy key. Values that are not numbers are left out of sum, avg, min and max.")
	op.AddParameter(whereParameter(t))
	item := openapi3.NewStringSchema()
	for _, name := range whereAttributes(t) {
		if enumSafe(name) {
			item.Enum = append(item.Enum, name)
		}
	}
	explode := false
	g := openapi3.NewQueryParameter("groupBy").WithSchema(arrayOf(&openapi3.SchemaRef{Value: item}).WithMaxItems(maxGroupFields)).
		WithDescription("Attributes to group by, comma-separated (groupBy=category,active); at most 10,000 groups.")
	g.Style, g.Explode = openapi3.SerializationForm, &explode
	op.AddParameter(g)
	op.AddResponse(http.StatusOK, jsonResponse("The statistics.", t.Name+"Aggregate"))
	op.AddResponse(http.StatusBadRequest, jsonResponse("A malformed filter or groupBy, or too many groups.", errorSchema))
	return op
}
