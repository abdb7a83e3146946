package contract

import (
	"fmt"
	"reflect"
	"testing"
)

// testValues is a test-only stand-in for the runtime's generators: the
// kind and the seed, so that a test sees which generator filled a field.
func testValues(kind string, _ map[string]any, seed uint64) (any, error) {
	return fmt.Sprintf("%s#%d", kind, seed%97), nil
}

// TestRowsDeterministicAndRelated: every entity gets its count of rows,
// the same for the same seed and other for another seed; keys are unique;
// every foreign key names an existing row of its target; enum values
// come from the enum; lists hold one to three items; embedded objects and
// hidden keys are filled.
func TestRowsDeterministicAndRelated(t *testing.T) {
	for _, file := range []string{"testdata/relay.graphql", "testdata/hasura.graphql", "testdata/prisma.graphql", "testdata/pages.graphql", "testdata/unions.graphql"} {
		t.Run(file, func(t *testing.T) {
			p := planOf(t, file)
			count := func(string) int { return 25 }
			a, err := p.Rows(count, 1, testValues)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := p.Rows(count, 1, testValues)
			c, _ := p.Rows(count, 2, testValues)
			if !reflect.DeepEqual(a, b) {
				t.Fatal("the same seed gave other rows")
			}
			if reflect.DeepEqual(a, c) {
				t.Fatal("another seed gave the same rows")
			}
			keys := map[string]map[any]bool{}
			for _, e := range p.Entities {
				if len(a[e.Type]) != 25 {
					t.Fatalf("%s: %d rows", e.Type, len(a[e.Type]))
				}
				keys[e.Type] = map[any]bool{}
				for _, row := range a[e.Type] {
					k := row[e.Key]
					if e.Key == "" {
						k = row[HiddenKey]
					}
					if k == nil || keys[e.Type][k] {
						t.Fatalf("%s: key %v missing or repeated", e.Type, k)
					}
					keys[e.Type][k] = true
					checkFields(t, e, row)
				}
			}
			for _, r := range p.Relations {
				if r.Many {
					continue
				}
				for _, row := range a[r.From] {
					if !keys[r.To][row[r.Column()]] {
						t.Fatalf("%s.%s: %v names no %s", r.From, r.Column(), row[r.Column()], r.To)
					}
				}
			}
		})
	}
}

// checkFields checks the values of one row against e's fields.
func checkFields(t *testing.T, e *Entity, row map[string]any) {
	t.Helper()
	for _, f := range e.Fields {
		v, ok := row[f.Name]
		if f.Value.Kind == "ref" || f.Value.Kind == "object" && !ok {
			continue
		}
		if !ok {
			t.Fatalf("%s.%s missing", e.Type, f.Name)
		}
		if f.List {
			list := v.([]any)
			if len(list) < 1 || len(list) > 3 {
				t.Fatalf("%s.%s: %d items", e.Type, f.Name, len(list))
			}
			continue
		}
		if f.Value.Kind == "enum" && !contains(f.Value.Enum, v.(string)) {
			t.Fatalf("%s.%s: %v is not one of %v", e.Type, f.Name, v, f.Value.Enum)
		}
	}
}

// TestKeys: Int keys count from 1, uuid keys are UUIDs, other keys name
// their type.
func TestKeys(t *testing.T) {
	for _, tc := range []struct {
		typ, keyType string
		i            int
		want         any
	}{
		{"Post", "Int", 0, 1},
		{"Book", "ID", 4, "book-5"},
		{"products", "uuid", 0, "b1a6fd07-2b5b-4a26-8a7f-0a5f3fc2cb5f"},
	} {
		got := Key(tc.typ, tc.keyType, tc.i)
		if tc.keyType == "uuid" {
			s, _ := got.(string)
			if len(s) != 36 || s[14] != '4' || Key(tc.typ, tc.keyType, tc.i) != got || Key(tc.typ, tc.keyType, 1) == got {
				t.Fatalf("uuid key %v", got)
			}
			continue
		}
		if got != tc.want {
			t.Fatalf("Key(%s, %s, %d) = %v, want %v", tc.typ, tc.keyType, tc.i, got, tc.want)
		}
	}
}
