package http

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/mockgql/mockgql/model"
)

// TestShapePreview checks the preview page's data: names instead of IDs,
// no dataset bindings, and the runtime credential only where the share
// token is one.
func TestShapePreview(t *testing.T) {
	sh, _ := testShaper()
	for _, tc := range []struct {
		name       string
		project    *model.Project
		runtimeURL string
		queryable  bool
		expires    bool
	}{
		{"account project", fixtureProject(), "https://api.example.test/mock/shop/graphql", false, false},
		{"guest project", fixtureGuest(), "https://api.example.test/mock/guest-1/graphql?token=shr_guest", true, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pr := tc.project
			samples := map[string]model.PreviewSample{}
			if len(pr.Tables) > 0 {
				samples[pr.Tables[0].ID] = model.PreviewSample{Operation: "products", Total: 3,
					Items: []json.RawMessage{json.RawMessage(`{"id":"1","price":9.5}`)}}
			}
			got := sh.preview(&model.Preview{Project: pr, SDL: "type Query { a: Int }", Samples: samples, Pool: map[string]bool{"products": true}})
			if got.Project.RuntimeURL != tc.runtimeURL || got.Project.Queryable != tc.queryable || (got.Project.ExpiresAt != nil) != tc.expires {
				t.Errorf("project = %+v", got.Project)
			}
			if len(got.Tables) != len(pr.Tables) || len(got.Relations) != len(pr.Relations) || got.SDL == "" {
				t.Fatalf("tables %d, relations %d, sdl %q", len(got.Tables), len(got.Relations), got.SDL)
			}
			b, err := json.Marshal(got)
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(string(b), "shr_account") || strings.Contains(string(b), "products\",\"price.amount") || strings.Contains(string(b), "prj_1.") {
				t.Errorf("preview leaks the share token, a binding or an ID: %s", b)
			}
			if len(pr.Tables) == 0 {
				return
			}
			p, o := got.Tables[0], got.Tables[1]
			if !p.Ready {
				t.Errorf("Product, bound to products of its pool, is not ready")
			}
			notReadable := sh.preview(&model.Preview{Project: pr, SDL: "type Query { a: Int }", Pool: map[string]bool{"orders": true}})
			if notReadable.Tables[0].Ready {
				t.Errorf("Product, bound to products outside its pool, is ready")
			}
			if p.Sample == nil || p.Sample.Total != 3 || len(p.Sample.Items) != 1 || p.Sample.Errors == nil || o.Sample != nil {
				t.Errorf("samples: %+v, %+v", p.Sample, o.Sample)
			}
			if r := got.Relations[0]; r.SourceTable != "Product" || r.TargetTable != "Order" || r.FieldName != "orders" || r.InverseFieldName != "product" {
				t.Errorf("relation: %+v", r)
			}
		})
	}
}
