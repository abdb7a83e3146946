package engine_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/mockgql/mockgql/dataset"
	"github.com/mockgql/mockgql/engine"
	"github.com/mockgql/mockgql/model"
)

// A reader's Snapshot stays on its version while the writer applies more.
func ExampleOverlay() {
	ov := engine.NewOverlay()
	ov.Apply([]engine.Change{{TableID: "t1", RowID: "7", Values: map[string]json.RawMessage{"a1": json.RawMessage(`"old"`)}}})
	snap := ov.Snapshot()
	ov.Apply([]engine.Change{{TableID: "t1", RowID: "7", Values: map[string]json.RawMessage{"a1": json.RawMessage(`"new"`)}}})

	fmt.Println(string(snap.State().Table("t1").Get("7").Values["a1"]), snap.State().Version())
	fmt.Println(string(ov.Snapshot().State().Table("t1").Get("7").Values["a1"]), ov.Version())
	fmt.Println(snap.Has("t1", "7"), snap.Has("t1", "8"))
	// Output:
	// "old" 1
	// "new" 2
	// true false
}

// A page of a table's rows, sorted, as graphql's list resolver reads one:
// a table described from the model, a view of the pool at the overlay's
// current version, and the rows' values.
func ExampleTableView_PageRows() {
	data := `{"id": 1, "name": "Widget", "price": 10}
{"id": 2, "name": "Gadget", "price": 25.5}
{"id": 3, "name": "Gizmo", "price": 7}`
	ds, err := dataset.Read(strings.NewReader(data), dataset.Options{ImportCode: "products", Format: dataset.NDJSON})
	if err != nil {
		panic(err)
	}
	mt := &model.Table{ID: "t1", Name: "Product", Source: &model.TableSource{ImportCode: "products"}}
	for _, name := range []string{"name", "price"} {
		mt.Attributes = append(mt.Attributes, &model.Attribute{ID: "a_" + name, TableID: "t1", Name: name,
			Type: model.TypeString, Mapping: model.MappingSource, SourcePath: name})
	}
	tables, _ := engine.NewTables(&model.Project{ID: "p1", Tables: []*model.Table{mt}}, nil)
	table := tables[0]

	env := &engine.Env{Cache: engine.NewCache(1 << 20).View(), Sparse: engine.SparseReach{Div: engine.DefaultSparseDiv}}
	ov := engine.NewOverlay()
	tv := engine.NewView(env, pool{"products": ds}, ov, ov.State(), true).TableView(table)
	q := &engine.ListQuery{Sort: table.Field("price")}
	q.Spec = engine.QuerySpec(q)
	rows, err := tv.PageRows(context.Background(), q, 1, 2)
	if err != nil {
		panic(err)
	}
	lo, hi := engine.PageBounds(rows.Len(), 1, 2)
	for i := lo; i < hi; i++ {
		r := rows.At(i)
		fmt.Println(tv.ID(r), tv.Value(table.Field("name"), r).Str)
	}
	fmt.Println("total", rows.Len())
	// Output:
	// 3 Gizmo
	// 1 Widget
	// total 3
}

// pool is a data pool over a map.
type pool map[string]*dataset.Dataset

func (p pool) Dataset(code string) *dataset.Dataset { return p[code] }
