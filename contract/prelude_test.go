package contract

import (
	"sync"
	"testing"

	"github.com/vektah/gqlparser/v2/ast"
)

// TestSharedPrelude: schemas loaded at once share the parsed prelude, and
// an extension of a built-in type in one (extend scalar String @x) is that
// schema's alone: the other schemas, and the next load, see the prelude
// as gqlparser defines it.
func TestSharedPrelude(t *testing.T) {
	const extended = "directive @x on SCALAR\nextend scalar String @x\ntype Query { a: String }"
	const plain = "type Query { b: String }"
	var wg sync.WaitGroup
	schemas := make([]*ast.Schema, 16)
	for i := range schemas {
		wg.Add(1)
		go func() {
			defer wg.Done()
			doc := plain
			if i%2 == 0 {
				doc = extended
			}
			s, err := LoadSchema(&ast.Source{Name: "s.graphql", Input: doc})
			if err != nil {
				t.Error(err)
				return
			}
			schemas[i] = s
		}()
	}
	wg.Wait()
	for i, s := range schemas {
		if s == nil {
			t.Fatal("a load failed")
		}
		got := len(s.Types["String"].Directives)
		if want := map[bool]int{true: 1, false: 0}[i%2 == 0]; got != want {
			t.Errorf("schema %d: String has %d directives, want %d", i, got, want)
		}
		if s.Types["__Type"] == nil || s.Types["__Type"].Fields.ForName("fields") == nil {
			t.Errorf("schema %d lacks the introspection types", i)
		}
	}
	if schemas[0].Types["__Type"].Fields.ForName("name") != schemas[1].Types["__Type"].Fields.ForName("name") {
		t.Error("the prelude's field definitions are not shared")
	}
	p, err := preludeDoc()
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range p.Definitions {
		if d.Name == "String" && len(d.Directives) != 0 {
			t.Errorf("the shared prelude's String holds %d directives", len(d.Directives))
		}
	}
}
