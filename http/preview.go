package http

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/mockgql/mockgql/model"
)

// The read-only preview page (/preview/{slug}?token=<shareToken>, docs/reference/routes.md).
// The page is static; its data comes from /preview/{slug}/data with the
// same token, which is checked there. The token is in the address, so
// neither answer may be cached or sent on as a Referer.

// Previewer is what /preview/{slug}/data asks.
type Previewer interface {
	// Preview answers the read-only preview page: the project the slug
	// names when token is its share token, its schema and a sample page of
	// each table, counted against the project's quota.
	Preview(ctx context.Context, slug, token string) (*model.Preview, error)
}

// servePreviewPage serves the preview page's HTML for any slug.
func (s *Server) servePreviewPage(c *gin.Context) {
	previewHeaders(c)
	s.servePage(c, http.StatusOK, "preview.html")
}

// servePreviewData answers GET /preview/{slug}/data?token=: the model, the
// schema and a sample page of each table. The per-IP window counted it
// before it got here (gate.go), as it counts runtime requests; the sample pages count against
// the project's quota (429 TOO_MANY_REQUESTS past it).
func (s *Server) servePreviewData(c *gin.Context) {
	ctx, cancel := context.WithTimeout(c.Request.Context(), s.cfg.QueryTimeout)
	defer cancel()
	pv, err := s.b.Preview.Preview(ctx, c.Param("slug"), c.Query("token"))
	switch {
	case err != nil && errors.Is(ctx.Err(), context.DeadlineExceeded) && c.Request.Context().Err() == nil:
		s.writeError(c, &model.Error{Code: model.CodeQueryTimeout, Message: "the preview's sample queries ran past the time limit; retry", RetryAfter: 1})
		return
	case err != nil:
		s.writeError(c, err)
		return
	}
	b, err := json.Marshal(shaper{baseURL: s.cfg.BaseURL}.preview(pv))
	if err != nil {
		s.writeError(c, err)
		return
	}
	previewHeaders(c)
	c.Data(http.StatusOK, "application/json", b)
}

// previewHeaders keep the share token in the address out of caches and
// Referer headers.
func previewHeaders(c *gin.Context) {
	c.Header("Cache-Control", "no-store")
	c.Header("Referrer-Policy", "no-referrer")
}

// previewJSON is the answer of /preview/{slug}/data.
type previewJSON struct {
	Project   previewProjectJSON    `json:"project"`
	Tables    []previewTableJSON    `json:"tables"`
	Relations []previewRelationJSON `json:"relations"`
	SDL       string                `json:"sdl"`
}

type previewProjectJSON struct {
	Name      string  `json:"name"`
	Slug      string  `json:"slug"`
	Kind      string  `json:"kind"`
	ExpiresAt *string `json:"expiresAt"`
	// RuntimeURL carries the share token only where it is the runtime
	// credential (guest and session projects).
	RuntimeURL string `json:"runtimeUrl"`
	// Queryable says whether the visitor may run queries: only where the
	// share token is the runtime credential. The preview of an account
	// project never opens its API.
	Queryable bool `json:"queryable"`
}

type previewTableJSON struct {
	Name       string                 `json:"name"`
	Ready      bool                   `json:"ready"`
	Attributes []previewAttributeJSON `json:"attributes"`
	// Sample is null for a table without an enabled LIST operation.
	Sample *previewSampleJSON `json:"sample"`
}

type previewAttributeJSON struct {
	Name        string `json:"name"`
	Type        string `json:"type"`
	MappingType string `json:"mappingType"`
	Required    bool   `json:"required"`
}

type previewSampleJSON struct {
	Operation string            `json:"operation"`
	Total     int               `json:"total"`
	Items     []json.RawMessage `json:"items"`
	Errors    []json.RawMessage `json:"errors"`
}

type previewRelationJSON struct {
	SourceTable      string `json:"sourceTable"`
	TargetTable      string `json:"targetTable"`
	Cardinality      string `json:"cardinality"`
	Direction        string `json:"direction"`
	SourceAttribute  string `json:"sourceAttribute"`
	TargetAttribute  string `json:"targetAttribute"`
	FieldName        string `json:"fieldName"`
	InverseFieldName string `json:"inverseFieldName,omitempty"`
}

// preview shapes a Preview for the page: names rather than IDs, and no
// dataset bindings (the page is for the people who consume the API).
func (sh shaper) preview(pv *model.Preview) previewJSON {
	p := pv.Project
	out := previewJSON{SDL: pv.SDL, Tables: []previewTableJSON{}, Relations: []previewRelationJSON{},
		Project: previewProjectJSON{Name: p.Name, Slug: p.Slug, Kind: string(p.Kind), RuntimeURL: sh.runtimeURL(p),
			Queryable: shareToken(p) != ""}}
	if !p.ExpiresAt.IsZero() {
		at := dateTime(p.ExpiresAt)
		out.Project.ExpiresAt = &at
	}
	for _, t := range p.Tables {
		tj := previewTableJSON{Name: t.Name, Ready: t.NotReadyIn(pv.Pool, p.Kind) == "", Attributes: make([]previewAttributeJSON, 0, len(t.Attributes))}
		for _, a := range t.Attributes {
			tj.Attributes = append(tj.Attributes, previewAttributeJSON{Name: a.Name, Type: string(a.Type), MappingType: string(a.Mapping), Required: a.Required})
		}
		if smp, ok := pv.Samples[t.ID]; ok {
			tj.Sample = &previewSampleJSON{Operation: smp.Operation, Total: smp.Total, Items: smp.Items, Errors: smp.Errors}
			if tj.Sample.Items == nil {
				tj.Sample.Items = []json.RawMessage{}
			}
			if tj.Sample.Errors == nil {
				tj.Sample.Errors = []json.RawMessage{}
			}
		}
		out.Tables = append(out.Tables, tj)
	}
	for _, r := range p.Relations {
		src, dst := p.Table(r.SourceTableID), p.Table(r.TargetTableID)
		if src == nil || dst == nil {
			continue
		}
		out.Relations = append(out.Relations, previewRelationJSON{SourceTable: src.Name, TargetTable: dst.Name,
			Cardinality: string(r.Cardinality), Direction: string(r.Direction), SourceAttribute: r.SourceAttribute,
			TargetAttribute: r.TargetAttribute, FieldName: r.FieldName, InverseFieldName: r.InverseFieldName})
	}
	return out
}
