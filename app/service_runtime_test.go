package app_test

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mockgql/mockgql/app"
	"github.com/mockgql/mockgql/ids"
	"github.com/mockgql/mockgql/model"
)

// shop is an account project on PROFESSIONAL bound to the products dataset,
// with keys of every scope.
type shop struct {
	owner                   account
	project                 *model.Project
	table                   *model.Table
	runtime, full, mgmt     model.CreatedKey
	otherProject            *model.Project
	otherKey                model.CreatedKey
	importCode, slug, email string
}

func newShop(t *testing.T, nd *node, email, slug, importCode string) shop {
	t.Helper()
	ctx := context.Background()
	s := shop{owner: signUp(t, nd.svc, email), importCode: importCode, slug: slug, email: email}
	if _, err := nd.svc.Management.SetPlan(ctx, s.owner.p, model.PlanProfessional); err != nil {
		t.Fatal(err)
	}
	var err error
	if s.project, err = nd.svc.Management.CreateProject(ctx, s.owner.p, "Shop", slug); err != nil {
		t.Fatal(err)
	}
	s.table = buildShop(t, nd.svc, s.owner.p, s.project.ID, importCode)
	key := func(projectID string, scope model.Scope) model.CreatedKey {
		t.Helper()
		k, err := nd.svc.Management.CreateAPIKey(ctx, s.owner.p, projectID, string(scope), scope, time.Time{}, 0)
		if err != nil {
			t.Fatal(err)
		}
		return k
	}
	s.runtime, s.full, s.mgmt = key(s.project.ID, model.ScopeRuntime), key(s.project.ID, model.ScopeFull), key(s.project.ID, model.ScopeManagement)
	if s.otherProject, err = nd.svc.Management.CreateProject(ctx, s.owner.p, "Other", slug+"-other"); err != nil {
		t.Fatal(err)
	}
	s.otherKey = key(s.otherProject.ID, model.ScopeFull)
	return s
}

// mutate runs a mutation through the runtime and returns the named field.
func mutate(tb testing.TB, svc *app.Service, slug, key, token, query, field string) map[string]any {
	tb.Helper()
	data := mustQuery(tb, svc, slug, key, token, query)
	var out map[string]any
	if err := json.Unmarshal(data[field], &out); err != nil {
		tb.Fatalf("%s: %s: %v", query, data[field], err)
	}
	return out
}

func TestRuntime(t *testing.T) {
	nd := startNode(t, "", nil)
	svc := nd.svc
	ctx := context.Background()
	importProducts(t, svc, "products")
	s := newShop(t, nd, "shop@example.com", "shop", "products")
	original := []string{"Laptop", "Mouse", "Desk"}

	t.Run("account project with a key", func(t *testing.T) {
		for _, k := range []model.CreatedKey{s.runtime, s.full} {
			if got := productNames(t, svc, "shop", k.Value, ""); !reflect.DeepEqual(got, original) {
				t.Errorf("%s key: names = %q, want %q", k.Key.Scope, got, original)
			}
		}
		data := mustQuery(t, svc, "shop", s.runtime.Value, "", `{ product(id: "p3") { id name price category } }`)
		if got := string(data["product"]); got != `{"id":"p3","name":"Desk","price":250,"category":"furniture"}` {
			t.Errorf("product p3 = %s", got)
		}
	})
	t.Run("refusals", func(t *testing.T) {
		q := `{ products { total } }`
		tests := []struct {
			name, slug, key, token, body string
			code                         model.Code
		}{
			{"no key", "shop", "", "", "", model.CodeUnauthenticated},
			{"share token instead of key", "shop", "", "shr_whatever", "", model.CodeUnauthenticated},
			{"management key", "shop", s.mgmt.Value, "", "", model.CodeScopeInsufficient},
			{"key of another project", "shop", s.otherKey.Value, "", "", model.CodeProjectNotFound},
			{"unknown key", "shop", ids.KeyPrefix + strings.Repeat("x", 43), "", "", model.CodeAPIKeyInvalid},
			{"malformed key", "shop", "mgq_short", "", "", model.CodeAPIKeyInvalid},
			{"unknown slug", "no-such-shop", s.runtime.Value, "", "", model.CodeProjectNotFound},
			{"invalid slug", "Shop!", s.runtime.Value, "", "", model.CodeProjectNotFound},
			{"unknown slug comes before the key", "no-such-shop", "", "", "", model.CodeProjectNotFound},
			{"body not JSON", "shop", s.runtime.Value, "", "{", model.CodeBadRequest},
			{"no query", "shop", s.runtime.Value, "", `{"variables":{}}`, model.CodeBadRequest},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				body := tt.body
				if body == "" {
					b, _ := json.Marshal(map[string]string{"query": q})
					body = string(b)
				}
				res, err := svc.Runtime.Runtime(ctx, model.RuntimeRequest{Slug: tt.slug, KeyValue: tt.key, ShareToken: tt.token, Body: []byte(body)})
				if err == nil {
					t.Fatalf("answered %d %s, want %s", res.Status, res.Body, tt.code)
				}
				wantCode(t, err, tt.code)
			})
		}
	})
	t.Run("invalid GraphQL is a 400 with the GraphQL errors", func(t *testing.T) {
		tests := []struct {
			query string
			code  model.Code
		}{
			{`{ products {`, model.CodeParseFailed},
			{`{ products { nope } }`, model.CodeValidateFailed},
			{`{ noSuchOperation }`, model.CodeValidateFailed},
		}
		for _, tt := range tests {
			res, err := runtime(ctx, svc, "shop", s.runtime.Value, "", tt.query)
			if err != nil {
				t.Fatalf("%s: %v", tt.query, err)
			}
			if res.Status != 400 || res.GraphQLCode != tt.code || !strings.Contains(string(res.Body), `"errors"`) {
				t.Errorf("%s: %d %s %s, want 400 %s", tt.query, res.Status, res.GraphQLCode, res.Body, tt.code)
			}
		}
	})
	t.Run("guest project with its share token", func(t *testing.T) {
		gp, session, err := svc.Public.CreateGuestProject(ctx, model.Principal{}, "Try")
		if err != nil {
			t.Fatal(err)
		}
		buildShop(t, svc, model.Principal{SessionID: session}, gp.ID, "products")
		if got := productNames(t, svc, gp.Slug, "", gp.ShareToken); !reflect.DeepEqual(got, original) {
			t.Errorf("names = %q", got)
		}
		for name, token := range map[string]string{"no token": "", "wrong token": "shr_" + strings.Repeat("x", 24), "prefix of the token": gp.ShareToken[:10]} {
			_, err := runtime(ctx, svc, gp.Slug, "", token, `{ products { total } }`)
			if model.ErrorCode(err) != model.CodeUnauthenticated {
				t.Errorf("%s: %v, want UNAUTHENTICATED", name, err)
			}
		}
		_, err = runtime(ctx, svc, gp.Slug, s.full.Value, gp.ShareToken, `{ products { total } }`)
		wantCode(t, err, model.CodeProjectNotFound)
		// The guest's mutations stay in the guest project.
		mutate(t, svc, gp.Slug, "", gp.ShareToken, `mutation { createProduct(input: {name: "Guest chair"}) { id } }`, "createProduct")
		if got := productNames(t, svc, "shop", s.runtime.Value, ""); slices.Contains(got, "Guest chair") {
			t.Error("a guest's mutation reached another project bound to the same dataset")
		}
	})
	t.Run("read your writes", func(t *testing.T) {
		created := mutate(t, svc, "shop", s.runtime.Value, "", `mutation { createProduct(input: {name: "Chair", price: 49, category: "furniture"}) { id name price } }`, "createProduct")
		id, _ := created["id"].(string)
		if id == "" || created["name"] != "Chair" || created["price"] != 49.0 {
			t.Fatalf("created = %v", created)
		}
		if got := productNames(t, svc, "shop", s.runtime.Value, ""); !reflect.DeepEqual(got, append(original, "Chair")) {
			t.Errorf("after create: %q", got)
		}
		mutate(t, svc, "shop", s.full.Value, "", `mutation { updateProduct(id: "p2", input: {name: "Trackball"}) { id } }`, "updateProduct")
		if got := productNames(t, svc, "shop", s.runtime.Value, ""); !reflect.DeepEqual(got, []string{"Laptop", "Trackball", "Desk", "Chair"}) {
			t.Errorf("after update: %q", got)
		}
		mutate(t, svc, "shop", s.runtime.Value, "", fmt.Sprintf(`mutation { deleteProduct(id: %q) { id } }`, id), "deleteProduct")
		if got := productNames(t, svc, "shop", s.runtime.Value, ""); !reflect.DeepEqual(got, []string{"Laptop", "Trackball", "Desk"}) {
			t.Errorf("after delete: %q", got)
		}
		data := mustQuery(t, svc, "shop", s.runtime.Value, "", fmt.Sprintf(`{ product(id: %q) { id } }`, id))
		if string(data["product"]) != "null" {
			t.Errorf("deleted product = %s", data["product"])
		}
	})
	t.Run("an edit then a query sees the new schema", func(t *testing.T) {
		if _, err := svc.Management.CreateAttribute(ctx, s.owner.p, model.Attribute{TableID: s.table.ID, Name: "currency", Type: model.TypeString,
			Mapping: model.MappingConstant, Constant: json.RawMessage(`"EUR"`)}); err != nil {
			t.Fatal(err)
		}
		data := mustQuery(t, svc, "shop", s.runtime.Value, "", `{ product(id: "p1") { currency } }`)
		if got := string(data["product"]); got != `{"currency":"EUR"}` {
			t.Errorf("new attribute: %s", got)
		}
		pr, err := svc.Management.Project(ctx, s.owner.p, s.project.ID, "")
		if err != nil {
			t.Fatal(err)
		}
		var listID string
		for _, o := range pr.Operations {
			if o.Name == "products" {
				listID = o.ID
			}
		}
		if _, err := svc.Management.UpdateOperation(ctx, s.owner.p, listID, model.OperationPatch{Name: ptr("catalogue"),
			Parameters: []model.Parameter{{Name: "category", Attribute: "category", Operator: model.OpEq}}}); err != nil {
			t.Fatal(err)
		}
		res, err := runtime(ctx, svc, "shop", s.runtime.Value, "", `{ products { total } }`)
		if err != nil || res.Status != 400 {
			t.Errorf("the old operation name still answers: %v %v", res, err)
		}
		data = mustQuery(t, svc, "shop", s.runtime.Value, "", `{ catalogue(category: "tech") { total items { name } } }`)
		if got := string(data["catalogue"]); got != `{"total":2,"items":[{"name":"Laptop"},{"name":"Trackball"}]}` {
			t.Errorf("catalogue = %s", got)
		}
		res, err = runtime(ctx, svc, "shop", s.runtime.Value, "", `{ catalogue(colour: "red") { total } }`)
		if err != nil || res.Status != 200 || !strings.Contains(string(res.Body), string(model.CodeBadUserInput)) {
			t.Errorf("unknown argument: %v %s", err, res.Body)
		}
		if _, err := svc.Management.UpdateOperation(ctx, s.owner.p, listID, model.OperationPatch{Name: ptr("products"), Parameters: []model.Parameter{}}); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("reset drops the mutations", func(t *testing.T) {
		if err := svc.Management.ResetMockData(ctx, s.owner.p, s.project.ID); err != nil {
			t.Fatal(err)
		}
		if got := productNames(t, svc, "shop", s.runtime.Value, ""); !reflect.DeepEqual(got, original) {
			t.Errorf("after reset: %q", got)
		}
	})
	t.Run("revocation takes effect at once", func(t *testing.T) {
		k, err := svc.Management.CreateAPIKey(ctx, s.owner.p, s.project.ID, "soon revoked", model.ScopeRuntime, time.Time{}, 0)
		if err != nil {
			t.Fatal(err)
		}
		for range 3 { // the key and project snapshots are now local
			productNames(t, svc, "shop", k.Value, "")
		}
		if _, err := svc.Management.RevokeAPIKey(ctx, s.owner.p, k.Key.ID); err != nil {
			t.Fatal(err)
		}
		_, err = runtime(ctx, svc, "shop", k.Value, "", `{ products { total } }`)
		wantCode(t, err, model.CodeAPIKeyInvalid)

		d, err := svc.Management.CreateAPIKey(ctx, s.owner.p, s.project.ID, "soon deleted", model.ScopeFull, time.Time{}, 0)
		if err != nil {
			t.Fatal(err)
		}
		productNames(t, svc, "shop", d.Value, "")
		if err := svc.Management.DeleteAPIKey(ctx, s.owner.p, d.Key.ID); err != nil {
			t.Fatal(err)
		}
		_, err = runtime(ctx, svc, "shop", d.Value, "", `{ products { total } }`)
		wantCode(t, err, model.CodeAPIKeyInvalid)
	})
	t.Run("expiry", func(t *testing.T) {
		k, err := svc.Management.CreateAPIKey(ctx, s.owner.p, s.project.ID, "day pass", model.ScopeRuntime, nd.clock.Now().Add(24*time.Hour), 0)
		if err != nil {
			t.Fatal(err)
		}
		productNames(t, svc, "shop", k.Value, "")
		nd.clock.Add(24 * time.Hour)
		_, err = runtime(ctx, svc, "shop", k.Value, "", `{ products { total } }`)
		wantCode(t, err, model.CodeAPIKeyExpired)
		productNames(t, svc, "shop", s.runtime.Value, "")
	})
	t.Run("a moved slug stops answering", func(t *testing.T) {
		productNames(t, svc, "shop", s.runtime.Value, "") // "shop" is cached now
		if _, err := svc.Management.UpdateProject(ctx, s.owner.p, s.project.ID, nil, ptr("store")); err != nil {
			t.Fatal(err)
		}
		_, err := runtime(ctx, svc, "shop", s.runtime.Value, "", `{ products { total } }`)
		wantCode(t, err, model.CodeProjectNotFound)
		if got := productNames(t, svc, "store", s.runtime.Value, ""); !reflect.DeepEqual(got, original) {
			t.Errorf("new slug: %q", got)
		}
	})
	t.Run("a derived slug answers", func(t *testing.T) {
		// "store" is taken: the new project's slug gets a suffix.
		pr, err := svc.Management.CreateProject(ctx, s.owner.p, "Store", "")
		if err != nil {
			t.Fatal(err)
		}
		if pr.Slug == "store" {
			t.Fatal("slug not derived")
		}
		buildShop(t, svc, s.owner.p, pr.ID, "products")
		k, err := svc.Management.CreateAPIKey(ctx, s.owner.p, pr.ID, "k", model.ScopeRuntime, time.Time{}, 0)
		if err != nil {
			t.Fatal(err)
		}
		if got := productNames(t, svc, pr.Slug, k.Value, ""); !reflect.DeepEqual(got, original) {
			t.Errorf("project at %s: %q", pr.Slug, got)
		}
	})
	t.Run("a deleted project stops answering", func(t *testing.T) {
		if err := svc.Management.DeleteProject(ctx, s.owner.p, s.otherProject.ID); err != nil {
			t.Fatal(err)
		}
		_, err := runtime(ctx, svc, s.otherProject.Slug, s.otherKey.Value, "", `{ __typename }`)
		wantCode(t, err, model.CodeProjectNotFound)
	})
	t.Run("a reused slug answers for its new project", func(t *testing.T) {
		// The old project answered at "store" (cached); it moves away and a
		// new project takes the slug.
		productNames(t, svc, "store", s.runtime.Value, "")
		if _, err := svc.Management.UpdateProject(ctx, s.owner.p, s.project.ID, nil, ptr("shop")); err != nil {
			t.Fatal(err)
		}
		pr, err := svc.Management.CreateProject(ctx, s.owner.p, "New store", "store")
		if err != nil {
			t.Fatal(err)
		}
		buildShop(t, svc, s.owner.p, pr.ID, "products")
		k, err := svc.Management.CreateAPIKey(ctx, s.owner.p, pr.ID, "k", model.ScopeRuntime, time.Time{}, 0)
		if err != nil {
			t.Fatal(err)
		}
		res, err := runtime(ctx, svc, "store", k.Value, "", `{ products { total } }`)
		if err != nil {
			t.Fatalf("the new project at a reused slug: %v", err)
		}
		if res.Status != 200 {
			t.Errorf("status %d %s", res.Status, res.Body)
		}
	})
}

// TestRuntimeConcurrency: 50 goroutines query and mutate one project at
// once; every mutation's row is there afterwards (run with -race).
func TestRuntimeConcurrency(t *testing.T) {
	nd := startNode(t, "", nil)
	svc := nd.svc
	importProducts(t, svc, "products")
	s := newShop(t, nd, "busy@example.com", "busy", "products")
	productNames(t, svc, "busy", s.runtime.Value, "") // warm the local snapshots

	const workers = 50
	var wg sync.WaitGroup
	errs := make(chan error, workers)
	ids := make([]string, workers)
	for i := range workers {
		wg.Go(func() {
			ctx := context.Background()
			name := fmt.Sprintf("item-%02d", i)
			key := s.runtime.Value
			if i%2 == 1 {
				key = s.full.Value
			}
			if _, err := runtime(ctx, svc, "busy", key, "", `{ products(pageSize: 5) { total items { id name } } }`); err != nil {
				errs <- fmt.Errorf("worker %d query: %w", i, err)
				return
			}
			res, err := runtime(ctx, svc, "busy", key, "", fmt.Sprintf(`mutation { createProduct(input: {name: %q, price: %d}) { id name } }`, name, i))
			if err != nil {
				errs <- fmt.Errorf("worker %d mutation: %w", i, err)
				return
			}
			var r struct {
				Data struct{ CreateProduct struct{ ID, Name string } }
			}
			if err := json.Unmarshal(res.Body, &r); err != nil || r.Data.CreateProduct.Name != name {
				errs <- fmt.Errorf("worker %d mutation answered %d %s", i, res.Status, res.Body)
				return
			}
			ids[i] = r.Data.CreateProduct.ID
			// Read your own write, on whatever path the query takes.
			res, err = runtime(ctx, svc, "busy", key, "", fmt.Sprintf(`{ product(id: %q) { name } }`, ids[i]))
			if err != nil || !strings.Contains(string(res.Body), name) {
				errs <- fmt.Errorf("worker %d does not see its row: %v %s", i, err, res.Body)
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	names := productNames(t, svc, "busy", s.runtime.Value, "")
	if len(names) != 3+workers {
		t.Errorf("got %d rows, want %d", len(names), 3+workers)
	}
	seen := map[string]bool{}
	for i, id := range ids {
		if seen[id] {
			t.Errorf("id %q given twice", id)
		}
		seen[id] = true
		if want := fmt.Sprintf("item-%02d", i); !slices.Contains(names, want) {
			t.Errorf("row %s missing", want)
		}
	}
}
