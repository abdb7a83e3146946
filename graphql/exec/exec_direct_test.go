package exec

import (
	"bytes"
	"context"
	"testing"
)

// A test-only surface with direct writers: items write themselves when
// their plan was compiled, the root writes "one" itself. Each answer must
// be the one the generic path gives, null propagation and errors included.

const directSDL = `
type Query { items: [Item!]!  maybe: [Item]  one: Item  many(n: Int): [Item!] }
type Item { name: String  code: String! }
`

// directItem is an Item: a FieldGetter for the generic path and a
// DirectObject for plans compiled as "item".
type directItem struct {
	name string
	code *string
	used *int // counts direct writes
}

func (it *directItem) GraphQLField(name string) (any, bool) {
	switch name {
	case "name":
		return it.name, true
	case "code":
		if it.code == nil {
			return nil, false
		}
		return *it.code, true
	}
	return nil, false
}

func (it *directItem) WriteDirect(w *Writer, sp *Plan, obj *ObjectType) (ok, handled bool) {
	r := (*run)(w)
	if sp.direct != "item" {
		return false, false
	}
	*it.used++
	r.buf = append(r.buf, '{')
	for i, pf := range sp.fields {
		if i > 0 {
			r.buf = append(r.buf, ',')
		}
		r.buf = append(r.buf, pf.keyJSON...)
		switch {
		case pf.info == nil:
			r.buf = append(r.buf, obj.nameJSON...)
		case pf.info.def.Name == "name":
			r.buf = appendString(r.buf, it.name)
		case it.code != nil:
			r.buf = appendString(r.buf, *it.code)
		default: // as run.complete reports a null in a non-null position
			n := r.pushKey(pf.key)
			r.fieldError(internalf("Cannot return null for non-nullable field %s.", pf.info.key), pf.ast)
			r.path = r.path[:n]
			return false, true
		}
	}
	r.buf = append(r.buf, '}')
	return true, true
}

// directTestRoot writes the root field "one" itself.
type directTestRoot struct {
	one  *directItem
	used *int
}

func (d directTestRoot) WriteRootField(w *Writer, sp *Plan, i int) (ok, handled bool) {
	r := (*run)(w)
	pf := sp.fields[i]
	if sp.direct != "root" || pf.info == nil || pf.info.def.Name != "one" {
		return false, false
	}
	*d.used++
	n := r.pushKey(pf.key)
	start := len(r.buf)
	ok, _ = d.one.WriteDirect(w, pf.child, pf.info.out.obj)
	ok = r.settle(pf.info.out, start, ok)
	r.path = r.path[:n]
	return ok, true
}

// directTestExecutors returns the test surface with and without direct
// writers, and the counter of direct writes.
func directTestExecutors(t *testing.T) (direct, generic *Executor, root any, used *int) {
	used = new(int)
	code := "c"
	good := &directItem{name: "a<b>", code: &code, used: used}
	bad := &directItem{name: "bad", used: used}
	list := func(items ...*directItem) Resolver {
		return func(context.Context, *Field) (any, error) { return items, nil }
	}
	cfg := Executor{
		Schema: mustLoadSchema(t, directSDL),
		Resolvers: map[string]Resolver{
			"Query.items": list(good, bad, good),
			"Query.maybe": list(good, bad),
			"Query.one":   func(context.Context, *Field) (any, error) { return good, nil },
			"Query.many": func(_ context.Context, f *Field) (any, error) {
				n, _ := f.Args["n"].(int)
				return make([]*directItem, n), nil
			},
		},
	}
	generic, err := NewExecutor(cfg)
	if err != nil {
		t.Fatal(err)
	}
	cfg.DirectPlan = func(obj *objectType, sp *selectionPlan) any {
		switch obj.name {
		case "Item":
			return "item"
		case "Query":
			return "root"
		}
		return nil
	}
	if direct, err = NewExecutor(cfg); err != nil {
		t.Fatal(err)
	}
	return direct, generic, directTestRoot{one: good, used: used}, used
}

func TestDirectWriters(t *testing.T) {
	direct, generic, root, used := directTestExecutors(t)
	tests := []struct {
		name, query string
		direct      bool // whether the direct writers run
	}{
		{"list", `{ maybe { name code } one { __typename name } }`, true},
		{"null item in a nullable list", `{ maybe { code } }`, true},
		{"non-null violation to the root", `{ one { name } items { x: name code } }`, true},
		{"null in a non-null list item", `{ many(n: 2) { name } }`, false},
		{"aliases and fragments", `{ a: one { ...F } b: one { name } } fragment F on Item { n: name name }`, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			*used = 0
			got := directTestRun(t, direct, root, tt.query)
			if (*used > 0) != tt.direct {
				t.Errorf("direct writes: %d, want some: %v", *used, tt.direct)
			}
			if want := directTestRun(t, generic, nil, tt.query); !bytes.Equal(got, want) {
				t.Errorf("direct:  %s\ngeneric: %s", got, want)
			}
		})
	}
}

// directTestRun executes query on ex with root and returns the response.
func directTestRun(t *testing.T, ex *Executor, root any, query string) []byte {
	t.Helper()
	p, refused := ex.Prepare(Request{Query: query})
	if refused != nil {
		t.Fatalf("refused: %v", refused.Errors)
	}
	res, err := p.Execute(context.Background(), root)
	if err != nil {
		t.Fatal(err)
	}
	return res.AppendJSON(nil)
}
