package engine

import (
	"strconv"
	"sync"
	"weak"

	"github.com/mockgql/mockgql/dataset"
	"github.com/mockgql/mockgql/model"
)

// Pool gives the datasets of the data pool. Dataset returns nil when the
// import code is unknown. It must be safe for concurrent use.
type Pool interface {
	Dataset(importCode string) *dataset.Dataset
}

// View is what one request reads: the pool, one overlay snapshot, and the
// table views built from them on first use. It is the root value of
// queries; every row object points to a table view of it.
type View struct {
	env  *Env
	Pool Pool
	ov   *Overlay      // for cache keys; may be nil
	st   *OverlayState // the snapshot read
	// cacheable is false for the private states of a running mutation,
	// which must not enter the shared cache.
	cacheable bool

	mu sync.Mutex
	// tables are the table views built so far; a request reads few
	// tables, so a short list, first backed by tablesBuf, beats a map.
	tables    []*TableView
	tablesBuf [4]*TableView
}

// Env is what the views of one Runtime share: the node's query cache and
// the reach of the sparse path. It outlives its views.
type Env struct {
	Cache  CacheView
	Sparse SparseReach
}

// NewView returns a view of pool at overlay state st of ov (ov may be nil),
// in env; cacheable is false for a running mutation's private states,
// which must not enter the shared cache.
func NewView(env *Env, pool Pool, ov *Overlay, st *OverlayState, cacheable bool) *View {
	v := &View{}
	v.Init(env, pool, ov, st, cacheable)
	return v
}

// Init makes v, zero, a view (so that a caller may hold one by value: a
// request's root then costs one allocation).
func (v *View) Init(env *Env, pool Pool, ov *Overlay, st *OverlayState, cacheable bool) {
	v.env, v.Pool, v.ov, v.st, v.cacheable = env, pool, ov, st, cacheable
	v.tables = v.tablesBuf[:0]
}

// Env returns the Env v reads in.
func (v *View) Env() *Env { return v.env }

// TableView binds a table to its dataset and overlay records for one view.
// It is immutable once built and safe for concurrent use.
type TableView struct {
	View  *View
	Table *Table
	ds    *dataset.Dataset // nil when the table is not ready
	N     int32            // dataset rows; created rows are numbered from N
	// cols are the leaf columns of SOURCE attributes by attribute index; nil
	// for other attributes and for paths that name an object.
	cols      []*dataset.Column
	colsBuf   [8]*dataset.Column // backs cols for the usual tables
	idPath    string             // "" = positional ids
	idCol     *dataset.Column
	idNumeric bool // dataset ids are numbers: created ids are numbers too
	ov        *TableOverlay
	member    *Bitset // variant rows; nil = all rows
	NoRows    bool    // the variant is unknown or empty
	NotReady  error
}

// TableView returns the view of t, building it on first use.
func (v *View) TableView(t *Table) *TableView {
	v.mu.Lock()
	defer v.mu.Unlock()
	for _, tv := range v.tables {
		if tv.Table == t {
			return tv
		}
	}
	tv := v.bind(t)
	v.tables = append(v.tables, tv)
	return tv
}

func (v *View) bind(t *Table) *TableView {
	tv := &TableView{View: v, Table: t}
	var ds *dataset.Dataset
	if t.ready && v.Pool != nil {
		ds = v.Pool.Dataset(t.importCode)
	}
	switch {
	case !t.ready:
		tv.NotReady = model.Errorf(model.CodeNotReady, "table %s is not bound to imported data: bind it to a dataset and map at least one attribute with SOURCE", t.Name)
		return tv
	case ds == nil:
		tv.NotReady = model.Errorf(model.CodeNotReady, "table %s is not bound to imported data: dataset %q is not in the data pool", t.Name, t.importCode)
		return tv
	}
	tv.ds, tv.N = ds, int32(ds.Len())
	tv.cols = tv.colsBuf[:]
	if len(t.Attrs) > len(tv.colsBuf) {
		tv.cols = make([]*dataset.Column, len(t.Attrs))
	}
	tv.cols = tv.cols[:len(t.Attrs)]
	for _, a := range t.Attrs {
		if a.Mapping == model.MappingSource {
			tv.cols[a.Idx] = ds.Column(a.Path)
		}
	}
	tv.bindID()
	tv.bindVariant()
	tv.ov = v.resolveOverlay(tv)
	return tv
}

// bindID finds the id path: the attribute named id if SOURCE-mapped, else
// the record's id, _id or _id.$oid (MongoDB exports) field, else none.
func (tv *TableView) bindID() {
	tv.idPath = tv.Table.IDPath
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
	if tv.N > 0 {
		tv.idNumeric = tv.datasetID(0).Kind == dataset.Number
	}
}

func (tv *TableView) bindVariant() {
	if tv.Table.Variant == nil {
		return
	}
	name := *tv.Table.Variant
	rows := tv.ds.VariantRows(name)
	if len(rows) == 0 {
		tv.NoRows = true
		return
	}
	tv.member = getOrMakeBitset(tv.View.env.Cache, tv.ds, name, rows, int(tv.N))
}

// getOrMakeBitset returns the cached membership bitset of a variant.
func getOrMakeBitset(c CacheView, ds *dataset.Dataset, name string, rows []int32, n int) *Bitset {
	k := cacheKey{Kind: cacheVariant, Dataset: weak.Make(ds), Spec: name}
	b, _ := getOrMake(c, k, func() (*Bitset, int64, error) {
		b := newBitset(n)
		for _, r := range rows {
			b.Set(r)
		}
		return b, int64(len(b.Words) * 2), nil
	})
	return b
}

// InTable reports whether dataset row r belongs to the table's variant.
func (tv *TableView) InTable(r int32) bool {
	return !tv.NoRows && (tv.member == nil || tv.member.Has(r))
}

// datasetID is the stored id of dataset row r (null when positional).
func (tv *TableView) datasetID(r int32) dataset.Value {
	switch {
	case tv.idCol != nil:
		return tv.idCol.Value(int(r))
	case tv.idPath != "":
		return tv.ds.Value(int(r), tv.idPath)
	}
	return dataset.Value{}
}

// ID is the id of row r as the schema shows it: the stored id, or the
// 1-based position when the row has none; a created row's RowID.
func (tv *TableView) ID(r int32) string {
	if r >= tv.N {
		return tv.ov.created[r-tv.N].id
	}
	if k, ok := CanonKey(tv.datasetID(r)); ok {
		return k
	}
	return strconv.Itoa(int(r) + 1)
}

// Record is the overlay record of row r (its latest change), or nil when
// no mutation touched it.
func (tv *TableView) Record(r int32) *RowRec { return tv.ov.Record(r) }

// CreatedRow returns the live created row whose id is id.
func (tv *TableView) CreatedRow(id string) (int32, bool) { return tv.ov.CreatedRow(id) }

// Unchanged reports whether r is a dataset row no mutation changed, whose
// values are the dataset's.
func (tv *TableView) Unchanged(r int32) bool { return r < tv.N && !tv.ov.isChanged(r) }

// End is the number of rows the view numbers: dataset rows 0..N-1, then
// the created rows (live or deleted) from N.
func (tv *TableView) End() int32 {
	if tv.ov == nil {
		return tv.N
	}
	return tv.N + int32(len(tv.ov.created))
}

// StoredID is what id(r) is made of, without allocating: a created row's
// RowID as a string value (created true), else the stored id of dataset
// row r (null when positional: the id is r+1).
func (tv *TableView) StoredID(r int32) (v dataset.Value, created bool) {
	if r >= tv.N {
		return dataset.Value{Kind: dataset.String, Str: tv.ov.created[r-tv.N].id}, true
	}
	return tv.datasetID(r), false
}

// idValue is the stored value of the id field of row r, used by filters,
// sorting and relations on "id": the stored id, else the position as text.
func (tv *TableView) idValue(r int32) dataset.Value {
	if r >= tv.N {
		return tv.ov.created[r-tv.N].idValue
	}
	if v := tv.datasetID(r); v.Kind != dataset.Null {
		return v
	}
	return dataset.Value{Kind: dataset.String, Str: strconv.Itoa(int(r) + 1)}
}

// base is the value of attribute a on dataset row r ignoring the overlay.
func (tv *TableView) base(a *Attr, r int32) dataset.Value {
	if a == nil {
		return dataset.Value{}
	}
	if a.IsID {
		return tv.idValue(r)
	}
	switch a.Mapping {
	case model.MappingSource:
		if c := tv.cols[a.Idx]; c != nil {
			return c.Value(int(r))
		}
		return tv.ds.Value(int(r), a.Path)
	case model.MappingConstant:
		return a.constant
	case model.MappingGenerated:
		if a.Gen != nil {
			return a.Gen.Value(a.ID, tv.ID(r))
		}
	}
	return dataset.Value{}
}

// Value is the value of attribute a on row r with the overlay applied.
func (tv *TableView) Value(a *Attr, r int32) dataset.Value {
	if a == nil || a.IsID {
		return tv.base(a, r)
	}
	rec := tv.ov.Record(r)
	if rec == nil {
		return tv.base(a, r)
	}
	if rec.has[a.Idx] {
		return rec.vals[a.Idx]
	}
	if r >= tv.N && a.Mapping == model.MappingSource {
		return dataset.Value{} // a created row has no dataset values
	}
	if r >= tv.N && a.Mapping == model.MappingGenerated && a.Gen != nil {
		return a.Gen.Value(a.ID, rec.id)
	}
	return tv.base(a, r)
}
