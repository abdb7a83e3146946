package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mockgql/mockgql/model"
)

type createTableIn struct {
	sessionArg
	Name       string `json:"name" jsonschema:"the GraphQL type name, PascalCase singular, e.g. Product; operations are named after it (products, product, createProduct…)"`
	ImportCode string `json:"importCode" jsonschema:"the dataset to serve rows from (list_data_sources)"`
	Variant    string `json:"variant,omitempty" jsonschema:"serve only this variant of the dataset (leave out for all variants)"`
}

type tableOut struct {
	ID         string         `json:"id" jsonschema:"the tableId other tools take"`
	Name       string         `json:"name"`
	ImportCode string         `json:"importCode,omitempty"`
	Variant    string         `json:"variant,omitempty"`
	Ready      bool           `json:"ready" jsonschema:"true once the table is bound and has an attribute bound to a field path"`
	NotReady   string         `json:"notReady,omitempty" jsonschema:"why the table serves no rows yet, and what to do"`
	Attributes []attributeOut `json:"attributes"`
}

type attributeOut struct {
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Type      string          `json:"type"`
	Mapping   string          `json:"mapping"`
	Path      string          `json:"path,omitempty"`
	Value     json.RawMessage `json:"value,omitempty"`
	Generator string          `json:"generator,omitempty"`
}

func (s *Server) createTable(ctx context.Context, in createTableIn) (tableOut, outcome, error) {
	p, pr, err := s.project(ctx, in.Session)
	if err != nil {
		return tableOut{}, outcome{}, err
	}
	src := &model.TableSource{ImportCode: in.ImportCode}
	if in.Variant != "" {
		src.Variant = &in.Variant
	}
	t, err := s.cfg.Backend.CreateTable(ctx, p, pr.ID, in.Name, src)
	if err != nil {
		return tableOut{}, outcome{}, err
	}
	pool, err := s.poolCodes(ctx)
	if err != nil {
		return tableOut{}, outcome{}, err
	}
	return shapeTable(t, pool, pr.Kind), outcome{text: fmt.Sprintf("Created table %s (tableId %s) bound to %s. Next: add_attributes with tableId %s.", t.Name, t.ID, in.ImportCode, t.ID)}, nil
}

func shapeTable(t *model.Table, pool map[string]bool, kind model.ProjectKind) tableOut {
	o := tableOut{ID: t.ID, Name: t.Name, Ready: t.NotReadyIn(pool, kind) == "", Attributes: []attributeOut{}}
	if t.Source != nil {
		o.ImportCode = t.Source.ImportCode
		if t.Source.Variant != nil {
			o.Variant = *t.Source.Variant
		}
	}
	for _, a := range t.Attributes {
		o.Attributes = append(o.Attributes, shapeAttribute(a))
	}
	if !o.Ready {
		o.NotReady = notReadyReason(t)
	}
	return o
}

// notReadyReason says why t serves no rows (model.Table.NotReadyIn) and
// what to do about it.
func notReadyReason(t *model.Table) string {
	if t.Source == nil || t.Source.ImportCode == "" {
		return "not bound to a dataset: create the table again with an importCode"
	}
	if t.NotReadyReason() == "" {
		return fmt.Sprintf("is bound to %q, which no dataset of the curated pool has: create the table again with an importCode from list_data_sources", model.Truncate(t.Source.ImportCode, 64))
	}
	return "no attribute is bound to a field path: add_attributes with mapping SOURCE and a path from list_data_sources"
}

// poolCodes is the set of import codes of the curated pool, which a
// session project reads.
func (s *Server) poolCodes(ctx context.Context) (map[string]bool, error) {
	ds, err := s.cfg.Backend.DataSources(ctx)
	if err != nil {
		return nil, err
	}
	codes := make(map[string]bool, len(ds))
	for _, d := range ds {
		codes[d.ImportCode] = true
	}
	return codes, nil
}

func shapeAttribute(a *model.Attribute) attributeOut {
	o := attributeOut{ID: a.ID, Name: a.Name, Type: string(a.Type), Mapping: string(a.Mapping), Path: a.SourcePath, Value: a.Constant}
	if a.Generator != nil {
		o.Generator = a.Generator.Kind
	}
	return o
}

type attributeIn struct {
	Name       string          `json:"name" jsonschema:"the GraphQL field name, camelCase, e.g. price; name one id to choose the record's ID"`
	Type       scalarType      `json:"type" jsonschema:"the field's scalar type"`
	Mapping    mappingType     `json:"mapping,omitempty" jsonschema:"where the value comes from: SOURCE (a field path of the table's dataset, the default), CONSTANT (the same value on every row), GENERATED (fake data, deterministic per record), COMPUTED (kept, not served), NONE (null)"`
	Path       string          `json:"path,omitempty" jsonschema:"SOURCE: the dot path of the field in the dataset, e.g. price.amount (list_data_sources' fieldPaths)"`
	Value      json.RawMessage `json:"value,omitempty" jsonschema:"CONSTANT: the JSON value every row has"`
	Generator  string          `json:"generator,omitempty" jsonschema:"GENERATED: the kind of fake data, e.g. person.email, person.firstName, address.city, company.name, lorem.sentence"`
	Expression string          `json:"expression,omitempty" jsonschema:"COMPUTED: the expression, kept for the person; the runtime does not serve it"`
	Sortable   bool            `json:"sortable,omitempty"`
	Filterable bool            `json:"filterable,omitempty"`
	Required   bool            `json:"required,omitempty"`
}

type addAttributesIn struct {
	sessionArg
	TableID    string        `json:"tableId" jsonschema:"the table (create_table's id)"`
	Attributes []attributeIn `json:"attributes" jsonschema:"the attributes to add, in order; all of a table's fields in one call"`
}

type addAttributesOut struct {
	TableID string         `json:"tableId"`
	Created []attributeOut `json:"created"`
	Failed  *failedOut     `json:"failed,omitempty" jsonschema:"the attribute that was refused; those after it were not tried"`
}

type failedOut struct {
	Index   int    `json:"index" jsonschema:"its position in attributes, from 0"`
	Name    string `json:"name"`
	Code    string `json:"code"`
	Message string `json:"message"`
}

// addAttributes adds a batch in order and stops at the first refusal, so
// the assistant can resend the rest once it fixed that one.
func (s *Server) addAttributes(ctx context.Context, in addAttributesIn) (addAttributesOut, outcome, error) {
	p, err := s.principal(in.Session)
	if err != nil {
		return addAttributesOut{}, outcome{}, err
	}
	if len(in.Attributes) == 0 {
		return addAttributesOut{}, outcome{}, model.Errorf(model.CodeBadUserInput, "attributes is empty: list the fields to add")
	}
	if n := s.cfg.Limits.Attributes; len(in.Attributes) > n {
		return addAttributesOut{}, outcome{}, model.Errorf(model.CodeLimitReached, "%d attributes in one call, but a table of a session project may have %d attributes", len(in.Attributes), n)
	}
	out := addAttributesOut{TableID: in.TableID, Created: []attributeOut{}}
	for i, a := range in.Attributes {
		m, err := toAttribute(in.TableID, a)
		var created *model.Attribute
		if err == nil {
			created, err = s.cfg.Backend.CreateAttribute(ctx, p, m)
		}
		if err != nil {
			if e := model.AsError(err); e == nil || i == 0 {
				return out, outcome{}, err // nothing was added: a plain refusal
			}
			e := model.AsError(err)
			out.Failed = &failedOut{Index: i, Name: a.Name, Code: string(e.Code), Message: e.Message}
			return out, outcome{failed: true, text: fmt.Sprintf("Added %d of %d attributes; %q was refused: %s: %s. %s after it not tried.",
				i, len(in.Attributes), a.Name, e.Code, e.Message, plural(len(in.Attributes)-i-1, "attribute"))}, nil
		}
		out.Created = append(out.Created, shapeAttribute(created))
	}
	names := make([]string, len(out.Created))
	for i, a := range out.Created {
		names[i] = a.Name
	}
	return out, outcome{text: fmt.Sprintf("Added %d attributes to table %s: %s.", len(names), in.TableID, strings.Join(names, ", "))}, nil
}

// toAttribute checks one attribute's mapping fields and builds it.
func toAttribute(tableID string, a attributeIn) (model.Attribute, error) {
	m := model.Attribute{TableID: tableID, Name: a.Name, Type: model.ScalarType(a.Type), Mapping: model.MappingType(a.Mapping),
		Sortable: a.Sortable, Filterable: a.Filterable, Required: a.Required}
	if m.Mapping == "" {
		m.Mapping = model.MappingSource
	}
	need := func(field string, ok bool) error {
		if !ok {
			return model.Errorf(model.CodeBadUserInput, "attribute %q: mapping %s needs %s", a.Name, m.Mapping, field)
		}
		return nil
	}
	switch m.Mapping {
	case model.MappingSource:
		m.SourcePath = a.Path
		return m, need("path", a.Path != "")
	case model.MappingConstant:
		m.Constant = a.Value
		return m, need("value", len(a.Value) > 0)
	case model.MappingGenerated:
		m.Generator = &model.Generator{Kind: a.Generator}
		return m, need("generator", a.Generator != "")
	case model.MappingComputed:
		m.Computed = a.Expression
		return m, need("expression", a.Expression != "")
	}
	return m, nil
}

type relationIn struct {
	sessionArg
	SourceTableID    string      `json:"sourceTableId" jsonschema:"the one side, e.g. Category"`
	TargetTableID    string      `json:"targetTableId" jsonschema:"the other side; in a ONE_TO_MANY it holds the foreign key, e.g. Product"`
	Cardinality      cardinality `json:"cardinality"`
	SourceAttribute  string      `json:"sourceAttribute" jsonschema:"the source table's attribute name the foreign key refers to, usually id"`
	TargetAttribute  string      `json:"targetAttribute" jsonschema:"the target table's foreign-key attribute name, e.g. categoryId"`
	FieldName        string      `json:"fieldName" jsonschema:"the field added to the source type: a list for ONE_TO_MANY (e.g. products), an object for ONE_TO_ONE"`
	InverseFieldName string      `json:"inverseFieldName,omitempty" jsonschema:"the to-one field added to the target type (e.g. category); makes the relation BIDIRECTIONAL"`
	Direction        direction   `json:"direction,omitempty" jsonschema:"default: BIDIRECTIONAL when inverseFieldName is given, else SOURCE_TO_TARGET"`
}

type relationOut struct {
	ID               string `json:"id"`
	SourceTableID    string `json:"sourceTableId"`
	TargetTableID    string `json:"targetTableId"`
	Cardinality      string `json:"cardinality"`
	Direction        string `json:"direction"`
	SourceAttribute  string `json:"sourceAttribute"`
	TargetAttribute  string `json:"targetAttribute"`
	FieldName        string `json:"fieldName"`
	InverseFieldName string `json:"inverseFieldName,omitempty"`
}

func (s *Server) createRelation(ctx context.Context, in relationIn) (relationOut, outcome, error) {
	p, err := s.principal(in.Session)
	if err != nil {
		return relationOut{}, outcome{}, err
	}
	d := model.RelationDirection(in.Direction)
	if d == "" {
		d = model.RelationDirection("SOURCE_TO_TARGET")
		if in.InverseFieldName != "" {
			d = model.RelationDirection("BIDIRECTIONAL")
		}
	}
	r, err := s.cfg.Backend.CreateRelation(ctx, p, model.Relation{SourceTableID: in.SourceTableID, TargetTableID: in.TargetTableID,
		Direction: d, Cardinality: model.Cardinality(in.Cardinality), SourceAttribute: in.SourceAttribute, TargetAttribute: in.TargetAttribute,
		FieldName: in.FieldName, InverseFieldName: in.InverseFieldName})
	if err != nil {
		return relationOut{}, outcome{}, err
	}
	return shapeRelation(r), outcome{text: fmt.Sprintf("Created relation %s (field %s).", r.ID, r.FieldName)}, nil
}

func shapeRelation(r *model.Relation) relationOut {
	return relationOut{ID: r.ID, SourceTableID: r.SourceTableID, TargetTableID: r.TargetTableID, Cardinality: string(r.Cardinality),
		Direction: string(r.Direction), SourceAttribute: r.SourceAttribute, TargetAttribute: r.TargetAttribute, FieldName: r.FieldName,
		InverseFieldName: r.InverseFieldName}
}

type generateOperationsIn struct {
	sessionArg
	TableID string `json:"tableId,omitempty" jsonschema:"only this table (leave out for every table)"`
}

type operationOut struct {
	ID         string         `json:"id" jsonschema:"what update_operation's operationId takes"`
	TableID    string         `json:"tableId"`
	Name       string         `json:"name"`
	Kind       string         `json:"kind"`
	Enabled    bool           `json:"enabled"`
	Parameters []parameterOut `json:"parameters"`
}

type parameterOut struct {
	Name      string `json:"name"`
	Attribute string `json:"attribute"`
	Operator  string `json:"operator"`
}

type operationsOut struct {
	Operations []operationOut `json:"operations"`
}

func (s *Server) generateOperations(ctx context.Context, in generateOperationsIn) (operationsOut, outcome, error) {
	p, pr, err := s.project(ctx, in.Session)
	if err != nil {
		return operationsOut{}, outcome{}, err
	}
	ops, err := s.cfg.Backend.GenerateDefaultOperations(ctx, p, pr.ID, in.TableID)
	if err != nil {
		return operationsOut{}, outcome{}, err
	}
	out := operationsOut{Operations: []operationOut{}}
	names := []string{}
	for _, o := range ops {
		out.Operations = append(out.Operations, shapeOperation(o))
		names = append(names, o.Name)
	}
	return out, outcome{text: fmt.Sprintf("Generated %d operations: %s. Next: generate_views, then run_query with a list operation.", len(names), strings.Join(names, ", "))}, nil
}

func shapeOperation(o *model.Operation) operationOut {
	out := operationOut{ID: o.ID, TableID: o.TableID, Name: o.Name, Kind: string(o.Kind), Enabled: o.Enabled, Parameters: []parameterOut{}}
	for _, p := range o.Parameters {
		out.Parameters = append(out.Parameters, parameterOut{Name: p.Name, Attribute: p.Attribute, Operator: string(p.Operator)})
	}
	return out
}

type parameterIn struct {
	Name      string   `json:"name" jsonschema:"the argument name clients pass, e.g. minPrice"`
	Attribute string   `json:"attribute" jsonschema:"the attribute it compares, e.g. price"`
	Operator  operator `json:"operator" jsonschema:"how: eq, neq, gt, gte, lt, lte, in (a list of values), like (contains, case-insensitive)"`
}

type updateOperationIn struct {
	sessionArg
	OperationID string        `json:"operationId" jsonschema:"the operation (generate_operations or describe_project list them)"`
	Name        string        `json:"name,omitempty" jsonschema:"a new name (leave out to keep it)"`
	Enabled     *bool         `json:"enabled,omitempty" jsonschema:"false hides the operation from the schema"`
	Parameters  []parameterIn `json:"parameters,omitempty" jsonschema:"LIST operations: the filter arguments, replacing the current ones (leave out to keep them, [] to clear them)"`
}

func (s *Server) updateOperation(ctx context.Context, in updateOperationIn) (operationOut, outcome, error) {
	p, err := s.principal(in.Session)
	if err != nil {
		return operationOut{}, outcome{}, err
	}
	patch := model.OperationPatch{Enabled: in.Enabled}
	if in.Name != "" {
		patch.Name = &in.Name
	}
	if in.Parameters != nil {
		patch.Parameters = []model.Parameter{}
		for _, q := range in.Parameters {
			patch.Parameters = append(patch.Parameters, model.Parameter{Name: q.Name, Attribute: q.Attribute, Operator: model.Operator(q.Operator)})
		}
	}
	o, err := s.cfg.Backend.UpdateOperation(ctx, p, in.OperationID, patch)
	if err != nil {
		return operationOut{}, outcome{}, err
	}
	return shapeOperation(o), outcome{text: fmt.Sprintf("Updated operation %s (%s, %s, enabled %t).", o.Name, o.Kind, plural(len(o.Parameters), "parameter"), o.Enabled)}, nil
}

type viewsOut struct {
	Views []viewOut `json:"views"`
}

type viewOut struct {
	ID      string `json:"id"`
	TableID string `json:"tableId"`
	Kind    string `json:"kind"`
	Name    string `json:"name"`
}

func (s *Server) generateViews(ctx context.Context, in sessionArg) (viewsOut, outcome, error) {
	p, pr, err := s.project(ctx, in.Session)
	if err != nil {
		return viewsOut{}, outcome{}, err
	}
	vs, err := s.cfg.Backend.GenerateMissingViews(ctx, p, pr.ID)
	if err != nil {
		return viewsOut{}, outcome{}, err
	}
	out := viewsOut{Views: []viewOut{}}
	for _, v := range vs {
		out.Views = append(out.Views, viewOut{ID: v.ID, TableID: v.TableID, Kind: v.Kind, Name: v.Name})
	}
	return out, outcome{text: fmt.Sprintf("Added %d board views. Next: run_query to check data flows.", len(out.Views))}, nil
}

func (s *Server) addModelTools() {
	l := s.cfg.Limits
	addTool(s, &sdk.Tool{Name: "create_table", Title: "Create a table",
		Description: fmt.Sprintf("Adds a table (a GraphQL type) to the session's project, bound to a dataset by importCode and optionally one variant. Up to %d tables.", l.Tables)},
		s.createTable)
	addTool(s, &sdk.Tool{Name: "add_attributes", Title: "Add attributes to a table",
		Description: fmt.Sprintf("Adds many attributes (fields) to a table in one call, in order: SOURCE binds a field path of the dataset, CONSTANT a fixed value, GENERATED fake data. Up to %d a table. Stops at the first refused one and says which; the earlier ones stay.", l.Attributes)},
		s.addAttributes)
	addTool(s, &sdk.Tool{Name: "create_relation", Title: "Relate two tables",
		Description: "Links two tables: in a ONE_TO_MANY the target holds the foreign key (Category 1—n Product: source Category, target Product, sourceAttribute id, targetAttribute categoryId, fieldName products, inverseFieldName category)."},
		s.createRelation)
	addTool(s, &sdk.Tool{Name: "generate_operations", Title: "Generate the default operations",
		Description: "Generates each table's default operations: list (products), single (product(id:)), create, update and delete. Call after the tables and attributes exist."},
		s.generateOperations)
	addTool(s, &sdk.Tool{Name: "update_operation", Title: "Change an operation",
		Description: "Renames, enables or disables an operation, or sets a LIST operation's filter parameters (e.g. minPrice: price gte)."},
		s.updateOperation)
	addTool(s, &sdk.Tool{Name: "generate_views", Title: "Generate board views",
		Description: "Adds the default board views of every table that has none, so the project looks right when the person opens it."},
		s.generateViews)
}

// plural writes n and the noun, with an s when n is not 1.
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
