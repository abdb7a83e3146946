package graphql

import (
	"github.com/mockgql/mockgql/engine"
	"github.com/mockgql/mockgql/graphql/internal/gen"
	"github.com/mockgql/mockgql/model"
)

// This file turns a project's model into the runtime's own immutable
// description of it: tables with their attributes, relation fields and
// operations. Nothing here points back into the model, so the caller may
// change the project after Compile.

// operation is an enabled operation of the runtime schema.
type operation struct {
	name   string
	kind   model.OperationKind
	t      *engine.Table
	params []engine.Param
	// The opt-in options of a LIST operation (model.OperationOptions).
	relay, where, orderBy, subs bool
}

// compiled is the whole compiled model.
type compiled struct {
	tables []*engine.Table
	ops    []*operation
	subs   []*subField // the Subscription type's fields (subscription.go)
}

func compileModel(p *model.Project) *compiled {
	c := &compiled{}
	var byID map[string]*engine.Table
	c.tables, byID = engine.NewTables(p, generatorOf)
	for _, mo := range p.Operations {
		if t := byID[mo.TableID]; t != nil && mo.Enabled && mo.Kind.Valid() {
			c.ops = append(c.ops, compileOperation(t, mo))
		}
	}
	c.subs = compileSubscriptions(c)
	return c
}

// generatorOf compiles a GENERATED attribute's generator; an unknown kind
// makes null values (nil).
func generatorOf(g *model.Generator) engine.Generator {
	if gen, err := gen.CompileGenerator(g); err == nil {
		return gen
	}
	return nil
}

func compileOperation(t *engine.Table, mo *model.Operation) *operation {
	o := &operation{name: mo.Name, kind: mo.Kind, t: t}
	if mo.Kind != model.OpList {
		return o
	}
	if opt := mo.Options; opt != nil {
		o.relay, o.where, o.orderBy = opt.Relay, opt.Where, opt.OrderBy && len(sortable(t)) > 0
		o.subs = opt.Subscriptions
	}
	for _, mp := range mo.Parameters {
		o.params = append(o.params, engine.Param{Name: mp.Name, Attr: t.Field(mp.Attribute), Op: mp.Operator})
	}
	return o
}

// sortable returns the attributes orderBy may name: those sortAttr accepts.
func sortable(t *engine.Table) []*engine.Attr {
	var out []*engine.Attr
	for _, a := range t.Attrs {
		if t.SortAttr(a.Name) == a && enumSafe(a.Name) {
			out = append(out, a)
		}
	}
	return out
}

// enumSafe reports whether name may be a GraphQL enum value.
func enumSafe(name string) bool { return name != "true" && name != "false" && name != "null" }
