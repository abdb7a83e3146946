package app

import (
	"context"
	"encoding/json"
	"fmt"
	"runtime/debug"
	"slices"
	"strings"

	"github.com/mockgql/mockgql/actors"
	"github.com/mockgql/mockgql/dataset"
	"github.com/mockgql/mockgql/ids"
	"github.com/mockgql/mockgql/model"
)

// Bounds of sampleDocuments (whatever limit is asked): a document over
// maxSampleDoc bytes is replaced by a note of its size, and one call
// returns at most maxSampleBytes.
const (
	maxSampleDoc   = 32 << 10
	maxSampleBytes = 256 << 10
)

// DataSources lists the curated data pool (what anonymous callers,
// sessions and guests see).
func (s *MCP) DataSources(ctx context.Context) ([]model.DataSource, error) {
	return s.dataSourcesFor(ctx, model.Principal{})
}

// DataSourcesFor lists the data pool as p sees it: the curated datasets
// and, for a member of an account (or its API key), the account's own; of
// two with one code, the one its projects read (actors.Pool.Readable).
func (s *core) dataSourcesFor(ctx context.Context, p model.Principal) ([]model.DataSource, error) {
	metas, err := s.pool.Readable(p.AccountID)
	if err != nil {
		return nil, err
	}
	out := make([]model.DataSource, 0, len(metas))
	for _, m := range metas {
		ds := s.dataSource(m)
		ds.Owned = m.Owner != "" && m.Owner == p.AccountID
		out = append(out, ds)
	}
	slices.SortStableFunc(out, func(a, b model.DataSource) int { return strings.Compare(a.ImportCode, b.ImportCode) })
	return out, nil
}

// dataSource shapes a catalog entry; samples load the dataset on demand.
func (s *core) dataSource(m actors.DatasetMeta) model.DataSource {
	ds := model.DataSource{ImportCode: m.ImportCode, Name: m.Name, FieldPaths: m.FieldPaths, RecordCount: m.RecordCount,
		Variants: []model.DataSourceVariant{}}
	for _, v := range m.Variants {
		ds.Variants = append(ds.Variants, model.DataSourceVariant{Name: v.Name, RecordCount: v.Count})
	}
	ds.Samples = poolSamples{pool: s.pool, key: m.Key}
	return ds
}

// poolSamples reads a catalog entry's first documents from the data pool
// when they are asked for (model.DocumentSampler): listing the pool loads
// no dataset.
type poolSamples struct {
	pool *actors.Pool
	key  string
}

// Sample returns up to limit documents, a document over maxSampleDoc or
// past maxSampleBytes in all replaced by a note saying so.
func (p poolSamples) Sample(limit int) []json.RawMessage {
	d := p.pool.Dataset(p.key)
	out, total := []json.RawMessage{}, 0
	for i := 0; d != nil && i < limit && i < d.Len() && total < maxSampleBytes; i++ {
		doc := d.Document(i)
		if len(doc) > maxSampleDoc || total+len(doc) > maxSampleBytes {
			doc = json.RawMessage(fmt.Sprintf(`{"_omitted":"a document of %d bytes; samples show documents up to %d bytes and %d bytes a call"}`,
				len(doc), maxSampleDoc, maxSampleBytes))
		}
		total += len(doc)
		out = append(out, doc)
	}
	return out
}

// ImportDataset parses an upload as a stream and adds it to the data pool.
// An account's upload first holds room in its plan's datasets (one
// dataset, and the upload's size or all the bytes left) and reads no more
// than it holds; the stored size is settled against the plan before the
// catalog entry is written, and a refused or failed import releases its
// hold (actors/account_limits.go). The contents are written first and the
// catalog entry last, in the dataset grain that makes import codes unique;
// a refused or failed import leaves nothing behind (an orphaned blob from
// a crash is collected at a node's start once a day old).
func (s *Datasets) ImportDataset(ctx context.Context, p model.Principal, in model.DatasetImport) (model.DataSource, error) {
	owner, format, err := s.checkImport(ctx, p, in)
	if err != nil {
		return model.DataSource{}, err
	}
	max := in.MaxBytes
	if max <= 0 || max > s.cfg.MaxDatasetBytes {
		max = s.cfg.MaxDatasetBytes
	}
	h := uploadHold{s: s.core, owner: owner}
	room := false // the plan's room, not the server's limit, bounds the upload
	if owner != "" {
		h.id = ids.RandomString(16)
		held, err := s.grains.ReserveDataset(ctx, owner, in.ImportCode, h.id, in.Size, in.Size > 0)
		if err != nil {
			return model.DataSource{}, err
		}
		if held > 0 && held < max {
			max, room = held, true // the upload stops at the room it holds
		}
	}
	d, err := dataset.Read(in.Body, dataset.Options{ImportCode: in.ImportCode, Name: in.Name, Format: format,
		VariantField: in.VariantField, MaxBytes: max})
	if err == nil {
		err = checkPaths(d)
	}
	if err != nil {
		h.release(ctx)
		if room && model.ErrorCode(err) == model.CodePayloadTooLarge {
			err = s.roomError(ctx, p, max)
		}
		return model.DataSource{}, err
	}
	return s.commitDataset(ctx, d, string(format), in.VariantField, h)
}

// roomError refuses an upload that outgrew the left bytes of the room its
// account's plan has for its own datasets, in sizes and with what to do.
func (s *core) roomError(ctx context.Context, p model.Principal, left int64) error {
	plan := "account's"
	if a, err := s.access(ctx, p); err == nil && a.Plan != "" {
		plan = strings.ToLower(string(a.Plan)) + " plan's"
	}
	return model.Errorf(model.CodePayloadTooLarge, "the dataset is larger than the %s left of the %s room for its own datasets: delete a dataset (deleteDataset) or change the plan (setPlan)", model.Size(left), plan)
}

// checkImport checks p may import in and returns the owner of the upload
// and its format. A taken code is refused before a large body is read.
func (s *core) checkImport(ctx context.Context, p model.Principal, in model.DatasetImport) (string, dataset.Format, error) {
	if err := s.canImport(ctx, p); err != nil {
		return "", "", err
	}
	format, err := dataset.ParseFormat(in.Format)
	if err != nil {
		return "", "", err
	}
	if err := model.CheckID("importCode", in.ImportCode); err != nil {
		return "", "", err
	}
	if err := model.CheckDisplayName("a dataset name", in.Name); err != nil {
		return "", "", err
	}
	owner, err := s.datasetOwner(ctx, p)
	if err != nil {
		return "", "", err
	}
	return owner, format, s.grains.CheckCodeFree(ctx, owner, in.ImportCode)
}

// checkPaths refuses a dataset with a field path over maxFieldPath.
func checkPaths(d *dataset.Dataset) error {
	for _, path := range d.Paths() {
		if len(path) > maxFieldPath {
			return model.Errorf(model.CodeBadUserInput, "a field path has %d bytes; the limit is %d", len(path), maxFieldPath)
		}
	}
	return nil
}

// maxFieldPath bounds a dataset's field paths (dot-joined field names).
const maxFieldPath = 256

// uploadHold is the room an account's upload holds in its plan's datasets;
// a curated upload (owner "") holds none.
type uploadHold struct {
	s         *core
	owner, id string
}

// settle sets the hold to the stored size, checked against the plan.
func (h uploadHold) settle(ctx context.Context, blobID string, size int64) error {
	if h.owner == "" {
		return nil
	}
	return h.s.grains.SettleDataset(ctx, h.owner, h.id, blobID, size)
}

// release drops the hold, even when the request was cancelled (the client
// went away): a hold not released lasts until it expires.
func (h uploadHold) release(ctx context.Context) {
	if h.owner == "" {
		return
	}
	ctx, cancel := undoContext(ctx)
	defer cancel()
	_ = h.s.grains.ReleaseDataset(ctx, h.owner, h.id) // on failure the hold expires
}

// datasetOwner is the owner of p's uploads: its account, or none (the
// curated pool) for the node itself and the --pool-curators accounts and
// users (by account ID, or by the uploading user's e-mail).
func (s *core) datasetOwner(ctx context.Context, p model.Principal) (string, error) {
	curators := s.cfg.PoolCurators
	if p.System || slices.Contains(curators, p.AccountID) {
		return "", nil
	}
	if len(curators) > 0 && p.UserID != "" {
		st, err := s.account(ctx, p.AccountID)
		if err != nil {
			return "", err
		}
		if m := st.Account.Member(p.UserID); m != nil && slices.Contains(curators, strings.ToLower(m.User.Email)) {
			return "", nil
		}
	}
	return p.AccountID, nil
}

// DeleteDataset deletes one of the account's own datasets (EDITOR or
// higher). It is refused while a table of the account's projects is bound
// to it, naming the tables (only the account's projects can read it). The
// owner may import the code again.
func (s *Management) DeleteDataset(ctx context.Context, p model.Principal, code string) error {
	if err := s.canImport(ctx, p); err != nil {
		return err
	}
	if err := model.CheckID("importCode", code); err != nil {
		return err
	}
	m, err := s.ownDataset(ctx, p.AccountID, code)
	if err != nil {
		return err
	}
	projects, err := s.Projects(ctx, p)
	if err != nil {
		return err
	}
	var bound []string
	for _, pr := range projects {
		for _, t := range pr.Tables {
			if t.Source != nil && t.Source.ImportCode == code {
				bound = append(bound, pr.Name+"."+t.Name)
			}
		}
	}
	if len(bound) > 0 {
		return model.Errorf(model.CodeConflict, "dataset %q is bound to %s; unbind or delete those tables first", code, strings.Join(bound[:min(len(bound), 10)], ", "))
	}
	if err := s.grains.DeleteDataset(ctx, m.Key); err != nil {
		return err
	}
	s.pool.Evict(m.Key)
	return s.pool.DeleteBlob(code, m.BlobID)
}

// ownDataset finds the catalog entry of code that account's projects read
// (actors.Client.ReadDataset): NOT_FOUND if none, FORBIDDEN if it is curated.
func (s *core) ownDataset(ctx context.Context, account, code string) (actors.DatasetMeta, error) {
	m, found, err := s.grains.ReadDataset(ctx, account, code)
	switch {
	case err != nil:
		return m, err
	case !found:
		return m, model.Errorf(model.CodeNotFound, "no dataset %q", code)
	case m.Owner == "":
		return m, model.Errorf(model.CodeForbidden, "dataset %q is in the curated pool, which the operator keeps", code)
	}
	return m, nil
}

func (s *core) canImport(ctx context.Context, p model.Principal) error {
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
		return model.Errorf(model.CodeForbidden, "importing datasets needs role EDITOR or higher")
	}
	return nil
}

// commitDataset writes d's blob, settles its hold and writes its catalog
// entry; a failure undoes what was done.
func (s *core) commitDataset(ctx context.Context, d *dataset.Dataset, format, variantField string, h uploadHold) (model.DataSource, error) {
	blobID, size, err := s.pool.WriteBlob(d, s.clock.Now())
	if err != nil {
		h.release(ctx)
		return model.DataSource{}, err
	}
	if err := h.settle(ctx, blobID, size); err != nil {
		_ = s.pool.DeleteBlob(d.ImportCode(), blobID)
		h.release(ctx)
		return model.DataSource{}, err
	}
	m := actors.DatasetMeta{ImportCode: d.ImportCode(), Name: d.Name(), Format: format, VariantField: variantField,
		RecordCount: d.Len(), FieldPaths: d.Paths(), Variants: d.Variants(), BlobID: blobID, CreatedAt: s.clock.Now().UTC(),
		Owner: h.owner, Bytes: size}
	if m.Variants == nil {
		m.Variants = []dataset.Variant{}
	}
	m, err = s.grains.CommitDataset(ctx, m)
	if err != nil {
		_ = s.pool.DeleteBlob(m.ImportCode, blobID)
		h.release(ctx)
		return model.DataSource{}, err
	}
	s.pool.Put(m, d)
	// An import leaves the parse buffers and the encoded copy as garbage,
	// several times the dataset's size; give it back to the OS now rather
	// than keep it resident until the scavenger gets to it.
	debug.FreeOSMemory()
	return s.dataSource(m), nil
}
