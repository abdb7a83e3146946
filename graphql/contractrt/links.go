package contractrt

import (
	"slices"
	"sync/atomic"

	"github.com/mockgql/mockgql/contract"
	"github.com/mockgql/mockgql/engine"
)

// A link is a list of rows that no foreign key holds (docs/using/
// contract.md, "Relations"): a many-to-many (Film.characterConnection ↔
// Person.filmConnection) or a list of rows with no field back. Its rows
// are chosen from the positions of the two tables' datasets so that both
// sides agree and paging works as on any relation: each side's dataset
// rows are shuffled by an affine permutation of their positions, and row
// a of From and row b of To are linked when their shuffled positions fall
// in the same of K buckets, K being two thirds of the smaller side's rows;
// this is done twice with other shuffles (linkRounds), so that rows of one
// bucket do not share all their links. A row of the smaller side links
// about three rows of the other, a row of the larger side proportionally
// more. Finding a row's links is a walk over its buckets, never a scan. Rows created by mutations have no links
// (nothing in a mutation's input can say which), and a link lists at most
// maxLinkRows rows (the same ones every time).

// maxLinkRows bounds the rows one row's link lists, before paging.
const maxLinkRows = 1000

// ctLink is one link as seen from one of its sides.
type ctLink struct {
	from, to *engine.Table
	// name identifies the link (both sides share it): its fields, in the
	// order of the plan's relation.
	name string
	// reverse is true on the To side of the plan's relation: the bucket
	// arithmetic always runs from the relation's From side.
	reverse bool
	// perms are the shuffles of the last sizes asked (linkShuffles),
	// kept so that a row's links do not hash the link's names again.
	perms atomic.Pointer[linkPerms]
}

// linkPerms are a link's shuffles for one pair of table sizes: per
// round, the From side's and the To side's.
type linkPerms struct {
	a, b int64
	p    [linkRounds][2]perm
}

// shuffles returns the link's shuffles for tables of a and b rows (the
// relation's From and To sides). Safe for concurrent use.
func (l *ctLink) shuffles(seed uint64, a, b int64) *linkPerms {
	if lp := l.perms.Load(); lp != nil && lp.a == a && lp.b == b {
		return lp
	}
	lp := &linkPerms{a: a, b: b}
	for round := range linkRounds {
		name := l.name + "|" + string(rune('0'+round))
		lp.p[round] = [2]perm{newPerm(seed, name+"|from", a), newPerm(seed, name+"|to", b)}
	}
	l.perms.Store(lp)
	return lp
}

// contractLinks returns the links of plan by "Type.field", both sides of a
// many-to-many.
func contractLinks(plan *contract.Plan, tables map[string]*engine.Table) map[string]*ctLink {
	out := map[string]*ctLink{}
	for _, r := range plan.Relations {
		from, to := tables[r.From], tables[r.To]
		if !r.Many || from == nil || to == nil {
			continue // to-one relations are the model's (contract.Build)
		}
		name := r.From + "." + r.FromField + "|" + r.To + "." + r.ToField
		out[r.From+"."+r.FromField] = &ctLink{from: from, to: to, name: name}
		if r.ToField != "" && r.ToMany {
			out[r.To+"."+r.ToField] = &ctLink{from: to, to: from, name: name, reverse: true}
		}
	}
	return out
}

// linked returns the view of the link's target table and the rows it
// lists for row r of src (the view of the link's own table), in storage
// order, deleted rows left out, appended to buf (a caller's scratch, may
// be nil).
func (rt *Runtime) linked(l *ctLink, src *engine.TableView, r int32, buf []int32) (*engine.TableView, []int32) {
	dst := src.View.TableView(l.to)
	if r >= src.N || src.NotReady != nil || dst.NotReady != nil || dst.NoRows || !src.InTable(r) {
		return dst, buf
	}
	a, b := src, dst // a is the relation's From side
	if l.reverse {
		a, b = dst, src
	}
	// Two rounds of buckets, each with its own shuffles, so that rows
	// sharing one bucket do not share all their links.
	k := int64(max(1, 2*min(a.N, b.N)/3))
	lp := l.shuffles(rt.seed, int64(a.N), int64(b.N))
	out := buf
	for round := range linkRounds {
		pa, pb := lp.p[round][0], lp.p[round][1]
		mine, theirs := pa, pb
		if l.reverse {
			mine, theirs = pb, pa
		}
		for pos := mine.at(int64(r)) % k; pos < theirs.n && len(out) < maxLinkRows; pos += k {
			row := int32(theirs.inverse(pos))
			if !dst.InTable(row) {
				continue
			}
			if rec := dst.Record(row); rec != nil && rec.Deleted {
				continue
			}
			out = append(out, row)
		}
	}
	slices.Sort(out)
	out = slices.Compact(out)
	return dst, out
}

// linkRounds is how many bucketings a link's rows are paired by.
const linkRounds = 2

// perm is an affine permutation of the positions 0..n-1: i ↦ (m·i + c) mod n.
type perm struct{ n, m, c, inv int64 }

// newPerm returns the permutation of n positions that seed and name choose.
func newPerm(seed uint64, name string, n int64) perm {
	if n <= 1 {
		return perm{n: n, m: 1, inv: 1}
	}
	h := mix(seed, name)
	m := int64(h%uint64(n)) | 1
	for gcd(m, n) != 1 {
		m = (m + 2) % n
		if m == 0 {
			m = 1
		}
	}
	return perm{n: n, m: m, c: int64((h >> 32) % uint64(n)), inv: modInverse(m, n)}
}

func (p perm) at(i int64) int64 { return (p.m*i + p.c) % p.n }

func (p perm) inverse(j int64) int64 { return ((j - p.c + p.n) % p.n) * p.inv % p.n }

func gcd(a, b int64) int64 {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// modInverse returns x with a·x ≡ 1 (mod n), for a coprime to n.
func modInverse(a, n int64) int64 {
	t, nt, r, nr := int64(0), int64(1), n, a%n
	for nr != 0 {
		q := r / nr
		t, nt = nt, t-q*nt
		r, nr = nr, r-q*nr
	}
	if t < 0 {
		t += n
	}
	return t
}
