package openapi

import (
	"net/http"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/mockgql/mockgql/model"
)

// addEventWebhooks exports the subscriptions option (docs/using/
// realtime.md) as OpenAPI 3.1 webhooks: a table whose enabled LIST
// operation has it sends the events <table>Created, <table>Updated and
// <table>Deleted, each a POST whose body is the row (for Deleted, the
// row as it was). A REST backend generated from the export may deliver
// them however it likes; the names match the GraphQL Subscription fields.
func addEventWebhooks(d *openapi3.T, t *model.Table, ops []*model.Operation) {
	on := false
	for _, o := range ops {
		on = on || (o.Kind == model.OpList && o.Options != nil && o.Options.Subscriptions)
	}
	if !on {
		return
	}
	if d.Webhooks == nil {
		d.Webhooks = map[string]*openapi3.PathItem{}
	}
	for _, e := range []struct{ suffix, summary string }{
		{"Created", "A " + t.Name + " row was created; the body is the new row."},
		{"Updated", "A " + t.Name + " row was changed; the body is the row as changed."},
		{"Deleted", "A " + t.Name + " row was deleted; the body is the row as it was."},
	} {
		name := model.LowerCamel(t.Name) + e.suffix
		op := newOperation(t, name, e.summary)
		op.RequestBody = &openapi3.RequestBodyRef{Value: openapi3.NewRequestBody().WithRequired(true).
			WithDescription("The row.").WithJSONSchemaRef(schemaRef(t.Name))}
		op.AddResponse(http.StatusOK, openapi3.NewResponse().WithDescription("The event was received."))
		d.Webhooks[name] = &openapi3.PathItem{Post: op}
	}
}
