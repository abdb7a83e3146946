package app_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/mockgql/mockgql/model"
)

func TestProjects(t *testing.T) {
	nd := startNode(t, "", nil)
	svc := nd.svc
	ctx := context.Background()
	ann := signUp(t, svc, "ann@example.com")
	bob := signUp(t, svc, "bob@example.com")

	t.Run("create", func(t *testing.T) {
		pr, err := svc.Management.CreateProject(ctx, ann.p, "  Pet Store  ", "")
		if err != nil {
			t.Fatal(err)
		}
		if pr.Name != "Pet Store" || pr.Slug != "pet-store" || pr.Kind != model.KindAccount || pr.AccountID != ann.acc.ID ||
			!pr.CreatedAt.Equal(nd.clock.Now()) || pr.ShareToken != "" {
			t.Errorf("project = %+v", pr)
		}
		got, err := svc.Management.Project(ctx, ann.p, "", "pet-store")
		if err != nil || got.ID != pr.ID {
			t.Errorf("Project by slug = %v, %v", got, err)
		}
		got, err = svc.Management.Project(ctx, ann.p, pr.ID, "")
		if err != nil || got.Slug != "pet-store" || got.Tables == nil {
			t.Errorf("Project by ID = %+v, %v", got, err)
		}
	})
	t.Run("slugs derived from alike names differ", func(t *testing.T) {
		a, err := svc.Management.CreateProject(ctx, ann.p, "Same Name", "")
		if err != nil {
			t.Fatal(err)
		}
		b, err := svc.Management.CreateProject(ctx, bob.p, "same  name!", "")
		if err != nil {
			t.Fatal(err)
		}
		if a.Slug != "same-name" || b.Slug == a.Slug || !strings.HasPrefix(b.Slug, "same-name-") || !model.ValidSlug(b.Slug) {
			t.Errorf("slugs %q and %q: want same-name and same-name-<suffix>", a.Slug, b.Slug)
		}
		if got, err := svc.Management.Project(ctx, bob.p, "", b.Slug); err != nil || got.ID != b.ID {
			t.Errorf("second slug resolves to %v, %v", got, err)
		}
	})
	t.Run("slug of a short or odd name", func(t *testing.T) {
		for name, want := range map[string]string{"A": "a-project", "日本": "project"} {
			pr, err := svc.Management.CreateProject(ctx, ann.p, name, "")
			if err != nil {
				t.Fatal(err)
			}
			if pr.Slug != want && !strings.HasPrefix(pr.Slug, want+"-") {
				t.Errorf("slug of %q = %q, want %q", name, pr.Slug, want)
			}
		}
	})
	t.Run("explicit slug", func(t *testing.T) {
		pr, err := svc.Management.CreateProject(ctx, ann.p, "Whatever", "my-api")
		if err != nil || pr.Slug != "my-api" {
			t.Fatalf("CreateProject = %+v, %v", pr, err)
		}
		_, err = svc.Management.CreateProject(ctx, bob.p, "Mine", "my-api")
		wantCode(t, err, model.CodeConflict)
		for _, bad := range []string{"My-Api", "-x", "x", "a_b", strings.Repeat("a", 65)} {
			_, err = svc.Management.CreateProject(ctx, ann.p, "Bad", bad)
			wantCode(t, err, model.CodeBadUserInput)
		}
	})
	t.Run("refusals", func(t *testing.T) {
		_, err := svc.Management.CreateProject(ctx, ann.p, "   ", "")
		wantCode(t, err, model.CodeBadUserInput)
		_, err = svc.Management.CreateProject(ctx, model.Principal{}, "Anon", "")
		wantCode(t, err, model.CodeUnauthenticated)
		_, err = svc.Management.Project(ctx, ann.p, "", "no-such-slug")
		wantCode(t, err, model.CodeNotFound)
		_, err = svc.Management.Project(ctx, ann.p, "pNoSuchProject", "")
		wantCode(t, err, model.CodeNotFound)
		_, err = svc.Management.Project(ctx, model.Principal{}, "", "pet-store")
		wantCode(t, err, model.CodeUnauthenticated)
	})
	t.Run("other accounts see nothing", func(t *testing.T) {
		pr, err := svc.Management.Project(ctx, ann.p, "", "pet-store")
		if err != nil {
			t.Fatal(err)
		}
		_, err = svc.Management.Project(ctx, bob.p, pr.ID, "")
		wantCode(t, err, model.CodeNotFound)
		_, err = svc.Management.CreateTable(ctx, bob.p, pr.ID, "Stolen", nil)
		wantCode(t, err, model.CodeNotFound)
		err = svc.Management.DeleteProject(ctx, bob.p, pr.ID)
		wantCode(t, err, model.CodeNotFound)
		// Bob claiming to be in Ann's account does not make him a member.
		_, err = svc.Management.Project(ctx, model.Principal{UserID: bob.user.ID, AccountID: ann.acc.ID}, pr.ID, "")
		wantCode(t, err, model.CodeNotFound)
	})
	t.Run("list", func(t *testing.T) {
		list, err := svc.Management.Projects(ctx, bob.p)
		if err != nil {
			t.Fatal(err)
		}
		if len(list) != 1 || !strings.HasPrefix(list[0].Slug, "same-name-") {
			t.Errorf("bob's projects = %+v", list)
		}
		_, err = svc.Management.Projects(ctx, model.Principal{})
		wantCode(t, err, model.CodeUnauthenticated)
	})
	t.Run("update moves the slug", func(t *testing.T) {
		pr, err := svc.Management.CreateProject(ctx, ann.p, "Mover", "old-home")
		if err != nil {
			t.Fatal(err)
		}
		got, err := svc.Management.UpdateProject(ctx, ann.p, pr.ID, ptr("Moved"), ptr("new-home"))
		if err != nil {
			t.Fatal(err)
		}
		if got.Name != "Moved" || got.Slug != "new-home" || got.Version <= pr.Version {
			t.Errorf("updated = %+v", got)
		}
		if got, err := svc.Management.Project(ctx, ann.p, "", "new-home"); err != nil || got.ID != pr.ID {
			t.Errorf("new slug: %v, %v", got, err)
		}
		_, err = svc.Management.Project(ctx, ann.p, "", "old-home")
		wantCode(t, err, model.CodeNotFound)
		// The old slug is free for another project.
		if other, err := svc.Management.CreateProject(ctx, bob.p, "Squatter", "old-home"); err != nil || other.Slug != "old-home" {
			t.Errorf("old slug not released: %v", err)
		}
		// Moving onto a taken slug is a conflict and changes nothing.
		_, err = svc.Management.UpdateProject(ctx, ann.p, pr.ID, nil, ptr("my-api"))
		wantCode(t, err, model.CodeConflict)
		_, err = svc.Management.UpdateProject(ctx, ann.p, pr.ID, nil, ptr("Not A Slug"))
		wantCode(t, err, model.CodeBadUserInput)
		_, err = svc.Management.UpdateProject(ctx, ann.p, pr.ID, ptr("  "), nil)
		wantCode(t, err, model.CodeBadUserInput)
		if got, err := svc.Management.Project(ctx, ann.p, pr.ID, ""); err != nil || got.Slug != "new-home" || got.Name != "Moved" {
			t.Errorf("after refused updates: %+v, %v", got, err)
		}
		// Renaming alone keeps the slug.
		if got, err := svc.Management.UpdateProject(ctx, ann.p, pr.ID, ptr("Renamed"), nil); err != nil || got.Slug != "new-home" {
			t.Errorf("rename: %+v, %v", got, err)
		}
		// Setting the slug it already has is a no-op, not a conflict.
		if _, err := svc.Management.UpdateProject(ctx, ann.p, pr.ID, nil, ptr("new-home")); err != nil {
			t.Errorf("same slug: %v", err)
		}
	})
	t.Run("update to an empty slug", func(t *testing.T) {
		pr, err := svc.Management.CreateProject(ctx, ann.p, "Keeper", "keeper")
		if err != nil {
			t.Fatal(err)
		}
		_, err = svc.Management.UpdateProject(ctx, ann.p, pr.ID, nil, ptr(""))
		wantCode(t, err, model.CodeBadUserInput)
		got, err := svc.Management.Project(ctx, ann.p, pr.ID, "")
		if err != nil || got.Slug != "keeper" {
			t.Errorf("after a refused empty slug: %+v, %v", got, err)
		}
	})
	t.Run("delete releases the slug", func(t *testing.T) {
		pr, err := svc.Management.CreateProject(ctx, ann.p, "Doomed", "doomed")
		if err != nil {
			t.Fatal(err)
		}
		if err := svc.Management.DeleteProject(ctx, ann.p, pr.ID); err != nil {
			t.Fatal(err)
		}
		_, err = svc.Management.Project(ctx, ann.p, pr.ID, "")
		wantCode(t, err, model.CodeNotFound)
		_, err = svc.Management.Project(ctx, ann.p, "", "doomed")
		wantCode(t, err, model.CodeNotFound)
		err = svc.Management.DeleteProject(ctx, ann.p, pr.ID)
		wantCode(t, err, model.CodeNotFound)
		list, err := svc.Management.Projects(ctx, ann.p)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range list {
			if p.ID == pr.ID {
				t.Error("the deleted project is still listed")
			}
		}
		again, err := svc.Management.CreateProject(ctx, bob.p, "Reborn", "doomed")
		if err != nil || again.Slug != "doomed" {
			t.Fatalf("slug of a deleted project not released: %v", err)
		}
		if got, err := svc.Management.Project(ctx, bob.p, "", "doomed"); err != nil || got.ID != again.ID {
			t.Errorf("slug resolves to %v, %v", got, err)
		}
	})
	t.Run("guest project", func(t *testing.T) {
		pr, session, err := svc.Public.CreateGuestProject(ctx, model.Principal{}, "")
		if err != nil {
			t.Fatal(err)
		}
		if pr.Kind != model.KindGuest || pr.AccountID != "" || !strings.HasPrefix(pr.ShareToken, "shr_") || session == "" ||
			!strings.HasPrefix(pr.Slug, "guest-") || pr.Name != "Guest project" {
			t.Errorf("guest project = %+v, session %q", pr, session)
		}
		mine := model.Principal{SessionID: session}
		if _, err := svc.Management.CreateTable(ctx, mine, pr.ID, "Product", nil); err != nil {
			t.Errorf("the session cannot edit its project: %v", err)
		}
		_, err = svc.Management.CreateTable(ctx, model.Principal{SessionID: "someone else"}, pr.ID, "Product2", nil)
		wantCode(t, err, model.CodeForbidden)
		_, err = svc.Management.CreateTable(ctx, ann.p, pr.ID, "Product2", nil)
		wantCode(t, err, model.CodeForbidden)
		// A second guest project of the same session keeps the session.
		pr2, session2, err := svc.Public.CreateGuestProject(ctx, mine, "Second")
		if err != nil || session2 != session || pr2.Slug == pr.Slug {
			t.Errorf("second guest project: %+v, %q, %v", pr2, session2, err)
		}
	})
}

// TestUpdateProjectTrimsName: spaces around a name are trimmed; a name
// over 100 characters is refused, naming the limit, by creation and
// update alike (it used to be cut silently, and a 40 KB name taken).
func TestUpdateProjectTrimsName(t *testing.T) {
	nd := startNode(t, "", nil)
	ann := signUp(t, nd.svc, "ann@example.com")
	ctx := context.Background()
	pr, err := nd.svc.Management.CreateProject(ctx, ann.p, "Shop", "")
	if err != nil {
		t.Fatal(err)
	}
	got, err := nd.svc.Management.UpdateProject(ctx, ann.p, pr.ID, ptr("  Big "+strings.Repeat("x", 94)+"  "), nil)
	if err != nil || got.Name != "Big "+strings.Repeat("x", 94) {
		t.Fatalf("a 98-character name with spaces around: %+v, %v", got, err)
	}
	long := strings.Repeat("x", 40<<10)
	for name, err := range map[string]error{
		"update": func() error { _, err := nd.svc.Management.UpdateProject(ctx, ann.p, pr.ID, &long, nil); return err }(),
		"create": func() error { _, err := nd.svc.Management.CreateProject(ctx, ann.p, long, ""); return err }(),
	} {
		if model.ErrorCode(err) != model.CodeBadUserInput || !strings.Contains(err.Error(), "limit is 100") || len(err.Error()) > 200 {
			t.Errorf("%s with a 40 KB name: %v; want BAD_USER_INPUT naming the limit, without the name", name, model.Truncate(fmt.Sprint(err), 300))
		}
	}
}

func TestModelEdits(t *testing.T) {
	nd := startNode(t, "", nil)
	svc := nd.svc
	ctx := context.Background()
	tm := newTeam(t, nd, "model")
	owner := tm.owner.p
	pr, err := svc.Management.CreateProject(ctx, tm.editor, "Shop", "")
	if err != nil {
		t.Fatal(err)
	}
	version := func(t *testing.T) int64 {
		t.Helper()
		got, err := svc.Management.Project(ctx, owner, pr.ID, "")
		if err != nil {
			t.Fatal(err)
		}
		return got.Version
	}
	var product, customer, order *model.Table

	t.Run("tables and attributes", func(t *testing.T) {
		var err error
		if product, err = svc.Management.CreateTable(ctx, tm.editor, pr.ID, "Product", &model.TableSource{ImportCode: "products"}); err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(product.ID, pr.ID+".") || product.Name != "Product" || product.Source.ImportCode != "products" {
			t.Errorf("table = %+v", product)
		}
		if customer, err = svc.Management.CreateTable(ctx, tm.editor, pr.ID, "Customer", nil); err != nil {
			t.Fatal(err)
		}
		if order, err = svc.Management.CreateTable(ctx, tm.editor, pr.ID, "Order", nil); err != nil {
			t.Fatal(err)
		}
		a, err := svc.Management.CreateAttribute(ctx, tm.editor, model.Attribute{TableID: product.ID, Name: "name", Type: model.TypeString, Mapping: model.MappingSource, SourcePath: "name"})
		if err != nil || a.TableID != product.ID || !strings.HasPrefix(a.ID, pr.ID+".") {
			t.Fatalf("attribute = %+v, %v", a, err)
		}
		for _, in := range []model.Attribute{
			{TableID: order.ID, Name: "customerId", Type: model.TypeID, Mapping: model.MappingSource, SourcePath: "customerId"},
			{TableID: customer.ID, Name: "email", Type: model.TypeString, Mapping: model.MappingGenerated, Generator: &model.Generator{Kind: "person.email"}},
		} {
			if _, err := svc.Management.CreateAttribute(ctx, tm.editor, in); err != nil {
				t.Fatalf("CreateAttribute(%s): %v", in.Name, err)
			}
		}
		v := version(t)
		_, err = svc.Management.CreateTable(ctx, tm.editor, pr.ID, "product", nil)
		wantCode(t, err, model.CodeConflict)
		_, err = svc.Management.CreateAttribute(ctx, tm.editor, model.Attribute{TableID: product.ID, Name: "name", Type: model.TypeString})
		wantCode(t, err, model.CodeConflict)
		_, err = svc.Management.CreateAttribute(ctx, tm.editor, model.Attribute{TableID: product.ID, Name: "x", Type: model.TypeString, Mapping: model.MappingGenerated,
			Generator: &model.Generator{Kind: "no.such.generator"}})
		wantCode(t, err, model.CodeBadUserInput)
		_, err = svc.Management.CreateAttribute(ctx, tm.editor, model.Attribute{TableID: pr.ID + ".tNoSuchTbl", Name: "x", Type: model.TypeString})
		wantCode(t, err, model.CodeNotFound)
		if got := version(t); got != v {
			t.Errorf("refused edits moved Version from %d to %d", v, got)
		}
	})
	t.Run("relations", func(t *testing.T) {
		r, err := svc.Management.CreateRelation(ctx, tm.editor, model.Relation{SourceTableID: customer.ID, TargetTableID: order.ID, Cardinality: model.OneToMany,
			SourceAttribute: "id", TargetAttribute: "customerId", FieldName: "orders", InverseFieldName: "customer"})
		if err != nil {
			t.Fatal(err)
		}
		if r.Direction != model.Bidirectional || !strings.HasPrefix(r.ID, pr.ID+".") {
			t.Errorf("relation = %+v", r)
		}
		_, err = svc.Management.CreateRelation(ctx, tm.editor, model.Relation{SourceTableID: customer.ID, TargetTableID: order.ID, Cardinality: model.OneToOne,
			SourceAttribute: "id", TargetAttribute: "customerId", FieldName: "email"})
		wantCode(t, err, model.CodeConflict)
		other, err := svc.Management.CreateProject(ctx, tm.editor, "Other", "")
		if err != nil {
			t.Fatal(err)
		}
		ot, err := svc.Management.CreateTable(ctx, tm.editor, other.ID, "Thing", nil)
		if err != nil {
			t.Fatal(err)
		}
		_, err = svc.Management.CreateRelation(ctx, tm.editor, model.Relation{SourceTableID: customer.ID, TargetTableID: ot.ID, Cardinality: model.OneToOne,
			SourceAttribute: "id", TargetAttribute: "id", FieldName: "thing"})
		wantCode(t, err, model.CodeBadUserInput)
		err = svc.Management.DeleteAttribute(ctx, tm.editor, attrID(t, svc.Management, owner, pr.ID, order.ID, "customerId"))
		wantCode(t, err, model.CodeConflict)
	})
	t.Run("operations and views", func(t *testing.T) {
		ops, err := svc.Management.GenerateDefaultOperations(ctx, tm.editor, pr.ID, product.ID)
		if err != nil || len(ops) != 5 {
			t.Fatalf("GenerateDefaultOperations = %d, %v", len(ops), err)
		}
		all, err := svc.Management.GenerateDefaultOperations(ctx, tm.editor, pr.ID, "")
		if err != nil || len(all) != 15 {
			t.Fatalf("for every table = %d, %v", len(all), err)
		}
		_, err = svc.Management.GenerateDefaultOperations(ctx, tm.editor, pr.ID, "pOther.tX")
		wantCode(t, err, model.CodeNotFound)
		o, err := svc.Management.CreateOperation(ctx, tm.editor, model.Operation{TableID: product.ID, Name: "productsByName", Kind: model.OpList,
			Parameters: []model.Parameter{{Name: "q", Attribute: "name", Operator: model.OpLike}}})
		if err != nil || !o.Enabled || len(o.Parameters) != 1 {
			t.Fatalf("CreateOperation = %+v, %v", o, err)
		}
		_, err = svc.Management.CreateOperation(ctx, tm.editor, model.Operation{TableID: order.ID, Name: "productsByName", Kind: model.OpList})
		wantCode(t, err, model.CodeConflict)
		o2, err := svc.Management.UpdateOperation(ctx, tm.editor, o.ID, model.OperationPatch{Name: ptr("searchProducts"), Enabled: ptr(false)})
		if err != nil || o2.Name != "searchProducts" || o2.Enabled || len(o2.Parameters) != 1 {
			t.Errorf("UpdateOperation = %+v, %v", o2, err)
		}
		views, err := svc.Management.GenerateMissingViews(ctx, tm.editor, pr.ID)
		if err != nil || len(views) != 6 {
			t.Errorf("GenerateMissingViews = %d, %v", len(views), err)
		}
		sdl, err := svc.Management.SDL(ctx, tm.viewer, pr.ID)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range []string{"type Product {", "products(", "createOrder(", "orders: [Order!]!", "customer: Customer"} {
			if !strings.Contains(sdl, s) {
				t.Errorf("SDL lacks %q:\n%s", s, sdl)
			}
		}
		if strings.Contains(sdl, "searchProducts") {
			t.Error("SDL has the disabled operation")
		}
		if err := svc.Management.DeleteOperation(ctx, tm.editor, o.ID); err != nil {
			t.Error(err)
		}
		err = svc.Management.DeleteOperation(ctx, tm.editor, o.ID)
		wantCode(t, err, model.CodeNotFound)
	})
	t.Run("updates and deletes", func(t *testing.T) {
		tb, err := svc.Management.UpdateTable(ctx, tm.editor, customer.ID, model.TablePatch{Name: ptr("Client")})
		if err != nil || tb.Name != "Client" {
			t.Errorf("UpdateTable = %+v, %v", tb, err)
		}
		id := attrID(t, svc.Management, owner, pr.ID, product.ID, "name")
		a, err := svc.Management.UpdateAttribute(ctx, tm.editor, id, model.AttributePatch{Name: ptr("title"), Sortable: ptr(true)})
		if err != nil || a.Name != "title" || !a.Sortable {
			t.Errorf("UpdateAttribute = %+v, %v", a, err)
		}
		_, err = svc.Management.UpdateAttribute(ctx, tm.editor, id, model.AttributePatch{Generator: &model.Generator{Kind: "no.such.generator"}})
		wantCode(t, err, model.CodeBadUserInput)
		cur, err := svc.Management.Project(ctx, owner, pr.ID, "")
		if err != nil {
			t.Fatal(err)
		}
		if err := svc.Management.DeleteRelation(ctx, tm.editor, cur.Relations[0].ID); err != nil {
			t.Fatal(err)
		}
		if err := svc.Management.DeleteAttribute(ctx, tm.editor, attrID(t, svc.Management, owner, pr.ID, order.ID, "customerId")); err != nil {
			t.Errorf("attribute still held after its relation went: %v", err)
		}
		if err := svc.Management.DeleteTable(ctx, tm.editor, order.ID); err != nil {
			t.Fatal(err)
		}
		cur, err = svc.Management.Project(ctx, owner, pr.ID, "")
		if err != nil {
			t.Fatal(err)
		}
		if len(cur.Tables) != 2 || len(cur.Views) != 4 || len(cur.Operations) != 10 {
			t.Errorf("after deleting Order: %d tables, %d views, %d operations", len(cur.Tables), len(cur.Views), len(cur.Operations))
		}
		err = svc.Management.DeleteTable(ctx, tm.editor, order.ID)
		wantCode(t, err, model.CodeNotFound)
	})
	t.Run("who may edit", func(t *testing.T) {
		_, err := svc.Management.CreateTable(ctx, tm.viewer, pr.ID, "Nope", nil)
		wantCode(t, err, model.CodeForbidden)
		_, err = svc.Management.CreateTable(ctx, model.Principal{}, pr.ID, "Nope", nil)
		wantCode(t, err, model.CodeUnauthenticated)
		// API keys as the HTTP layer presents them (the plan does not
		// matter here: the principal is built by hand).
		mgmt := model.Principal{AccountID: tm.owner.acc.ID, KeyProjectID: pr.ID, KeyScope: model.ScopeManagement}
		if _, err := svc.Management.CreateTable(ctx, mgmt, pr.ID, "ByKey", nil); err != nil {
			t.Errorf("MANAGEMENT key: %v", err)
		}
		full := model.Principal{AccountID: tm.owner.acc.ID, KeyProjectID: pr.ID, KeyScope: model.ScopeFull}
		if _, err := svc.Management.CreateTable(ctx, full, pr.ID, "ByFullKey", nil); err != nil {
			t.Errorf("FULL key: %v", err)
		}
		rt := model.Principal{AccountID: tm.owner.acc.ID, KeyProjectID: pr.ID, KeyScope: model.ScopeRuntime}
		_, err = svc.Management.CreateTable(ctx, rt, pr.ID, "ByRuntimeKey", nil)
		wantCode(t, err, model.CodeNotFound)
		otherKey := model.Principal{AccountID: tm.owner.acc.ID, KeyProjectID: "pSomethingElse", KeyScope: model.ScopeFull}
		_, err = svc.Management.CreateTable(ctx, otherKey, pr.ID, "ByOtherKey", nil)
		wantCode(t, err, model.CodeNotFound)
		if _, err := svc.Management.Projects(ctx, full); err != nil {
			t.Errorf("a key lists its project: %v", err)
		}
		_, err = svc.Management.CreateProject(ctx, full, "By key", "")
		wantCode(t, err, model.CodeForbidden)
	})
	t.Run("plan table limit", func(t *testing.T) {
		// STARTER allows 5 tables; the project has 4 (Product, Client,
		// ByKey, ByFullKey).
		if _, err := svc.Management.CreateTable(ctx, tm.editor, pr.ID, "Fifth", nil); err != nil {
			t.Fatal(err)
		}
		v := version(t)
		_, err := svc.Management.CreateTable(ctx, tm.editor, pr.ID, "Sixth", nil)
		wantCode(t, err, model.CodeLimitReached)
		if got := version(t); got != v {
			t.Errorf("a refused table moved Version from %d to %d", v, got)
		}
		if _, err := svc.Management.SetPlan(ctx, owner, model.PlanProfessional); err != nil {
			t.Fatal(err)
		}
		if _, err := svc.Management.CreateTable(ctx, tm.editor, pr.ID, "Sixth", nil); err != nil {
			t.Errorf("on PROFESSIONAL: %v", err)
		}
	})
	t.Run("guest project limits", func(t *testing.T) {
		gp, session, err := svc.Public.CreateGuestProject(ctx, model.Principal{}, "Guest")
		if err != nil {
			t.Fatal(err)
		}
		p := model.Principal{SessionID: session}
		tbl, err := svc.Management.CreateTable(ctx, p, gp.ID, "Wide", nil)
		if err != nil {
			t.Fatal(err)
		}
		for i := range 30 {
			if _, err := svc.Management.CreateAttribute(ctx, p, model.Attribute{TableID: tbl.ID, Name: "a" + string(rune('a'+i%26)) + string(rune('a'+i/26)), Type: model.TypeString}); err != nil {
				t.Fatalf("attribute %d: %v", i+1, err)
			}
		}
		_, err = svc.Management.CreateAttribute(ctx, p, model.Attribute{TableID: tbl.ID, Name: "tooMany", Type: model.TypeString})
		wantCode(t, err, model.CodeLimitReached)
	})
}

// attrID finds the ID of attribute name of table tableID.
func attrID(tb testing.TB, svc interface {
	Project(context.Context, model.Principal, string, string) (*model.Project, error)
}, p model.Principal, projectID, tableID, name string) string {
	tb.Helper()
	pr, err := svc.Project(context.Background(), p, projectID, "")
	if err != nil {
		tb.Fatal(err)
	}
	t := pr.Table(tableID)
	if t == nil || t.Attribute(name) == nil {
		tb.Fatalf("no attribute %s in table %s", name, tableID)
	}
	return t.Attribute(name).ID
}
