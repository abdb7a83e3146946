package actors

import (
	"fmt"
	"time"

	"github.com/mockgql/mockgql/actors/internal/pb"
	"github.com/mockgql/mockgql/model"
)

// The plan caps an account grain enforces itself, so that they hold under
// parallel requests: each request is checked and counted in one grain
// turn, the way the request quota is.
//
// Dataset count and bytes follow the quota's rule: reserve, then settle or
// release. An upload first holds room (AccountReserveDataset: one dataset
// and its Content-Length, or all the bytes left when the size is unknown)
// before its body is read; the read stops at the room held. The stored
// size is settled (AccountSettleDataset) before the catalog entry is
// written and checked against the plan again, so the plan's bytes hold
// exactly; a failed or refused upload releases its hold. What the account
// uses is its datasets in the catalog plus the holds the catalog does not
// show yet.
//
// Holds do not leak: they are checkpointed with the account (so a hold
// survives the grain moving to another node) and expire — a pending hold
// after Config.UploadHold (the uploader died or gave up), a settled one
// once the catalog shows its dataset or after settledGrace (the node died
// between settling and writing the entry).

// DatasetHold is room an upload holds in its account's dataset count and
// bytes.
type DatasetHold struct {
	// Key is the catalog key the upload will write.
	Key     string    `json:"key"`
	Bytes   int64     `json:"bytes"`
	Expires time.Time `json:"expires"`
	// Settled: Bytes is the stored size and the catalog entry naming
	// BlobID is (being) written.
	Settled bool   `json:"settled,omitempty"`
	BlobID  string `json:"blobId,omitempty"`
}

// settledGrace is how long a settled hold counts while the catalog does
// not show its dataset: longer than a catalog write takes to reach every
// node, short enough that a crash between settling and writing frees the
// room soon.
const settledGrace = 10 * time.Minute

// datasetUse is what an account's own datasets take: those in the catalog
// and the holds not yet there. blobs holds the blob IDs of the account's
// catalog entries, deleted ones included: a settled hold whose blob is
// there is in the catalog (or was, and was deleted since).
type datasetUse struct {
	count int
	bytes int64
	blobs map[string]bool
}

// catalogUse reads the account's datasets from the node's catalog (every
// node holds the whole catalog; see cluster.Store.Fetch).
func catalogUse(g *grain) (datasetUse, error) {
	u := datasetUse{blobs: map[string]bool{}}
	if g.env.Pool == nil {
		return u, nil
	}
	metas, err := g.env.Pool.List()
	if err != nil {
		return u, err
	}
	for _, m := range metas {
		if m.Owner != g.id {
			continue
		}
		u.blobs[m.BlobID], u.blobs[m.DeletedBlob] = true, true
		if !m.Deleted {
			u.count, u.bytes = u.count+1, u.bytes+m.Bytes
		}
	}
	return u, nil
}

// pruneHolds drops the holds that no longer count: expired ones and
// settled ones the catalog shows.
func pruneHolds(s *AccountState, blobs map[string]bool, now time.Time) {
	for id, h := range s.Holds {
		if !now.Before(h.Expires) || h.Settled && blobs[h.BlobID] {
			delete(s.Holds, id)
		}
	}
}

// withHolds adds the holds of s but except to the catalog's use.
func (u datasetUse) withHolds(s *AccountState, except string) datasetUse {
	for id, h := range s.Holds {
		if id != except {
			u.count, u.bytes = u.count+1, u.bytes+h.Bytes
		}
	}
	return u
}

// datasetCaps are the plan's dataset limits (0: none).
func datasetCaps(g *grain, plan model.Plan) (count int, bytes int64) {
	i := model.PlanIndex(plan)
	return g.env.Config.Limits.Datasets[i], g.env.Config.Limits.DatasetBytes[i]
}

// holdEdit runs edit on a copy of the state with the holds pruned and the
// catalog's use read, and checkpoints it (see update).
func (a *accountGrain) holdEdit(g *grain, edit func(s *AccountState, u datasetUse, now time.Time) error) (result, error) {
	u, err := catalogUse(g)
	if err != nil {
		return nil, err
	}
	now := g.env.Clock.Now()
	return a.update(g, "", "", func(s *AccountState) error {
		if s.Holds == nil {
			s.Holds = map[string]DatasetHold{}
		}
		pruneHolds(s, u.blobs, now)
		return edit(s, u, now)
	})
}

// reserveDataset answers AccountReserveDataset.
func (a *accountGrain) reserveDataset(g *grain, m *pb.AccountReserveDataset) (result, error) {
	if h, ok := a.state.Holds[m.HoldId]; ok && !h.Settled {
		return a.state, nil // a retried reserve
	}
	plan := a.state.Account.Plan
	maxCount, maxBytes := datasetCaps(g, plan)
	ttl := g.env.Config.UploadHold
	if ttl <= 0 {
		ttl = DefaultConfig().UploadHold
	}
	return a.holdEdit(g, func(s *AccountState, cat datasetUse, now time.Time) error {
		u := cat.withHolds(s, "")
		if maxCount > 0 && u.count >= maxCount {
			return datasetCountError(plan, maxCount)
		}
		want := max(m.Bytes, 0)
		if maxBytes > 0 {
			left := maxBytes - u.bytes
			switch {
			case left <= 0:
				return datasetBytesError(plan, maxBytes, 0)
			case m.Exact && want > left:
				return datasetBytesError(plan, maxBytes, left)
			case want == 0 || want > left:
				want = left
			}
		}
		s.Holds[m.HoldId] = DatasetHold{Key: m.Key, Bytes: want, Expires: now.Add(ttl)}
		return nil
	})
}

// settleDataset answers AccountSettleDataset. A hold that expired
// meanwhile is settled too if the plan has room for it.
func (a *accountGrain) settleDataset(g *grain, m *pb.AccountSettleDataset) (result, error) {
	plan := a.state.Account.Plan
	maxCount, maxBytes := datasetCaps(g, plan)
	return a.holdEdit(g, func(s *AccountState, cat datasetUse, now time.Time) error {
		h, ok := s.Holds[m.HoldId]
		if ok && h.Settled {
			return nil // a retried settle
		}
		u := cat.withHolds(s, m.HoldId)
		if maxCount > 0 && u.count >= maxCount {
			return datasetCountError(plan, maxCount)
		}
		if maxBytes > 0 && u.bytes+m.Bytes > maxBytes {
			return datasetBytesError(plan, maxBytes, maxBytes-u.bytes)
		}
		s.Holds[m.HoldId] = DatasetHold{Key: h.Key, Bytes: m.Bytes, Expires: now.Add(settledGrace), Settled: true, BlobID: m.BlobId}
		return nil
	})
}

// releaseDataset answers AccountReleaseDataset.
func (a *accountGrain) releaseDataset(g *grain, m *pb.AccountReleaseDataset) (result, error) {
	if _, ok := a.state.Holds[m.HoldId]; !ok {
		return a.state, nil
	}
	return a.update(g, "", "", func(s *AccountState) error {
		delete(s.Holds, m.HoldId)
		return nil
	})
}

func datasetCountError(plan model.Plan, n int) error {
	return model.Errorf(model.CodeLimitReached, "the %s plan holds %d datasets of an account's own (uploads under way count); delete one (deleteDataset) or change plan", plan, n)
}

// datasetBytesError refuses an upload past the plan's bytes; left > 0 is
// the room there is.
func datasetBytesError(plan model.Plan, max, left int64) error {
	msg := fmt.Sprintf("the %s plan holds %d MB of an account's own datasets (uploads under way count)", plan, max>>20)
	if left > 0 {
		msg += fmt.Sprintf("; this upload is larger than the %d bytes left", left)
	}
	return &model.Error{Code: model.CodeLimitReached, Message: msg + "; delete one (deleteDataset) or change plan"}
}

// claimProject answers AccountClaimProject: the project joins the account
// unless the plan's project cap is reached.
func (a *accountGrain) claimProject(g *grain, m *pb.AccountClaimProject) (result, error) {
	plan := a.state.Account.Plan
	limit := g.env.Config.Limits.Projects[model.PlanIndex(plan)]
	return a.update(g, "", "", func(s *AccountState) error {
		ids := removeString(s.Account.ProjectIDs, m.ProjectId)
		if limit > 0 && len(ids) >= limit {
			return model.Errorf(model.CodeLimitReached, "the %s plan holds %d projects an account; delete one (deleteProject) or change plan", plan, limit)
		}
		s.Account.ProjectIDs = append(ids, m.ProjectId)
		return nil
	})
}

// claimKey answers AccountClaimKey: the key joins the account's index
// unless its project holds the plan's cap of keys.
func (a *accountGrain) claimKey(g *grain, m *pb.AccountClaimKey) (result, error) {
	plan := a.state.Account.Plan
	limit := g.env.Config.Limits.KeysPerProject[model.PlanIndex(plan)]
	return a.update(g, "", "", func(s *AccountState) error {
		if _, ok := s.Keys[m.KeyId]; ok {
			return nil // a retried claim
		}
		if n := keysOf(s, m.ProjectId); limit > 0 && n >= limit {
			return model.Errorf(model.CodeLimitReached, "the %s plan holds %d API keys a project (revoked ones count until deleted); delete one (deleteApiKey) or change plan", plan, limit)
		}
		s.Keys[m.KeyId] = KeyRef{Hash: m.KeyHash, ProjectID: m.ProjectId, CreatedBy: m.CreatedBy}
		return nil
	})
}

// keysOf counts the keys of projectID in the account's index.
func keysOf(s *AccountState, projectID string) int {
	n := 0
	for _, r := range s.Keys {
		if r.ProjectID == projectID {
			n++
		}
	}
	return n
}

// runLimits answers the requests of the plan caps.
func (a *accountGrain) runLimits(g *grain, c *call) (result, error) {
	switch m := c.req.(type) {
	case *pb.AccountReserveDataset:
		return a.reserveDataset(g, m)
	case *pb.AccountSettleDataset:
		return a.settleDataset(g, m)
	case *pb.AccountReleaseDataset:
		return a.releaseDataset(g, m)
	case *pb.AccountClaimProject:
		return a.claimProject(g, m)
	case *pb.AccountClaimKey:
		return a.claimKey(g, m)
	}
	return nil, unknownRequest(g, c)
}
