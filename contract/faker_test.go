package contract

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/mockgql/mockgql/internal/testdata"
	"github.com/mockgql/mockgql/model"
)

// planField returns the field name of the entity typ of p.
func planField(t *testing.T, p *Plan, typ, name string) *Field {
	t.Helper()
	for _, e := range append(append([]*Entity{}, p.Entities...), p.Embedded...) {
		if e.Type != typ {
			continue
		}
		for _, f := range e.Fields {
			if f.Name == name {
				return f
			}
		}
	}
	t.Fatalf("no field %s.%s in the plan", typ, name)
	return nil
}

// TestFakerDirectives: a schema written for graphql-faker imports
// unchanged (its directives defined beside it, listed as the schema's),
// and its fields take the generators @fake and @examples name, with the
// options our generators have, and @listLength's bounds.
func TestFakerDirectives(t *testing.T) {
	t.Run("default schema", func(t *testing.T) {
		s, err := Parse(testdata.Read(t, "faker", "default-schema.graphql"), MaxDocumentBytes)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range []string{"fake", "examples", "listLength"} {
			if s.AST.Directives[d] == nil {
				t.Errorf("@%s is not a directive of the schema", d)
			}
		}
		if s.AST.Types["fake__Types"] == nil || s.AST.Types["fake__options"] == nil {
			t.Error("fake__Types and fake__options are not types of the schema")
		}
		p := Interpret(s)
		for _, c := range []struct{ typ, field, kind string }{
			{"Company", "name", "company.name"}, {"Employee", "firstName", "person.firstName"},
			{"Employee", "lastName", "person.lastName"}, {"Employee", "address", "address.street"},
			{"Company", "industry", "examples"},
		} {
			f := planField(t, p, c.typ, c.field)
			if f.Value.Kind != c.kind || f.Source != SourceDirective {
				t.Errorf("%s.%s: %s (%q), want %s from the directive", c.typ, c.field, f.Value.Kind, f.Source, c.kind)
			}
		}
		if got := fmt.Sprint(planField(t, p, "Company", "industry").Value.Options["values"]); got != "[IT Manufacturing Medicine Media]" {
			t.Errorf("Company.industry picks among %s", got)
		}
	})
	t.Run("options", func(t *testing.T) {
		s, err := Parse(testdata.Read(t, "faker", "annotated.graphql"), MaxDocumentBytes)
		if err != nil {
			t.Fatal(err)
		}
		p := Interpret(s)
		for _, c := range []struct{ field, want string }{
			{"price", "commerce.price map[decimals:2 max:9 min:5]"},
			{"stock", "number.int map[max:7 min:3]"},
			{"rating", "examples map[values:[4.5 5]]"},
			{"image", "image.url map[height:90 width:120]"},
			{"released", "date.between map[format:YYYY-MM-DD from:2021-01-01 to:2021-12-31]"},
			{"level", "examples map[values:[LEAD]]"},
			{"contact", "internet.email map[]"},
		} {
			f := planField(t, p, "Product", c.field)
			if got := f.Value.Kind + " " + fmt.Sprint(f.Value.Options); got != c.want {
				t.Errorf("Product.%s: %s, want %s", c.field, got, c.want)
			}
		}
		tags := planField(t, p, "Product", "tags")
		if !tags.Sized || tags.ListMin != 4 || tags.ListMax != 6 {
			t.Errorf("Product.tags holds %d to %d items (sized %v), want 4 to 6", tags.ListMin, tags.ListMax, tags.Sized)
		}
		rows, err := p.Rows(func(string) int { return 30 }, 7, fakerValues)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range rows["Product"] {
			if n := len(r["tags"].([]any)); n < 4 || n > 6 {
				t.Fatalf("a product has %d tags: %v", n, r["tags"])
			}
		}
	})
	t.Run("a list of rows", func(t *testing.T) {
		// Company.employees @listLength(min: 5, max: 10), held by
		// Employee.company: with enough employees every company lists 5
		// to 10; the employees past the runs name no company.
		s, err := Parse(testdata.Read(t, "faker", "default-schema.graphql"), MaxDocumentBytes)
		if err != nil {
			t.Fatal(err)
		}
		p := Interpret(s)
		counts := map[string]int{"Company": 10, "Employee": 150}
		rows, err := p.Rows(func(e string) int { return counts[e] }, 3, fakerValues)
		if err != nil {
			t.Fatal(err)
		}
		per, none := map[any]int{}, 0
		for _, r := range rows["Employee"] {
			if c, ok := r[HiddenKey+"company"]; ok {
				per[c]++
			} else {
				none++
			}
		}
		if len(per) != 10 {
			t.Fatalf("%d of 10 companies have employees: %v", len(per), per)
		}
		total := 0
		for c, n := range per {
			if n < 5 || n > 10 {
				t.Errorf("company %v lists %d employees", c, n)
			}
			total += n
		}
		if total+none != 150 || none == 0 {
			t.Errorf("%d employees in runs, %d past them", total, none)
		}
	})
	t.Run("a document that defines them", func(t *testing.T) {
		doc := "directive @fake(type: String!) on FIELD_DEFINITION\ntype Query { a: String @fake(type: \"x\") }"
		s, err := Parse([]byte(doc), MaxDocumentBytes)
		if err != nil {
			t.Fatal(err)
		}
		if s.AST.Types["fake__Types"] != nil {
			t.Error("fake__Types was added to a document that defines its own @fake")
		}
	})
}

// fakerValues stands in for the runtime's generators (graphql.Values) in
// this package's tests: the kind and seed, and for examples one value.
func fakerValues(kind string, options map[string]any, seed uint64) (any, error) {
	if kind == "examples" {
		vs := options["values"].([]any)
		return vs[seed%uint64(len(vs))], nil
	}
	return fmt.Sprintf("%s-%d", kind, seed%100), nil
}

// TestFakerBounds: @listLength and @examples are bounded; a document past
// the bounds is refused naming the field.
func TestFakerBounds(t *testing.T) {
	many := strings.Repeat(`"x", `, MaxExamples+1)
	for _, c := range []struct {
		name, doc string
		code      model.Code
		msg       string
	}{
		{"max over the bound", `type Query { a: [Int] @listLength(min: 1, max: 101) }`, model.CodeLimitReached, "Query.a: @listLength max is 101"},
		{"min over max", `type Query { a: [Int] @listLength(min: 5, max: 2) }`, model.CodeBadUserInput, "needs 0 ≤ min ≤ max"},
		{"too many examples", `type Query { a: String @examples(values: [` + many + `]) }`, model.CodeLimitReached, "@examples lists 1001 values"},
		{"an unknown fake type", `type Query { a: String @fake(type: nope) }`, model.CodeBadUserInput, "nope"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := Parse([]byte(c.doc), MaxDocumentBytes)
			var me *model.Error
			if !errors.As(err, &me) || me.Code != c.code || !strings.Contains(me.Message, c.msg) {
				t.Fatalf("got %v, want %s containing %q", err, c.code, c.msg)
			}
		})
	}
}
