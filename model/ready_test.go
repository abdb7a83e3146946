package model_test

import (
	"strings"
	"testing"

	"github.com/mockgql/mockgql/model"
)

// TestTableNotReadyReason: each way of not being ready has its own reason,
// naming the fix, and a ready table has none.
func TestTableNotReadyReason(t *testing.T) {
	src := &model.TableSource{ImportCode: "products"}
	bound := &model.Attribute{Name: "name", Mapping: model.MappingSource, SourcePath: "name"}
	constant := &model.Attribute{Name: "c", Mapping: model.MappingConstant}
	tests := []struct {
		name  string
		table model.Table
		want  string // a part of the reason; "" means ready
	}{
		{"no source", model.Table{Attributes: []*model.Attribute{bound}}, "not bound to a dataset"},
		{"empty importCode", model.Table{Source: &model.TableSource{}, Attributes: []*model.Attribute{bound}}, "not bound to a dataset"},
		{"no attributes", model.Table{Source: src}, "no attributes: add one bound to a field path of products"},
		{"nothing bound", model.Table{Source: src, Attributes: []*model.Attribute{constant}}, "no attribute is bound to a field path of products"},
		{"ready", model.Table{Source: src, Attributes: []*model.Attribute{constant, bound}}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := tt.table.NotReadyReason()
			if (tt.want == "") != (got == "") || !strings.Contains(got, tt.want) {
				t.Fatalf("NotReadyReason() = %q, want one containing %q", got, tt.want)
			}
			if tt.table.Ready() != (got == "") {
				t.Fatalf("Ready() = %v disagrees with the reason %q", tt.table.Ready(), got)
			}
		})
	}
}
