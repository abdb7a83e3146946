package http

import (
	"github.com/mockgql/mockgql/model"
)

// The functions in this file turn the model mutations' input objects into
// model values. In the update inputs an absent member keeps the current
// value. A null member keeps it too where the field cannot be null
// (name, type, flags, mappingType, enabled, parameters); where it can, null
// clears it: sourceMapping and computedExpression become empty and
// constantValue becomes the JSON value null. A null generator or table
// source keeps the current one, because the patch structs cannot express
// clearing them.

// tableSource returns the TableSourceInput in, or nil.
func tableSource(in input) *model.TableSource {
	if in == nil {
		return nil
	}
	return &model.TableSource{ImportCode: in.str("importCode"), Variant: in.strPtr("variant")}
}

// tablePatch returns the table ID and patch of an UpdateModellingTableInput.
func tablePatch(in input) (string, TablePatch) {
	return in.str("tableId"), TablePatch{Name: in.strPtr("name"), Source: tableSource(in.object("source"))}
}

// newAttribute returns the attribute of a CreateModellingAttributeInput.
func newAttribute(in input) (model.Attribute, error) {
	a := model.Attribute{
		TableID:    in.str("tableId"),
		Name:       in.str("name"),
		Type:       model.ScalarType(in.str("type")),
		Sortable:   in.boolean("sortable"),
		Filterable: in.boolean("filterable"),
		Required:   in.boolean("required"),
		Mapping:    model.MappingType(in.str("mappingType")),
		Computed:   in.str("computedExpression"),
	}
	if sm := in.object("sourceMapping"); sm != nil {
		a.SourcePath = sm.str("path")
	}
	var err error
	if a.Constant, err = in.json("constantValue"); err != nil {
		return a, err
	}
	a.Generator, err = generator(in.object("generator"))
	return a, err
}

// generator returns the GeneratorInput in, or nil. Null options are no
// options.
func generator(in input) (*model.Generator, error) {
	if in == nil {
		return nil, nil
	}
	g := &model.Generator{Kind: in.str("kind")}
	if in["options"] == nil {
		return g, nil
	}
	opts, err := marshalJSON("generator.options", in["options"])
	g.Options = opts
	return g, err
}

// attributePatch returns the attribute ID and patch of an
// UpdateModellingAttributeInput.
func attributePatch(in input) (string, AttributePatch, error) {
	p := AttributePatch{
		Name:       in.strPtr("name"),
		Sortable:   in.boolPtr("sortable"),
		Filterable: in.boolPtr("filterable"),
		Required:   in.boolPtr("required"),
		Computed:   in.strPtr("computedExpression"),
	}
	if t := in.strPtr("type"); t != nil {
		st := model.ScalarType(*t)
		p.Type = &st
	}
	if m := in.strPtr("mappingType"); m != nil {
		mt := model.MappingType(*m)
		p.Mapping = &mt
	}
	if sm := in.object("sourceMapping"); sm != nil {
		p.SourcePath = sm.strPtr("path")
	} else if in.null("sourceMapping") {
		p.SourcePath = new(string)
	}
	if in.null("computedExpression") {
		p.Computed = new(string)
	}
	var err error
	if p.Constant, err = in.json("constantValue"); err != nil {
		return "", p, err
	}
	p.Generator, err = generator(in.object("generator"))
	return in.str("attributeId"), p, err
}

// newRelation returns the relation of a CreateRelationInput.
func newRelation(in input) model.Relation {
	return model.Relation{
		SourceTableID:    in.str("sourceTableId"),
		TargetTableID:    in.str("targetTableId"),
		Direction:        model.RelationDirection(in.str("direction")),
		Cardinality:      model.Cardinality(in.str("cardinality")),
		SourceAttribute:  in.str("sourceAttribute"),
		TargetAttribute:  in.str("targetAttribute"),
		FieldName:        in.str("fieldName"),
		InverseFieldName: in.str("inverseFieldName"),
	}
}

// newOperation returns the operation of a CreateOperationInput; a new
// operation is enabled.
func newOperation(in input) model.Operation {
	return model.Operation{
		TableID:    in.str("tableId"),
		Name:       in.str("name"),
		Kind:       model.OperationKind(in.str("kind")),
		Enabled:    true,
		Parameters: parameters(in["parameters"]),
		Options:    operationOptions(in),
	}
}

// operationOptions returns an OperationOptionsInput value; nil when absent
// or null.
func operationOptions(in input) *model.OperationOptions {
	if in.null("options") {
		return nil
	}
	o := in.object("options")
	if o == nil {
		return nil
	}
	return &model.OperationOptions{Relay: o.boolean("relay"), Where: o.boolean("where"), OrderBy: o.boolean("orderBy"),
		Subscriptions: o.boolean("subscriptions")}
}

// operationPatch returns the operation ID and patch of an
// UpdateOperationInput.
func operationPatch(in input) (string, OperationPatch) {
	return in.str("operationId"), OperationPatch{
		Name:       in.strPtr("name"),
		Enabled:    in.boolPtr("enabled"),
		Parameters: parameters(in["parameters"]),
		Options:    operationOptions(in),
	}
}

// parameters returns a [ParameterInput!] value: nil when absent or null,
// non-nil (perhaps empty) otherwise.
func parameters(v any) []model.Parameter {
	list, ok := v.([]any)
	if !ok {
		return nil
	}
	out := make([]model.Parameter, 0, len(list))
	for _, item := range list {
		in := input(asMap(item))
		out = append(out, model.Parameter{
			Name:      in.str("name"),
			Attribute: in.str("attribute"),
			Operator:  model.Operator(in.str("operator")),
		})
	}
	return out
}

// asMap returns v as an input object, or nil.
func asMap(v any) map[string]any {
	m, _ := v.(map[string]any)
	return m
}
