package exec

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/mockgql/mockgql/model"
)

// boundsSDL is the schema of the bounds tests: a big string, lists that
// fan out, a field that always fails, and a field with arguments.
const boundsSDL = `
type Query { big: String  node: Node  f(a: String): String }
type Node { big: String  fail: String  children: [Node!]! }
`

// boundsExecutor returns an executor of boundsSDL whose big string has
// bigLen bytes and whose nodes have fanOut children each.
func boundsExecutor(tb testing.TB, b Bounds, bigLen, fanOut int) *Executor {
	tb.Helper()
	big := strings.Repeat("x", bigLen)
	type node struct{}
	children := make([]any, fanOut)
	for i := range children {
		children[i] = node{}
	}
	ex, err := NewExecutor(Executor{Schema: mustLoadSchema(tb, boundsSDL), Bounds: b, Resolvers: map[string]Resolver{
		"Query.big":     func(context.Context, *Field) (any, error) { return big, nil },
		"Query.node":    func(context.Context, *Field) (any, error) { return node{}, nil },
		"Node.big":      func(context.Context, *Field) (any, error) { return big, nil },
		"Node.children": func(context.Context, *Field) (any, error) { return children, nil },
		"Node.fail": func(context.Context, *Field) (any, error) {
			return nil, model.Errorf(model.CodeNotReady, "never ready: %s", strings.Repeat("y", 4000))
		},
	}})
	if err != nil {
		tb.Fatal(err)
	}
	return ex
}

// execBounded prepares and executes query on ex, failing on a refusal.
func execBounded(tb testing.TB, ex *Executor, query string) (*Result, error) {
	tb.Helper()
	p, refused := ex.Prepare(Request{Query: query})
	if refused != nil {
		tb.Fatalf("refused: %s", refused.AppendJSON(nil))
	}
	return p.Execute(context.Background(), nil)
}

// aliases returns n aliased copies of sel: a0: sel a1: sel ….
func aliases(n int, sel string) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "a%d: %s ", i, sel)
	}
	return b.String()
}

// TestResponseBounds checks that a response over MaxResponseBytes or
// MaxItems stops with PAYLOAD_TOO_LARGE naming the limit, wherever the
// bytes come from: root aliases, aliases inside one object, list items, or
// one value written last (no field after it to check before).
func TestResponseBounds(t *testing.T) {
	tests := []struct {
		name, query string
		bounds      Bounds
		bigLen      int
		fanOut      int
		wantLimit   int
	}{
		{"root aliases", "{" + aliases(100, "big") + "}", Bounds{MaxResponseBytes: 1 << 20}, 200 << 10, 1, 1 << 20},
		{"aliases in one object", "{ node { " + aliases(100, "big") + "} }", Bounds{MaxResponseBytes: 1 << 20}, 200 << 10, 1, 1 << 20},
		{"list items", "{ node { children { big } } }", Bounds{MaxResponseBytes: 1 << 20}, 10 << 10, 1000, 1 << 20},
		{"one value, the last", "{ big }", Bounds{MaxResponseBytes: 64 << 10}, 100 << 10, 1, 64 << 10},
		{"a last field past the bound", "{ node { fail big } }", Bounds{MaxResponseBytes: 64 << 10}, 100 << 10, 1, 64 << 10},
		{"fan-out items", "{ node { children { children { children { children { big } } } } } }", Bounds{MaxItems: 5000}, 1, 20, 5000},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := execBounded(t, boundsExecutor(t, tt.bounds, tt.bigLen, tt.fanOut), tt.query)
			me := model.AsError(err)
			if res != nil || me == nil || me.Code != model.CodePayloadTooLarge || me.Extra["limit"] != tt.wantLimit {
				t.Fatalf("got %v, %#v; want PAYLOAD_TOO_LARGE with limit %d", res, err, tt.wantLimit)
			}
		})
	}
	t.Run("under the bounds", func(t *testing.T) {
		res, err := execBounded(t, boundsExecutor(t, Bounds{MaxResponseBytes: 1 << 20}, 10<<10, 10), "{ node { children { big } } }")
		if err != nil || len(res.Data) < 100<<10 {
			t.Fatalf("got %v, %d bytes", err, len(res.Data))
		}
	})
}

// TestBudget checks that concurrent executions share the Budget: one that
// cannot take what it needs is refused UNAVAILABLE, and every byte taken
// is given back when executions end.
func TestBudget(t *testing.T) {
	budget := NewBudget(1 << 20)
	ex := boundsExecutor(t, Bounds{Budget: budget}, 1<<10, 600)
	res, err := execBounded(t, ex, "{ node { children { big } } }") // ~600 KB: fits
	if err != nil || len(res.Data) < 600<<10 {
		t.Fatalf("alone: %v", err)
	}
	if budget.InUse() != 0 {
		t.Fatalf("in use after the execution: %d", budget.InUse())
	}
	if !budget.take(budget.Size() - budgetChunk) { // another request holds most of it
		t.Fatal("take")
	}
	_, err = execBounded(t, ex, "{ node { children { big } } }")
	if me := model.AsError(err); me == nil || me.Code != model.CodeUnavailable || me.RetryAfter != 1 {
		t.Fatalf("over the budget: %#v, want UNAVAILABLE", err)
	}
	budget.give(budget.Size() - budgetChunk)
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, _ = execBounded(t, ex, "{ node { children { big } } }")
		}()
	}
	wg.Wait()
	if budget.InUse() != 0 {
		t.Fatalf("in use after concurrent executions: %d", budget.InUse())
	}
}

// TestBudgetHeldUntilWritten: an answer executed with ExecuteHeld keeps
// its bytes of the Budget after execution, in Result.Held, so an answer
// still being written to a slow client leaves less for others (an
// execution that needs more is refused UNAVAILABLE) until it is given
// back; HoldAnswer counts an answer made elsewhere, even past the Budget.
func TestBudgetHeldUntilWritten(t *testing.T) {
	budget := NewBudget(1 << 20)
	ex := boundsExecutor(t, Bounds{Budget: budget}, 1<<10, 600)
	held := func() *Result {
		t.Helper()
		prep, refusal := ex.Prepare(Request{Query: "{ node { children { big } } }"})
		if refusal != nil {
			t.Fatal(refusal.Errors)
		}
		res, err := prep.ExecuteHeld(context.Background(), nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	res := held()
	if res.Held < int64(len(res.Data)-freeBytes) || budget.InUse() != res.Held {
		t.Fatalf("held %d of %d bytes; the budget has %d in use", res.Held, len(res.Data), budget.InUse())
	}
	if _, err := execBounded(t, ex, "{ node { children { big } } }"); model.ErrorCode(err) != model.CodeUnavailable {
		t.Fatalf("while an answer is held: %v; want UNAVAILABLE", err)
	}
	budget.Give(res.Held)
	if _, err := execBounded(t, ex, "{ node { children { big } } }"); err != nil || budget.InUse() != 0 {
		t.Fatalf("once given back: %v, %d in use", err, budget.InUse())
	}
	if n := budget.HoldAnswer(freeBytes); n != 0 {
		t.Fatalf("a small answer held %d bytes", n)
	}
	n := budget.HoldAnswer(3 << 20)
	if n != 3<<20-freeBytes || budget.InUse() != n {
		t.Fatalf("a 3 MB answer made elsewhere held %d; %d in use", n, budget.InUse())
	}
	budget.Give(n)
}

// TestErrorBounds checks that a response carries at most MaxErrors errors
// with clipped messages, the rest summed up in the last one, and that
// validation stops at MaxErrors instead of reporting every conflicting
// pair, and reports a thousand duplicate directives once.
func TestErrorBounds(t *testing.T) {
	ex := boundsExecutor(t, Bounds{MaxErrors: 20}, 1, 500)
	res, err := execBounded(t, ex, "{ node { children { fail } } }")
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Errors) != 20 {
		t.Fatalf("%d errors, want 20", len(res.Errors))
	}
	last := res.Errors[19]
	if last.Extensions["omitted"] != 481 || last.Extensions["code"] != model.CodeNotReady {
		t.Fatalf("last error %+v, want 481 omitted NOT_READY", last)
	}
	if n := len(res.Errors[0].Message); n > MaxMessageBytes+32 {
		t.Fatalf("message of %d bytes not clipped", n)
	}

	var conflicting strings.Builder
	conflicting.WriteString("{")
	for i := range 999 { // a hundred keys, each with ten different arguments
		fmt.Fprintf(&conflicting, ` f%d: f(a: "p%d")`, i%100, i)
	}
	conflicting.WriteString("}")
	dup := "{ big" + strings.Repeat(" @include(if: true)", 1000) + " }"
	tests := []struct {
		name, query string
		want        int
		wantMsg     string
	}{
		{"conflicting fields", conflicting.String(), 20, "validation stopped after 20 errors"},
		{"duplicate directives", dup, 1, "1000 directives in one place exceed the limit of 8"},
		{"one key repeated", "{" + strings.Repeat(` f(a: "p")`, 999) + "}", 1, `more than 100 fields of the selection share the response key "f"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, refused := ex.Prepare(Request{Query: tt.query})
			if refused == nil || len(refused.Errors) != tt.want || !strings.Contains(refused.Errors[tt.want-1].Message, tt.wantMsg) {
				t.Fatalf("got %v, want %d errors, the last saying %q", refused, tt.want, tt.wantMsg)
			}
		})
	}
}
