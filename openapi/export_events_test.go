package openapi

import (
	"slices"
	"testing"

	"github.com/mockgql/mockgql/model"
)

// TestExportEventWebhooks: a list operation with the subscriptions option
// exports its table's events as webhooks whose body is the row; a table
// without it exports none.
func TestExportEventWebhooks(t *testing.T) {
	for _, format := range []string{"json", "yaml"} {
		t.Run(format, func(t *testing.T) {
			p := fixtureProject(t)
			for _, o := range p.Operations {
				if o.Name == "products" {
					o.Options = &model.OperationOptions{Subscriptions: true}
				}
			}
			doc := loadExport(t, p, format)
			var names []string
			for name, item := range doc.Webhooks {
				names = append(names, name)
				if item.Post == nil || item.Post.RequestBody.Value.Content.Get("application/json").Schema.Ref != "#/components/schemas/Product" {
					t.Errorf("webhook %s: %+v", name, item.Post)
				}
			}
			slices.Sort(names)
			if !slices.Equal(names, []string{"productCreated", "productDeleted", "productUpdated"}) {
				t.Errorf("webhooks %v", names)
			}
			if plain := loadExport(t, fixtureProject(t), format); len(plain.Webhooks) != 0 {
				t.Errorf("a project without the option exports webhooks %v", plain.Webhooks)
			}
		})
	}
}
