package app

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/mockgql/mockgql/model"
)

// previewFixture is a project of n tables of attrs SOURCE attributes each,
// every table with a LIST operation with parameters and, for even tables,
// a second one without.
func previewFixture(n, attrs int) *model.Project {
	pr := &model.Project{ID: "p1", Slug: "shop"}
	for i := range n {
		t := &model.Table{ID: fmt.Sprintf("p1.t%d", i), Name: fmt.Sprintf("T%d", i)}
		for j := range attrs {
			t.Attributes = append(t.Attributes, &model.Attribute{Name: fmt.Sprintf("a%d", j), Mapping: model.MappingSource, SourcePath: "x"})
		}
		t.Attributes = append(t.Attributes, &model.Attribute{Name: "calc", Mapping: model.MappingComputed})
		pr.Tables = append(pr.Tables, t)
		pr.Operations = append(pr.Operations, &model.Operation{TableID: t.ID, Name: fmt.Sprintf("search%d", i), Kind: model.OpList, Enabled: true,
			Parameters: []model.Parameter{{Name: "q", Attribute: "a0", Operator: model.OpLike}}})
		if i%2 == 0 {
			pr.Operations = append(pr.Operations, &model.Operation{TableID: t.ID, Name: fmt.Sprintf("disabled%d", i), Kind: model.OpList},
				&model.Operation{TableID: t.ID, Name: fmt.Sprintf("list%d", i), Kind: model.OpList, Enabled: true})
		}
	}
	return pr
}

func TestPreviewBatches(t *testing.T) {
	for _, tc := range []struct {
		name          string
		tables, attrs int
		want          []int // tables per batch
	}{
		{"empty", 0, 0, nil},
		{"one query", 3, 5, []int{3}},
		{"split by the field budget", 5, 150, []int{3, 2}},
		{"a table over the budget goes alone", 2, 600, []int{1, 1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			batches, err := previewBatches(previewFixture(tc.tables, tc.attrs))
			if err != nil {
				t.Fatal(err)
			}
			var got []int
			for _, b := range batches {
				got = append(got, len(b.tables))
				var req struct{ Query string }
				if err := json.Unmarshal(b.body, &req); err != nil {
					t.Fatal(err)
				}
				for alias, pt := range b.tables {
					i := strings.TrimPrefix(pt.tableID, "p1.t")
					want := "search" + i
					if i[len(i)-1]%2 == 0 {
						want = "list" + i // the one without parameters
					}
					if pt.operation != want || !strings.Contains(req.Query, alias+": "+want+"(page: 1, pageSize: 10) { total items { id a0 ") {
						t.Errorf("%s → %+v in %.200s", alias, pt, req.Query)
					}
				}
				if strings.Contains(req.Query, "calc") || strings.Contains(req.Query, "disabled") {
					t.Errorf("COMPUTED attribute or disabled operation queried: %.300s", req.Query)
				}
			}
			if fmt.Sprint(got) != fmt.Sprint(tc.want) {
				t.Errorf("tables per batch = %v, want %v", got, tc.want)
			}
		})
	}
	t.Run("tables without a list operation", func(t *testing.T) {
		pr := previewFixture(2, 1)
		pr.Operations = pr.Operations[:1] // T1 loses its only one
		batches, _ := previewBatches(pr)
		if len(batches) != 1 || len(batches[0].tables) != 1 || batches[0].tables["t0"].tableID != "p1.t0" {
			t.Fatalf("batches: %+v", batches)
		}
	})
}

func TestDecodePreviewBatch(t *testing.T) {
	tables := map[string]previewTable{"t0": {"p1.t0", "list0"}, "t1": {"p1.t1", "search1"}}
	for _, tc := range []struct {
		name, body string
		want       string // per table: total/items/errors
	}{
		{"rows and a table's error", `{"data":{"t0":{"total":7,"items":[{"id":"1"},{"id":"2"}]},"t1":{"total":0,"items":[]}},
			"errors":[{"message":"not ready","path":["t1"],"extensions":{"code":"NOT_READY"}}]}`, "p1.t0:7/2/0 p1.t1:0/0/1"},
		{"a refused document is every table's", `{"errors":[{"message":"too many fields"}]}`, "p1.t0:0/0/1 p1.t1:0/0/1"},
		{"null data", `{"data":null,"errors":[{"message":"x","path":["t0","items",0]}]}`, "p1.t0:0/0/1 p1.t1:0/0/0"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := map[string]model.PreviewSample{}
			if err := decodePreviewBatch([]byte(tc.body), tables, out); err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, id := range []string{"p1.t0", "p1.t1"} {
				s := out[id]
				if s.Items == nil || s.Errors == nil || s.Operation != tables["t"+id[len(id)-1:]].operation {
					t.Errorf("%s: %+v", id, s)
				}
				got = append(got, fmt.Sprintf("%s:%d/%d/%d", id, s.Total, len(s.Items), len(s.Errors)))
			}
			if strings.Join(got, " ") != tc.want {
				t.Errorf("got %s, want %s", strings.Join(got, " "), tc.want)
			}
		})
	}
	if err := decodePreviewBatch([]byte(`not json`), tables, map[string]model.PreviewSample{}); err == nil {
		t.Error("a body that is not JSON: no error")
	}
}
