package exec

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mockgql/mockgql/internal/gqlattack"
	"github.com/mockgql/mockgql/model"
)

// budgetExecutor is the test schema's executor with the runtime's depth
// and field limits and the default document bounds, without a cache.
func budgetExecutor(t testing.TB, configure func(*Executor)) *Executor {
	return newTestExecutorWith(t, nil, func(e *Executor) {
		e.MaxDepth, e.MaxFields, e.CacheSize = 10, 1000, -1
		if configure != nil {
			configure(e)
		}
	})
}

// TestDocumentBudget checks each bound of the document budget: a document
// just inside passes, one just outside is refused GRAPHQL_VALIDATION_FAILED
// with one error naming the bound.
func TestDocumentBudget(t *testing.T) {
	ex := budgetExecutor(t, func(e *Executor) {
		e.Bounds.DocumentBounds = DocumentBounds{MaxTokens: 400, MaxFragments: 8, MaxSpreads: 12, MaxWalk: 60}
	})
	frags := func(n int) string { // {...F0 … ...F<n-1>} with one field each
		return gqlattack.Star(n, "Query", gqlattack.Fields("badInt", 1))
	}
	tests := []struct {
		name, query, wantErr string
	}{
		{name: "tokens at the limit", query: "{" + strings.Repeat("badInt ", 398) + "}"},
		{name: "tokens over the limit", query: "{" + strings.Repeat("badInt ", 399) + "}", wantErr: "the document has more than the limit of 400 tokens"},
		{name: "comments count", query: "{badInt}" + strings.Repeat("# comment\n", 400), wantErr: "the document has more than the limit of 400 tokens"},
		{name: "strings count once", query: `{echo(s: "` + strings.Repeat("long ", 10000) + `")}`},
		{name: "fragments at the limit", query: frags(8)},
		{name: "fragments over the limit", query: frags(9), wantErr: "the document defines 9 fragments, over the limit of 8"},
		{name: "unused fragments count", query: "{badInt}" + frags(9)[strings.Index(frags(9), "\n"):], wantErr: "the document defines 9 fragments, over the limit of 8"},
		{name: "spreads at the limit", query: "{" + strings.Repeat("...A ", 12) + "} fragment A on Query{badInt}"},
		{name: "spreads over the limit", query: "{" + strings.Repeat("...A ", 13) + "} fragment A on Query{badInt}", wantErr: "the document has more than the limit of 12 fragment spreads"},
		{name: "spreads in fragments count", query: "{...A ...A} fragment A on Query{badInt " + strings.Repeat("...B ", 11) + "} fragment B on Query{badInt}", wantErr: "the document has more than the limit of 12 fragment spreads"},
		{name: "unknown fragment", query: "{...A ...Nope} fragment A on Query{badInt}", wantErr: `Unknown fragment "Nope".`},
		{name: "cycle", query: "{...A} fragment A on Query{badInt ...B} fragment B on Query{...A}", wantErr: `Cannot spread fragment "A" within itself.`},
		{name: "self-spread", query: "{badInt} fragment A on Query{...A}", wantErr: `Cannot spread fragment "A" within itself.`},
		{name: "walk at the limit", query: gqlattack.Chain(8, true, "Query", gqlattack.Fields("badInt", 1))},
		{name: "walk over the limit", query: gqlattack.Chain(8, true, "Query", gqlattack.Fields("badInt", 2)),
			wantErr: "validating the document would walk more than the limit of 60 fields (each fragment counts once more for every operation and fragment that spreads it): spread fragments less deep"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			checkRefusal(t, ex, tt.query, tt.wantErr)
		})
	}
}

// checkRefusal prepares query and checks that it is refused with wantErr
// as its only error (GRAPHQL_VALIDATION_FAILED), or, for an empty wantErr,
// that it is not refused by a bound (a validation error of its own is fine).
func checkRefusal(t *testing.T, ex *Executor, query, wantErr string) {
	t.Helper()
	_, refused := ex.Prepare(Request{Query: query})
	if wantErr == "" {
		if refused != nil && (strings.Contains(refused.Errors[0].Message, "limit") || refused.Code != model.CodeValidateFailed) {
			t.Fatalf("refused by a bound: %v", refused.Errors)
		}
		return
	}
	if refused == nil || refused.Code != model.CodeValidateFailed || len(refused.Errors) != 1 || refused.Errors[0].Message != wantErr {
		t.Fatalf("refused = %v, want one error %q", refused, wantErr)
	}
	if code := refused.Errors[0].Extensions["code"]; code != model.CodeValidateFailed {
		t.Fatalf("extensions.code = %v", code)
	}
}

// TestSameKeyThroughFragments checks that fields sharing a response key
// are counted across the inline fragments and spreads of one level, which
// the validator compares pairwise, and only there.
func TestSameKeyThroughFragments(t *testing.T) {
	ex := budgetExecutor(t, nil)
	x := func(n int) string { return strings.Repeat("x:badInt ", n) }
	over := fmt.Sprintf("more than %d fields of the selection share the response key \"x\", counting its fragments", MaxSameKey)
	tests := []struct {
		name, query, wantErr string
	}{
		{name: "inline fragments at the limit", query: "{... on Query{" + x(50) + "} ... on Query{" + x(50) + "}}"},
		{name: "inline fragments over the limit", query: "{... on Query{" + x(50) + "} ... on Query{" + x(51) + "}}", wantErr: over},
		{name: "ten inline fragments of a hundred", query: "{" + strings.Repeat("... on Query{"+x(100)+"} ", 10) + "}", wantErr: over},
		{name: "spreads over the limit", query: "{...A ...B} fragment A on Query{" + x(60) + "} fragment B on Query{" + x(41) + "}", wantErr: over},
		{name: "through a chain", query: "{...A} fragment A on Query{" + x(60) + " ...B} fragment B on Query{" + x(41) + "}", wantErr: over},
		{name: "nested levels apart", query: "{nested{inner{value}} ... on Query{" + x(100) + "}}"},
		{name: "different levels do not add", query: "{" + x(100) + " nested{... on Nested{inner{value}}}}"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			checkRefusal(t, ex, tt.query, tt.wantErr)
		})
	}
}

// TestFragmentChainBounded is finding 1 of issue 20 in the graphql
// package: chains of thousands of fragments, used and unused, are refused
// before the validator runs, allocating a small multiple of the text.
// (Before the budget, the 2,000-fragment chain allocated about 400 MB.)
func TestFragmentChainBounded(t *testing.T) {
	ex := budgetExecutor(t, nil)
	for _, n := range []int{2000, 8000} {
		for _, used := range []bool{true, false} {
			q := gqlattack.Chain(n, used, "Query", gqlattack.Tail("badInt", n))
			t.Run(fmt.Sprintf("%d used=%v", n, used), func(t *testing.T) {
				alloc := allocated(func() {
					_, refused := ex.Prepare(Request{Query: q})
					if refused == nil || !strings.Contains(refused.Errors[0].Message, "limit") {
						t.Fatalf("not refused by a bound: %v", refused)
					}
				})
				if limit := uint64(64 * len(q)); alloc > limit {
					t.Errorf("allocated %d bytes for a %d-byte document, over %d", alloc, len(q), limit)
				}
			})
		}
	}
}

// allocated returns the bytes f allocates.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// TestWorstAdmitted checks that the hostile documents at the default
// fragment bound are refused or validate within a few megabytes, and
// that documents the shape of generated clients' pass.
func TestWorstAdmitted(t *testing.T) {
	ex := budgetExecutor(t, nil)
	for _, d := range gqlattack.Worst(DefaultMaxFragments, "Query", "badInt", "nested{inner{inner{value}}}") {
		t.Run(d.Name, func(t *testing.T) {
			var refused *Result
			alloc := allocated(func() { _, refused = ex.Prepare(Request{Query: d.Query}) })
			if alloc > 16<<20 {
				t.Errorf("allocated %d MB", alloc>>20)
			}
			if refused != nil && refused.Code != model.CodeValidateFailed {
				t.Errorf("refused %v", refused.Errors)
			}
		})
	}
	relay := gqlattack.Tree(100, "Query", gqlattack.Fields("badInt", 5))
	checkRefusal(t, ex, relay, "")
	if _, refused := ex.Prepare(Request{Query: relay}); refused != nil {
		t.Fatalf("a tree of 100 fragments is refused: %v", refused.Errors)
	}
}

// TestValidationSteps checks the validator's own step limit, the
// backstop behind the linear checks: argument values are not fields, so a
// long list literal passes them but not the steps.
func TestValidationSteps(t *testing.T) {
	ex := budgetExecutor(t, func(e *Executor) { e.Bounds.MaxWalk = 100 })
	list := "[" + strings.Repeat("1,", walkSteps*100) + "1]"
	checkRefusal(t, ex, "{echo(ints:"+list+")}", fmt.Sprintf("validation of the document takes more than the limit of %d steps: use fewer fragments, or spread them less", walkSteps*100))
	checkRefusal(t, ex, "{echo(ints:[1,2,3])}", "")
}

// TestValidationDeadline checks that a document whose request's context
// has ended is refused QUERY_TIMEOUT, and that the refusal is not cached:
// the same text in time is answered.
func TestValidationDeadline(t *testing.T) {
	ex := newTestExecutor(t, nil) // with a cache
	q := gqlattack.Star(50, "Query", gqlattack.Fields("badInt", 2))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	// Take every slot, so that the request waits for one until its end.
	for range cap(validateSlots) {
		validateSlots <- struct{}{}
	}
	_, refused := ex.PrepareContext(ctx, Request{Query: q})
	for range cap(validateSlots) {
		releaseSlot()
	}
	if refused == nil || refused.Code != model.CodeQueryTimeout {
		t.Fatalf("refused = %v, want QUERY_TIMEOUT", refused)
	}
	if _, refused := ex.PrepareContext(context.Background(), Request{Query: q}); refused != nil {
		t.Fatalf("in time: %v", refused.Errors)
	}
	// The stepper looks at the context while it walks.
	s := &stepper{ctx: ctx, max: 1 << 30}
	defer func() {
		if v := recover(); v != errValidationCanceled {
			t.Fatalf("recovered %v", v)
		}
	}()
	for range stepCheck {
		s.step()
	}
	t.Fatal("the stepper did not stop")
}

// TestCostBudget checks Executor.Cost: root fields cost 1 unless priced,
// aliases each count, a list multiplies its selection, fragments count
// where they are spread, and the refusal names the costliest root field.
func TestCostBudget(t *testing.T) {
	ex := budgetExecutor(t, func(e *Executor) {
		e.Cost = Cost{Max: 100, Fields: map[string]int{"Query.products": 10, "Product.related": 3, "Mutation.createProduct": 20}}
	})
	over := func(field string, cost int) string {
		return fmt.Sprintf("the operation costs more than the limit of 100 (%s costs %d a selection, each alias counted): split it into several requests", field, cost)
	}
	aliases := func(n int, sel string) string {
		var b strings.Builder
		b.WriteString("{")
		for i := range n {
			fmt.Fprintf(&b, "a%d:%s ", i, sel)
		}
		return b.String() + "}"
	}
	tests := []struct {
		name, query, wantErr string
	}{
		{name: "ten lists", query: aliases(10, "products{total}")},
		{name: "eleven lists", query: aliases(11, "products{total}"), wantErr: over("products", 10)},
		{name: "a hundred cheap fields", query: aliases(100, "badInt")},
		{name: "a hundred and one", query: aliases(101, "badInt"), wantErr: over("badInt", 1)},
		{name: "a list multiplies", query: "{products{items{related{id}}}}"},                                                                      // 10 + 10*3
		{name: "lists multiply", query: "{products{items{related{related{id}}}}}", wantErr: over("products", 10)},                                 // 10 + 10*(3+10*3)
		{name: "through fragments", query: "{...A ...A} fragment A on Query{" + aliases(6, "products{total}")[1:], wantErr: over("products", 10)}, // 12 lists
		{name: "mutations too", query: "mutation{" + aliases(6, `createProduct(input:{name:"n"}){id}`)[1:], wantErr: over("createProduct", 20)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			checkRefusal(t, ex, tt.query, tt.wantErr)
		})
	}
}

// BenchmarkDocumentBudget measures parsing and validating the hostile
// documents at the default bounds (gqlattack.Worst; the admitted ones are
// the worst the budget lets through), each time from scratch (no cache),
// and the 278 KB chain of issue 20, which the budget refuses while parsing.
func BenchmarkDocumentBudget(b *testing.B) {
	ex := budgetExecutor(b, nil)
	docs := gqlattack.Worst(DefaultMaxFragments, "Query", "badInt", "nested{inner{inner{value}}}")
	docs = append(docs, gqlattack.Doc{Name: "chain of 8,000", Query: gqlattack.Chain(8000, true, "Query", gqlattack.Tail("badInt", 8000))})
	for _, d := range docs {
		b.Run(strings.ReplaceAll(d.Name, " ", "_"), func(b *testing.B) {
			_, refused := ex.Prepare(Request{Query: d.Query})
			if refused != nil {
				b.Logf("refused: %s", refused.Errors[0].Message)
			}
			b.SetBytes(int64(len(d.Query)))
			b.ReportAllocs()
			cpu := cpuTime()
			for b.Loop() {
				ex.Prepare(Request{Query: d.Query})
			}
			// CPU time, garbage collection included: on a shared machine
			// the wall time of ns/op says more about the neighbours.
			b.ReportMetric(float64(cpuTime()-cpu)/float64(b.N)/1e6, "cpu-ms/op")
		})
	}
}

// cpuTime is the process's CPU time so far, user and system.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
