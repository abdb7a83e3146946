package actors

import (
	"context"
	"encoding/json"
	"runtime/debug"

	"github.com/mockgql/mockgql/model"
	"github.com/mockgql/mockgql/model/dataset"
)

// DataSources lists the data pool.
func (s *Service) DataSources(ctx context.Context) ([]model.DataSource, error) {
	metas, err := s.env.Pool.List()
	if err != nil {
		return nil, err
	}
	out := make([]model.DataSource, 0, len(metas))
	for _, m := range metas {
		out = append(out, s.dataSource(m))
	}
	return out, nil
}

// dataSource shapes a catalog entry; samples load the dataset on demand.
func (s *Service) dataSource(m datasetMeta) model.DataSource {
	ds := model.DataSource{ImportCode: m.ImportCode, Name: m.Name, FieldPaths: m.FieldPaths, RecordCount: m.RecordCount,
		Variants: []model.DataSourceVariant{}}
	for _, v := range m.Variants {
		ds.Variants = append(ds.Variants, model.DataSourceVariant{Name: v.Name, RecordCount: v.Count})
	}
	code := m.ImportCode
	ds.Samples = func(limit int) []json.RawMessage {
		d := s.env.Pool.Dataset(code)
		out := []json.RawMessage{}
		for i := 0; d != nil && i < limit && i < d.Len(); i++ {
			out = append(out, d.Document(i))
		}
		return out
	}
	return ds
}

// ImportDataset parses an upload as a stream and adds it to the data pool.
// The contents are written first and the catalog entry last, in the dataset
// grain that makes import codes unique; a refused or failed import leaves
// nothing behind (an orphaned blob from a crash is collected at a node's start once a day old).
func (s *Service) ImportDataset(ctx context.Context, p model.Principal, in model.DatasetImport) (model.DataSource, error) {
	if err := s.canImport(ctx, p); err != nil {
		return model.DataSource{}, err
	}
	format, err := dataset.ParseFormat(in.Format)
	if err != nil {
		return model.DataSource{}, err
	}
	// Refuse a taken code before reading a large body.
	if err := s.call(ctx, KindDataset, in.ImportCode, "get", nil, nil); err == nil {
		return model.DataSource{}, model.Errorf(model.ErrConflict, "a dataset with importCode %q exists", in.ImportCode)
	}
	max := in.MaxBytes
	if max <= 0 || max > s.env.Config.MaxDatasetBytes {
		max = s.env.Config.MaxDatasetBytes
	}
	d, err := dataset.Read(in.Body, dataset.Options{ImportCode: in.ImportCode, Name: in.Name, Format: format,
		VariantField: in.VariantField, MaxBytes: max})
	if err != nil {
		return model.DataSource{}, err
	}
	return s.commitDataset(ctx, d, string(format), in.VariantField)
}

func (s *Service) canImport(ctx context.Context, p model.Principal) error {
	if p.System {
		return nil
	}
	if err := needUser(p); err != nil {
		return err
	}
	a, err := s.access(ctx, p)
	if err != nil {
		return err
	}
	if !a.Role.AtLeast(model.RoleEditor) {
		return model.Errorf(model.ErrForbidden, "importing datasets needs role EDITOR or higher")
	}
	return nil
}

func (s *Service) commitDataset(ctx context.Context, d *dataset.Dataset, format, variantField string) (model.DataSource, error) {
	blobID, puts, err := blobPuts(d, s.env.Clock.Now())
	if err != nil {
		return model.DataSource{}, err
	}
	// Two chunks a write: in a cluster each write is one replication
	// message, and those stay well under gRPC's message size.
	for i := 0; i < len(puts); i += 2 {
		if err := s.env.Store.Write(puts[i:min(i+2, len(puts))]...); err != nil {
			_ = s.env.Store.DeletePrefix(kindDataBlob, d.ImportCode()+"/"+blobID+"/")
			return model.DataSource{}, err
		}
	}
	m := datasetMeta{ImportCode: d.ImportCode(), Name: d.Name(), Format: format, VariantField: variantField,
		RecordCount: d.Len(), FieldPaths: d.Paths(), Variants: d.Variants(), BlobID: blobID, CreatedAt: s.env.Clock.Now().UTC()}
	if m.Variants == nil {
		m.Variants = []dataset.Variant{}
	}
	if err := s.call(ctx, KindDataset, m.ImportCode, "commit", m, nil); err != nil {
		_ = s.env.Store.DeletePrefix(kindDataBlob, m.ImportCode+"/"+blobID+"/")
		return model.DataSource{}, err
	}
	s.env.Pool.put(d)
	// An import leaves the parse buffers and the encoded copy as garbage,
	// several times the dataset's size; give it back to the OS now rather
	// than keep it resident until the scavenger gets to it.
	debug.FreeOSMemory()
	return s.dataSource(m), nil
}
