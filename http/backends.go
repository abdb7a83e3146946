package http

import (
	"errors"

	"github.com/mockgql/mockgql/model"
)

// These domain types live in package model so that the use cases can
// implement this package's interfaces without importing http; the aliases
// keep the signatures short.
type (
	Principal     = model.Principal
	DataSource    = model.DataSource
	Variant       = model.DataSourceVariant
	DatasetImport = model.DatasetImport
	CreatedKey    = model.CreatedKey
)

// TablePatch, AttributePatch and OperationPatch are the model package's
// partial updates.
type (
	TablePatch     = model.TablePatch
	AttributePatch = model.AttributePatch
	OperationPatch = model.OperationPatch
)

// Backends are the use cases the routes call, one small interface per
// surface, each declared beside the handlers that use it. Every method
// checks the caller's rights (role, plan, scope, session) and returns a
// *model.Error for every refusal; IDs of tables, attributes, relations,
// operations and views name their project (see model.ProjectOf), so
// methods taking only such an ID find the project themselves. All methods
// are safe for concurrent use. cmd/mockgql passes app.Service's service
// of each surface (app/surfaces.go), whose methods are exactly the
// field's interface; every field is required.
type Backends struct {
	// Edge serves the checks in front of the routes: per-IP windows
	// (gate.go), API keys (auth.go) and CORS policies (cors.go).
	Edge Edge
	// Runtime serves /mock/{slug}/graphql and /runtime/actors (runtime.go).
	Runtime Runtime
	// Management serves /graphql (management.go).
	Management Management
	// Public serves /public-graphql (public.go).
	Public Public
	// Preview serves /preview/{slug}/data (preview.go).
	Preview Previewer
	// Adoption serves /auth/adopt/{token} (board.go).
	Adoption Adopter
	// Datasets serves POST /datasets/{importCode} (datasets.go).
	Datasets DatasetImporter
}

// check returns an error naming the first field of b that is nil.
func (b Backends) check() error {
	for _, f := range []struct {
		name string
		nil  bool
	}{
		{"Edge", b.Edge == nil}, {"Runtime", b.Runtime == nil}, {"Management", b.Management == nil},
		{"Public", b.Public == nil}, {"Preview", b.Preview == nil}, {"Adoption", b.Adoption == nil},
		{"Datasets", b.Datasets == nil},
	} {
		if f.nil {
			return errors.New("http: Backends." + f.name + " is nil")
		}
	}
	return nil
}
