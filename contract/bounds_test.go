package contract

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/mockgql/mockgql/internal/gqlattack"
	"github.com/mockgql/mockgql/model"
)

// TestImportBounds (issue 31, findings 1 and 3): each document over a
// bound of bounds.go is refused at import with LIMIT_REACHED naming the
// type and the number, before gqlparser validates it (the interface
// chain) or a row is generated (the embedded types); nothing is imported.
func TestImportBounds(t *testing.T) {
	cases := []struct {
		name, doc string
		want      []string // in the message
	}{
		{"embedded 3 x 120 (issue 31)", gqlattack.Embedded(120, 3), []string{"type Item", "1742521", fmt.Sprint(MaxRowCells)}},
		{"embedded lists", gqlattack.EmbeddedLists(30, 3), []string{"type Item", fmt.Sprint(MaxRowCells)}},
		{"recursive embedding", gqlattack.Recursive(40), []string{"type Item", fmt.Sprint(MaxRowCells)}},
		{"520 interfaces (issue 31)", gqlattack.Interfaces(520), []string{"type I65", "65 interfaces", fmt.Sprint(MaxTypeInterfaces)}},
		{"long type name", gqlattack.LongName(15000), []string{"type Txxx", "15000 characters", fmt.Sprint(MaxNameLength)}},
		{"long field name", strings.Replace(gqlattack.LongName(15000), "T"+strings.Repeat("x", 14999), "Item", 2), []string{"field Item.fyyy", "15000 characters"}},
		{"wide type", gqlattack.Wide(MaxTypeFields), []string{"type Item", fmt.Sprint(MaxTypeFields + 1), "at most"}},
		{"wide embedded type", strings.Replace(gqlattack.Embedded(MaxTypeFields+1, 1), "type Item { e: E1! }", "type Item { id: ID! e: E1! }", 1), []string{"type E1", fmt.Sprint(MaxTypeFields + 1)}},
		{"many arguments", "type Query { items(" + repeatArgs(MaxFieldArguments+1) + "): [Int] }", []string{"Query.items", fmt.Sprint(MaxFieldArguments + 1)}},
		{"directive arguments", "directive @d(" + repeatArgs(MaxFieldArguments+1) + ") on FIELD_DEFINITION\ntype Query { a: Int }", []string{"@d", fmt.Sprint(MaxFieldArguments + 1)}},
		{"directive use arguments", "directive @d(" + repeatArgs(MaxFieldArguments) + ") on FIELD_DEFINITION\ntype Query { a: Int @d(" + strings.ReplaceAll(repeatArgs(MaxFieldArguments+1), ": Int", ": 1") + ") }", []string{"@d on Query.a", fmt.Sprint(MaxFieldArguments + 1)}},
		{"directive locations", "directive @d on " + strings.Repeat("FIELD_DEFINITION | ", MaxDirectiveLocations) + "FIELD_DEFINITION\ntype Query { a: Int }", []string{"@d", fmt.Sprint(MaxDirectiveLocations + 1)}},
		{"many types", manyTypes(MaxTypes), []string{"defines 10001 types"}},
		{"interface edges", interfaceStar(200, 60), []string{fmt.Sprint(MaxImplements), "implements edges"}},
		{"interface work", interfaceFan(64, 600), []string{"field checks", fmt.Sprint(MaxImplementsWork)}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := &model.Project{ID: "p1"}
			_, err := Apply(p, []byte(c.doc), time.Now())
			if model.ErrorCode(err) != model.CodeLimitReached || p.Contract != nil {
				t.Fatalf("Apply of %d bytes: %v; want LIMIT_REACHED and nothing imported", len(c.doc), err)
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("message %q does not say %q", err, w)
				}
			}
			if len(err.Error()) > 600 {
				t.Errorf("message of %d bytes", len(err.Error()))
			}
		})
	}
}

// TestImportBoundsAdmit: documents at the bounds import.
func TestImportBoundsAdmit(t *testing.T) {
	for name, doc := range map[string]string{
		"64 interfaces":  gqlattack.Interfaces(MaxTypeInterfaces),
		"row cells":      gqlattack.Embedded(12, 3), // 1 + 12 × (1 + 12 × (1 + 12)) = 1,885 values; 13 wide is 2,380
		"long names":     gqlattack.LongName(MaxNameLength),
		"wide type":      gqlattack.Wide(MaxTypeFields - 1),
		"many arguments": "type Query { items(" + repeatArgs(MaxFieldArguments) + "): [Int] }",
	} {
		t.Run(name, func(t *testing.T) {
			if _, err := Apply(&model.Project{ID: "p1"}, []byte(doc), time.Now()); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// TestProjectCells: more rows of a wide entity than the project's bound
// of generated values are refused, naming the type and its rows.
func TestProjectCells(t *testing.T) {
	p := &model.Project{ID: "p1"}
	if _, err := Apply(p, []byte(gqlattack.Wide(499)), time.Now()); err != nil {
		t.Fatal(err)
	}
	plan := planOfDoc(t, gqlattack.Wide(499))
	c := *p.Contract
	c.Tables = []model.ContractTable{{Type: "Item", Rows: model.MaxContractTableRows}}
	_, _, err := Build(p.ID, plan, &c)
	if model.ErrorCode(err) != model.CodeLimitReached || !strings.Contains(err.Error(), "type Item, 10000 rows of 500 values") {
		t.Fatalf("10,000 rows of 500 values: %v", err)
	}
	c.Tables = []model.ContractTable{{Type: "Item", Rows: model.MaxContractTableRows, ImportCode: "pool"}}
	if _, _, err := Build(p.ID, plan, &c); err != nil {
		t.Fatalf("rows from a dataset are not generated: %v", err)
	}
}

func planOfDoc(t *testing.T, doc string) *Plan {
	t.Helper()
	s, err := Parse([]byte(doc), MaxDocumentBytes)
	if err != nil {
		t.Fatal(err)
	}
	return Interpret(s)
}

func repeatArgs(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, " a%d: Int", i)
	}
	return b.String()
}

// interfaceStar is types object types each implementing the same per
// interfaces.
func interfaceStar(types, per int) string {
	var b strings.Builder
	b.WriteString("type Query { t0: T0 }\n")
	for i := range per {
		fmt.Fprintf(&b, "interface I%d { id: ID }\n", i)
	}
	for k := range types {
		fmt.Fprintf(&b, "type T%d implements I0", k)
		for i := 1; i < per; i++ {
			fmt.Fprintf(&b, " & I%d", i)
		}
		b.WriteString(" { id: ID }\n")
	}
	return b.String()
}

// interfaceFan is per interfaces of fields fields each, and types object
// types each implementing all of them: few edges, many field checks.
func interfaceFan(per, fields int) string {
	var b strings.Builder
	var fs strings.Builder
	for f := range fields {
		fmt.Fprintf(&fs, " f%d: Int", f)
	}
	b.WriteString("type Query { t0: T0 }\n")
	for i := range per {
		fmt.Fprintf(&b, "interface I%d {%s }\n", i, fs.String())
	}
	for k := range 2 {
		fmt.Fprintf(&b, "type T%d implements I0", k)
		for i := 1; i < per; i++ {
			fmt.Fprintf(&b, " & I%d", i)
		}
		fmt.Fprintf(&b, " {%s }\n", fs.String())
	}
	return b.String()
}

// manyTypes is a Query and n types of one field.
func manyTypes(n int) string {
	var b strings.Builder
	b.WriteString("type Query { t0: T0 }\n")
	for i := range n {
		fmt.Fprintf(&b, "type T%d { id: ID! }\n", i)
	}
	return b.String()
}
