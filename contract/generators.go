package contract

import (
	"encoding/json"

	"github.com/mockgql/mockgql/model"
)

// An editor's generator for a field (setContractGenerator,
// docs/using/contract.md "Choosing a field's generator"): it replaces the
// field's Value — the values by meaning, or the document's @fake and
// @examples — in the plan the runtime serves, and Build shows it as the
// field's attribute generator.

// UseGenerators sets the Value of each field gens names to the editor's
// generator (Source SourceEditor); a choice that no longer fits the plan
// (its type or field gone, or no longer a generated scalar) is skipped.
func (p *Plan) UseGenerators(gens []model.ContractGenerator) {
	for _, g := range gens {
		f, err := p.generatedField(g.Type, g.Field)
		if err != nil {
			continue
		}
		var opts map[string]any
		if len(g.Options) > 0 && json.Unmarshal(g.Options, &opts) != nil {
			continue
		}
		f.Value, f.Source = Value{Kind: g.Kind, Options: opts}, SourceEditor
	}
}

// CheckGeneratorField refuses, with BAD_USER_INPUT naming why, a
// generator choice for a field of p that generated rows do not fill with
// a generator: an unknown type or field, a key, an enum or an embedded
// object.
func (p *Plan) CheckGeneratorField(typ, field string) error {
	_, err := p.generatedField(typ, field)
	return err
}

// generatedField returns the field of the entity or embedded type typ
// whose values a generator makes.
func (p *Plan) generatedField(typ, field string) (*Field, error) {
	for _, e := range append(append([]*Entity{}, p.Entities...), p.Embedded...) {
		if e.Type != typ {
			continue
		}
		for _, f := range e.Fields {
			if f.Name != field {
				continue
			}
			switch f.Value.Kind {
			case "key", "ref":
				return nil, model.Errorf(model.CodeBadUserInput, "%s.%s is the key of %s's rows: its values are not generated", clip(typ), clip(field), clip(typ))
			case "enum":
				return nil, model.Errorf(model.CodeBadUserInput, "%s.%s is an enum: its values are the enum's", clip(typ), clip(field))
			case "object":
				return nil, model.Errorf(model.CodeBadUserInput, "%s.%s holds objects of %s: choose generators for their fields", clip(typ), clip(field), clip(f.Type))
			}
			return f, nil
		}
		return nil, model.Errorf(model.CodeBadUserInput, "type %s has no field %s that rows hold", clip(typ), clip(field))
	}
	return nil, model.Errorf(model.CodeBadUserInput, "%s is not a type whose rows are generated (Contract.tables)", clip(typ))
}

// Generated reports whether a generator makes f's values: not a key, a
// foreign key, an enum or an embedded object (CheckGeneratorField's
// refusals).
func (f *Field) Generated() bool {
	switch f.Value.Kind {
	case "key", "ref", "enum", "object":
		return false
	}
	return true
}

// keptGenerators returns the choices of gens that still fit plan.
func keptGenerators(plan *Plan, gens []model.ContractGenerator) []model.ContractGenerator {
	var out []model.ContractGenerator
	for _, g := range gens {
		if plan.CheckGeneratorField(g.Type, g.Field) == nil {
			out = append(out, g)
		}
	}
	return out
}

// attributeGenerator is the generator Build shows on f's attribute: the
// editor's choice, so the model's value bound holds its options as an
// attribute's; nil otherwise (the document's directives are the
// document's, bounded with it, and ContractTable.fields shows them).
func attributeGenerator(f *Field) *model.Generator {
	if f.Source != SourceEditor {
		return nil
	}
	var opts json.RawMessage
	if len(f.Value.Options) > 0 {
		opts, _ = json.Marshal(f.Value.Options)
	}
	return &model.Generator{Kind: f.Value.Kind, Options: opts}
}
