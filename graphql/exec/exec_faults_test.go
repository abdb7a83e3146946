package exec

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/mockgql/mockgql/model"
)

// everyName fails every field called name.
type everyName struct{ asked int }

func (e *everyName) FieldFault(_, _ string, names []string) *FieldFault {
	e.asked++
	if names[len(names)-1] == "name" {
		return &FieldFault{Code: model.CodeNotFound, Message: "gone", Extensions: map[string]any{"code": "X", "hint": 1}}
	}
	return nil
}

// TestFieldFaultsBounds: injected field errors stay within MaxErrors (the
// rest summed up in one last error), keep the fault's code over an
// extension named code, and never touch introspection; without faults
// the executor asks nothing.
func TestFieldFaultsBounds(t *testing.T) {
	items := make([]any, 120)
	for i := range items {
		items[i] = map[string]any{"name": "n"}
	}
	ex, err := NewExecutor(Executor{
		Schema:    mustLoadSchema(t, `type Query { items: [Item!]! }  type Item { name: String }`),
		Resolvers: map[string]Resolver{"Query.items": func(context.Context, *Field) (any, error) { return items, nil }},
	})
	if err != nil {
		t.Fatal(err)
	}
	p, refused := ex.Prepare(Request{Query: `{ __schema { types { name } } items { name } }`})
	if refused != nil {
		t.Fatal(refused.Errors)
	}
	f := &everyName{}
	res, err := p.Execute(WithFieldFaults(context.Background(), f), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Errors) != DefaultMaxErrors {
		t.Fatalf("%d errors, want %d", len(res.Errors), DefaultMaxErrors)
	}
	first, last := res.Errors[0], res.Errors[len(res.Errors)-1]
	if first.Extensions["code"] != model.CodeNotFound || first.Extensions["hint"] != 1 || first.Path.String() != "items[0].name" {
		t.Errorf("first error %+v", first)
	}
	if last.Extensions["omitted"] == nil {
		t.Errorf("the last error sums up none: %+v", last)
	}
	var data struct {
		Schema struct {
			Types []struct{ Name *string } `json:"types"`
		} `json:"__schema"`
	}
	if err := json.Unmarshal(res.Data, &data); err != nil || len(data.Schema.Types) == 0 || data.Schema.Types[0].Name == nil {
		t.Errorf("introspection was faulted: %s", res.Data)
	}
	if !strings.Contains(string(res.Data), `"items":[{"name":null}`) {
		t.Errorf("data %.200s", res.Data)
	}
	asked := f.asked
	if _, err := p.Execute(context.Background(), nil); err != nil || f.asked != asked {
		t.Errorf("an execution without faults asked %d more times (%v)", f.asked-asked, err)
	}
}
