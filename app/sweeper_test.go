package app_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/mockgql/mockgql/actors/actorstest"
	"github.com/mockgql/mockgql/model"
	"github.com/mockgql/mockgql/persistence"
)

// records lists every stored record that names projectID, by kind.
func records(t *testing.T, nd *node, projectID, slug string) []string {
	t.Helper()
	var found []string
	for _, kind := range []string{"project", "overlay", "reply", "expiry", "adoption", "slug", "session"} {
		err := nd.db.Scan(kind, "", func(id string, v []byte) error {
			if strings.Contains(id, projectID) || (kind == "slug" && id == slug) ||
				(kind != "expiry" && strings.Contains(string(v), projectID)) {
				found = append(found, kind+"/"+id)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return found
}

// TestSweepDeletesExpiredSessionProject: the sweep deletes everything of an
// expired session project from the store, frees its session for a new
// project, and finishes a sweep that stopped half-way.
func TestSweepDeletesExpiredSessionProject(t *testing.T) {
	clock := newTestClock()
	nd := startNode(t, "", clock)
	svc, ctx := nd.svc, context.Background()
	sweeper := nd.env.RuntimePath().Client() // the node's sweeper (cmd/mockgql runs it, RunSweeper)
	importProducts(t, svc, "products")
	newSession := func(session string) (*model.Project, string) {
		t.Helper()
		sp, session, err := svc.Public.CreateSessionProject(ctx, model.Principal{SessionID: session}, "S")
		if err != nil {
			t.Fatal(err)
		}
		buildShop(t, svc, model.Principal{SessionID: session}, sp.Project.ID, "products")
		mutate(t, svc, sp.Project.Slug, "", sp.Project.ShareToken, `mutation { createProduct(input: {name: "Mine"}) { id } }`, "createProduct")
		return sp.Project, session
	}
	pr, session := newSession("")
	if len(records(t, nd, pr.ID, pr.Slug)) == 0 {
		t.Fatal("the test finds no records of a live project")
	}
	if err := sweeper.Sweep(ctx); err != nil || len(records(t, nd, pr.ID, pr.Slug)) == 0 {
		t.Fatalf("a live project was swept: %v", err)
	}
	clock.Add(24*time.Hour + time.Second)
	if err := sweeper.Sweep(ctx); err != nil {
		t.Fatal(err)
	}
	if left := records(t, nd, pr.ID, pr.Slug); len(left) > 0 {
		t.Fatalf("left after the sweep: %v", left)
	}
	if err := sweeper.Sweep(ctx); err != nil {
		t.Fatalf("sweeping again: %v", err)
	}
	next, _ := newSession(session) // the session's claim was released

	// A sweeper that died after the deletion, before the releases: the
	// next sweep finishes them from the index entry.
	clock.Add(24*time.Hour + time.Second)
	var key string
	_ = nd.db.Scan("expiry", "", func(id string, _ []byte) error {
		if strings.HasSuffix(id, "/"+next.ID) {
			key = id
		}
		return nil
	})
	cctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	if err := actorstest.Expire(cctx, nd.env.Caller, next.ID, "half-way", key); err != nil {
		t.Fatalf("expire: %v", err)
	}
	if left := records(t, nd, next.ID, next.Slug); len(left) != 3 { // the pending index entry, the slug, the session's claim
		t.Fatalf("after the deletion alone: %v", left)
	}
	if err := sweeper.Sweep(ctx); err != nil {
		t.Fatal(err)
	}
	if left := records(t, nd, next.ID, next.Slug); len(left) > 0 {
		t.Fatalf("left after the second sweep: %v", left)
	}
	if _, _, err := svc.Public.CreateSessionProject(ctx, model.Principal{SessionID: session}, "again"); err != nil {
		t.Fatalf("the session is still claimed: %v", err)
	}
}

// TestSessionClaimFromOldCheckpoint: a session checkpoint written when a
// session held one project (projectId, expires) still counts that claim.
func TestSessionClaimFromOldCheckpoint(t *testing.T) {
	clock := newTestClock()
	nd := startNode(t, "", clock)
	ctx := context.Background()
	_, session, err := nd.svc.Public.CreateGuestProject(ctx, model.Principal{}, "mints the session")
	if err != nil {
		t.Fatal(err)
	}
	h := sha256.Sum256([]byte(session))
	old, _ := json.Marshal(map[string]any{"guest": map[string]any{}, "projectId": "pOld00000000000", "expires": clock.Now().Add(time.Hour)})
	if err := nd.db.Write(persistence.Put{Kind: "session", ID: hex.EncodeToString(h[:]), Value: old}); err != nil {
		t.Fatal(err)
	}
	_, _, err = nd.svc.Public.CreateSessionProject(ctx, model.Principal{SessionID: session}, "new")
	if model.ErrorCode(err) != model.CodeLimitReached || !strings.Contains(err.Error(), "pOld00000000000") {
		t.Fatalf("with the old claim live: %v", err)
	}
	clock.Add(time.Hour)
	if _, _, err := nd.svc.Public.CreateSessionProject(ctx, model.Principal{SessionID: session}, "new"); err != nil {
		t.Fatalf("after the old claim's expiry: %v", err)
	}
}
