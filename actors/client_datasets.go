package actors

import (
	"context"

	"github.com/mockgql/mockgql/actors/internal/pb"
	"github.com/mockgql/mockgql/model"
)

// The typed client's calls of dataset grains, which hold the catalog of
// the data pool: one entry per catalog key (catalogKey), looked up on an
// account's behalf in catalogKeys' order.

// ReadDataset finds the catalog entry of code that account's projects
// read: the first in catalogKeys' order (the account's own, then the
// curated one) that is visible to it; found is false when there is none.
func (s *Client) ReadDataset(ctx context.Context, account, code string) (m DatasetMeta, found bool, err error) {
	for _, key := range catalogKeys(account, code) {
		got, err := s.askDataset(ctx, key, &pb.DatasetGet{})
		switch {
		case model.ErrorCode(err) == model.CodeNotFound:
		case err != nil:
			return DatasetMeta{}, false, err
		case got.VisibleTo(account):
			m := *got
			m.Key = key
			return m, true, nil
		}
	}
	return DatasetMeta{}, false, nil
}

// CheckCodeFree refuses code (CONFLICT) when owner already reads a dataset
// under it: its own (under either key, see catalogKeys) or, for an
// account, a curated one, which its projects may be bound to and must not
// silently leave for a new upload. Another account's dataset with the
// code is no obstacle.
func (s *Client) CheckCodeFree(ctx context.Context, owner, code string) error {
	m, found, err := s.ReadDataset(ctx, owner, code)
	switch {
	case err != nil || !found:
		return err
	case m.Owner != owner:
		return model.Errorf(model.CodeConflict, "the curated pool has a dataset with importCode %q; choose another", code)
	}
	return codeTaken(code)
}

// CommitDataset writes m, whose blob is written, as the catalog entry of
// its code in m.Owner's catalog (the dataset grain makes codes unique
// there: a code in use is CONFLICT) and returns it with its Key.
func (s *Client) CommitDataset(ctx context.Context, m DatasetMeta) (DatasetMeta, error) {
	m.Key = catalogKey(m.Owner, m.ImportCode)
	err := s.tell(ctx, kindDataset, m.Key, &pb.DatasetCommit{Dataset: &pb.DatasetDoc{Json: encodeDoc(m)}})
	return m, err
}

// DeleteDataset marks the catalog entry under key deleted; its owner may
// import the code again.
func (s *Client) DeleteDataset(ctx context.Context, key string) error {
	return s.tell(ctx, kindDataset, key, &pb.DatasetDelete{})
}

// askDataset sends req to a dataset grain and decodes its catalog entry.
func (s *Client) askDataset(ctx context.Context, key string, req grainRequest) (*DatasetMeta, error) {
	r, err := s.ask(ctx, kindDataset, key, req)
	if err != nil {
		return nil, err
	}
	return decodeDoc[DatasetMeta](r.GetDataset().GetJson())
}

// Readable lists the catalog entries account's projects read (account ""
// is sessions, guests and anonymous callers: the curated pool), one per
// import code — the first of catalogKeys' order visible to it — in List's
// order.
func (p *Pool) Readable(account string) ([]DatasetMeta, error) {
	metas, err := p.List()
	if err != nil {
		return nil, err
	}
	byKey := map[string]DatasetMeta{}
	for _, m := range metas {
		if m.VisibleTo(account) {
			byKey[m.Key] = m
		}
	}
	out := make([]DatasetMeta, 0, len(byKey))
	for _, m := range metas {
		for _, key := range catalogKeys(account, m.ImportCode) {
			if first, ok := byKey[key]; ok {
				if first.Key == m.Key {
					out = append(out, m)
				}
				break
			}
		}
	}
	return out, nil
}
