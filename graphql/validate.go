package graphql

import (
	"strconv"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
	"github.com/vektah/gqlparser/v2/validator"
	"github.com/vektah/gqlparser/v2/validator/core"
	"github.com/vektah/gqlparser/v2/validator/rules"
)

// validationRules returns gqlparser's default rules with two changes:
// KnownArgumentNames lets unknown arguments through on LooseArgs fields, and
// IntRange rejects Int literals outside 32 bits, which gqlparser accepts.
func (e *Executor) validationRules() *rules.Rules {
	r := rules.NewDefaultRules()
	r.RemoveRule(rules.KnownArgumentNamesRule.Name)
	r.AddRule(rules.KnownArgumentNamesRule.Name, e.knownArgumentNames)
	r.AddRule("IntRange", intRangeRule)
	return r
}

// validate runs the validation rules over doc.
func (e *Executor) validate(doc *ast.QueryDocument) gqlerror.List {
	return validator.ValidateWithRules(e.Schema, doc, e.rules)
}

// knownArgumentNames is rules.KnownArgumentNamesRule, except that the
// fields of LooseArgs accept unknown arguments (they reach the resolver in
// Field.Extra). The messages are those of the original rule.
func (e *Executor) knownArgumentNames(observers *core.Events, addError core.AddErrFunc) {
	observers.OnField(func(_ *core.Walker, field *ast.Field) {
		if field.Definition == nil || field.ObjectDefinition == nil {
			return
		}
		if e.LooseArgs[field.ObjectDefinition.Name+"."+field.Name] {
			return
		}
		for _, arg := range field.Arguments {
			if field.Definition.Arguments.ForName(arg.Name) == nil {
				addError(
					core.Message(`Unknown argument "%s" on field "%s.%s".`, arg.Name, field.ObjectDefinition.Name, field.Name),
					core.SuggestListQuoted("Did you mean", arg.Name, argNames(field.Definition.Arguments)),
					core.At(field.Position),
				)
			}
		}
	})
	observers.OnDirective(func(_ *core.Walker, d *ast.Directive) {
		if d.Definition == nil {
			return
		}
		for _, arg := range d.Arguments {
			if d.Definition.Arguments.ForName(arg.Name) == nil {
				addError(
					core.Message(`Unknown argument "%s" on directive "@%s".`, arg.Name, d.Name),
					core.SuggestListQuoted("Did you mean", arg.Name, argNames(d.Definition.Arguments)),
					core.At(d.Position),
				)
			}
		}
	})
}

// argNames returns the names of args.
func argNames(args ast.ArgumentDefinitionList) []string {
	names := make([]string, len(args))
	for i, a := range args {
		names[i] = a.Name
	}
	return names
}

// intRangeRule reports Int literals that do not fit in 32 bits, which the spec
// requires Int input coercion to reject.
func intRangeRule(observers *core.Events, addError core.AddErrFunc) {
	observers.OnValue(func(_ *core.Walker, v *ast.Value) {
		if v.Kind != ast.IntValue || v.Definition == nil || v.Definition.Name != "Int" {
			return
		}
		if _, err := strconv.ParseInt(v.Raw, 10, 32); err != nil {
			addError(core.Message("Int cannot represent non 32-bit signed integer value: %s", v.Raw), core.At(v.Position))
		}
	})
}
