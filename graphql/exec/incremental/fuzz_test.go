package incremental

import (
	"context"
	"encoding/json"
	"reflect"
	"testing"

	"github.com/mockgql/mockgql/graphql/exec"
)

// FuzzIncrements splits the answers to arbitrary documents: Split
// must never panic, and applying its payloads in either format, as a
// client does, must give back the complete data and every error once.
func FuzzIncrements(f *testing.F) {
	for _, q := range []string{
		`{ shelf { name ... @defer(label: "a") { books { id author { name } ... @defer { author { bio } } } } } }`,
		`{ books @stream(initialCount: 1) { id ... @defer { fails title } } }`,
		`query($d: Boolean = false) { books { ...B @defer(if: $d) id } } fragment B on Book { title author { name } }`,
		`{ books { id author { name } ... @defer { author { bio } } ... @defer(label: "x") { author { name bio } title } } }`,
		`{ a: books @stream { t: title } b: broken { ... @defer { id } } }`,
		`{ books { ... on Book @defer { id ... on Book @defer { title } } } }`,
	} {
		f.Add(q)
	}
	ex := incrementalExecutor(f)
	f.Fuzz(func(t *testing.T, query string) {
		req := exec.Request{Query: query}
		p, refused := ex.Prepare(req)
		if refused != nil {
			return
		}
		res, err := p.Execute(context.Background(), nil)
		if err != nil {
			return
		}
		body := res.AppendJSON(nil)
		var complete struct {
			Data   any
			Errors []any
		}
		if err := json.Unmarshal(body, &complete); err != nil {
			t.Fatal(err)
		}
		for _, format := range []Format{V02, Spec20220824} {
			parts, err := Split(context.Background(), req, body, format, 0)
			if err != nil {
				t.Fatal(err)
			}
			if parts == nil {
				continue
			}
			data, errs := applyIncrements(t, parts)
			if !reflect.DeepEqual(data, complete.Data) || len(errs) != len(complete.Errors) {
				t.Fatalf("format %d: %s\napplied gives %v and %d errors\nthe complete answer %s", format, parts, data, len(errs), body)
			}
		}
	})
}

// applyIncrements applies payloads as a client does and returns the data
// and the errors of all of them.
func applyIncrements(t *testing.T, parts [][]byte) (any, []any) {
	t.Helper()
	var data any
	var errs []any
	paths := map[string][]any{}
	for i, raw := range parts {
		var p struct {
			Data    any
			Errors  []any
			HasNext bool
			Pending []struct {
				ID   string
				Path []any
			}
			Incremental []struct {
				ID      string
				Path    []any
				SubPath []any
				Data    any
				Items   []any
				Errors  []any
			}
		}
		if err := json.Unmarshal(raw, &p); err != nil {
			t.Fatalf("payload %d is not JSON: %s", i, raw)
		}
		if p.HasNext != (i < len(parts)-1) {
			t.Fatalf("payload %d: hasNext %v", i, p.HasNext)
		}
		if i == 0 {
			data = p.Data
		}
		errs = append(errs, p.Errors...)
		for _, e := range p.Pending {
			paths[e.ID] = e.Path
		}
		for _, inc := range p.Incremental {
			path := inc.Path
			if inc.ID != "" {
				path = append(append([]any(nil), paths[inc.ID]...), inc.SubPath...)
			}
			errs = append(errs, inc.Errors...)
			if inc.Items != nil {
				if inc.ID == "" {
					path = path[:len(path)-1]
				}
				data = mergeValue(data, path, inc.Items, true)
			} else {
				data = mergeValue(data, path, inc.Data, false)
			}
		}
	}
	return data, errs
}

// mergeValue deep-merges src at path of dst (appends it there when items).
func mergeValue(dst any, path []any, src any, items bool) any {
	if len(path) > 0 {
		switch d := dst.(type) {
		case map[string]any:
			k := path[0].(string)
			d[k] = mergeValue(d[k], path[1:], src, items)
		case []any:
			i := int(path[0].(float64))
			d[i] = mergeValue(d[i], path[1:], src, items)
		}
		return dst
	}
	if items {
		l, _ := dst.([]any)
		return append(l, src.([]any)...)
	}
	switch s := src.(type) {
	case map[string]any:
		d, ok := dst.(map[string]any)
		if !ok {
			return src
		}
		for k, v := range s {
			d[k] = mergeValue(d[k], nil, v, false)
		}
		return d
	case []any:
		d, ok := dst.([]any)
		if !ok || len(d) != len(s) {
			return src
		}
		for i, v := range s {
			if v != nil {
				d[i] = mergeValue(d[i], nil, v, false)
			}
		}
		return d
	}
	return src
}
