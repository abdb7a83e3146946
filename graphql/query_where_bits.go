package graphql

import (
	"github.com/mockgql/mockgql/model"
)

// This file turns the per-row part of a where filter (or, not, nin and
// what lies under them) into bitset algebra over the dataset's column
// indexes: predicates become position ranges of the column Orders (or
// n-gram candidates for like), and becomes AND, or OR, not a complement.
// The bits are right for dataset rows the overlay did not change; the
// caller checks changed and created rows on their live values.

// whereBits returns the bitset of the base rows that satisfy n, or ok
// false when some predicate has no built index (the caller checks each
// row instead). The caller puts the bitset back with putBits.
func (tv *tableView) whereBits(n *whereNode) (*rowBits, bool) {
	if !tv.whereIndexable(n) {
		return nil, false
	}
	return tv.nodeBits(n), true
}

// whereIndexable reports whether every predicate under n has a built
// index. It asks about all of them, so that the missing indexes all start
// building in the background at once.
func (tv *tableView) whereIndexable(n *whereNode) bool {
	if n == nil {
		return true
	}
	ok := tv.predsIndexable(n.preds)
	ok = tv.predsIndexable(n.nin) && ok
	for _, list := range [][]*whereNode{n.and, n.or, {n.not}} {
		for _, c := range list {
			ok = tv.whereIndexable(c) && ok
		}
	}
	return ok
}

func (tv *tableView) predsIndexable(preds []predicate) bool {
	ok := true
	for i := range preds {
		ok = tv.indexable(&listQuery{preds: preds[i : i+1]}) && ok
	}
	return ok
}

func (tv *tableView) words() int { return (int(tv.n) + 63) / 64 }

// allBits returns a bitset holding rows 0..n-1.
func (tv *tableView) allBits() *rowBits {
	b := getBits(tv.words())
	for i := range b.w {
		b.w[i] = ^uint64(0)
	}
	tv.trim(b.w)
	return b
}

// trim clears the bits past row n-1.
func (tv *tableView) trim(w []uint64) {
	if rem := int(tv.n) & 63; rem != 0 && len(w) > 0 {
		w[len(w)-1] &= (1 << uint(rem)) - 1
	}
}

func (tv *tableView) nodeBits(n *whereNode) *rowBits {
	acc := tv.allBits()
	for i := range n.preds {
		tmp := tv.predBits(&n.preds[i])
		andWords(acc.w, tmp.w)
		putBits(tmp)
	}
	for i := range n.nin {
		tmp := tv.ninBits(&n.nin[i])
		andWords(acc.w, tmp.w)
		putBits(tmp)
	}
	for _, c := range n.and {
		tmp := tv.nodeBits(c)
		andWords(acc.w, tmp.w)
		putBits(tmp)
	}
	if n.hasOr {
		any := getBits(tv.words())
		for _, c := range n.or {
			tmp := tv.nodeBits(c)
			orWords(any.w, tmp.w)
			putBits(tmp)
		}
		andWords(acc.w, any.w)
		putBits(any)
	}
	if n.not != nil {
		tmp := tv.nodeBits(n.not)
		andNotWords(acc.w, tmp.w)
		putBits(tmp)
	}
	return acc
}

// predBits is the bitset of the rows whose base value satisfies pr.
func (tv *tableView) predBits(pr *predicate) *rowBits {
	if pr.attr.mapping == model.MappingConstant {
		if pr.match(pr.attr.constant) {
			return tv.allBits()
		}
		return getBits(tv.words())
	}
	b := getBits(tv.words())
	tv.addPredicate(b.w, pr)
	return b
}

// ninBits is the bitset of nin: values of the kind of one of its values,
// less those equal to one of them.
func (tv *tableView) ninBits(pr *predicate) *rowBits {
	if pr.attr.mapping == model.MappingConstant {
		if ninMatch(pr, pr.attr.constant) {
			return tv.allBits()
		}
		return getBits(tv.words())
	}
	b := getBits(tv.words())
	ord := tv.ds.Order(pr.attr.path)
	seen := map[int]bool{}
	for _, v := range pr.args {
		if k := int(v.Kind); !seen[k] && isScalarArg(v) {
			seen[k] = true
			lo, hi := ord.Section(v.Kind)
			ord.AddRange(b.w, lo, hi)
		}
	}
	in := getBits(tv.words())
	tv.addPredicate(in.w, pr)
	andNotWords(b.w, in.w)
	putBits(in)
	return b
}

func orWords(dst, a []uint64) {
	a = a[:len(dst)]
	for i := range dst {
		dst[i] |= a[i]
	}
}
