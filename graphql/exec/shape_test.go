package exec

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"
)

// shapeTemplates are documents whose %I (Int), %F (Float), %S (string),
// %D (Int or string), %L (small Int) and %B (block string text) a test
// fills with literals of every kind, valid and not.
var shapeTemplates = []string{
	`{ echo(i: %I, f: %F, s: %S, id: %D) }`,
	`{ echo(i: %I) fail(code: %S) }`,
	"{\n  echo(s: %S,\n    i: %I) fail(code: %S)\n  # a comment %S\n  products(page: %I) { total page pageSize }\n}",
	`query Q { products(page: %I, pageSize: %I) { total page pageSize items { id sizes(limit: %L) } } }`,
	`{ echo(input: {name: %S, price: %F, tags: [%S, %S]}, ints: [%I, %I]) }`,
	`{ a: echo(i: %I) a: echo(i: %I) }`,
	`{ echo(e: DESC, s: %S) @include(if: true) x: echo(one: {a: %I}) @skip(if: false) }`,
	`{ echo(s: %I) }`,
	`{ echo(i: %F, f: %D) }`,
	`{ echo(nested: [[%I], [%I, %I]], ints: %I) }`,
	`{ echo(id: %D, j: {k: %S, n: [%I]}) }`,
	`query($v: Int = %I) { echo(i: $v, f: %F) }`,
	`{ loose(page: %I, other: %S) }`,
	`{ echo(s: """%B""", id: """%B""") }`,
	`{ echo(i: %I) nested { inner { mustFail } } fail(code: %S) }`,
	`{ product(id: %D) { id name sizes(limit: %L) } node(id: %D) { id } }`,
	`{ echo(one: {a: %I, b: %S}) }`,
	`{ echo(input: {name: %S, direction: ASC, legacy: %S}) ...F } fragment F on Query { fail(code: %S) echo(f: %F) }`,
	`{ echo(i: %I) @defer }`,
	`mutation { log(entry: %S) }`,
	`{ echo(i: %I) } query Two { echo(f: %F) }`,
	`{ oldField(old: %I, kept: %I) }`,
	`{ echo(f: %I, id: %I) }`,
	`{ products(category: %F) { total } echo(j: %S, input: {name: %S, meta: %I}) }`,
	`{ products(category: %S, page: %I) { page } x: products(category: %I) { total } }`,
}

var shapeLiterals = map[byte][]string{
	'I': {"0", "1", "-5", "42", "2147483647", "2147483648", "-2147483649", "99999999999999999999", "1.", "12", "-0"},
	'F': {"1.5", "-0.0", "1e10", "1e400", "3", "2.5E-3", "0.1"},
	'S': {`"abc"`, `"a\"b"`, `"\u00e9"`, `"é"`, `""`, `"x\ny"`, `"NOT_FOUND"`, `"BAD_USER_INPUT"`, `"\uD83D\uDE00"`, `"\q"`, `"tab	in"`, "\"a\x01b\""},
	'D': {`"1"`, `"2"`, "3", `"c1"`, `"x"`, "1.5"},
	'L': {"0", "1", "2", "5", "-1"},
	'B': {"abc", "  two\n  lines", `with "quote"`, "\\\"\"\"", ""},
}

// fillShape fills the template's placeholders from rnd, and sometimes
// spaces its tokens differently.
func fillShape(tmpl string, rnd *rand.Rand) string {
	var b strings.Builder
	for i := 0; i < len(tmpl); i++ {
		c := tmpl[i]
		switch {
		case c == '%' && i+1 < len(tmpl):
			vals := shapeLiterals[tmpl[i+1]]
			b.WriteString(vals[rnd.IntN(len(vals))])
			i++
		case c == ' ' && rnd.IntN(8) == 0:
			b.WriteString([]string{"  ", "\n", "\t", ", ", " # note\n"}[rnd.IntN(5)])
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// answer prepares and runs query on ex and returns everything a client
// would see of it: the response JSON, or the refusal's code and errors.
func answer(tb testing.TB, ex *Executor, query string) (out []byte, shaped bool) {
	tb.Helper()
	p, res := ex.Prepare(Request{Query: query, OperationName: opName(query)})
	if res != nil {
		return append([]byte(fmt.Sprintf("refused %s ", res.Code)), res.AppendJSON(nil)...), false
	}
	res, err := p.Execute(context.Background(), nil)
	if err != nil {
		tb.Fatalf("Execute %q: %v", query, err)
	}
	return res.AppendJSON(nil), p.doc.shape != nil
}

// opName picks the operation of a template with two.
func opName(query string) string {
	if strings.Contains(query, "query Two") {
		return "Two"
	}
	return ""
}

// TestShapeDifferential runs thousands of literal documents of a few
// dozen shapes through an executor with its shape cache and one without,
// and requires the same answers byte for byte: the same data, the same
// errors at the same places in each document's own text, the same
// refusals.
func TestShapeDifferential(t *testing.T) {
	t.Parallel()
	rnd := rand.New(rand.NewPCG(33, 2))
	shapedEx := newTestExecutor(t, nil)
	plainEx := newTestExecutorWith(t, nil, func(e *Executor) { e.MaxDepth, e.MaxFields, e.NoShapes = 6, 200, true })
	var shaped, total int
	for round := 0; round < 150; round++ {
		for _, tmpl := range shapeTemplates {
			q := fillShape(tmpl, rnd)
			want, _ := answer(t, plainEx, q)
			got, on := answer(t, shapedEx, q)
			if !bytes.Equal(got, want) {
				t.Fatalf("%q:\nshaped %s\nplain  %s", q, got, want)
			}
			total++
			if on {
				shaped++
			}
		}
	}
	// Most valid texts take the shape's document; the test is void if none do.
	if shaped < total/4 {
		t.Fatalf("%d of %d documents ran on a shape", shaped, total)
	}
	t.Logf("%d of %d documents ran on a shape", shaped, total)
}

// TestShapeSharesDocument: texts of one shape share one parsed and
// validated document and its plans, and only the first text is cached by
// its text.
func TestShapeSharesDocument(t *testing.T) {
	t.Parallel()
	ex := newTestExecutor(t, nil)
	var first *document
	for i := range 200 {
		q := fmt.Sprintf(`{ products(page: %d, pageSize: %d) { total page pageSize } echo(s: "v%d") }`, i, i%7, i)
		p, res := ex.Prepare(Request{Query: q})
		if res != nil {
			t.Fatalf("%s: refused: %s", q, res.AppendJSON(nil))
		}
		out, err := p.Execute(context.Background(), nil)
		if err != nil {
			t.Fatal(err)
		}
		want := fmt.Sprintf(`{"data":{"products":{"total":3,"page":%d,"pageSize":%d},"echo":{"s":"v%d"}}}`, i, i%7, i)
		if got := string(out.AppendJSON(nil)); got != want {
			t.Fatalf("%s:\n got %s\nwant %s", q, got, want)
		}
		if p.Source() != q {
			t.Fatalf("Source() = %q, want %q", p.Source(), q)
		}
		switch {
		case i == 0:
		case first == nil:
			first = p.doc
		case p.doc != first:
			t.Fatalf("text %d has a document of its own", i)
		}
	}
	if n := ex.cache.order.Len(); n != 1 {
		t.Errorf("the text cache holds %d texts, want 1", n)
	}
	if n := ex.shapes.order.Len(); n != 1 {
		t.Errorf("the shape cache holds %d shapes, want 1", n)
	}
}

// FuzzShape compares, for any document, the answer of an executor that
// first saw another text of the document's shape (its digits changed)
// with the answer of an executor without a shape cache.
func FuzzShape(f *testing.F) {
	rnd := rand.New(rand.NewPCG(1, 2))
	for _, tmpl := range shapeTemplates {
		f.Add(fillShape(tmpl, rnd), fillShape(tmpl, rnd))
	}
	shapedEx := newTestExecutor(f, nil)
	plainEx := newTestExecutorWith(f, nil, func(e *Executor) { e.MaxDepth, e.MaxFields, e.NoShapes = 6, 200, true })
	f.Fuzz(func(t *testing.T, first, query string) {
		if len(query) > 4096 || len(first) > 4096 {
			return
		}
		// Each learns its shape; the second is most often query's own.
		shapedEx.Prepare(Request{Query: first, OperationName: opName(first)})
		shapedEx.Prepare(Request{Query: strings.Map(rotateDigit, query), OperationName: opName(query)})
		want, _ := answer(t, plainEx, query)
		got, _ := answer(t, shapedEx, query)
		if !bytes.Equal(got, want) {
			t.Fatalf("after %q, %q:\nshaped %s\nplain  %s", first, query, got, want)
		}
	})
}

// BenchmarkPrepareDistinct prepares texts the text cache has not seen, of
// one shape: on the shape's document, and each parsed and validated.
func BenchmarkPrepareDistinct(b *testing.B) {
	for _, bc := range []struct {
		name     string
		noShapes bool
	}{{"shapes", false}, {"no shapes", true}} {
		b.Run(bc.name, func(b *testing.B) {
			ex := newTestExecutorWith(b, nil, func(e *Executor) { e.NoShapes, e.CacheSize = bc.noShapes, 1 })
			queries := make([]string, 1024)
			for i := range queries {
				queries[i] = fmt.Sprintf(`{ products(page: %d, pageSize: 20, sortDirection: DESC) { total items { id name price } } echo(s: "cat-%d", f: %d.5) }`, i, i%50, i)
			}
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				if _, res := ex.Prepare(Request{Query: queries[i%len(queries)]}); res != nil {
					b.Fatal(res.Errors)
				}
				i++
			}
		})
	}
}

// rotateDigit maps each digit to the next one.
func rotateDigit(r rune) rune {
	if r >= '0' && r <= '9' {
		return '0' + (r-'0'+1)%10
	}
	return r
}

// TestShapeCacheBytes: a client sending 3,000 texts of as many shapes (an
// alias numbers each) fills the shape cache to its bound and no further,
// and the estimate of a shape's bytes is not below what its document, its
// plans and the text cache's document of its first text keep.
func TestShapeCacheBytes(t *testing.T) {
	ex, err := NewExecutor(Executor{Schema: mustLoadSchema(t, cacheSDL)})
	if err != nil {
		t.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	const n = 3000
	for i := 0; i < n; i++ {
		q := fmt.Sprintf(`{ a%d: searchProducts(minPrice: %d, nameLike: "g", sortField: "price", page: %d) { total items { id name price category } } }`, i, i, i%50)
		p, refused := ex.Prepare(Request{Query: q})
		if refused != nil {
			t.Fatal(refused.Errors)
		}
		if _, err := p.Execute(context.Background(), nil); err != nil {
			t.Fatal(err)
		}
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	texts, shapes := ex.cache, ex.shapes
	if shapes.bytes.Load() > ShapeCacheBytes || len(shapes.items) < 300 || texts.bytes.Load() > texts.maxBytes {
		t.Fatalf("shape cache holds %d shapes, %d estimated bytes (bound %d)", len(shapes.items), shapes.bytes.Load(), int64(ShapeCacheBytes))
	}
	kept := int64(after.HeapAlloc) - int64(before.HeapAlloc)
	if est := texts.bytes.Load() + shapes.bytes.Load(); kept > est {
		t.Errorf("the caches keep %d bytes, estimated %d", kept, est)
	}
	t.Logf("%d texts and %d shapes cached: %d bytes kept, estimated %d + %d", len(texts.items), len(shapes.items), kept, texts.bytes.Load(), shapes.bytes.Load())
}
