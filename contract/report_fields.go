package contract

import "github.com/mockgql/mockgql/model"

// Fields is the report of the root fields as the APIs answer it
// (ContractField, docs/using/contract.md): one per query, mutation and
// subscription field, in the document's order.
func (p *Plan) Fields() []model.ContractField {
	out := make([]model.ContractField, 0, len(p.Queries)+len(p.Mutations)+len(p.Subscriptions))
	for _, group := range []struct {
		root   string
		fields []*RootField
	}{{model.RootQuery, p.Queries}, {model.RootMutation, p.Mutations}, {model.RootSubscription, p.Subscriptions}} {
		for _, f := range group.fields {
			entity := f.Entity
			if f.Shape == ShapeGenerated {
				entity = ""
			}
			out = append(out, model.ContractField{Root: group.root, Name: f.Name, Shape: string(f.Shape), Entity: entity, Description: f.describe(), Args: argsOf(f), EverySeconds: f.Every})
		}
	}
	return out
}

// Unsupported names what the plan accepts but does not interpret: the
// root fields answered with generated values (with why) and the arguments
// accepted and ignored, in the document's order.
func (p *Plan) Unsupported() []string {
	out := []string{}
	for _, group := range []struct {
		word   string
		fields []*RootField
	}{{"Query", p.Queries}, {"Mutation", p.Mutations}, {"Subscription", p.Subscriptions}} {
		for _, f := range group.fields {
			if f.Shape == ShapeGenerated {
				out = append(out, group.word+"."+f.Name+": generated ("+f.Why+")")
				continue
			}
			for _, a := range f.Args {
				if a.Role == RoleIgnored {
					out = append(out, group.word+"."+f.Name+"("+a.Name+":): accepted, not interpreted")
				}
			}
		}
	}
	return out
}

// EntityNames returns the types served as tables, in the plan's order.
func (p *Plan) EntityNames() []string {
	out := make([]string, len(p.Entities))
	for i, e := range p.Entities {
		out[i] = e.Type
	}
	return out
}

// argsOf says what each argument of f does.
func argsOf(f *RootField) []model.ContractArg {
	out := make([]model.ContractArg, 0, len(f.Args))
	for _, a := range f.Args {
		op := a.Op
		if a.Role == RoleFilter {
			op = a.Style
		}
		out = append(out, model.ContractArg{Name: a.Name, Role: string(a.Role), Field: a.Field, Op: op})
	}
	return out
}
