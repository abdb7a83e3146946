package engine

import (
	"context"
	"math/bits"

	"github.com/mockgql/mockgql/model"
)

// This file evaluates a where filter as bitset algebra over the dataset's
// column indexes, bottom-up: predicates become position ranges of the
// column Orders (or n-gram candidates for like), and is AND, or is OR,
// not is AND NOT. Every node narrows a candidate set (the rows its parent
// still holds), so a predicate whose index is not built yet is checked on
// those candidates only, not on the whole table. The bits are right for
// dataset rows the overlay did not change; the caller leaves changed rows
// out of the candidates and checks the live rows on their live values.

// candidates returns the dataset rows of the table without an overlay
// record: every row, less the variant's others and the changed rows.
func (tv *TableView) candidates() *rowBits {
	b := tv.allBits()
	if tv.member != nil {
		andWords(b.w, tv.member.Words)
	}
	if tv.ov != nil && tv.ov.changed != nil {
		tv.ov.changed.andNotInto(b.w)
	}
	return b
}

func (tv *TableView) words() int { return (int(tv.N) + 63) / 64 }

// allBits returns a bitset holding rows 0..n-1.
func (tv *TableView) allBits() *rowBits {
	b := getDirtyBits(tv.words())
	for i := range b.w {
		b.w[i] = ^uint64(0)
	}
	if rem := int(tv.N) & 63; rem != 0 && len(b.w) > 0 {
		b.w[len(b.w)-1] = (1 << uint(rem)) - 1
	}
	return b
}

// andNode keeps in acc only the rows that satisfy n on their dataset
// values. It stops early with the context's error.
func (tv *TableView) andNode(ctx context.Context, acc []uint64, n *Where) error {
	if err := tv.andPreds(ctx, acc, n.Preds, false); err != nil {
		return err
	}
	if err := tv.andPreds(ctx, acc, n.Nin, true); err != nil {
		return err
	}
	for _, c := range n.And {
		if err := tv.andNode(ctx, acc, c); err != nil {
			return err
		}
	}
	if n.HasOr {
		if err := tv.andOr(ctx, acc, n.Or); err != nil {
			return err
		}
	}
	if b, ok := tv.leafBits(n.Not); ok {
		andNotWords(acc, b.w)
		putBits(b)
	} else if n.Not != nil {
		tmp := getDirtyBits(len(acc))
		defer putBits(tmp)
		copy(tmp.w, acc)
		if err := tv.andNode(ctx, tmp.w, n.Not); err != nil {
			return err
		}
		andNotWords(acc, tmp.w)
	}
	return nil
}

// andOr keeps in acc the rows that satisfy one of list: the union of each
// child evaluated on the candidates no earlier child took.
func (tv *TableView) andOr(ctx context.Context, acc []uint64, list []*Where) error {
	union := getBits(len(acc))
	defer putBits(union)
	tmp := getDirtyBits(len(acc))
	defer putBits(tmp)
	for _, c := range list {
		if b, ok := tv.leafBits(c); ok {
			orAndWords(union.w, acc, b.w)
			putBits(b)
			continue
		}
		copy(tmp.w, acc)
		andNotWords(tmp.w, union.w)
		if err := tv.andNode(ctx, tmp.w, c); err != nil {
			return err
		}
		orWords(union.w, tmp.w)
	}
	andWords(acc, union.w)
	return nil
}

// leafBits returns the bitset of n when n is one indexed condition (the
// usual child of or and not): the caller combines it with its candidates
// in one pass instead of narrowing a copy of them.
func (tv *TableView) leafBits(n *Where) (*rowBits, bool) {
	if n == nil || len(n.And) > 0 || n.HasOr || n.Not != nil || len(n.Preds)+len(n.Nin) != 1 {
		return nil, false
	}
	nin, pr := len(n.Nin) == 1, (*Pred)(nil)
	if nin {
		pr = &n.Nin[0]
	} else {
		pr = &n.Preds[0]
	}
	if !tv.predIndexed(pr) {
		return nil, false
	}
	return tv.predBits(pr, nin), true
}

// andPreds keeps in acc the rows that satisfy every predicate (nin: the
// nin rule): from the index when it is built, else by reading the
// candidates' values.
func (tv *TableView) andPreds(ctx context.Context, acc []uint64, preds []Pred, nin bool) error {
	for i := range preds {
		pr := &preds[i]
		if tv.predIndexed(pr) {
			b := tv.predBits(pr, nin)
			andWords(acc, b.w)
			putBits(b)
			continue
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		for w, word := range acc {
			for word != 0 {
				r := w<<6 + bits.TrailingZeros64(word)
				v := tv.base(pr.Attr, int32(r))
				if ok := (nin && ninMatch(pr, v)) || (!nin && pr.match(v)); !ok {
					acc[w] &^= 1 << (uint(r) & 63)
				}
				word &= word - 1
			}
		}
	}
	return nil
}

// predIndexed reports whether pr is answered by a built index (or is on a
// constant); it starts building a missing one in the background.
func (tv *TableView) predIndexed(pr *Pred) bool {
	a := pr.Attr
	switch {
	case a == nil:
		return false
	case a.Mapping == model.MappingConstant:
		return true
	case pr.Op == model.OpLike:
		return tv.hasColumn(a) && tv.ds.GramsReady(a.Path) != nil
	}
	return tv.hasOrder(a)
}

// predBits is the bitset of the rows whose base value satisfies pr (nin:
// the nin rule). pr must be indexed.
func (tv *TableView) predBits(pr *Pred, nin bool) *rowBits {
	if pr.Attr.Mapping == model.MappingConstant {
		if ok := (nin && ninMatch(pr, pr.Attr.constant)) || (!nin && pr.match(pr.Attr.constant)); ok {
			return tv.allBits()
		}
		return getBits(tv.words())
	}
	b := getBits(tv.words())
	if !nin {
		tv.addPredicate(b.w, pr)
		return b
	}
	// nin: the values of the kind of one of its values, less the in rows.
	ord := tv.ds.Order(pr.Attr.Path)
	seen := map[int]bool{}
	for _, v := range pr.Args {
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

// orAndWords is dst |= a & b.
func orAndWords(dst, a, b []uint64) {
	a, b = a[:len(dst)], b[:len(dst)]
	for i := range dst {
		dst[i] |= a[i] & b[i]
	}
}

func orWords(dst, a []uint64) {
	a = a[:len(dst)]
	for i := range dst {
		dst[i] |= a[i]
	}
}
