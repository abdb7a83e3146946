package http

import (
	"context"
	"strings"

	"github.com/mockgql/mockgql/model"
)

// PoolReader is what lists the data pool (Query.dataSources, and the
// public availableDataSources).
type PoolReader interface {
	// DataSourcesFor is what p sees: the curated pool and its account's
	// own datasets.
	DataSourcesFor(ctx context.Context, p Principal) ([]DataSource, error)
}

// poolResolvers resolve the data pool's listing; with projects (the
// management API), dataSources(projectId:) lists it as that project reads it.
type poolResolvers struct {
	*Surface
	b        PoolReader
	projects ProjectReader
}

// Datasets is what the management API's dataset mutations ask.
type Datasets interface {
	DatasetImporter
	DeleteDataset(ctx context.Context, p Principal, importCode string) error
}

// datasetResolvers resolve the dataset mutations.
type datasetResolvers struct {
	*Surface
	b Datasets
}

// maxImportContent is the largest importDataset content (16 MB, docs/using/runtime.md); bigger
// files go to the streaming upload route.
const maxImportContent = 16 << 20

// dataSources resolves Query.dataSources (and the public
// availableDataSources).
func (s poolResolvers) dataSources(ctx context.Context, c *Call, args input) (any, error) {
	reader := c.Principal
	if id := args.str("projectId"); id != "" && s.projects != nil {
		// The pool a project's tables may bind: a guest or session project
		// reads the curated datasets only, an account project its account's too.
		pr, err := s.projects.Project(ctx, c.Principal, id, "")
		if err != nil {
			return nil, err
		}
		if pr.AccountID != c.Principal.AccountID {
			reader = Principal{AccountID: pr.AccountID}
		}
	}
	ds, err := s.b.DataSourcesFor(ctx, reader)
	if err != nil {
		return nil, err
	}
	return shapeAll(ds, s.shaper(c).dataSource), nil
}

// importDataset resolves Mutation.importDataset. An absent name is empty:
// the backend names the dataset.
func (s datasetResolvers) importDataset(ctx context.Context, c *Call, args input) (any, error) {
	content := args.str("content")
	if len(content) > maxImportContent {
		return nil, model.Errorf(model.CodeBadUserInput,
			"content is %s, over %s: upload the file to POST /datasets/{importCode}", model.Size(int64(len(content))), model.Size(maxImportContent))
	}
	d, err := s.b.ImportDataset(ctx, c.Principal, DatasetImport{
		ImportCode:   args.str("importCode"),
		Name:         args.str("name"),
		Format:       args.str("format"),
		VariantField: args.str("variantField"),
		Body:         strings.NewReader(content),
		MaxBytes:     maxImportContent,
		Size:         int64(len(content)),
	})
	if err != nil {
		return nil, err
	}
	return s.shaper(c).dataSource(d), nil
}

// deleteDataset resolves Mutation.deleteDataset.
func (s datasetResolvers) deleteDataset(ctx context.Context, c *Call, args input) (any, error) {
	if err := s.b.DeleteDataset(ctx, c.Principal, args.str("importCode")); err != nil {
		return nil, err
	}
	return true, nil
}
