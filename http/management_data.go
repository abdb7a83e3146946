package http

import (
	"context"
	"strings"

	"github.com/mockgql/mockgql/model"
)

// The resolvers in this file serve the data pool.

// maxImportContent is the largest importDataset content (API.md); bigger
// files go to the streaming upload route.
const maxImportContent = 16 << 20

// dataSources resolves Query.dataSources (and the public
// availableDataSources).
func (s *Surface) dataSources(ctx context.Context, c *Call, _ input) (any, error) {
	ds, err := s.cfg.Backend.DataSourcesFor(ctx, c.Principal)
	if err != nil {
		return nil, err
	}
	return shapeAll(ds, s.shaper(c).dataSource), nil
}

// importDataset resolves Mutation.importDataset. An absent name is empty:
// the Backend names the dataset.
func (s *Surface) importDataset(ctx context.Context, c *Call, args input) (any, error) {
	content := args.str("content")
	if len(content) > maxImportContent {
		return nil, model.Errorf(model.ErrBadUserInput,
			"content is %d bytes, over %d: upload the file to POST /datasets/{importCode}", len(content), maxImportContent)
	}
	d, err := s.cfg.Backend.ImportDataset(ctx, c.Principal, DatasetImport{
		ImportCode:   args.str("importCode"),
		Name:         args.str("name"),
		Format:       args.str("format"),
		VariantField: args.str("variantField"),
		Body:         strings.NewReader(content),
		MaxBytes:     maxImportContent,
	})
	if err != nil {
		return nil, err
	}
	return s.shaper(c).dataSource(d), nil
}

// deleteDataset resolves Mutation.deleteDataset.
func (s *Surface) deleteDataset(ctx context.Context, c *Call, args input) (any, error) {
	if err := s.cfg.Backend.DeleteDataset(ctx, c.Principal, args.str("importCode")); err != nil {
		return nil, err
	}
	return true, nil
}
