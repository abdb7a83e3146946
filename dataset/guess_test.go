package dataset

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/mockgql/mockgql/model"
)

// TestGuessFields: each path's name and type as inferred from its values,
// for CSV (typed cells) and JSON (nested objects flattened).
func TestGuessFields(t *testing.T) {
	csv := "id,title,price,stock,inStock,published,author_id,mixed,empty\n" +
		"1,Dune,9.5,3,true,2024-01-02,7,a,\n" +
		"2,Emma,12,0,false,2023-12-31,8,3,\n"
	jsonDocs := `[{"_id":"a1","author":{"first_name":"Ann","age":40},"tags":["x"],"n":1},
		{"_id":"a2","author":{"first_name":"Bo","age":41.5},"tags":[],"n":2}]`
	for _, tc := range []struct {
		name   string
		format Format
		data   string
		want   []string // path name TYPE
	}{
		{"csv", CSV, csv, []string{"id id ID", "title title STRING", "price price FLOAT", "stock stock INT",
			"inStock inStock BOOLEAN", "published published STRING", "author_id authorId INT", "mixed mixed STRING", "empty empty STRING"}},
		{"json", JSON, jsonDocs, []string{"_id id ID", "author.first_name authorFirstName STRING", "author.age authorAge FLOAT",
			"tags tags JSON", "n n INT"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for _, g := range mustRead(t, tc.format, tc.data).GuessFields() {
				got = append(got, g.Path+" "+g.Name+" "+string(g.Type))
			}
			if !slices.Equal(got, tc.want) {
				t.Fatalf("guesses:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
		})
	}
}

// TestGuessFieldsSamplesAndClashes: samples are distinct and few; two
// paths with one name are numbered apart; a float deep in a large dataset
// is still seen because the rows read are spread over all of it.
func TestGuessFieldsSamplesAndClashes(t *testing.T) {
	var b strings.Builder
	b.WriteString("a_b,aB,v\n")
	for i := range 10000 {
		v := fmt.Sprint(i % 7)
		if i == 9990 {
			v = "0.5"
		}
		fmt.Fprintf(&b, "x,y,%s\n", v)
	}
	g := mustRead(t, CSV, b.String()).GuessFields()
	if g[0].Name != "aB" || g[1].Name != "aB2" {
		t.Fatalf("names: %q %q", g[0].Name, g[1].Name)
	}
	if !slices.Equal(g[0].Samples, []string{"x"}) || len(g[2].Samples) != 3 {
		t.Fatalf("samples: %q %q", g[0].Samples, g[2].Samples)
	}
	if g[2].Type != model.TypeFloat {
		t.Fatalf("v: %s, want FLOAT (0.5 at row 9990)", g[2].Type)
	}
}
