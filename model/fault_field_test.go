package model

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestFieldRuleCheck(t *testing.T) {
	ok := FieldRule{Path: "Product.price", Code: CodeInternal, Rate: 1}
	with := func(f func(*FieldRule)) []FieldRule {
		r := ok
		f(&r)
		return []FieldRule{r}
	}
	many := make([]FieldRule, MaxFieldRules+1)
	for i := range many {
		many[i] = ok
	}
	for _, tc := range []struct {
		name    string
		rules   []FieldRule
		wantErr string
	}{
		{name: "type field", rules: with(func(*FieldRule) {})},
		{name: "any type", rules: with(func(r *FieldRule) { r.Path = "*.reviews" })},
		{name: "from the root", rules: with(func(r *FieldRule) { r.Path = "Query.order.items" })},
		{name: "count", rules: with(func(r *FieldRule) { r.Rate, r.Count = 0, 3 })},
		{name: "extensions and sandbox", rules: with(func(r *FieldRule) { r.Extensions, r.Sandbox = json.RawMessage(`{"retry":true}`), "ci-1.a_b" })},
		{name: "at the bound", rules: many[:MaxFieldRules]},
		{name: "too many", rules: many, wantErr: "at most 32 rules"},
		{name: "one segment", rules: with(func(r *FieldRule) { r.Path = "price" }), wantErr: "fieldRules[0].path"},
		{name: "star deeper", rules: with(func(r *FieldRule) { r.Path = "Query.*.price" }), wantErr: "not a GraphQL name"},
		{name: "star root path", rules: with(func(r *FieldRule) { r.Path = "*.a.b" }), wantErr: "not a GraphQL name"},
		{name: "introspection", rules: with(func(r *FieldRule) { r.Path = "Query.__schema" }), wantErr: "not a GraphQL name"},
		{name: "long path", rules: with(func(r *FieldRule) { r.Path = "A." + strings.Repeat("b", MaxFieldRulePath) }), wantErr: "at most 256 bytes"},
		{name: "long message", rules: with(func(r *FieldRule) { r.Message = strings.Repeat("m", MaxFieldRuleMessage+1) }), wantErr: "message: at most"},
		{name: "http code", rules: with(func(r *FieldRule) { r.Code = CodeBadRequest }), wantErr: "code must be one of"},
		{name: "no code", rules: with(func(r *FieldRule) { r.Code = "" }), wantErr: "code must be one of"},
		{name: "rate above 1", rules: with(func(r *FieldRule) { r.Rate = 2 }), wantErr: "rate must be 0 to 1"},
		{name: "rate and count", rules: with(func(r *FieldRule) { r.Count = 1 }), wantErr: "not both"},
		{name: "neither", rules: with(func(r *FieldRule) { r.Rate = 0 }), wantErr: "rate above 0 or a count"},
		{name: "negative count", rules: with(func(r *FieldRule) { r.Rate, r.Count = 0, -1 }), wantErr: "count must be"},
		{name: "bad sandbox", rules: with(func(r *FieldRule) { r.Sandbox = "a b" }), wantErr: "sandbox must be"},
		{name: "long sandbox", rules: with(func(r *FieldRule) { r.Sandbox = strings.Repeat("s", 65) }), wantErr: "sandbox must be"},
		{name: "extensions not an object", rules: with(func(r *FieldRule) { r.Extensions = json.RawMessage(`[1]`) }), wantErr: "must be a JSON object"},
		{name: "extensions with code", rules: with(func(r *FieldRule) { r.Extensions = json.RawMessage(`{"code":"X"}`) }), wantErr: "must not hold code"},
		{name: "extensions too big", rules: with(func(r *FieldRule) {
			r.Extensions = json.RawMessage(`{"a":"` + strings.Repeat("x", MaxFieldRuleExtensions) + `"}`)
		}), wantErr: "at most 1024 bytes"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := FaultSettings{FieldRules: tc.rules}.Check()
			switch {
			case tc.wantErr == "" && err != nil:
				t.Fatalf("refused: %v", err)
			case tc.wantErr != "" && (ErrorCode(err) != CodeBadUserInput || !strings.Contains(err.Error(), tc.wantErr)):
				t.Fatalf("got %v, want BAD_USER_INPUT with %q", err, tc.wantErr)
			}
		})
	}
}

func TestFieldPathMatches(t *testing.T) {
	for _, tc := range []struct {
		path, root, typ string
		names           []string
		want            bool
	}{
		{"Product.price", "Query", "Product", []string{"products", "items", "price"}, true},
		{"Product.price", "Query", "Order", []string{"order", "price"}, false},
		{"*.reviews", "Query", "Book", []string{"book", "reviews"}, true},
		{"*.reviews", "Query", "Book", []string{"book", "review"}, false},
		{"Query.products", "Query", "Query", []string{"products"}, true},
		{"Query.order.items", "Query", "Order", []string{"order", "items"}, true},
		{"Query.order.items", "Query", "Order", []string{"order", "itemsX"}, false},
		{"Query.order.items", "Query", "Order", []string{"orderX", "items"}, false},
		{"Query.order.items", "Query", "Order", []string{"order", "items", "id"}, false},
		{"Query.order.items", "Query", "Query", []string{"order"}, false},
		{"Query.order.items", "Root", "Order", []string{"order", "items"}, false},
		{"Query.a.b.c", "Query", "B", []string{"a", "b", "c"}, true},
	} {
		if got := FieldPathMatches(tc.path, tc.root, tc.typ, tc.names); got != tc.want {
			t.Errorf("%s at %s %s %v: %v, want %v", tc.path, tc.root, tc.typ, tc.names, got, tc.want)
		}
	}
}

func TestParseFaultHeaderField(t *testing.T) {
	for _, tc := range []struct {
		in, wantErr string
		want        FaultDecision
	}{
		{in: "field=Product.price", want: FaultDecision{Field: "Product.price", FieldCode: CodeInternal}},
		{in: "field=*.reviews;error=NOT_FOUND", want: FaultDecision{Field: "*.reviews", FieldCode: CodeNotFound}},
		{in: "latency=5ms,field=Query.order.items", want: FaultDecision{Delay: 5e6, Field: "Query.order.items", FieldCode: CodeInternal}},
		{in: "field=price", wantErr: "field:"},
		{in: "field=Product.price;status=500", wantErr: "field or status"},
	} {
		got, err := ParseFaultHeader(tc.in)
		if tc.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) || !strings.Contains(err.Error(), "X-Mock-Fault") {
				t.Errorf("%q: got %+v, %v; want an error with %q", tc.in, got, err, tc.wantErr)
			}
			continue
		}
		if err != nil || !got.Set || got.Forced != tc.want || got.Forced.Replaces() {
			t.Errorf("%q: got %+v, %v; want %+v", tc.in, got, err, tc.want)
		}
	}
}

func TestFaultSettingsEqual(t *testing.T) {
	a := FaultSettings{ErrorRate: 0.5, ErrorCode: CodeInternal, FieldRules: []FieldRule{{Path: "A.b", Code: CodeInternal, Count: 1}}}
	b := a
	b.FieldRules = []FieldRule{{Path: "A.b", Code: CodeInternal, Count: 1}}
	if !a.Equal(b) {
		t.Fatal("equal settings differ")
	}
	b.FieldRules[0].Count = 2
	if a.Equal(b) {
		t.Fatal("another count is equal")
	}
	c := a
	c.Rev = 9
	if a.Equal(c) {
		t.Fatal("another rev is equal")
	}
}
