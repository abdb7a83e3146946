package exec

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strconv"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
	"github.com/vektah/gqlparser/v2/validator"
	"github.com/vektah/gqlparser/v2/validator/core"
	"github.com/vektah/gqlparser/v2/validator/rules"

	"github.com/mockgql/mockgql/model"
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

// validate runs the validation rules over doc, as
// validator.ValidateWithRules does, but stops at Bounds.MaxErrors errors:
// a document built to fail (a thousand conflicting fields) costs what its
// first errors cost, not an error per pair of its fields. Messages are
// clipped to MaxMessageBytes, since they quote the document.
//
// The walk takes at most walkSteps × Bounds.MaxWalk steps and stops once ctx
// is done: validate then returns one error saying so, with Code
// model.CodeQueryTimeout when ctx ended (canceled reports that).
func (e *Executor) validate(ctx context.Context, doc *ast.QueryDocument) (errs gqlerror.List, canceled bool) {
	max := e.Bounds.MaxErrors
	observers := &core.Events{}
	steps := &stepper{ctx: ctx, max: walkSteps * e.Bounds.MaxWalk}
	steps.observe(observers)
	for _, rule := range e.ruleList {
		rule.RuleFunc(observers, func(options ...core.ErrorOption) {
			err := &gqlerror.Error{Rule: rule.Name}
			for _, o := range options {
				o(err)
			}
			err.Message = model.Clip(err.Message, MaxMessageBytes)
			if len(errs) == max-1 {
				err = &gqlerror.Error{Rule: rule.Name,
					Message: fmt.Sprintf("validation stopped after %d errors: fix those first", max)}
			}
			errs = append(errs, err)
			if len(errs) >= max {
				panic(errValidationStopped)
			}
		})
	}
	defer func() {
		switch v := recover(); v {
		case nil, errValidationStopped:
		case errValidationBudget:
			errs = gqlerror.List{{Message: fmt.Sprintf("validation of the document takes more than the limit of %d steps: use fewer fragments, or spread them less", steps.max)}}
		case errValidationCanceled:
			errs, canceled = nil, true
		default:
			panic(v)
		}
	}()
	validator.Walk(e.Schema, doc, observers)
	return errs, false
}

// errValidationStopped unwinds the validator's walk once validate has
// collected as many errors as a response carries.
var errValidationStopped = errors.New("graphql: validation stopped")

// sortedRules returns the rules of r in name order, as
// validator.ValidateWithRules runs them.
func sortedRules(r *rules.Rules) []validator.Rule {
	var out []validator.Rule
	for name, f := range r.GetInner() {
		out = append(out, validator.Rule{Name: name, RuleFunc: f})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
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
