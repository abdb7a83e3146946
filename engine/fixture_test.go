package engine

import (
	"bytes"
	"sync"
	"testing"

	"github.com/mockgql/mockgql/dataset"
	"github.com/mockgql/mockgql/internal/testdata"
	"github.com/mockgql/mockgql/model"
)

// This file holds the engine's own test fixture: the products table of
// graphql's benchmarks (runtime_bench_test.go), described as graphql's
// compiler describes it, over a generated dataset.

// memPool is a test-only Pool over a map.
type memPool map[string]*dataset.Dataset

func (p memPool) Dataset(code string) *dataset.Dataset { return p[code] }

var benchData sync.Map // rows -> *dataset.Dataset, built once per process

// benchDataset returns a generated products dataset of n rows: ids 1..n,
// name, price, category and customerId.
func benchDataset(tb testing.TB, n int) *dataset.Dataset {
	if d, ok := benchData.Load(n); ok {
		return d.(*dataset.Dataset)
	}
	d, err := dataset.Read(bytes.NewReader(testdata.BenchProducts(n)), dataset.Options{ImportCode: "bench", Format: dataset.NDJSON})
	if err != nil {
		tb.Fatal(err)
	}
	benchData.Store(n, d)
	return d
}

// benchTable describes the Product table over the "bench" dataset; its
// attribute IDs are a_Product_<name>.
func benchTable(tb testing.TB) *Table {
	mt := &model.Table{ID: "t_Product", Name: "Product", Source: &model.TableSource{ImportCode: "bench"}}
	for _, a := range []struct {
		name string
		typ  model.ScalarType
	}{{"name", model.TypeString}, {"price", model.TypeFloat}, {"category", model.TypeString}, {"customerId", model.TypeInt}} {
		mt.Attributes = append(mt.Attributes, &model.Attribute{ID: "a_Product_" + a.name, TableID: mt.ID, Name: a.name, Type: a.typ, Mapping: model.MappingSource, SourcePath: a.name})
	}
	tables, _ := NewTables(&model.Project{ID: "bench", Tables: []*model.Table{mt}}, nil)
	if !tables[0].ready {
		tb.Fatal("the bench table is not ready")
	}
	return tables[0]
}

// testView returns a view on a cache of cacheRows row numbers, with the
// sparse path at its default reach.
func testView(cache CacheView, pool Pool, ov *Overlay, st *OverlayState, cacheable bool) *View {
	return NewView(&Env{Cache: cache, Sparse: SparseReach{Div: DefaultSparseDiv}}, pool, ov, st, cacheable)
}
