package main

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"
)

// accept makes invitee accept every pending invitation sent to their
// address (what the board offers after log-in), failing when there is none.
func (u *user) accept(t testing.TB) {
	t.Helper()
	l, _ := get(u.must(`{ myInvitations { id } }`, nil), "myInvitations").([]any)
	if len(l) == 0 {
		t.Fatalf("%s has no pending invitation", u.email)
	}
	for _, inv := range l {
		u.must(`mutation($i:ID){ acceptInvitation(invitationId:$i) { id } }`, map[string]any{"i": get(inv, "id")})
	}
}

// join makes invitee a member of owner's account with role (invite,
// accept) and returns invitee signed in to it (switchAccount).
func join(t testing.TB, owner, invitee *user, role string) *user {
	t.Helper()
	owner.must(`mutation($e:String!,$r:Role!){ inviteMember(email:$e, role:$r) { role } }`, map[string]any{"e": invitee.email, "r": role})
	invitee.accept(t)
	acc := get(owner.must(`{ account { id } }`, nil), "account", "id")
	d := invitee.must(`mutation($a:ID!){ switchAccount(accountId:$a) { token } }`, map[string]any{"a": acc})
	return &user{s: invitee.s, token: get(d, "switchAccount", "token").(string), email: invitee.email}
}

// rootCall is a request that calls one root field of the management API
// with made-up values for its required arguments.
type rootCall struct{ name, query string }

// typeRef is an introspected type reference.
type typeRef struct {
	Kind   string   `json:"kind"`
	Name   string   `json:"name"`
	OfType *typeRef `json:"ofType"`
}

type inputValue struct {
	Name         string  `json:"name"`
	Type         typeRef `json:"type"`
	DefaultValue *string `json:"defaultValue"`
}

type introType struct {
	Name        string       `json:"name"`
	Kind        string       `json:"kind"`
	InputFields []inputValue `json:"inputFields"`
	EnumValues  []struct {
		Name string `json:"name"`
	} `json:"enumValues"`
	Fields []struct {
		Name string       `json:"name"`
		Args []inputValue `json:"args"`
		Type typeRef      `json:"type"`
	} `json:"fields"`
}

const introspectRoots = `{ __schema { types { name kind
  enumValues { name } inputFields { name defaultValue type { ...R } }
  fields { name args { name defaultValue type { ...R } } type { ...R } } } } }
fragment R on __Type { kind name ofType { kind name ofType { kind name ofType { kind name ofType { kind name } } } } }`

// rootFieldCalls reads the management schema and returns one call per
// root field of Query and Mutation, selecting __typename of an object.
// Arguments named in known (projectId, …) take their real values.
func rootFieldCalls(t testing.TB, s *server, known map[string]string) []rootCall {
	t.Helper()
	raw := s.gql("/graphql", introspectRoots, nil).data(t)
	b, _ := json.Marshal(get(raw, "__schema", "types"))
	var types []introType
	if err := json.Unmarshal(b, &types); err != nil {
		t.Fatal(err)
	}
	byName := map[string]introType{}
	for _, ty := range types {
		byName[ty.Name] = ty
	}
	var out []rootCall
	for _, root := range []string{"Query", "Mutation"} {
		for _, f := range byName[root].Fields {
			var args []string
			for _, a := range f.Args {
				if v, ok := known[a.Name]; ok {
					args = append(args, a.Name+": "+strconv.Quote(v))
				} else if a.Type.Kind == "NON_NULL" && a.DefaultValue == nil {
					args = append(args, a.Name+": "+literal(byName, a.Type))
				}
			}
			call := f.Name
			if len(args) > 0 {
				call += "(" + strings.Join(args, ", ") + ")"
			}
			if k := named(f.Type); byName[k].Kind == "OBJECT" {
				call += " { __typename }"
			}
			op := "query"
			if root == "Mutation" {
				op = "mutation"
			}
			out = append(out, rootCall{name: f.Name, query: op + " { " + call + " }"})
		}
	}
	return out
}

func named(r typeRef) string {
	for r.OfType != nil {
		r = *r.OfType
	}
	return r.Name
}

// literal is a made-up value of type r.
func literal(types map[string]introType, r typeRef) string {
	switch r.Kind {
	case "NON_NULL":
		return literal(types, *r.OfType)
	case "LIST":
		return "[" + literal(types, *r.OfType) + "]"
	case "ENUM":
		return types[r.Name].EnumValues[0].Name
	case "INPUT_OBJECT":
		var fs []string
		for _, f := range types[r.Name].InputFields {
			if f.Type.Kind == "NON_NULL" && f.DefaultValue == nil {
				fs = append(fs, f.Name+": "+literal(types, f.Type))
			}
		}
		return "{" + strings.Join(fs, ", ") + "}"
	}
	switch r.Name {
	case "Int", "Float":
		return "1"
	case "Boolean":
		return "true"
	case "DateTime":
		return `"2030-01-01T00:00:00Z"`
	case "JSON":
		return "{}"
	}
	return `"x1"`
}
