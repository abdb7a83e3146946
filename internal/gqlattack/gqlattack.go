// Package gqlattack builds the hostile GraphQL documents that the document
// budget (graphql/exec/validate_budget.go) is measured against: fragment
// chains, stars and trees, used and unused, with fields that overlap
// across fragments. Tests, fuzz seeds and cmd/benchmark share them.
package gqlattack

import (
	"fmt"
	"strings"
)

// Sel returns the selection of fragment i.
type Sel func(i int) string

// Leaf selects field under alias k{i/share}: share fragments in a row
// select the same response key, which the validator compares pairwise.
func Leaf(field string, share int) Sel {
	return func(i int) string { return fmt.Sprintf("k%d:%s", i/share, field) }
}

// Fields selects per copies of sel's selection for fragment i, each
// aliased apart (k<i>_<j>) unless sel already aliases.
func Fields(field string, per int) Sel {
	return func(i int) string {
		var b strings.Builder
		for j := 0; j < per; j++ {
			fmt.Fprintf(&b, "k%d_%d:%s ", i, j, field)
		}
		return b.String()
	}
}

// Tail selects field in fragment n-1 only: Chain(n, used, typ, Tail(f,
// n)) is the chain of issue 20, whose fragments but the last only spread
// the next, so that the operation selects a single field.
func Tail(field string, n int) Sel {
	return func(i int) string {
		if i == n-1 {
			return field
		}
		return ""
	}
}

// Chain is `query{...F0} fragment F0 on typ{sel(0) ...F1} … fragment
// F<n-1> on typ{sel(n-1)}`: the validator walks each fragment on its own
// into all those after it. Unused, the operation selects __typename and
// spreads nothing, so every fragment is unused.
func Chain(n int, used bool, typ string, sel Sel) string {
	var b strings.Builder
	if used {
		b.WriteString("query{...F0}")
	} else {
		b.WriteString("query{__typename}")
	}
	for i := 0; i < n; i++ {
		next := ""
		if i+1 < n {
			next = fmt.Sprintf(" ...F%d", i+1)
		}
		fmt.Fprintf(&b, "\nfragment F%d on %s{%s%s}", i, typ, sel(i), next)
	}
	return b.String()
}

// Star is `{...F0 … ...F<n-1>}` with each fragment selecting sel(i): the
// validator compares every pair of fragments spread in one selection.
func Star(n int, typ string, sel Sel) string {
	var b strings.Builder
	b.WriteString("{")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "...F%d ", i)
	}
	b.WriteString("}")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "\nfragment F%d on %s{%s}", i, typ, sel(i))
	}
	return b.String()
}

// Tree is a binary tree of n fragments, F<i> spreading F<2i+1> and
// F<2i+2>, each also selecting sel(i).
func Tree(n int, typ string, sel Sel) string {
	var b strings.Builder
	b.WriteString("{...F0}")
	for i := 0; i < n; i++ {
		spreads := ""
		for _, c := range []int{2*i + 1, 2*i + 2} {
			if c < n {
				spreads += fmt.Sprintf(" ...F%d", c)
			}
		}
		fmt.Fprintf(&b, "\nfragment F%d on %s{%s%s}", i, typ, sel(i), spreads)
	}
	return b.String()
}

// Doc is a named document.
type Doc struct{ Name, Query string }

// Worst returns the hostile documents of n fragments on type typ, whose
// leaf is a scalar field of typ and nested a selection of typ with a
// sub-selection (e.g. `nested{inner{value}}`): chains, stars and trees
// with fields that overlap across fragments as much as the same-key bound
// lets them (100), used and unused. With n at the fragment bound they are
// the worst documents the budget admits, or close to its refusals.
func Worst(n int, typ, leaf, nested string) []Doc {
	return []Doc{
		{"chain, shared keys", Chain(n, true, typ, Leaf(leaf, 100))},
		{"chain, shared nested keys", Chain(n, true, typ, Leaf(nested, 100))},
		{"chain, unused", Chain(n, false, typ, Leaf(nested, 100))},
		{"chain of spreads", Chain(n, true, typ, Tail(leaf, n))},
		{"chain of spreads, unused", Chain(n, false, typ, Tail(leaf, n))},
		{"chain, two fields each", Chain(n, true, typ, Fields(leaf, 2))},
		{"star, shared nested keys", Star(n, typ, Leaf(nested, 100))},
		{"star, distinct keys", Star(n, typ, Fields(leaf, max(1, 900/n)))},
		{"tree, shared nested keys", Tree(n, typ, Leaf(nested, 100))},
	}
}
