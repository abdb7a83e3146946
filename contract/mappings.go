package contract

import (
	"slices"
	"strings"

	"github.com/mockgql/mockgql/model"
)

// The mappings an editor sets one at a time (setContractMapping,
// docs/using/contract.md): CheckMapping adds to Override's checks what
// keeps a stored mapping small — each argument once, an operator its role
// takes — and Report shows the result.

// roleOps are the operators each role takes ("" none).
var roleOps = map[Role][]string{
	RoleKey: {""}, RoleKeys: {""}, RoleEq: {""}, RoleIn: {""}, RoleSearch: {""}, RoleSort: {"", "field", "direction"}, RoleInput: {"", "inc"}, RoleIgnored: {""},
	RoleRange: {"gt", "gte", "lt", "lte"}, RoleRelay: {"first", "after", "last", "before"},
	RoleOffset: {"limit", "offset"}, RolePage: {"page", "size"}, RoleFilter: {"hasura", "prisma", "plain"},
}

// maxArgField bounds the field an argument mapping names.
const maxArgField = 64

// MaxArgPath bounds the name of an argument a mapping names, a path into
// an input object included (input.lines.merchandiseId).
const MaxArgPath = 256

// CheckMapping refuses, with BAD_USER_INPUT naming it, a mapping that does
// not fit s (Override's checks), an argument mapped twice, an operator its
// role does not take, or a field name past 64 bytes. It returns the
// mapping with its Field in full ("books" becomes "Query.books"), so that
// a field has one mapping whichever way it was named.
func CheckMapping(s *Schema, m model.ContractMapping) (model.ContractMapping, error) {
	if !strings.Contains(m.Field, ".") {
		m.Field = "Query." + m.Field
	}
	seen := map[string]bool{}
	for _, a := range m.Args {
		ops, known := roleOps[Role(a.Role)]
		switch {
		case seen[a.Name]:
			return m, model.Errorf(model.CodeBadUserInput, "mapping %s: argument %s is mapped twice", m.Field, a.Name)
		case known && !slices.Contains(ops, a.Op):
			return m, model.Errorf(model.CodeBadUserInput, "mapping %s(%s): role %s takes the operator %s, not %q", m.Field, a.Name, a.Role, strings.Join(ops, ", "), a.Op)
		case len(a.Field) > maxArgField:
			return m, model.Errorf(model.CodeBadUserInput, "mapping %s(%s): a field name is at most %d bytes", m.Field, a.Name, maxArgField)
		case len(a.Name) > MaxArgPath:
			return m, model.Errorf(model.CodeBadUserInput, "mapping %s: an argument's name or path (input.id) is at most %d bytes", m.Field, MaxArgPath)
		}
		seen[a.Name] = true
	}
	return m, Interpret(s).Override(s, []model.ContractMapping{m})
}

// Report is the report of s's plan with maps applied, as the APIs answer
// it (Project.contract.report): each root field a mapping changes is
// marked Mapped. A mapping that no longer fits is left out, as the
// runtime leaves it.
func Report(s *Schema, maps []model.ContractMapping) []model.ContractField {
	plan, changed := mapped(s, maps)
	out := plan.Fields()
	for i := range out {
		kind := map[string]string{model.RootQuery: "Query", model.RootMutation: "Mutation", model.RootSubscription: "Subscription"}[out[i].Root]
		out[i].Mapped = changed[kind+"."+out[i].Name]
	}
	return out
}

// UnsupportedOf is Plan.Unsupported of s's plan with maps applied.
func UnsupportedOf(s *Schema, maps []model.ContractMapping) []string {
	plan, _ := mapped(s, maps)
	return plan.Unsupported()
}

// mapped is s's plan with each mapping of maps that fits applied, and the
// root fields they change, as "Query.books".
func mapped(s *Schema, maps []model.ContractMapping) (*Plan, map[string]bool) {
	plan := Interpret(s)
	changed := map[string]bool{}
	for _, m := range maps {
		if plan.Override(s, []model.ContractMapping{m}) == nil {
			kind, name, ok := strings.Cut(m.Field, ".")
			if !ok {
				kind, name = "Query", m.Field
			}
			changed[kind+"."+name] = true
		}
	}
	return plan, changed
}
