package exec

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/mockgql/mockgql/internal/gqlattack"
	"github.com/mockgql/mockgql/model"
)

// FuzzDocumentBudget prepares arbitrary documents, seeded with fragment
// chains, stars and trees, under small document bounds and a cost budget
// (and checks IsMutation's token scan against the parser on each):
// Prepare must never panic, must refuse any document over a bound with
// GRAPHQL_VALIDATION_FAILED (or GRAPHQL_PARSE_FAILED), and must take a
// bounded amount of work whatever the document: each call runs under a
// context the fuzzer's time limit would otherwise catch, and one that
// ends it (the document was not validated in time) fails the target.
func FuzzDocumentBudget(f *testing.F) {
	for _, n := range []int{2, 9, 40} {
		for _, used := range []bool{true, false} {
			f.Add(gqlattack.Chain(n, used, "Query", gqlattack.Tail("badInt", n)))
			f.Add(gqlattack.Chain(n, used, "Query", gqlattack.Leaf("nested{inner{value}}", 3)))
		}
		f.Add(gqlattack.Star(n, "Query", gqlattack.Fields("badInt", 2)))
		f.Add(gqlattack.Tree(n, "Query", gqlattack.Leaf("x:badInt", 100)))
	}
	for _, q := range []string{
		`{...A} fragment A on Query{...B} fragment B on Query{...A}`,
		`{...A ...A ...A} fragment A on Query{products{items{...P}}} fragment P on Product{id related{...P}}`,
		`{... on Query{x:badInt} ... on Query{x:badInt ...A}} fragment A on Query{x:badInt}`,
		`query A{...F} query B{...F} fragment F on Query{a:products{total} b:products{total}}`,
		`{...Missing}`,
		`fragment A on Query{badInt}`,
		`query A($v: In = {x: 1}) @d(a: {b: 2}) { a } mutation mutation { b }`,
		`mutation A { a } query B { b }`,
	} {
		f.Add(q)
	}
	ex := newTestExecutorWith(f, nil, func(e *Executor) {
		e.MaxDepth, e.MaxFields, e.CacheSize = 10, 200, -1
		e.Bounds.DocumentBounds = DocumentBounds{MaxTokens: 2000, MaxFragments: 32, MaxSpreads: 128, MaxWalk: 2000}
		e.Cost = Cost{Max: 50, Fields: map[string]int{"Query.products": 10}}
	})
	f.Fuzz(func(t *testing.T, query string) {
		// IsMutation's token scan answers as the parser on what parses,
		// for the only operation and for one asked by name.
		for _, name := range []string{"", "A", "mutation"} {
			req := Request{Query: query, OperationName: name}
			if want, parsed := parsedIsMutation(req); parsed && IsMutation(req) != want {
				t.Fatalf("IsMutation(%q, %q) = %v, the parser says %v", query, name, !want, want)
			}
		}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_, refused := ex.PrepareContext(ctx, Request{Query: query})
		if refused == nil {
			return
		}
		switch refused.Code {
		case model.CodeValidateFailed, model.CodeParseFailed:
		default:
			t.Fatalf("refused %s: %v", refused.Code, refused.Errors)
		}
		if len(refused.Errors) == 0 || len(refused.Errors) > ex.Bounds.MaxErrors {
			t.Fatalf("%d errors", len(refused.Errors))
		}
		for _, e := range refused.Errors {
			if len(e.Message) > MaxMessageBytes+64 || strings.TrimSpace(e.Message) == "" {
				t.Fatalf("message %q", e.Message)
			}
		}
	})
}
