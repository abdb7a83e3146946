package contract

import (
	"fmt"
	"strings"
)

// Report says in a person's words how each root field is served, what
// became tables and relations, and what was not interpreted: one line
// each, in the document's order for root fields.
func (p *Plan) Report() []string {
	var out []string
	for _, e := range p.Entities {
		key := "key " + e.Key
		if e.Key == "" {
			key = "no ID field: rows get a hidden key"
		}
		out = append(out, fmt.Sprintf("table %s (%s, %d fields)", e.Type, key, len(e.Fields)))
	}
	for _, r := range p.Relations {
		out = append(out, "relation "+r.describe())
	}
	for _, group := range []struct {
		word   string
		fields []*RootField
	}{{"query", p.Queries}, {"mutation", p.Mutations}, {"subscription", p.Subscriptions}} {
		for _, f := range group.fields {
			out = append(out, group.word+" "+f.describe())
		}
	}
	return out
}

// describe says what r is: "Book.author → Author (one); Author.books lists them back".
func (r *Relation) describe() string {
	card := func(many bool) string {
		if many {
			return "many"
		}
		return "one"
	}
	s := fmt.Sprintf("%s.%s → %s (%s)", r.From, r.FromField, r.To, card(r.Many))
	if r.ToField != "" {
		s += fmt.Sprintf("; %s.%s → %s (%s)", r.To, r.ToField, r.From, card(r.ToMany))
	}
	return s
}

var shapeWords = map[Shape]string{
	ShapeLookup: "one %s by key", ShapeLookupMany: "%s rows by keys", ShapeNode: "any row by its global ID (%s)",
	ShapeList: "list of %s", ShapeConnection: "Relay connection of %s", ShapePage: "page of %s",
	ShapeAggregate: "aggregates of %s", ShapeFirst: "one %s found by its arguments", ShapeCreate: "creates a %s",
	ShapeUpdate: "updates a %s", ShapeUpsert: "creates or updates a %s", ShapeDelete: "deletes a %s",
	ShapeEvent: "events of %s", ShapeEntities: "rows of %s by their @key fields, for a federation router",
}

// describe says how f is served: "books: list of Book; genre → equality
// on genre, first/after → Relay".
func (f *RootField) describe() string {
	if f.Shape == ShapeGenerated && f.Every > 0 {
		return fmt.Sprintf("%s: generated every %d s (%s)", f.Name, f.Every, f.Why)
	}
	if f.Shape == ShapeGenerated {
		return fmt.Sprintf("%s: generated (%s)", f.Name, f.Why)
	}
	if f.Shape == ShapeService {
		return f.Name + ": the subgraph's SDL, for a federation router"
	}
	s := f.Name + ": " + fmt.Sprintf(shapeWords[f.Shape], f.Entity)
	if f.Shape == ShapeEvent {
		s = fmt.Sprintf("%s: event on %s %s", f.Name, f.Entity, strings.ToLower(f.Event))
		if f.Event == "" {
			s = fmt.Sprintf("%s: events on %s created, updated and deleted", f.Name, f.Entity)
		}
	}
	if f.Wrapper != "" {
		s += " in " + f.Wrapper
	}
	var args, ignored []string
	for _, a := range f.Args {
		if a.Role == RoleIgnored {
			ignored = append(ignored, a.Name)
			continue
		}
		args = append(args, a.Name+" → "+a.describe())
	}
	if len(args) > 0 {
		s += "; " + strings.Join(args, ", ")
	}
	if len(ignored) > 0 {
		s += "; accepted, not interpreted: " + strings.Join(ignored, ", ")
	}
	return s
}

// fieldWords names a column for a person: the field, or for a relation's
// hidden key "channel's key".
func fieldWords(f string) string {
	if rel, ok := strings.CutPrefix(f, HiddenKey); ok && rel != "" {
		return rel + "'s key"
	}
	return f
}

// describe says what a does: "equality on genre", "Relay".
func (a *Arg) describe() string {
	switch a.Role {
	case RoleKey:
		return "key " + a.Field
	case RoleKeys:
		return "keys " + a.Field
	case RoleEq:
		return "equality on " + fieldWords(a.Field)
	case RoleIn:
		return "one of, on " + fieldWords(a.Field)
	case RoleRange:
		return a.Op + " on " + a.Field
	case RoleSearch:
		return "search"
	case RolePart:
		return a.Op + " " + a.Field
	case RoleRelay:
		return "Relay " + a.Op
	case RoleOffset, RolePage:
		return "paging " + a.Op
	case RoleSort:
		if a.Op != "" {
			return "sort " + a.Op
		}
		return "sort"
	case RoleFilter:
		return a.Style + " filter"
	case RoleInput:
		if a.Op == "inc" {
			return "numbers to add"
		}
		if a.Field != "" {
			return "value of " + a.Field
		}
		return "values"
	}
	return string(a.Role)
}
