package app_test

import (
	"context"
	"testing"
	"time"

	"github.com/mockgql/mockgql/model"
)

// TestStaleSlugClaimIsReclaimed: a slug claimed by a project that does
// not hold it (a move that failed between its claim and its edit) can be
// taken by another project once the claim is older than any move takes,
// not before; a slug its holder does hold is never taken.
func TestStaleSlugClaimIsReclaimed(t *testing.T) {
	clock := newTestClock()
	nd := startNode(t, "", clock)
	svc, ctx := nd.svc, context.Background()
	ann := signUp(t, svc, "ann@example.com")
	a, err := svc.Management.CreateProject(ctx, ann.p, "A", "held")
	if err != nil {
		t.Fatal(err)
	}
	// The half-way move: A's claim on "left" stays, A keeps "held".
	if err := nd.env.RuntimePath().Client().Slug("left").Claim(ctx, a.ID, ""); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Management.CreateProject(ctx, ann.p, "B", "left"); model.ErrorCode(err) != model.CodeConflict {
		t.Fatalf("a fresh claim was taken: %v", err)
	}
	clock.Add(3 * time.Minute)
	b, err := svc.Management.CreateProject(ctx, ann.p, "B", "left")
	if err != nil {
		t.Fatalf("a stale claim was not reclaimed: %v", err)
	}
	if got, err := svc.Management.Project(ctx, ann.p, "", "left"); err != nil || got.ID != b.ID {
		t.Fatalf("project(slug: left): %v %v, want %s", got, err, b.ID)
	}
	if _, err := svc.Management.CreateProject(ctx, ann.p, "C", "held"); model.ErrorCode(err) != model.CodeConflict {
		t.Fatalf("a slug its holder holds was taken: %v", err)
	}
}
