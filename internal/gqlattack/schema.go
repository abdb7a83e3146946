package gqlattack

import (
	"fmt"
	"strings"
)

// The hostile schema documents (SDL) that the import bounds
// (contract/bounds.go) are measured against: embedded object types wide
// and deep, recursive, and interface-heavy documents. Each has a Query
// root that lists Item, the entity that holds the embedded values.

// Embedded is an SDL whose entity Item (listed by Query.items) embeds E1,
// E1 has width fields of E2, …, and E<depth> width scalar fields: objects
// without identity, generated inside each row to three levels, so a row
// holds about width^depth values. Embedded(120, 3) is issue 31's 3.8 KB
// document that cost every runtime call 24 CPU seconds.
func Embedded(width, depth int) string {
	var b strings.Builder
	b.WriteString("type Query { items: [Item!]! }\ntype Item { e: E1! }\n")
	for d := 1; d <= depth; d++ {
		fmt.Fprintf(&b, "type E%d {", d)
		for f := 0; f < width; f++ {
			if d == depth {
				fmt.Fprintf(&b, " f%d: Int!", f)
			} else {
				fmt.Fprintf(&b, " f%d: E%d!", f, d+1)
			}
		}
		b.WriteString(" }\n")
	}
	return b.String()
}

// EmbeddedLists is Embedded with the deepest type's fields lists (of one
// to three items when generated), the fan-out multiplying the values.
// (A list of objects would make them rows of their own.)
func EmbeddedLists(width, depth int) string {
	return strings.ReplaceAll(Embedded(width, depth), ": Int!", ": [Int!]!")
}

// Recursive is an SDL whose entity Item embeds R, an object that has
// width fields of its own type and one scalar: generated to the embedding
// depth, however deep the schema's recursion.
func Recursive(width int) string {
	var b strings.Builder
	b.WriteString("type Query { items: [Item!]! }\ntype Item { r: R }\ntype R { v: Int")
	for f := 0; f < width; f++ {
		fmt.Fprintf(&b, " r%d: R", f)
	}
	b.WriteString(" }\n")
	return b.String()
}

// Wide is an SDL whose entity Item has fields scalar fields.
func Wide(fields int) string {
	var b strings.Builder
	b.WriteString("type Query { items: [Item!]! }\ntype Item { id: ID!")
	for f := 0; f < fields; f++ {
		fmt.Fprintf(&b, " f%d: String", f)
	}
	b.WriteString(" }\n")
	return b.String()
}

// Interfaces is an SDL of n interfaces of one field, each implementing
// all the earlier ones, and an entity Item implementing all of them:
// issue 31's 915 KB document (n = 520) spent 6 to 18 CPU seconds in the
// schema library's validation, which checks each edge's interface's
// interfaces against the type's (n^4/8 comparisons).
func Interfaces(n int) string {
	var b strings.Builder
	b.WriteString("type Query { items: [Item!]! }\n")
	impl := func(k int) {
		if k == 0 {
			return
		}
		b.WriteString(" implements")
		for j := 0; j < k; j++ {
			if j > 0 {
				b.WriteString(" &")
			}
			fmt.Fprintf(&b, " I%d", j)
		}
	}
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "interface I%d", i)
		impl(i)
		b.WriteString(" { id: ID }\n")
	}
	b.WriteString("type Item")
	impl(n)
	b.WriteString(" { id: ID }\n")
	return b.String()
}

// LongName is an SDL whose type Item and one of its fields have names of
// n characters.
func LongName(n int) string {
	name := "T" + strings.Repeat("x", n-1)
	return fmt.Sprintf("type Query { items: [%s!]! }\ntype %s { id: ID! %s: Int }\n", name, name, "f"+strings.Repeat("y", n-1))
}
