package app_test

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mockgql/mockgql/actors"
	"github.com/mockgql/mockgql/model"
)

// wantCode fails unless err carries code.
func wantCodeOf(tb testing.TB, what string, err error, code model.Code) {
	tb.Helper()
	if model.ErrorCode(err) != code {
		tb.Fatalf("%s: %v, want %s", what, err, code)
	}
}

// queryBody is a runtime request body.
func queryBody(query string) []byte {
	b, _ := json.Marshal(map[string]string{"query": query})
	return b
}

func TestPreviewSharing(t *testing.T) {
	path := filepath.Join(t.TempDir(), "mockgql.db")
	clock := newTestClock()
	nd := startNode(t, path, clock)
	ctx := context.Background()
	importProducts(t, nd.svc, "products")
	tm := newTeam(t, nd, "pv")
	pr, err := nd.svc.Management.CreateProject(ctx, tm.owner.p, "Shop", "pv-shop")
	if err != nil {
		t.Fatal(err)
	}
	tbl := buildShop(t, nd.svc, tm.owner.p, pr.ID, "products")
	before, err := nd.svc.Management.Project(ctx, tm.owner.p, pr.ID, "")
	if err != nil {
		t.Fatal(err)
	}

	t.Run("off by default", func(t *testing.T) {
		for _, tok := range []string{"", "shr_guess"} {
			_, err := nd.svc.Preview.Preview(ctx, "pv-shop", tok)
			wantCodeOf(t, "preview with "+tok, err, model.CodeUnauthenticated)
		}
		_, err := nd.svc.Preview.Preview(ctx, "no-such-shop", "shr_x")
		wantCodeOf(t, "unknown slug", err, model.CodeProjectNotFound)
		_, err = nd.svc.Preview.Preview(ctx, "Not A Slug!", "shr_x")
		wantCodeOf(t, "invalid slug", err, model.CodeProjectNotFound)
	})
	t.Run("roles", func(t *testing.T) {
		_, err := nd.svc.Management.SetPreviewSharing(ctx, tm.viewer, pr.ID, true)
		wantCodeOf(t, "viewer", err, model.CodeForbidden)
		if _, err := nd.svc.Management.SetPreviewSharing(ctx, tm.editor, pr.ID, true); err != nil {
			t.Fatalf("editor: %v", err)
		}
		_, err = nd.svc.Management.SetPreviewSharing(ctx, signUp(t, nd.svc, "pv-stranger@example.com").p, pr.ID, true)
		wantCodeOf(t, "stranger", err, model.CodeNotFound)
	})
	on, err := nd.svc.Management.SetPreviewSharing(ctx, tm.owner.p, pr.ID, true)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(on.ShareToken, "shr_") || len(on.ShareToken) < 24 || on.Version != before.Version {
		t.Fatalf("sharing on: token %q, version %d (was %d)", on.ShareToken, on.Version, before.Version)
	}
	t.Run("a fresh token replaces the old one", func(t *testing.T) {
		again, err := nd.svc.Management.SetPreviewSharing(ctx, tm.owner.p, pr.ID, true)
		if err != nil {
			t.Fatal(err)
		}
		if again.ShareToken == on.ShareToken {
			t.Fatal("the token did not change")
		}
		_, err = nd.svc.Preview.Preview(ctx, "pv-shop", on.ShareToken)
		wantCodeOf(t, "old token", err, model.CodeUnauthenticated)
		on = again
	})
	t.Run("the token never opens the runtime", func(t *testing.T) {
		_, err := runtime(ctx, nd.svc, "pv-shop", "", on.ShareToken, `{ products { total } }`)
		wantCodeOf(t, "runtime with the share token", err, model.CodeUnauthenticated)
	})
	t.Run("the preview", func(t *testing.T) {
		pv, err := nd.svc.Preview.Preview(ctx, "pv-shop", on.ShareToken)
		if err != nil {
			t.Fatal(err)
		}
		smp, ok := pv.Samples[tbl.ID]
		if !ok || smp.Operation != "products" || smp.Total != 3 || len(smp.Items) != 3 || len(smp.Errors) != 0 {
			t.Fatalf("sample: %+v", smp)
		}
		if !strings.Contains(string(smp.Items[0]), `"name":"Laptop"`) || !strings.Contains(pv.SDL, "type Product") || pv.Project.ID != pr.ID {
			t.Fatalf("preview: %s, %q", smp.Items[0], pv.SDL)
		}
	})

	// The token is durable: it outlives a restart, and so does turning it off.
	nd.stop()
	nd = startNode(t, path, clock)
	if _, err := nd.svc.Preview.Preview(ctx, "pv-shop", on.ShareToken); err != nil {
		t.Fatalf("after a restart: %v", err)
	}
	off, err := nd.svc.Management.SetPreviewSharing(ctx, tm.owner.p, pr.ID, false)
	if err != nil || off.ShareToken != "" {
		t.Fatalf("sharing off: %+v, %v", off, err)
	}
	nd.stop()
	nd = startNode(t, path, clock)
	_, err = nd.svc.Preview.Preview(ctx, "pv-shop", on.ShareToken)
	wantCodeOf(t, "after turning it off and a restart", err, model.CodeUnauthenticated)

	t.Run("guest projects keep their token", func(t *testing.T) {
		gp, session, err := nd.svc.Public.CreateGuestProject(ctx, model.Principal{}, "Guest")
		if err != nil {
			t.Fatal(err)
		}
		gs := model.Principal{SessionID: session}
		_, err = nd.svc.Management.SetPreviewSharing(ctx, gs, gp.ID, false)
		wantCodeOf(t, "guest sharing off", err, model.CodeBadUserInput)
		kept, err := nd.svc.Management.SetPreviewSharing(ctx, gs, gp.ID, true)
		if err != nil || kept.ShareToken != gp.ShareToken {
			t.Fatalf("guest sharing on: %+v, %v", kept, err)
		}
		pv, err := nd.svc.Preview.Preview(ctx, gp.Slug, gp.ShareToken)
		if err != nil || pv.Project.ID != gp.ID || len(pv.Samples) != 0 {
			t.Fatalf("guest preview: %+v, %v", pv, err)
		}
	})
}

func TestPreviewQuota(t *testing.T) {
	nd := startNode(t, "", nil, func(e *actors.Env) {
		e.Config.Limits.StarterQuota, e.Config.GuestDailyCalls, e.Config.SessionDailyCalls = 4, 2, 2
	})
	svc := nd.svc
	ctx := context.Background()
	importProducts(t, svc, "products")
	tm := newTeam(t, nd, "pq")
	pr, err := svc.Management.CreateProject(ctx, tm.owner.p, "Shop", "pq-shop")
	if err != nil {
		t.Fatal(err)
	}
	buildShop(t, svc, tm.owner.p, pr.ID, "products")
	on, err := svc.Management.SetPreviewSharing(ctx, tm.owner.p, pr.ID, true)
	if err != nil {
		t.Fatal(err)
	}

	t.Run("account plan quota", func(t *testing.T) {
		if _, err := svc.Preview.Preview(ctx, "pq-shop", on.ShareToken); err != nil { // 1
			t.Fatal(err)
		}
		res, err := svc.Management.PreviewQuery(ctx, tm.editor, pr.ID, "", queryBody(`mutation { createProduct(input: {name: "Lamp", price: 5}) { id } }`)) // 2
		if err != nil || res.Status != 200 || !strings.Contains(string(res.Body), `"createProduct"`) {
			t.Fatalf("editor's mutation: %+v, %v", res, err)
		}
		// A viewer's mutation is refused before it counts.
		_, err = svc.Management.PreviewQuery(ctx, tm.viewer, pr.ID, "", queryBody(`mutation { deleteProduct(id: "p1") { id } }`))
		wantCodeOf(t, "viewer's mutation", err, model.CodeForbidden)
		res, err = svc.Management.PreviewQuery(ctx, tm.viewer, pr.ID, "", queryBody(`{ products { total } }`)) // 3
		if err != nil || string(res.Body) != `{"data":{"products":{"total":4}}}` {
			t.Fatalf("viewer's query: %+v, %v", res, err)
		}
		res, err = svc.Management.PreviewQuery(ctx, tm.owner.p, pr.ID, "", queryBody(`{ nope }`)) // 4: refused documents count, as on the runtime
		if err != nil || res.Status != 400 || !strings.Contains(string(res.Body), "nope") {
			t.Fatalf("refused document: %+v, %v", res, err)
		}
		_, err = svc.Preview.Preview(ctx, "pq-shop", on.ShareToken)
		wantCodeOf(t, "preview over quota", err, model.CodeTooManyRequests)
		_, err = svc.Management.PreviewQuery(ctx, tm.owner.p, pr.ID, "", queryBody(`{ products { total } }`))
		wantCodeOf(t, "previewQuery over quota", err, model.CodeTooManyRequests)
		_, usage, err := svc.Management.Account(ctx, tm.owner.p)
		if err != nil || usage.Requests != 4 {
			t.Fatalf("usage: %+v, %v", usage, err)
		}
		_, err = svc.Management.PreviewQuery(ctx, signUp(t, svc, "pq-stranger@example.com").p, pr.ID, "", queryBody(`{ products { total } }`))
		wantCodeOf(t, "stranger", err, model.CodeNotFound)
	})
	t.Run("guest session quota", func(t *testing.T) {
		gp, session, err := svc.Public.CreateGuestProject(ctx, model.Principal{}, "Guest")
		if err != nil {
			t.Fatal(err)
		}
		buildShop(t, svc, model.Principal{SessionID: session}, gp.ID, "products")
		for i := 0; i < 2; i++ {
			if _, err := svc.Preview.Preview(ctx, gp.Slug, gp.ShareToken); err != nil {
				t.Fatal(err)
			}
		}
		_, err = svc.Preview.Preview(ctx, gp.Slug, gp.ShareToken)
		wantCodeOf(t, "guest preview over quota", err, model.CodeTooManyRequests)
		_, err = runtime(ctx, svc, gp.Slug, "", gp.ShareToken, `{ products { total } }`)
		wantCodeOf(t, "guest runtime over quota", err, model.CodeTooManyRequests)
	})
	t.Run("session project quota", func(t *testing.T) {
		sp, session, err := svc.Public.CreateSessionProject(ctx, model.Principal{}, "Session")
		if err != nil {
			t.Fatal(err)
		}
		buildShop(t, svc, model.Principal{SessionID: session}, sp.Project.ID, "products")
		if _, err := svc.Preview.Preview(ctx, sp.Project.Slug, sp.Project.ShareToken); err != nil {
			t.Fatal(err)
		}
		if _, err := runtime(ctx, svc, sp.Project.Slug, "", sp.Project.ShareToken, `{ products { total } }`); err != nil {
			t.Fatal(err)
		}
		_, err = svc.Preview.Preview(ctx, sp.Project.Slug, sp.Project.ShareToken)
		wantCodeOf(t, "session preview over quota", err, model.CodeTooManyRequests)
	})
}
