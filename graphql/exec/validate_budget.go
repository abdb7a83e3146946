package exec

import (
	"context"
	"errors"
	"fmt"
	"runtime"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
	"github.com/vektah/gqlparser/v2/parser"
	"github.com/vektah/gqlparser/v2/validator/core"

	"github.com/mockgql/mockgql/model"
)

// DocumentBounds limit what a request's document may make the parser and
// gqlparser's validator do, whoever sends it. The validator walks each
// fragment definition on its own, into every fragment it spreads, and
// compares fragments pairwise (OverlappingFieldsCanBeMerged), so its work
// grows with the square of a document's fragments: a chain of 8,000 took
// 47 CPU seconds and a gigabyte. These bounds are checked in linear
// passes right after parsing (the tokens during it), before the validator
// runs, and the validator itself stops past walkSteps × MaxWalk steps or
// at the request's deadline. Zero fields take the defaults.
type DocumentBounds struct {
	// MaxTokens limits the lexical tokens of a document (names, values,
	// punctuation, comments; a string is one): the parser stops at the
	// limit, so the syntax tree of a refused document is never built.
	// 0 means DefaultMaxTokens.
	MaxTokens int
	// MaxFragments limits the fragment definitions of a document, used or
	// not. 0 means DefaultMaxFragments.
	MaxFragments int
	// MaxSpreads limits the fragment spreads (...Name) written in a
	// document, in its operations and fragments together, each counted
	// once where it is written. 0 means DefaultMaxSpreads.
	MaxSpreads int
	// MaxWalk limits the fields the validator walks: those of each
	// operation and each fragment definition (the validator walks every
	// one on its own), after expanding their fragments. A chain of
	// fragments makes it quadratic. 0 means DefaultMaxWalk.
	MaxWalk int
}

// Default document bounds. Generated clients (Apollo, Relay, codegen)
// send dozens of fragments and a few thousand tokens (graphql-java's
// parser stops at 15,000 tokens too); a Relay-style document of 100
// fragments nested 5 deep over 1,000 fields walks about 6,000 fields.
// Under these bounds the worst documents found parse and validate in
// 10-13 ms of CPU and 3.4 MB (docs/incoming/budget.md,
// BenchmarkDocumentBudget).
const (
	DefaultMaxTokens    = 15_000
	DefaultMaxFragments = 128
	DefaultMaxSpreads   = 1_024
	DefaultMaxWalk      = 20_000
)

// walkSteps is how many steps the validator may take (stepper) per field
// of MaxWalk: it also visits spreads, directives and argument values. It
// is the backstop behind the linear checks, which keep documents far
// below it.
const walkSteps = 8

// withDefaults fills the zero fields of b.
func (b DocumentBounds) withDefaults() DocumentBounds {
	def := func(v *int, d int) {
		if *v <= 0 {
			*v = d
		}
	}
	def(&b.MaxTokens, DefaultMaxTokens)
	def(&b.MaxFragments, DefaultMaxFragments)
	def(&b.MaxSpreads, DefaultMaxSpreads)
	def(&b.MaxWalk, DefaultMaxWalk)
	return b
}

// parseBounded parses query, stopping at b.MaxTokens tokens. A document
// over the limit is refused GRAPHQL_VALIDATION_FAILED, as the other
// bounds are; any other failure GRAPHQL_PARSE_FAILED.
func (b DocumentBounds) parseBounded(query string) (*ast.QueryDocument, *Result) {
	doc, err := parser.ParseQueryWithTokenLimit(&ast.Source{Input: query}, b.MaxTokens)
	if err == nil {
		return doc, nil
	}
	gerr := asGQLError(err)
	if gerr.Message == fmt.Sprintf("exceeded token limit of %d", b.MaxTokens) {
		return nil, refuse(model.CodeValidateFailed, &gqlerror.Error{
			Message: fmt.Sprintf("the document has more than the limit of %d tokens", b.MaxTokens)})
	}
	return nil, refuse(model.CodeParseFailed, gerr)
}

// checkDocument returns an error for a document over b's fragment or
// spread bounds, one that spreads a fragment it does not define, or one
// whose fragments spread one another in a cycle: validation would refuse
// the last two anyway, and refusing them here lets the limits that follow
// (checkLimits) count every spread as at least one field. It looks at
// each selection once, without entering spreads, so it is linear in the
// document.
func (b DocumentBounds) checkDocument(doc *ast.QueryDocument) *gqlerror.Error {
	if n := len(doc.Fragments); n > b.MaxFragments {
		return limitErrorAt(doc.Fragments[b.MaxFragments].Position,
			fmt.Sprintf("the document defines %d fragments, over the limit of %d", n, b.MaxFragments))
	}
	c := &spreadCounter{max: b.MaxSpreads, defs: make(map[string]*ast.FragmentDefinition, len(doc.Fragments))}
	for _, f := range doc.Fragments {
		if c.defs[f.Name] == nil {
			c.defs[f.Name] = f
		}
	}
	c.edges = make(map[string][]string, len(c.defs))
	for _, op := range doc.Operations {
		if err := c.selectionSet("", op.SelectionSet); err != nil {
			return err
		}
	}
	for _, f := range doc.Fragments {
		if err := c.selectionSet(f.Name, f.SelectionSet); err != nil {
			return err
		}
	}
	return c.cycle(doc.Fragments)
}

// spreadCounter counts the spreads of a document and records which
// fragments each fragment spreads.
type spreadCounter struct {
	max, n int
	defs   map[string]*ast.FragmentDefinition
	edges  map[string][]string // fragment name -> the names it spreads
}

func (c *spreadCounter) selectionSet(from string, set ast.SelectionSet) *gqlerror.Error {
	for _, sel := range set {
		var err *gqlerror.Error
		switch s := sel.(type) {
		case *ast.Field:
			err = c.selectionSet(from, s.SelectionSet)
		case *ast.InlineFragment:
			err = c.selectionSet(from, s.SelectionSet)
		case *ast.FragmentSpread:
			err = c.spread(from, s)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

func (c *spreadCounter) spread(from string, s *ast.FragmentSpread) *gqlerror.Error {
	if c.n++; c.n > c.max {
		return limitErrorAt(s.Position, fmt.Sprintf("the document has more than the limit of %d fragment spreads", c.max))
	}
	if c.defs[s.Name] == nil {
		return limitErrorAt(s.Position, fmt.Sprintf("Unknown fragment %q.", model.Clip(s.Name, 64)))
	}
	if from != "" {
		c.edges[from] = append(c.edges[from], s.Name)
	}
	return nil
}

// cycle returns an error for a fragment that spreads itself, directly or
// through others: a depth-first search over the spreads, linear in them,
// from each of frags in document order (so the error is always the same).
func (c *spreadCounter) cycle(frags ast.FragmentDefinitionList) *gqlerror.Error {
	const (
		unseen = iota
		open
		done
	)
	state := make(map[string]int, len(c.edges))
	var visit func(name string) string
	visit = func(name string) string {
		state[name] = open
		for _, next := range c.edges[name] {
			switch state[next] {
			case open:
				return next
			case unseen:
				if got := visit(next); got != "" {
					return got
				}
			}
		}
		state[name] = done
		return ""
	}
	for _, f := range frags {
		name := f.Name
		if state[name] != unseen {
			continue
		}
		if got := visit(name); got != "" {
			return limitErrorAt(c.defs[got].Position, fmt.Sprintf("Cannot spread fragment %q within itself.", model.Clip(got, 64)))
		}
	}
	return nil
}

// stepper counts the validator's visits and stops its walk (panicking
// with errValidationBudget or errValidationCanceled, which validate
// recovers) past max steps or once ctx is done, looked at every
// stepCheck steps.
type stepper struct {
	ctx       context.Context
	steps     int
	max       int
	cancelled bool
}

// stepCheck is how many steps the validator takes between looks at the
// request's context.
const stepCheck = 1024

func (s *stepper) step() {
	s.steps++
	if s.steps > s.max {
		panic(errValidationBudget)
	}
	if s.steps%stepCheck == 0 && s.ctx.Err() != nil {
		s.cancelled = true
		panic(errValidationCanceled)
	}
}

// observe registers s with the walker's events.
func (s *stepper) observe(o *core.Events) {
	o.OnField(func(*core.Walker, *ast.Field) { s.step() })
	o.OnFragmentSpread(func(*core.Walker, *ast.FragmentSpread) { s.step() })
	o.OnInlineFragment(func(*core.Walker, *ast.InlineFragment) { s.step() })
	o.OnDirective(func(*core.Walker, *ast.Directive) { s.step() })
	o.OnValue(func(*core.Walker, *ast.Value) { s.step() })
}

// errValidationBudget and errValidationCanceled unwind the validator's
// walk past its steps, or once the request's context is done.
var (
	errValidationBudget   = errors.New("graphql: validation over its budget")
	errValidationCanceled = errors.New("graphql: validation canceled")
)

// validateSlots bounds the documents parsed and validated at once in the
// process, each holding its syntax tree and the validator's memos: the
// work is CPU-bound, so more at once than there are processors only
// multiplies the memory held. A request waits for a slot within its
// context.
var validateSlots = make(chan struct{}, max(2, runtime.GOMAXPROCS(0)))

// acquireSlot waits for a validation slot until ctx is done; it returns
// false when ctx ended first.
func acquireSlot(ctx context.Context) bool {
	select {
	case validateSlots <- struct{}{}:
		return true
	default:
	}
	select {
	case validateSlots <- struct{}{}:
		return true
	case <-ctx.Done():
		return false
	}
}

func releaseSlot() { <-validateSlots }

// ValidationSlot waits, until ctx is done, for one of the slots in which
// the process parses and validates GraphQL documents, for other work of
// the same kind: an imported schema's parsing and validation (package
// contract) shares them, so hostile schemas and hostile queries together
// hold at most that many processors. It returns the release, to call
// once, and false (and no release) when ctx ended first.
func ValidationSlot(ctx context.Context) (release func(), ok bool) {
	if !acquireSlot(ctx) {
		return nil, false
	}
	return releaseSlot, true
}

// timedOut is the refusal of a request whose context ended before its
// document was validated: QUERY_TIMEOUT, never cached.
func timedOut() *Result {
	return refuse(model.CodeQueryTimeout, &gqlerror.Error{
		Message: "the document could not be validated within the request's time limit; retry"})
}

// checkSameKeys returns an error for the first selection of doc where more
// than MaxSameKey fields share a response key, counting the fields its
// inline fragments and spreads bring to the same level: the validator
// compares all of them pairwise (OverlappingFieldsCanBeMerged), so ten
// inline fragments of a hundred same-key fields cost it half a million
// comparisons (checkSelections only sees one selection set at a time).
// Each fragment's level is counted once (memoized) and merged into every
// level that spreads it; the merges are counted against MaxWalk,
// which checkLimits has bounded by MaxWalk: every merge is of fields that
// count in the walk of the operation or fragment that spreads them.
func (b DocumentBounds) checkSameKeys(doc *ast.QueryDocument) *gqlerror.Error {
	k := &keyCounter{doc: doc, max: b.MaxWalk, memo: make(map[string]map[string]int)}
	for _, op := range doc.Operations {
		if err := k.check(op.SelectionSet); err != nil {
			return err
		}
	}
	for _, f := range doc.Fragments {
		if _, err := k.fragment(f.Name); err != nil {
			return err
		}
		if err := k.over(); err != nil {
			return err
		}
		if err := k.below(f.SelectionSet); err != nil {
			return err
		}
	}
	return nil
}

// keyCounter counts the fields of each level of a document by response key.
type keyCounter struct {
	doc        *ast.QueryDocument
	steps, max int
	memo       map[string]map[string]int // fragment name -> its level's counts
	at         *ast.Field                // a field over the limit, for the error
}

// check counts the level of set, then the levels below it, not entering
// spreads (their fragments are checked as definitions).
func (k *keyCounter) check(set ast.SelectionSet) *gqlerror.Error {
	if len(set) == 0 {
		return nil
	}
	counts := make(map[string]int)
	if err := k.level(set, counts); err != nil {
		return err
	}
	if err := k.over(); err != nil {
		return err
	}
	return k.below(set)
}

// over returns the error for the field over the limit that level met, if any.
func (k *keyCounter) over() *gqlerror.Error {
	if k.at == nil {
		return nil
	}
	return limitErrorAt(k.at.Position, fmt.Sprintf("more than %d fields of the selection share the response key %q, counting its fragments",
		MaxSameKey, model.Clip(k.at.Alias, 64)))
}

// below checks the sub-selections of set's fields and inline fragments.
func (k *keyCounter) below(set ast.SelectionSet) *gqlerror.Error {
	for _, sel := range set {
		var err *gqlerror.Error
		switch s := sel.(type) {
		case *ast.Field:
			err = k.check(s.SelectionSet)
		case *ast.InlineFragment:
			err = k.below(s.SelectionSet)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// level adds the fields of set's level to counts, through inline
// fragments and spreads; it records the first field over the limit in k.at.
func (k *keyCounter) level(set ast.SelectionSet, counts map[string]int) *gqlerror.Error {
	for _, sel := range set {
		switch s := sel.(type) {
		case *ast.Field:
			if k.add(counts, s.Alias, 1) && k.at == nil {
				k.at = s
			}
		case *ast.InlineFragment:
			if err := k.level(s.SelectionSet, counts); err != nil {
				return err
			}
		case *ast.FragmentSpread:
			frag, err := k.fragment(s.Name)
			if err != nil {
				return err
			}
			over := "" // the least key over the limit, for an error that is always the same
			for key, n := range frag {
				if k.steps++; k.steps > k.max {
					return limitErrorAt(s.Position, fmt.Sprintf("validation of the document takes more than the limit of %d steps: use fewer fragments, or spread them less", k.max))
				}
				if k.add(counts, key, n) && (over == "" || key < over) {
					over = key
				}
			}
			if over != "" && k.at == nil {
				k.at = k.fieldOf(s.Name, over)
			}
		}
	}
	return nil
}

// add adds n fields of key to counts (saturating above the limit) and
// reports whether that takes key over the limit.
func (k *keyCounter) add(counts map[string]int, key string, n int) bool {
	c := min(counts[key]+n, MaxSameKey+1)
	counts[key] = c
	return c > MaxSameKey
}

// fragment returns the counts of the level of the fragment named name.
func (k *keyCounter) fragment(name string) (map[string]int, *gqlerror.Error) {
	if got, ok := k.memo[name]; ok {
		return got, nil
	}
	counts := make(map[string]int)
	k.memo[name] = counts // a cycle (refused before) adds nothing
	if f := k.doc.Fragments.ForName(name); f != nil {
		if err := k.level(f.SelectionSet, counts); err != nil {
			return nil, err
		}
	}
	return counts, nil
}

// fieldOf returns a field of key in the level of fragment name, for the
// error's location.
func (k *keyCounter) fieldOf(name, key string) *ast.Field {
	if f := k.doc.Fragments.ForName(name); f != nil {
		for _, sel := range f.SelectionSet {
			if fd, ok := sel.(*ast.Field); ok && fd.Alias == key {
				return fd
			}
		}
	}
	return &ast.Field{Alias: key}
}

// TimeoutError returns the error to answer for a refusal of
// PrepareContext whose context ended (Code model.CodeQueryTimeout): 503
// QUERY_TIMEOUT with Retry-After, as a query that runs out of time. It
// returns nil for any other refusal, which is answered as it is (400).
func TimeoutError(refused *Result) error {
	if refused == nil || refused.Code != model.CodeQueryTimeout {
		return nil
	}
	return &model.Error{Code: model.CodeQueryTimeout, Message: "the document could not be validated within the time limit; retry", RetryAfter: 1}
}
