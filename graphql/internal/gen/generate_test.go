package gen

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/mockgql/mockgql/dataset"
	"github.com/mockgql/mockgql/model"
)

func TestCheckGenerator(t *testing.T) {
	cases := []struct {
		kind, options string
		ok            bool
	}{
		{"person.firstName", ``, true},
		{"person.email", `{}`, true},
		{"address.city", `null`, true},
		{"company.name", ``, true},
		{"lorem.sentence", `{"words": 5}`, true},
		{"number.int", `{"min": 1, "max": 5}`, true},
		{"number.int", `{"min": 5, "max": 1}`, false},
		{"number.int", `{"min": "a"}`, false},
		{"number.int", `{"min": 1.5}`, false},
		{"number.int", `{"step": 2}`, false},
		{"number.int", `[1, 2]`, false},
		{"uuid", ``, true},
		{"uuid", `{"x": 1}`, false},
		{"date.past", ``, true},
		{"commerce.productName", ``, true},
		{"internet.url", ``, true},
		{"phone", ``, true},
		{"beername", ``, true},
		{"intrange", `{"min": 1, "max": 3}`, true},
		{"pastdate", ``, false},
		{"no.such.kind", ``, false},
		{"", ``, false},
	}
	for _, c := range cases {
		t.Run(c.kind+c.options, func(t *testing.T) {
			err := CheckGenerator(&model.Generator{Kind: c.kind, Options: json.RawMessage(c.options)})
			if (err == nil) != c.ok {
				t.Fatalf("err = %v, want ok %v", err, c.ok)
			}
			if err != nil && model.ErrorCode(err) != model.CodeBadUserInput {
				t.Errorf("code = %s", model.ErrorCode(err))
			}
		})
	}
	err := CheckGenerator(&model.Generator{Kind: "nope"})
	if !strings.Contains(err.Error(), "person.email") {
		t.Errorf("message lists no valid kinds: %v", err)
	}
	if CheckGenerator(nil) == nil {
		t.Error("nil generator accepted")
	}
}

func TestGeneratorKinds(t *testing.T) {
	kinds := GeneratorKinds()
	for _, k := range []string{"person.firstName", "number.int", "uuid", "firstname", "beername"} {
		if !slices.Contains(kinds, k) {
			t.Errorf("missing %s", k)
		}
	}
	for _, k := range []string{"pastdate", "date", "csv"} {
		if slices.Contains(kinds, k) {
			t.Errorf("lists denied kind %s", k)
		}
	}
	if !slices.IsSorted(kinds) {
		t.Error("not sorted")
	}
}

func TestGeneratorDeterministic(t *testing.T) {
	for _, kind := range []string{"person.email", "number.float", "date.past", "uuid", "boolean", "person", "lorem.paragraph"} {
		t.Run(kind, func(t *testing.T) {
			g, err := CompileGenerator(&model.Generator{Kind: kind})
			if err != nil {
				t.Fatal(err)
			}
			a, b := g.Value("attr1", "17"), g.Value("attr1", "17")
			if a != b || a.Kind == dataset.Null {
				t.Errorf("not deterministic or null: %+v %+v", a, b)
			}
			other := g.Value("attr2", "17")
			if kind != "boolean" && other == a {
				t.Errorf("same value for another attribute: %+v", a)
			}
		})
	}
	g, _ := CompileGenerator(&model.Generator{Kind: "date.past"})
	if v := g.Value("a", "1"); v.Str < "2020-01-01" || v.Str >= "2025-01-01" {
		t.Errorf("date.past outside its fixed range: %s", v.Str)
	}
}
