package app_test

import (
	"context"
	"strings"
	"testing"

	"github.com/mockgql/mockgql/model"
)

// TestClientChosenSessionIsIgnored: mgq_session values are minted by the
// server only. A value a client chose — shaped like a session ID, never
// issued — is no session: creating a project with it mints a new one, and
// it reaches nothing. It used to be bound as the session (fixation: an
// attacker plants a value, the victim's projects land in the attacker's
// session).
func TestClientChosenSessionIsIgnored(t *testing.T) {
	nd := startNode(t, "", nil)
	ctx := context.Background()
	for _, forged := range []string{"s" + strings.Repeat("A", 26), "s" + strings.Repeat("A", 48), strings.Repeat("q", 16)} {
		sp, session, err := nd.svc.Public.CreateSessionProject(ctx, model.Principal{SessionID: forged}, "victim's")
		if err != nil {
			t.Fatalf("with the planted %q: %v", forged, err)
		}
		if session == forged || session == "" {
			t.Fatalf("the planted session %q was kept (got %q); want a fresh one minted", forged, session)
		}
		if pr, err := nd.svc.Public.SessionProject(ctx, model.Principal{SessionID: forged}); err != nil || pr != nil {
			t.Fatalf("the planted value reaches %+v (%v); want nothing", pr, err)
		}
		if pr, err := nd.svc.Public.SessionProject(ctx, model.Principal{SessionID: session}); err != nil || pr == nil || pr.ID != sp.Project.ID {
			t.Fatalf("the minted session reaches %+v (%v); want %s", pr, err, sp.Project.ID)
		}
		if _, err := nd.svc.Management.Project(ctx, model.Principal{SessionID: forged}, sp.Project.ID, ""); model.ErrorCode(err) != model.CodeForbidden {
			t.Fatalf("the planted value opens the project: %v", err)
		}
	}
	_, s1, _ := nd.svc.Public.CreateGuestProject(ctx, model.Principal{}, "g")
	if _, s2, err := nd.svc.Public.CreateGuestProject(ctx, model.Principal{SessionID: s1}, "g2"); err != nil || s2 != s1 {
		t.Fatalf("a minted session is kept: %q → %q (%v)", s1, s2, err)
	}
}

// TestOverlongIDsAreRefusedBeforeAnyGrain: IDs, slugs and e-mails are
// checked for length and shape before a grain is touched; the refusal
// names the limit and does not echo the value. A 30 KB project ID used to
// activate a grain (and write a record keyed by it), one over 32 KB to
// answer "UNAVAILABLE … moving" after 80 KB of log lines; and another
// account's project ID was named in NOT_FOUND.
func TestOverlongIDsAreRefusedBeforeAnyGrain(t *testing.T) {
	nd := startNode(t, "", nil)
	ctx := context.Background()
	ann := signUp(t, nd.svc, "ann@example.com")
	bob := signUp(t, nd.svc, "bob@example.com")
	long := strings.Repeat("p", 40<<10)
	tests := []struct {
		name string
		code model.Code
		call func() error
	}{
		{"project by ID", model.CodeBadUserInput, func() error { _, err := nd.svc.Management.Project(ctx, ann.p, long, ""); return err }},
		{"project by slug", model.CodeNotFound, func() error { _, err := nd.svc.Management.Project(ctx, ann.p, "", long); return err }},
		{"table by ID", model.CodeBadUserInput, func() error { return nd.svc.Management.DeleteTable(ctx, ann.p, "p1."+long) }},
		{"ID with a control character", model.CodeBadUserInput, func() error { _, err := nd.svc.Management.Project(ctx, ann.p, "p\x00x", ""); return err }},
		{"login e-mail", model.CodeUnauthenticated, func() error { _, _, err := nd.svc.Management.Login(ctx, long+"@example.com", "x", ""); return err }},
		{"sign-up e-mail", model.CodeBadUserInput, func() error {
			_, _, err := nd.svc.Management.SignUp(ctx, model.Principal{}, long+"@example.com", "a long password", "")
			return err
		}},
		{"sign-up name", model.CodeBadUserInput, func() error {
			_, _, err := nd.svc.Management.SignUp(ctx, model.Principal{}, "cy@example.com", "a long password", long)
			return err
		}},
	}
	for _, tt := range tests {
		err := tt.call()
		if model.ErrorCode(err) != tt.code || len(err.Error()) > 200 {
			t.Errorf("%s: %v; want %s without the value", tt.name, model.Truncate(err.Error(), 300), tt.code)
		}
	}
	pr, err := nd.svc.Management.CreateProject(ctx, ann.p, "Ann's", "")
	if err != nil {
		t.Fatal(err)
	}
	_, err = nd.svc.Management.Project(ctx, bob.p, pr.ID, "")
	if model.ErrorCode(err) != model.CodeNotFound || strings.Contains(err.Error(), pr.ID) {
		t.Errorf("another account's project: %v; want NOT_FOUND without its ID", err)
	}
	if _, _, err := nd.svc.Management.SignUp(ctx, model.Principal{}, "ann@example.com", "another password", ""); model.ErrorCode(err) != model.CodeConflict ||
		strings.Contains(err.Error(), "ann@") || strings.Contains(err.Error(), "exists") {
		t.Errorf("signUp of a taken e-mail: %v; want CONFLICT that neither echoes the address nor says it exists", err)
	}
}
