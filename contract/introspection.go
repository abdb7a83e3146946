package contract

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/mockgql/mockgql/model"
)

// builtIn names what gqlparser's prelude already defines, so that a
// printed introspection result does not define it twice.
// (@defer is gqlparser's, not GraphQL's: a result that lists it, as
// Shopify's Storefront API does, defines it, and the runtime lists it.)
var builtIn = map[string]bool{
	"String": true, "Int": true, "Float": true, "Boolean": true, "ID": true,
	"@include": true, "@skip": true, "@deprecated": true, "@specifiedBy": true, "@oneOf": true,
}

// introspection is the part of an introspection result a schema is built
// from (graphql-js getIntrospectionQuery's answer).
type introspection struct {
	QueryType        *named       `json:"queryType"`
	MutationType     *named       `json:"mutationType"`
	SubscriptionType *named       `json:"subscriptionType"`
	Description      string       `json:"description"`
	Types            []iType      `json:"types"`
	Directives       []iDirective `json:"directives"`
}

type named struct {
	Name string `json:"name"`
}

type iType struct {
	Kind           string       `json:"kind"`
	Name           string       `json:"name"`
	Description    string       `json:"description"`
	SpecifiedByURL string       `json:"specifiedByURL"`
	IsOneOf        bool         `json:"isOneOf"`
	Fields         []iField     `json:"fields"`
	InputFields    []iInput     `json:"inputFields"`
	Interfaces     []named      `json:"interfaces"`
	EnumValues     []iEnumValue `json:"enumValues"`
	PossibleTypes  []named      `json:"possibleTypes"`
}

type iField struct {
	Name              string   `json:"name"`
	Description       string   `json:"description"`
	Args              []iInput `json:"args"`
	Type              *iRef    `json:"type"`
	IsDeprecated      bool     `json:"isDeprecated"`
	DeprecationReason *string  `json:"deprecationReason"`
}

type iInput struct {
	Name              string  `json:"name"`
	Description       string  `json:"description"`
	Type              *iRef   `json:"type"`
	DefaultValue      *string `json:"defaultValue"`
	IsDeprecated      bool    `json:"isDeprecated"`
	DeprecationReason *string `json:"deprecationReason"`
}

type iEnumValue struct {
	Name              string  `json:"name"`
	Description       string  `json:"description"`
	IsDeprecated      bool    `json:"isDeprecated"`
	DeprecationReason *string `json:"deprecationReason"`
}

type iDirective struct {
	Name         string   `json:"name"`
	Description  string   `json:"description"`
	IsRepeatable bool     `json:"isRepeatable"`
	Locations    []string `json:"locations"`
	Args         []iInput `json:"args"`
}

type iRef struct {
	Kind   string `json:"kind"`
	Name   string `json:"name"`
	OfType *iRef  `json:"ofType"`
}

// introspectionSDL prints an introspection result as SDL, as graphql-js's
// buildClientSchema then printSchema would: descriptions, default values,
// deprecations, @specifiedBy, @oneOf, repeatable directives and custom
// root type names are kept.
func introspectionSDL(doc []byte) (string, error) {
	var wrapper struct {
		Data *struct {
			Schema *introspection `json:"__schema"`
		} `json:"data"`
		Schema *introspection `json:"__schema"`
	}
	if err := json.Unmarshal(doc, &wrapper); err != nil {
		return "", model.Errorf(model.CodeBadUserInput, "the document starts like JSON but is not an introspection result: %v", err)
	}
	in := wrapper.Schema
	if wrapper.Data != nil && wrapper.Data.Schema != nil {
		in = wrapper.Data.Schema
	}
	if in == nil {
		return "", model.Errorf(model.CodeBadUserInput, `a JSON document must be an introspection result: {"data":{"__schema":…}} or {"__schema":…}`)
	}
	if in.QueryType == nil || in.QueryType.Name == "" {
		return "", model.Errorf(model.CodeBadUserInput, "the introspection result names no queryType")
	}
	var p printer
	p.schema(in)
	for _, d := range in.Directives {
		p.directive(d)
	}
	for _, t := range in.Types {
		if err := p.typ(t); err != nil {
			return "", err
		}
	}
	return p.String(), nil
}

// printer writes SDL.
type printer struct{ strings.Builder }

func (p *printer) schema(in *introspection) {
	root := func(n *named) string {
		if n == nil || n.Name == "" {
			return ""
		}
		return n.Name
	}
	q, m, s := root(in.QueryType), root(in.MutationType), root(in.SubscriptionType)
	if q == "Query" && (m == "" || m == "Mutation") && (s == "" || s == "Subscription") && in.Description == "" {
		return
	}
	p.description(in.Description, "")
	p.WriteString("schema {\n  query: " + q + "\n")
	if m != "" {
		p.WriteString("  mutation: " + m + "\n")
	}
	if s != "" {
		p.WriteString("  subscription: " + s + "\n")
	}
	p.WriteString("}\n\n")
}

func (p *printer) directive(d iDirective) {
	if builtIn["@"+d.Name] {
		return
	}
	p.description(d.Description, "")
	p.WriteString("directive @" + d.Name)
	p.args(d.Args)
	if d.IsRepeatable {
		p.WriteString(" repeatable")
	}
	p.WriteString(" on " + strings.Join(d.Locations, " | ") + "\n\n")
}

func (p *printer) typ(t iType) error {
	if builtIn[t.Name] || strings.HasPrefix(t.Name, "__") {
		return nil
	}
	p.description(t.Description, "")
	switch t.Kind {
	case "SCALAR":
		p.WriteString("scalar " + t.Name)
		if t.SpecifiedByURL != "" {
			p.WriteString(" @specifiedBy(url: " + quote(t.SpecifiedByURL) + ")")
		}
		p.WriteString("\n\n")
	case "OBJECT", "INTERFACE":
		word := map[string]string{"OBJECT": "type ", "INTERFACE": "interface "}[t.Kind]
		p.WriteString(word + t.Name + p.implements(t.Interfaces) + " {\n")
		for _, f := range t.Fields {
			p.description(f.Description, "  ")
			p.WriteString("  " + f.Name)
			p.args(f.Args)
			p.WriteString(": " + ref(f.Type) + deprecated(f.IsDeprecated, f.DeprecationReason) + "\n")
		}
		p.WriteString("}\n\n")
	case "UNION":
		members := make([]string, len(t.PossibleTypes))
		for i, m := range t.PossibleTypes {
			members[i] = m.Name
		}
		p.WriteString("union " + t.Name + " = " + strings.Join(members, " | ") + "\n\n")
	case "ENUM":
		p.WriteString("enum " + t.Name + " {\n")
		for _, v := range t.EnumValues {
			p.description(v.Description, "  ")
			p.WriteString("  " + v.Name + deprecated(v.IsDeprecated, v.DeprecationReason) + "\n")
		}
		p.WriteString("}\n\n")
	case "INPUT_OBJECT":
		p.WriteString("input " + t.Name)
		if t.IsOneOf {
			p.WriteString(" @oneOf")
		}
		p.WriteString(" {\n")
		for _, f := range t.InputFields {
			p.description(f.Description, "  ")
			p.WriteString("  " + inputValue(f) + "\n")
		}
		p.WriteString("}\n\n")
	default:
		return model.Errorf(model.CodeBadUserInput, "type %q has the unknown kind %q", t.Name, t.Kind)
	}
	return nil
}

func (p *printer) implements(ifaces []named) string {
	if len(ifaces) == 0 {
		return ""
	}
	names := make([]string, len(ifaces))
	for i, n := range ifaces {
		names[i] = n.Name
	}
	return " implements " + strings.Join(names, " & ")
}

func (p *printer) args(args []iInput) {
	if len(args) == 0 {
		return
	}
	parts := make([]string, len(args))
	for i, a := range args {
		parts[i] = inputValue(a)
		if a.Description != "" {
			parts[i] = blockString(a.Description, "") + " " + parts[i]
		}
	}
	p.WriteString("(" + strings.Join(parts, ", ") + ")")
}

// description writes s as a block string, indented by indent.
func (p *printer) description(s, indent string) {
	if s == "" {
		return
	}
	p.WriteString(indent + blockString(s, indent) + "\n")
}

func inputValue(a iInput) string {
	s := a.Name + ": " + ref(a.Type)
	if a.DefaultValue != nil {
		s += " = " + *a.DefaultValue
	}
	return s + deprecated(a.IsDeprecated, a.DeprecationReason)
}

func deprecated(is bool, reason *string) string {
	if !is {
		return ""
	}
	if reason == nil || *reason == "" {
		return " @deprecated"
	}
	return " @deprecated(reason: " + quote(*reason) + ")"
}

// ref prints a type reference: [T!]! and so on. A missing reference prints
// as an unknown type, which LoadSchema then refuses with its name.
func ref(r *iRef) string {
	switch {
	case r == nil:
		return "MissingTypeReference"
	case r.Kind == "NON_NULL":
		return ref(r.OfType) + "!"
	case r.Kind == "LIST":
		return "[" + ref(r.OfType) + "]"
	}
	return r.Name
}

// quote returns s as a GraphQL string literal.
func quote(s string) string {
	b, _ := json.Marshal(s) // a JSON string is a GraphQL string
	return string(b)
}

// blockString returns s as a GraphQL block string.
func blockString(s, indent string) string {
	s = strings.ReplaceAll(s, `"""`, `\"""`)
	if !strings.Contains(s, "\n") && !strings.HasSuffix(s, `"`) && !strings.HasSuffix(s, `\`) {
		return `"""` + s + `"""`
	}
	return fmt.Sprintf("\"\"\"\n%s%s\n%s\"\"\"", indent, strings.ReplaceAll(s, "\n", "\n"+indent), indent)
}
