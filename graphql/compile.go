package graphql

import (
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
	t      *table
	params []param
	// The opt-in options of a LIST operation (model.OperationOptions).
	relay, where, orderBy, subs bool
}

// compiled is the whole compiled model.
type compiled struct {
	tables []*table
	ops    []*operation
	subs   []*subField // the Subscription type's fields (subscription.go)
}

func compileModel(p *model.Project) *compiled {
	c := &compiled{}
	var byID map[string]*table
	c.tables, byID = newTables(p, generatorOf)
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
func generatorOf(g *model.Generator) valueGenerator {
	if gen, err := compileGenerator(g); err == nil {
		return gen
	}
	return nil
}

func compileOperation(t *table, mo *model.Operation) *operation {
	o := &operation{name: mo.Name, kind: mo.Kind, t: t}
	if mo.Kind != model.OpList {
		return o
	}
	if opt := mo.Options; opt != nil {
		o.relay, o.where, o.orderBy = opt.Relay, opt.Where, opt.OrderBy && len(sortable(t)) > 0
		o.subs = opt.Subscriptions
	}
	for _, mp := range mo.Parameters {
		o.params = append(o.params, param{name: mp.Name, attr: t.field(mp.Attribute), op: mp.Operator})
	}
	return o
}

// sortable returns the attributes orderBy may name: those sortAttr accepts.
func sortable(t *table) []*attribute {
	var out []*attribute
	for _, a := range t.attrs {
		if t.sortAttr(a.name) == a && enumSafe(a.name) {
			out = append(out, a)
		}
	}
	return out
}

// enumSafe reports whether name may be a GraphQL enum value.
func enumSafe(name string) bool { return name != "true" && name != "false" && name != "null" }
