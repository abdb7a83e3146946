package http

import (
	"context"
	"encoding/json"
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/mockgql/mockgql/model"
)

// DatasetImporter is what the streaming upload (POST /datasets/{importCode})
// asks; the management API's importDataset asks it too (Datasets).
type DatasetImporter interface {
	// ImportDataset reads in.Body, at most in.MaxBytes, into a dataset of
	// the pool: the curated pool's for a curator, else p's account's.
	ImportDataset(ctx context.Context, p Principal, in DatasetImport) (DataSource, error)
}

// serveDatasetUpload answers POST /datasets/{importCode}: the body is the
// file, parsed as a stream, so its size is bounded by MaxDatasetBytes and
// not by memory.
func (s *Server) serveDatasetUpload(c *gin.Context) {
	p, err := s.managementPrincipal(c)
	if err == nil {
		err = p.Refused
	}
	if err != nil {
		s.writeError(c, err)
		return
	}
	if c.Request.ContentLength > s.cfg.MaxDatasetBytes {
		s.writeError(c, model.Errorf(model.CodePayloadTooLarge, "the dataset is larger than %s, the most this server takes in one upload (whatever the plan): split it into smaller datasets", model.Size(s.cfg.MaxDatasetBytes)))
		return
	}
	format := c.DefaultQuery("format", "json")
	ds, err := s.b.Datasets.ImportDataset(c.Request.Context(), p, model.DatasetImport{ImportCode: c.Param("importCode"),
		Name: c.Query("name"), Format: format, VariantField: c.Query("variantField"), Body: c.Request.Body,
		MaxBytes: s.cfg.MaxDatasetBytes, Size: max(c.Request.ContentLength, 0)})
	if err != nil {
		s.writeError(c, err)
		return
	}
	c.JSON(http.StatusOK, dataSourceJSON(ds))
}

// dataSourceJSON is the DataSource as the upload route answers it (the
// GraphQL type's fields, with three sample documents).
func dataSourceJSON(ds model.DataSource) gin.H {
	variants := make([]gin.H, 0, len(ds.Variants))
	for _, v := range ds.Variants {
		variants = append(variants, gin.H{"name": v.Name, "recordCount": v.RecordCount})
	}
	samples := []json.RawMessage{}
	if ds.Samples != nil {
		samples = ds.Samples.Sample(3)
	}
	return gin.H{"importCode": ds.ImportCode, "name": ds.Name, "fieldPaths": ds.FieldPaths,
		"recordCount": ds.RecordCount, "variants": variants, "sampleDocuments": samples}
}
