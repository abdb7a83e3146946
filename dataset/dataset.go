// Package dataset holds the data pool's datasets: immutable tables of
// documents read once from JSON, NDJSON or CSV, stored column by column so
// that a million rows fit in little memory, and shared read-only by every
// project bound to them.
//
// A Dataset is immutable after Read or Decode returns it: all its methods
// are safe for concurrent use. Lazily built indexes (sorted orders, value
// lookups) are built once under a lock and then shared.
//
//	d, err := dataset.Read(r, dataset.Options{ImportCode: "products", Format: dataset.JSON})
//	price := d.Value(0, "price.amount") // dataset.Value{Kind: dataset.Number, Num: 12.5}
package dataset

import (
	"fmt"
	"strconv"
	"sync"
	"sync/atomic"
)

// Kind is the JSON type of a stored value.
type Kind uint8

// Kinds, in the order values of different kinds sort.
const (
	Null   Kind = iota // JSON null, or the path is absent from the document
	Bool               // true or false
	Number             // a JSON number (float64)
	String             // a JSON string: "12" stays a string
	Raw                // an array or object kept as its JSON text
)

// String names the kind.
func (k Kind) String() string {
	switch k {
	case Bool:
		return "boolean"
	case Number:
		return "number"
	case String:
		return "string"
	case Raw:
		return "json"
	}
	return "null"
}

// Value is one stored value. Str holds the text of a String and the JSON
// text of a Raw value; Num a Number; Bool a Bool.
type Value struct {
	Kind Kind
	Bool bool
	Num  float64
	Str  string
}

// Key is the canonical text of v used by lookups and relations: numbers in
// shortest form as Document prints them (10 and 10.0 are "10", 1234567 is
// "1234567", 1e21 is "1e+21"), strings as they are, booleans as
// true/false, null as "". A number and a string can have the same Key; that
// is deliberate for relations (an order's customerId 7 finds customer "7").
func (v Value) Key() string {
	switch v.Kind {
	case Bool:
		return strconv.FormatBool(v.Bool)
	case Number:
		return string(appendNumber(nil, v.Num))
	case String, Raw:
		return v.Str
	}
	return ""
}

// Compare orders a before b: by kind first (Null < Bool < Number < String <
// Raw), then numbers numerically and text byte-wise (so numbers stored as
// text sort lexicographically, docs/using/runtime.md "Query rules"). It returns -1, 0 or 1.
func Compare(a, b Value) int {
	if a.Kind != b.Kind {
		if a.Kind < b.Kind {
			return -1
		}
		return 1
	}
	switch a.Kind {
	case Bool:
		switch {
		case a.Bool == b.Bool:
			return 0
		case !a.Bool:
			return -1
		}
		return 1
	case Number:
		switch {
		case a.Num < b.Num:
			return -1
		case a.Num > b.Num:
			return 1
		}
		return 0
	case String, Raw:
		switch {
		case a.Str < b.Str:
			return -1
		case a.Str > b.Str:
			return 1
		}
	}
	return 0
}

// Variant is a named subset of a dataset's rows, chosen by the value of the
// variant field at import.
type Variant struct {
	Name  string
	Count int
}

// Dataset is an immutable table of documents stored column by column. All
// its methods are safe for concurrent use. Slices it returns are shared:
// callers must not modify them.
type Dataset struct {
	code, name   string
	variantField string
	n            int
	paths        []string
	cols         []*Column
	byPath       map[string]*Column
	root         *node            // the documents' shape
	objects      map[string]*node // every dot prefix that is an object
	variants     []Variant
	variantRows  [][]int32
	variantIndex map[string]int

	mu      sync.Mutex
	sorted  map[string]*lazyRows
	lookups map[string]*lazyLookup
	orders  map[string]*lazyIndex[Order]
	grams   map[string]*lazyIndex[Grams]
	groups  map[string]*lazyIndex[Groups] // groups.go
	sums    map[string]*lazyIndex[GroupSums]
	all     lazyRows     // 0..n-1, for paths no row has
	indexes atomic.Int64 // bytes of the indexes built so far
}

// newDataset assembles a dataset from finished columns (paths unique).
func newDataset(code, name, variantField string, n int, cols []*Column) (*Dataset, error) {
	d := &Dataset{code: code, name: name, variantField: variantField, n: n, cols: cols,
		byPath: make(map[string]*Column, len(cols)), paths: make([]string, len(cols)),
		sorted: map[string]*lazyRows{}, lookups: map[string]*lazyLookup{}}
	for i, c := range cols {
		if _, dup := d.byPath[c.path]; dup {
			return nil, fmt.Errorf("dataset: duplicate path %q", c.path)
		}
		d.byPath[c.path] = c
		d.paths[i] = c.path
	}
	d.root, d.objects = buildTree(cols)
	if variantField != "" {
		d.splitVariants()
	}
	return d, nil
}

// ImportCode returns the code the dataset was imported under.
func (d *Dataset) ImportCode() string { return d.code }

// Name returns the display name.
func (d *Dataset) Name() string { return d.name }

// Len returns the number of rows.
func (d *Dataset) Len() int { return d.n }

// Paths returns the leaf dot paths in first-seen order.
func (d *Dataset) Paths() []string { return d.paths }

// VariantField returns the path whose value names each row's variant, or "".
func (d *Dataset) VariantField() string { return d.variantField }

// Column returns the column of a leaf path, nil if path is not one.
func (d *Dataset) Column(path string) *Column { return d.byPath[path] }

// Value returns row's value at path: a leaf path's value; for the dot prefix
// of an object ("price" of "price.amount") the object rebuilt from its
// leaves as a Raw value; Null when the row lacks the path, the path is
// unknown or row is out of range. A path can be both a leaf and a prefix
// when rows differ in shape; then a row's leaf value wins.
func (d *Dataset) Value(row int, path string) Value {
	if uint(row) >= uint(d.n) {
		return Value{}
	}
	if c := d.byPath[path]; c != nil && c.has(row) {
		return c.Value(row)
	}
	if o := d.objects[path]; o != nil {
		if b, ok := o.appendObject(nil, row); ok {
			return Value{Kind: Raw, Str: string(b)}
		}
	}
	return Value{}
}

// Document returns row as a JSON object nested as imported, keys in
// first-seen path order, paths the row lacks left out. It returns nil when
// row is out of range. The caller owns the result.
func (d *Dataset) Document(row int) []byte {
	if uint(row) >= uint(d.n) {
		return nil
	}
	b, ok := d.root.appendObject(make([]byte, 0, 256), row)
	if !ok {
		return []byte("{}")
	}
	return b
}

// MemoryBytes approximates the resident bytes of the dataset: its columns,
// variant row lists and the indexes built so far.
func (d *Dataset) MemoryBytes() int64 {
	var total int64 = 512
	for _, c := range d.cols {
		total += c.memoryBytes()
	}
	for _, rows := range d.variantRows {
		total += 4*int64(cap(rows)) + 64
	}
	return total + d.indexes.Load()
}
