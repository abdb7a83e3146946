package actors

import (
	"fmt"
	"testing"
	"time"
)

// The log keeps the newest keepReplies answers: each write past that
// deletes the oldest in the same batch.
func TestReplyLogKeepsNewest(t *testing.T) {
	l := &replyLog{bodies: map[string][]byte{}}
	now := time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)
	for i := range keepReplies + 2 {
		id := fmt.Sprint("r", i)
		puts := l.puts("p1", id, []byte(id), now)
		wantDeletes := 0
		if i >= keepReplies {
			wantDeletes = 1
		}
		if len(puts) != 1+wantDeletes || puts[0].ID != "p1/"+id || string(puts[0].Value[8:]) != id {
			t.Fatalf("write %d: %+v", i, puts)
		}
		for _, p := range puts[1:] {
			if p.Value != nil || p.ID != fmt.Sprint("p1/r", i-keepReplies) {
				t.Fatalf("write %d deletes %+v", i, p)
			}
		}
		l.add(id, []byte(id))
	}
	if _, ok := l.bodies["r1"]; ok || len(l.bodies) != keepReplies || l.order[0] != "r2" {
		t.Fatalf("kept %d, oldest %s", len(l.bodies), l.order[0])
	}
}
