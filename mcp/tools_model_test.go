package mcp

import (
	"strings"
	"testing"

	"github.com/mockgql/mockgql/model"
)

// TestTableReadyNeedsPool: a session project's table bound to a code the
// curated pool lacks is not ready, and describe_project's problems say
// what to do; bound to a pool code it is ready.
func TestTableReadyNeedsPool(t *testing.T) {
	tb := &model.Table{ID: "p.t", Name: "Book", Source: &model.TableSource{ImportCode: "books"},
		Attributes: []*model.Attribute{{Name: "id", Type: model.TypeID, Mapping: model.MappingSource, SourcePath: "id"}}}
	pr := &model.Project{Kind: model.KindSession, Tables: []*model.Table{tb}}
	if o := shapeTable(tb, map[string]bool{"books": true}, pr.Kind); !o.Ready || o.NotReady != "" {
		t.Fatalf("bound to a pool code: %+v", o)
	}
	o := shapeTable(tb, map[string]bool{"authors": true}, pr.Kind)
	if o.Ready || !strings.Contains(o.NotReady, `"books", which no dataset of the curated pool has`) {
		t.Fatalf("bound outside the pool: %+v", o)
	}
	if p := problems(pr, map[string]bool{"authors": true}); len(p) == 0 || !strings.Contains(p[0], "table Book (p.t) is bound to \"books\"") {
		t.Fatalf("problems: %v", p)
	}
}
