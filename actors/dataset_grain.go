package actors

import (
	"github.com/mockgql/mockgql/actors/internal/pb"
	"github.com/mockgql/mockgql/model"
)

// datasetGrain makes a catalog key's entry unique: it commits an entry
// only if the key is free or its dataset was deleted. Its identity is the
// catalog key (catalogKey).
type datasetGrain struct {
	meta  DatasetMeta
	found bool
}

func (d *datasetGrain) load(g *grain) (err error) {
	d.found, err = g.loadJSON(&d.meta)
	return err
}

func (d *datasetGrain) handle(g *grain, c *call) (result, error) {
	switch req := c.req.(type) {
	case *pb.DatasetGet:
		if !d.found {
			return nil, model.Errorf(model.CodeNotFound, "no dataset %q", g.id)
		}
		return d.meta, nil
	case *pb.DatasetDelete:
		if !d.found || d.meta.Deleted {
			return nil, nil
		}
		gone := DatasetMeta{ImportCode: d.meta.ImportCode, Owner: d.meta.Owner, Deleted: true, CreatedAt: d.meta.CreatedAt,
			DeletedBlob: d.meta.BlobID}
		return nil, commit(g, gone, func(v DatasetMeta) { d.meta = v })
	case *pb.DatasetCommit:
		m, err := decodeDoc[DatasetMeta](req.Dataset.GetJson())
		if err != nil {
			return nil, err
		}
		if d.found && d.meta.BlobID == m.BlobID {
			return d.meta, nil // a retried commit
		}
		if d.found && !d.meta.Deleted {
			return nil, codeTaken(d.meta.ImportCode)
		}
		if err := commit(g, *m, func(v DatasetMeta) { d.meta, d.found = v, true }); err != nil {
			return nil, err
		}
		return d.meta, nil
	}
	return nil, unknownRequest(g, c)
}

// codeTaken is the refusal of an import code in use.
func codeTaken(code string) error {
	return model.Errorf(model.CodeConflict, "a dataset with importCode %q exists", code)
}
