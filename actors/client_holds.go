package actors

import (
	"context"

	"github.com/mockgql/mockgql/actors/internal/pb"
)

// The typed client's calls of the room an upload holds in its account's
// dataset limits (account_limits.go): reserve before the body is read,
// settle to the stored size before the catalog entry is written, release
// on failure.

// ReserveDataset holds room for an upload of code to owner's datasets
// under holdID: one dataset and size bytes (exact: size is the upload's
// known length, refused whole with LIMIT_REACHED when it does not fit;
// size 0: all the bytes left). It returns the bytes held, the most the
// upload may read when the plan bounds bytes (0: the plan does not and
// the size was not given).
func (s *Client) ReserveDataset(ctx context.Context, owner, code, holdID string, size int64, exact bool) (int64, error) {
	st, err := s.askAccount(ctx, owner, &pb.AccountReserveDataset{HoldId: holdID, Key: catalogKey(owner, code), Bytes: size, Exact: exact})
	if err != nil {
		return 0, err
	}
	return st.Holds[holdID].Bytes, nil
}

// SettleDataset sets owner's hold to the stored size of blobID, checked
// against the plan again (LIMIT_REACHED when it no longer fits).
func (s *Client) SettleDataset(ctx context.Context, owner, holdID, blobID string, size int64) error {
	return s.tellAccount(ctx, owner, &pb.AccountSettleDataset{HoldId: holdID, Bytes: size, BlobId: blobID})
}

// ReleaseDataset drops owner's hold: its upload failed or was refused.
func (s *Client) ReleaseDataset(ctx context.Context, owner, holdID string) error {
	return s.tellAccount(ctx, owner, &pb.AccountReleaseDataset{HoldId: holdID})
}
