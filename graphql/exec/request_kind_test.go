package exec

import (
	"strings"
	"testing"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/parser"
)

// parsedIsMutation is IsMutation by the parser: the reference the token
// scan must agree with on every document that parses.
func parsedIsMutation(req Request) (mutation, parsed bool) {
	doc, err := parser.ParseQuery(&ast.Source{Input: req.Query})
	if err != nil {
		return false, false
	}
	op, gerr := selectOperation(doc, req.OperationName)
	return gerr == nil && op.Operation == ast.Mutation, true
}

// TestIsMutationScan checks the token scan of IsMutation against the
// parser on documents whose top level is hard to follow, and that it
// reads a document of megabytes without building it.
func TestIsMutationScan(t *testing.T) {
	docs := []Request{
		{Query: `mutation { a }`},
		{Query: `{ a }`},
		{Query: `query mutation { a }`},
		{Query: `mutation query { a }`},
		{Query: `mutation fragment { a }`},
		{Query: `fragment mutation on Mutation { a } query { ...mutation }`},
		{Query: `fragment F on Query { a } mutation M { ...F }`},
		{Query: `query Q($a: In = {x: {y: 1}}, $b: [Int] = [1]) @d(x: {mutation: 1}) { a }`},
		{Query: `mutation M($a: In = {x: 1}) @d(if: true) { a(x: {y: "}"}) { b } }`},
		{Query: `query A { a } mutation B { b }`, OperationName: "B"},
		{Query: `query A { a } mutation B { b }`, OperationName: "A"},
		{Query: `query A { a } mutation B { b }`},
		{Query: `query A { a } mutation A { b }`, OperationName: "A"},
		{Query: `mutation A { a } query A { b }`, OperationName: "A"},
		{Query: `query A { a } mutation B { b }`, OperationName: "C"},
		{Query: `subscription { a }`},
		{Query: "# mutation\n{ a } # mutation { b }"},
		{Query: `"mutation" mutation { a }`},
		{Query: `"""described""" query { a } `},
		{Query: `mutation { a`},
		{Query: `mutation { a } }`},
		{Query: `{ a } { b }`},
		{Query: `query @mutation { a }`},
		{Query: `mutation @query { a }`},
	}
	for _, req := range docs {
		want, parsed := parsedIsMutation(req)
		if got := IsMutation(req); parsed && got != want || !parsed && got {
			t.Errorf("IsMutation(%q, %q) = %v, the parser says %v (parsed: %v)", req.Query, req.OperationName, got, want, parsed)
		}
	}
	big := Request{Query: "mutation { a(s: \"" + strings.Repeat("x", 4<<20) + "\") " + strings.Repeat("b ", 1<<20) + "}"}
	if alloc := allocated(func() {
		if !IsMutation(big) {
			t.Error("a big mutation is not one")
		}
	}); alloc > 16<<20 {
		t.Errorf("a %d MB document allocated %d MB", len(big.Query)>>20, alloc>>20)
	}
}
