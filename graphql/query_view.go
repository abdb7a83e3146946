package graphql

import (
	"strconv"
	"sync"
	"weak"

	"github.com/mockgql/mockgql/dataset"
	"github.com/mockgql/mockgql/engine"
	"github.com/mockgql/mockgql/model"
)

// Pool gives the datasets of the data pool. Dataset returns nil when the
// import code is unknown. It must be safe for concurrent use.
type Pool interface {
	Dataset(importCode string) *dataset.Dataset
}

// view is what one request reads: the pool, one overlay snapshot, and the
// table views built from them on first use. It is the root value of
// queries; every row object points to a table view of it.
type view struct {
	cache engine.CacheView
	reach *sparseReach
	pool  Pool
	ov    *engine.Overlay      // for cache keys; may be nil
	st    *engine.OverlayState // the snapshot read
	// cacheable is false for the private states of a running mutation,
	// which must not enter the shared cache.
	cacheable bool

	mu sync.Mutex
	// tables are the table views built so far; a request reads few
	// tables, so a short list, first backed by tablesBuf, beats a map.
	tables    []*tableView
	tablesBuf [4]*tableView
}

func newView(cache engine.CacheView, reach *sparseReach, pool Pool, ov *engine.Overlay, st *engine.OverlayState, cacheable bool) *view {
	v := &view{}
	v.init(cache, reach, pool, ov, st, cacheable)
	return v
}

// init makes v, zero, a view (so that a caller may hold one by value).
func (v *view) init(cache engine.CacheView, reach *sparseReach, pool Pool, ov *engine.Overlay, st *engine.OverlayState, cacheable bool) {
	v.cache, v.reach, v.pool, v.ov, v.st, v.cacheable = cache, reach, pool, ov, st, cacheable
	v.tables = v.tablesBuf[:0]
}

// tableView binds a table to its dataset and overlay records for one view.
// It is immutable once built and safe for concurrent use.
type tableView struct {
	v  *view
	t  *table
	ds *dataset.Dataset // nil when the table is not ready
	n  int32            // dataset rows; created rows are numbered from n
	// cols are the leaf columns of SOURCE attributes by attribute index; nil
	// for other attributes and for paths that name an object.
	cols      []*dataset.Column
	colsBuf   [8]*dataset.Column // backs cols for the usual tables
	idPath    string             // "" = positional ids
	idCol     *dataset.Column
	idNumeric bool // dataset ids are numbers: created ids are numbers too
	ov        *tableOverlay
	member    *engine.Bitset // variant rows; nil = all rows
	noRows    bool           // the variant is unknown or empty
	notReady  error
}

// tableView returns the view of t, building it on first use.
func (v *view) tableView(t *table) *tableView {
	v.mu.Lock()
	defer v.mu.Unlock()
	for _, tv := range v.tables {
		if tv.t == t {
			return tv
		}
	}
	tv := v.bind(t)
	v.tables = append(v.tables, tv)
	return tv
}

func (v *view) bind(t *table) *tableView {
	tv := &tableView{v: v, t: t}
	var ds *dataset.Dataset
	if t.ready && v.pool != nil {
		ds = v.pool.Dataset(t.importCode)
	}
	switch {
	case !t.ready:
		tv.notReady = model.Errorf(model.CodeNotReady, "table %s is not bound to imported data: bind it to a dataset and map at least one attribute with SOURCE", t.name)
		return tv
	case ds == nil:
		tv.notReady = model.Errorf(model.CodeNotReady, "table %s is not bound to imported data: dataset %q is not in the data pool", t.name, t.importCode)
		return tv
	}
	tv.ds, tv.n = ds, int32(ds.Len())
	tv.cols = tv.colsBuf[:]
	if len(t.attrs) > len(tv.colsBuf) {
		tv.cols = make([]*dataset.Column, len(t.attrs))
	}
	tv.cols = tv.cols[:len(t.attrs)]
	for _, a := range t.attrs {
		if a.mapping == model.MappingSource {
			tv.cols[a.idx] = ds.Column(a.path)
		}
	}
	tv.bindID()
	tv.bindVariant()
	tv.ov = v.resolveOverlay(tv)
	return tv
}

// bindID finds the id path: the attribute named id if SOURCE-mapped, else
// the record's id, _id or _id.$oid (MongoDB exports) field, else none.
func (tv *tableView) bindID() {
	tv.idPath = tv.t.idPath
	if tv.idPath == "" {
		for _, p := range []string{"id", "_id", "_id.$oid"} {
			if tv.ds.Column(p) != nil {
				tv.idPath = p
				break
			}
		}
	}
	if tv.idPath == "" {
		return
	}
	tv.idCol = tv.ds.Column(tv.idPath)
	if tv.n > 0 {
		tv.idNumeric = tv.datasetID(0).Kind == dataset.Number
	}
}

func (tv *tableView) bindVariant() {
	if tv.t.variant == nil {
		return
	}
	name := *tv.t.variant
	rows := tv.ds.VariantRows(name)
	if len(rows) == 0 {
		tv.noRows = true
		return
	}
	tv.member = getOrMakeBitset(tv.v.cache, tv.ds, name, rows, int(tv.n))
}

// getOrMakeBitset returns the cached membership bitset of a variant.
func getOrMakeBitset(c engine.CacheView, ds *dataset.Dataset, name string, rows []int32, n int) *engine.Bitset {
	k := engine.CacheKey{Kind: engine.CacheVariant, Dataset: weak.Make(ds), Spec: name}
	b, _ := engine.GetOrMake(c, k, func() (*engine.Bitset, int64, error) {
		b := engine.NewBitset(n)
		for _, r := range rows {
			b.Set(r)
		}
		return b, int64(len(b.Words) * 2), nil
	})
	return b
}

// inTable reports whether dataset row r belongs to the table's variant.
func (tv *tableView) inTable(r int32) bool {
	return !tv.noRows && (tv.member == nil || tv.member.Has(r))
}

// datasetID is the stored id of dataset row r (null when positional).
func (tv *tableView) datasetID(r int32) dataset.Value {
	switch {
	case tv.idCol != nil:
		return tv.idCol.Value(int(r))
	case tv.idPath != "":
		return tv.ds.Value(int(r), tv.idPath)
	}
	return dataset.Value{}
}

// id is the id of row r as the schema shows it: the stored id, or the
// 1-based position when the row has none; a created row's RowID.
func (tv *tableView) id(r int32) string {
	if r >= tv.n {
		return tv.ov.created[r-tv.n].id
	}
	if k, ok := engine.CanonKey(tv.datasetID(r)); ok {
		return k
	}
	return strconv.Itoa(int(r) + 1)
}

// storedID is what id(r) is made of, without allocating: a created row's
// RowID as a string value (created true), else the stored id of dataset
// row r (null when positional: the id is r+1).
func (tv *tableView) storedID(r int32) (v dataset.Value, created bool) {
	if r >= tv.n {
		return dataset.Value{Kind: dataset.String, Str: tv.ov.created[r-tv.n].id}, true
	}
	return tv.datasetID(r), false
}

// idValue is the stored value of the id field of row r, used by filters,
// sorting and relations on "id": the stored id, else the position as text.
func (tv *tableView) idValue(r int32) dataset.Value {
	if r >= tv.n {
		return tv.ov.created[r-tv.n].idValue
	}
	if v := tv.datasetID(r); v.Kind != dataset.Null {
		return v
	}
	return dataset.Value{Kind: dataset.String, Str: strconv.Itoa(int(r) + 1)}
}

// base is the value of attribute a on dataset row r ignoring the overlay.
func (tv *tableView) base(a *attribute, r int32) dataset.Value {
	if a == nil {
		return dataset.Value{}
	}
	if a.isID {
		return tv.idValue(r)
	}
	switch a.mapping {
	case model.MappingSource:
		if c := tv.cols[a.idx]; c != nil {
			return c.Value(int(r))
		}
		return tv.ds.Value(int(r), a.path)
	case model.MappingConstant:
		return a.constant
	case model.MappingGenerated:
		if a.gen != nil {
			return a.gen.Value(a.id, tv.id(r))
		}
	}
	return dataset.Value{}
}

// value is the value of attribute a on row r with the overlay applied.
func (tv *tableView) value(a *attribute, r int32) dataset.Value {
	if a == nil || a.isID {
		return tv.base(a, r)
	}
	rec := tv.ov.record(r)
	if rec == nil {
		return tv.base(a, r)
	}
	if rec.has[a.idx] {
		return rec.vals[a.idx]
	}
	if r >= tv.n && a.mapping == model.MappingSource {
		return dataset.Value{} // a created row has no dataset values
	}
	if r >= tv.n && a.mapping == model.MappingGenerated && a.gen != nil {
		return a.gen.Value(a.id, rec.id)
	}
	return tv.base(a, r)
}
