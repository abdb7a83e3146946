package app_test

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mockgql/mockgql/model"
	"github.com/mockgql/mockgql/persistence"
)

// TestStoredGuestProjectGetsExpiry: a guest project stored before guest
// projects expired (no expiresAt, no expiry index entry) gets one
// Config.GuestTTL from the node's start (MigrateGuests, which RunSweeper
// runs first), and is then swept like any other once that has passed.
func TestStoredGuestProjectGetsExpiry(t *testing.T) {
	clock := newTestClock()
	path := filepath.Join(t.TempDir(), "mockgql.db")
	first := startNode(t, path, clock)
	pr, _, err := first.svc.Public.CreateGuestProject(context.Background(), model.Principal{}, "Old")
	if err != nil {
		t.Fatal(err)
	}
	first.stop()
	makeLegacy(t, path, pr.ID)

	clock.Add(100 * 24 * time.Hour) // long after the 30 days it would have had
	nd := startNode(t, path, clock)
	sweeper := nd.env.RuntimePath().Client()
	if err := sweeper.Sweep(context.Background()); err != nil {
		t.Fatal(err)
	}
	if len(records(t, nd, pr.ID, pr.Slug)) == 0 {
		t.Fatal("a stored guest project was swept before it got an expiry")
	}
	if err := sweeper.MigrateGuests(context.Background()); err != nil {
		t.Fatal(err)
	}
	got, err := nd.svc.Management.Project(context.Background(), model.Principal{System: true}, pr.ID, "")
	if err != nil {
		t.Fatal(err)
	}
	if want := clock.Now().Add(30 * 24 * time.Hour); !got.ExpiresAt.Equal(want) {
		t.Fatalf("expiresAt %v, want %v", got.ExpiresAt, want)
	}
	clock.Add(30*24*time.Hour + time.Second)
	if err := sweeper.Sweep(context.Background()); err != nil {
		t.Fatal(err)
	}
	if left := records(t, nd, pr.ID, pr.Slug); len(left) > 0 {
		t.Fatalf("left after its expiry: %v", left)
	}
}

// makeLegacy rewrites a stopped node's guest project as it was stored
// before guest projects expired: no expiresAt, no expiry index entry.
func makeLegacy(t *testing.T, path, projectID string) {
	t.Helper()
	db, err := persistence.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	b, err := db.Get("project", projectID)
	if err != nil || b == nil {
		t.Fatalf("project record: %v", err)
	}
	var st map[string]any
	if err := json.Unmarshal(b, &st); err != nil {
		t.Fatal(err)
	}
	p, _ := st["project"].(map[string]any)
	if _, ok := p["expiresAt"]; !ok {
		t.Fatal("a new guest project has no expiresAt")
	}
	delete(p, "expiresAt")
	raw, _ := json.Marshal(st)
	puts := []persistence.Put{{Kind: "project", ID: projectID, Value: raw}}
	_ = db.Scan("expiry", "", func(id string, _ []byte) error {
		if strings.HasSuffix(id, "/"+projectID) {
			puts = append(puts, persistence.Put{Kind: "expiry", ID: id})
		}
		return nil
	})
	if len(puts) != 2 {
		t.Fatalf("a new guest project has %d expiry index entries", len(puts)-1)
	}
	if err := db.Write(puts...); err != nil {
		t.Fatal(err)
	}
}
