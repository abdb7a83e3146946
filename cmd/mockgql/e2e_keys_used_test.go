package main

import (
	"strings"
	"testing"
	"time"
)

// TestAPIKeyLastUsedAt (issue 22 item 10): a key that opened a runtime
// request shows lastUsedAt, kept to the minute (the key grain records the
// minute of last use at most once a minute, not a write per request); a
// key never used shows null.
func TestAPIKeyLastUsedAt(t *testing.T) {
	s := startServer(t)
	sh := newShop(t, s, "last-used@example.com", "lu")
	pid := sh.project["id"]
	before := time.Now().UTC().Truncate(time.Minute)
	for range 3 {
		sh.query(`{ products { total } }`, nil).data(t)
	}
	keys := sh.owner.must(`query($p:ID!){ apiKeys(projectId:$p) { scope lastUsedAt } }`, map[string]any{"p": pid})["apiKeys"].([]any)
	seen := map[string]any{}
	for _, k := range keys {
		m := k.(map[string]any)
		seen[m["scope"].(string)] = m["lastUsedAt"]
	}
	used, _ := seen["FULL"].(string)
	at, err := time.Parse(time.RFC3339, used)
	if err != nil {
		t.Fatalf("the FULL key was used; lastUsedAt = %v (%v)", seen["FULL"], keys)
	}
	if at.Second() != 0 || at.Nanosecond() != 0 || at.Before(before) || at.After(time.Now().Add(time.Minute)) {
		t.Fatalf("lastUsedAt %s: want the minute of the use, from %s", used, before)
	}
	if seen["RUNTIME"] != nil || seen["MANAGEMENT"] != nil {
		t.Fatalf("keys never used show lastUsedAt: %v", seen)
	}
	// The record survives the key grain's checkpoint: read again after a flush tick.
	time.Sleep(1500 * time.Millisecond)
	r := sh.owner.gql(`query($p:ID!){ apiKeys(projectId:$p) { scope lastUsedAt } }`, map[string]any{"p": pid})
	if !strings.Contains(string(r.Raw), used) {
		t.Fatalf("after the flush: %s", r.Raw)
	}
}
