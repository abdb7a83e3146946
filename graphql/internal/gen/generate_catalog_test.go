package gen

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/mockgql/mockgql/model"
)

// TestGeneratorCatalog: every kind is described, in GeneratorKinds'
// order; each dotted kind's options, set to their defaults, are accepted
// (number.float's decimals rounds);
// gofakeit's aliases make "isbn" findable.
func TestGeneratorCatalog(t *testing.T) {
	cat := GeneratorCatalog()
	kinds := GeneratorKinds()
	if len(cat) != len(kinds) {
		t.Fatalf("catalog has %d kinds, GeneratorKinds %d", len(cat), len(kinds))
	}
	byKind := map[string]GeneratorInfo{}
	for i, g := range cat {
		if g.Kind != kinds[i] || g.Category == "" {
			t.Fatalf("entry %d: %+v (want kind %s with a category)", i, g, kinds[i])
		}
		byKind[g.Kind] = g
	}
	for kind := range genAliases() {
		g := byKind[kind]
		required := false
		opts := map[string]any{}
		for _, o := range g.Options {
			required = required || o.Required && o.Default == ""
			if o.Default == "" {
				continue // optional, no default: absent is valid; required: checked with its value below
			}
			var v any
			if err := json.Unmarshal([]byte(o.Default), &v); err != nil {
				if o.Type != "string" {
					t.Fatalf("%s option %s: default %q is not a number: %v", kind, o.Name, o.Default, err)
				}
				v = o.Default
			}
			opts[o.Name] = v
		}
		if g.Sample == nil && !required {
			t.Errorf("%s has no sample", kind)
		}
		if required {
			continue // examples: its values have no default
		}
		raw, _ := json.Marshal(opts)
		if err := CheckGenerator(&model.Generator{Kind: kind, Options: raw}); err != nil {
			t.Errorf("%s with its options at their defaults (%s): %v", kind, raw, err)
		}
	}
	cases := []struct{ kind, category, option, keyword string }{
		{"number.int", "number", "max", ""},
		{"number.float", "number", "decimals", ""},
		{"person.email", "person", "", ""},
		{"productisbn", "commerce", "", "isbn13"},
		{"number", "number", "min", ""},
		{"sentence", "lorem", "", ""},
	}
	for _, c := range cases {
		t.Run(c.kind, func(t *testing.T) {
			g, ok := byKind[c.kind]
			if !ok || g.Category != c.category {
				t.Fatalf("%s: %+v, want category %s", c.kind, g, c.category)
			}
			if c.option != "" && !slices.ContainsFunc(g.Options, func(o GeneratorOption) bool { return o.Name == c.option }) {
				t.Errorf("%s has no option %s: %+v", c.kind, c.option, g.Options)
			}
			if c.keyword != "" && !slices.Contains(g.Keywords, c.keyword) {
				t.Errorf("%s keywords %v lack %s", c.kind, g.Keywords, c.keyword)
			}
		})
	}
}

// TestFloatDecimals: number.float rounds to its decimals option, which is
// 0 to 10.
func TestFloatDecimals(t *testing.T) {
	vals, err := GeneratorPreview(&model.Generator{Kind: "number.float", Options: json.RawMessage(`{"min":1,"max":2,"decimals":1}`)}, 20)
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range vals {
		if s := string(v); len(s) > 3 {
			t.Fatalf("%s has more than one decimal", s)
		}
	}
	if err := CheckGenerator(&model.Generator{Kind: "number.float", Options: json.RawMessage(`{"decimals":11}`)}); err == nil || !strings.Contains(err.Error(), "decimals must be 0 to 10") {
		t.Fatalf("decimals 11: %v", err)
	}
}
