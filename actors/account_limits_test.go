package actors

import (
	"log/slog"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/mockgql/mockgql/actors/internal/pb"
	"github.com/mockgql/mockgql/model"
	"github.com/mockgql/mockgql/persistence"
)

// movingClock is a clock the test moves.
type movingClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *movingClock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }

func (c *movingClock) add(d time.Duration) { c.mu.Lock(); c.t = c.t.Add(d); c.mu.Unlock() }

// limitsFixture is one STARTER account grain over a real store, with 3
// datasets and 1000 bytes of its own, 2 projects and 2 keys a project.
type limitsFixture struct {
	t     *testing.T
	env   *Env
	g     *grain
	a     *accountGrain
	clock *movingClock
}

func newLimitsFixture(t *testing.T) *limitsFixture {
	t.Helper()
	db, err := persistence.Open(filepath.Join(t.TempDir(), "mockgql.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	clock := &movingClock{t: time.Date(2026, 11, 27, 10, 0, 0, 0, time.UTC)}
	cfg := DefaultConfig()
	cfg.Limits.Datasets[0], cfg.Limits.DatasetBytes[0] = 3, 1000
	cfg.Limits.Projects[0], cfg.Limits.KeysPerProject[0] = 2, 2
	cfg.UploadHold = time.Minute
	env := &Env{Store: db, Pool: NewPool(db), Local: &Local{}, Clock: clock, Config: cfg, Log: slog.New(slog.DiscardHandler)}
	a := &accountGrain{}
	g := &grain{env: env, kind: kindAccount, id: "acc1", b: a}
	f := &limitsFixture{t: t, env: env, g: g, a: a, clock: clock}
	acc := model.Account{ID: "acc1", Name: "A", Plan: model.PlanStarter}
	f.must(&pb.AccountCreate{Account: &pb.AccountDoc{Json: encodeDoc(acc)}})
	return f
}

// ask sends req to the grain and returns the error code ("" on success).
func (f *limitsFixture) ask(req grainRequest) model.Code {
	f.t.Helper()
	_, err := f.g.safeHandle(&call{req: req, hdr: headerOf(req)})
	return model.ErrorCode(err)
}

func (f *limitsFixture) must(req grainRequest) {
	f.t.Helper()
	if code := f.ask(req); code != "" {
		f.t.Fatalf("%s: %s", requestName(req), code)
	}
}

// catalog writes a catalog entry of the account, as CommitDataset does.
func (f *limitsFixture) catalog(code, blob string, bytes int64, deleted bool) {
	f.t.Helper()
	m := DatasetMeta{ImportCode: code, BlobID: blob, Owner: "acc1", Bytes: bytes, Deleted: deleted}
	if deleted {
		m.BlobID, m.DeletedBlob = "", blob
	}
	if err := f.env.Store.Write(persistence.Put{Kind: kindDataset, ID: catalogKey("acc1", code), Value: encodeDoc(m)}); err != nil {
		f.t.Fatal(err)
	}
}

func reserve(id, code string, bytes int64, exact bool) *pb.AccountReserveDataset {
	return &pb.AccountReserveDataset{HoldId: id, Key: catalogKey("acc1", code), Bytes: bytes, Exact: exact}
}

// TestDatasetHolds: the arithmetic of the holds an upload takes in its
// account's dataset count and bytes: reserve before reading, settle to the
// stored size (checked again), release on failure, expiry of holds left
// behind, and the catalog taking over from a settled hold.
func TestDatasetHolds(t *testing.T) {
	f := newLimitsFixture(t)
	held := func(id string) int64 { return f.a.state.Holds[id].Bytes }

	// An exact size that fits is held as is; one that does not is refused
	// whole; an unknown size holds all that is left.
	f.must(reserve("h1", "a", 400, true))
	if held("h1") != 400 {
		t.Fatalf("h1 holds %d, want 400", held("h1"))
	}
	if code := f.ask(reserve("h2", "b", 700, true)); code != model.CodeLimitReached {
		t.Fatalf("700 bytes with 600 left: %q, want LIMIT_REACHED", code)
	}
	f.must(reserve("h2", "b", 0, false))
	if held("h2") != 600 {
		t.Fatalf("an unknown size holds %d, want the 600 left", held("h2"))
	}
	if code := f.ask(reserve("h3", "c", 1, true)); code != model.CodeLimitReached {
		t.Fatalf("no bytes left: %q", code)
	}
	// Releasing gives the room back; a retried release is harmless.
	f.must(&pb.AccountReleaseDataset{HoldId: "h2"})
	f.must(&pb.AccountReleaseDataset{HoldId: "h2"})
	f.must(reserve("h3", "c", 100, true))

	// Settling checks the stored size against the plan: h1 stored 450
	// (more than held) fits beside h3's 100; 951 would not.
	if code := f.ask(&pb.AccountSettleDataset{HoldId: "h1", Bytes: 901, BlobId: "b1"}); code != model.CodeLimitReached {
		t.Fatalf("settling past the plan: %q", code)
	}
	f.must(&pb.AccountSettleDataset{HoldId: "h1", Bytes: 450, BlobId: "b1"})
	// The count: h1 and h3 held, a third fits, a fourth does not.
	f.must(reserve("h4", "d", 10, true))
	if code := f.ask(reserve("h5", "e", 10, true)); code != model.CodeLimitReached {
		t.Fatalf("a fourth dataset on a plan of 3: %q", code)
	}

	// The catalog takes over from the settled hold (no double count).
	f.catalog("a", "b1", 450, false)
	f.must(&pb.AccountReleaseDataset{HoldId: "h4"})
	f.must(reserve("h5", "e", 10, true))
	if _, ok := f.a.state.Holds["h1"]; ok {
		t.Fatal("the settled hold outlived its catalog entry")
	}
	if code := f.ask(reserve("h6", "f", 10, true)); code != model.CodeLimitReached {
		t.Fatalf("catalog a + holds h3, h5 = 3: %q", code)
	}

	// A dataset deleted after it was settled ends its hold too.
	f.must(&pb.AccountSettleDataset{HoldId: "h5", Bytes: 10, BlobId: "b5"})
	f.catalog("e", "b5", 0, true)
	f.must(reserve("h6", "f", 10, true))

	// Holds left behind (an uploader that died) expire.
	f.clock.add(time.Minute)
	f.must(reserve("h7", "g", 0, false))
	if len(f.a.state.Holds) != 1 || held("h7") != 550 {
		t.Fatalf("after expiry: holds %+v, want h7 alone holding the 550 left", f.a.state.Holds)
	}
	// Holds are checkpointed: a new activation has them.
	b := &accountGrain{}
	if err := b.load(&grain{env: f.env, kind: kindAccount, id: "acc1", b: b}); err != nil || len(b.state.Holds) != 1 {
		t.Fatalf("reloaded holds %+v, %v", b.state.Holds, err)
	}
}

// TestPlanCaps: projects per account and keys per project, claimed in the
// account grain; a retried claim is no second one.
func TestPlanCaps(t *testing.T) {
	f := newLimitsFixture(t)
	for i, tc := range []struct {
		req  grainRequest
		code model.Code
	}{
		{&pb.AccountClaimProject{ProjectId: "p1"}, ""},
		{&pb.AccountClaimProject{ProjectId: "p1"}, ""}, // retried
		{&pb.AccountClaimProject{ProjectId: "p2"}, ""},
		{&pb.AccountClaimProject{ProjectId: "p3"}, model.CodeLimitReached},
		{&pb.AccountClaimKey{KeyId: "k1", KeyHash: "h1", ProjectId: "p1", CreatedBy: "u1"}, ""},
		{&pb.AccountClaimKey{KeyId: "k1", KeyHash: "h1", ProjectId: "p1", CreatedBy: "u1"}, ""}, // retried
		{&pb.AccountClaimKey{KeyId: "k2", KeyHash: "h2", ProjectId: "p1"}, ""},
		{&pb.AccountClaimKey{KeyId: "k3", KeyHash: "h3", ProjectId: "p1"}, model.CodeLimitReached},
		{&pb.AccountClaimKey{KeyId: "k3", KeyHash: "h3", ProjectId: "p2"}, ""}, // another project
		{&pb.AccountRemoveKey{KeyId: "k2"}, ""},
		{&pb.AccountClaimKey{KeyId: "k4", KeyHash: "h4", ProjectId: "p1"}, ""}, // room again
		{&pb.AccountRemoveProject{ProjectId: "p2"}, ""},
		{&pb.AccountClaimProject{ProjectId: "p3"}, ""},
	} {
		if code := f.ask(tc.req); code != tc.code {
			t.Fatalf("step %d %s: %q, want %q", i, requestName(tc.req), code, tc.code)
		}
	}
	if got := f.a.state.Keys["k1"].CreatedBy; got != "u1" {
		t.Fatalf("k1 made by %q", got)
	}
	if n := len(f.a.state.Account.ProjectIDs); n != 2 {
		t.Fatalf("%d projects", n)
	}
}
