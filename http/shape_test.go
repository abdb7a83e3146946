package http

import (
	"context"
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"github.com/mockgql/mockgql/model"
)

// testShaper returns a shaper over a fresh test-only fake.
func testShaper() (shaper, *fakeModel) {
	b := &fakeModel{&fakeRecorder{}}
	return shaper{schemas: b, principal: userPrincipal, baseURL: "https://api.example.test", appURL: "https://app.example.test"}, b
}

// shapedField returns member name of the shaped object v, calling it when lazy.
func shapedField(tb testing.TB, v any, name string, args map[string]any) any {
	tb.Helper()
	m, ok := v.(map[string]any)
	if !ok {
		tb.Fatalf("%T is not an object", v)
	}
	f, ok := m[name]
	if !ok {
		tb.Fatalf("object has no member %q", name)
	}
	if fn, ok := f.(lazy); ok {
		got, err := fn(context.Background(), args)
		if err != nil {
			tb.Fatalf("%s: %v", name, err)
		}
		return got
	}
	return f
}

func TestShapeDateTime(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   time.Time
		want any
	}{
		{"utc with nanoseconds", time.Date(2026, 11, 21, 10, 0, 0, 123456789, time.UTC), "2026-11-21T10:00:00.123Z"},
		{"other zone", time.Date(2026, 11, 21, 11, 0, 0, 0, time.FixedZone("CET", 3600)), "2026-11-21T10:00:00.000Z"},
		{"zero is null", time.Time{}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := optDateTime(tc.in); got != tc.want {
				t.Errorf("optDateTime = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestShapeProject(t *testing.T) {
	expires := time.Date(2026, 11, 22, 0, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		name                                   string
		p                                      *model.Project
		shareToken, runtimeURL, preview, expAt any
		accountID                              any
	}{
		{"account with share token", &model.Project{ID: "p1", Slug: "shop", Kind: model.KindAccount, AccountID: "a1", ShareToken: "tok"},
			nil, "https://api.example.test/mock/shop/graphql", "https://app.example.test/preview/shop?token=tok", nil, "a1"},
		{"account without share token", &model.Project{ID: "p1", Slug: "shop", Kind: model.KindAccount, AccountID: "a1"},
			nil, "https://api.example.test/mock/shop/graphql", "https://app.example.test/board/projects/p1", nil, "a1"},
		{"guest", &model.Project{ID: "p2", Slug: "try", Kind: model.KindGuest, ShareToken: "a b&c"},
			"a b&c", "https://api.example.test/mock/try/graphql?token=a+b%26c", "https://app.example.test/preview/try?token=a+b%26c", nil, nil},
		{"session", &model.Project{ID: "p3", Slug: "s", Kind: model.KindSession, ShareToken: "t", ExpiresAt: expires},
			"t", "https://api.example.test/mock/s/graphql?token=t", "https://app.example.test/preview/s?token=t", "2026-11-22T00:00:00.000Z", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sh, _ := testShaper()
			v := sh.project(tc.p)
			for name, want := range map[string]any{
				"shareToken": tc.shareToken, "runtimeUrl": tc.runtimeURL, "previewUrl": tc.preview,
				"expiresAt": tc.expAt, "accountId": tc.accountID, "kind": string(tc.p.Kind),
			} {
				if got := shapedField(t, v, name, nil); got != want {
					t.Errorf("%s = %v, want %v", name, got, want)
				}
			}
		})
	}
}

func TestShapeProjectLists(t *testing.T) {
	sh, b := testShaper()
	v := sh.project(fixtureProject())
	if len(b.recorded()) != 0 {
		t.Fatalf("shaping called the Backend: %v", b.recorded())
	}
	for name, want := range map[string]int{"tables": 2, "relations": 2, "operations": 2, "views": 1} {
		if got := shapedField(t, v, name, nil).([]any); len(got) != want {
			t.Errorf("%s has %d elements, want %d", name, len(got), want)
		}
	}
	if got := shapedField(t, v, "sdl", nil); got != "type Query { products: ProductPage! }" {
		t.Errorf("sdl = %v", got)
	}
	if calls := b.recorded(); len(calls) != 1 || calls[0].Method != "SDL" || calls[0].Args[1] != "prj_1" {
		t.Errorf("calls = %v, want SDL of prj_1", calls)
	}
	if sh.project(nil) != nil {
		t.Error("project(nil) is not nil")
	}
}

func TestShapeTable(t *testing.T) {
	sh, _ := testShaper()
	p := fixtureProject()
	for _, tc := range []struct {
		name   string
		table  *model.Table
		ready  bool
		source any
	}{
		{"bound with source mapping", p.Tables[0], true, map[string]any{"importCode": "products", "variant": nil}},
		{"bound to a variant without source mapping", p.Tables[1], false, map[string]any{"importCode": "orders", "variant": "2024"}},
		{"unbound", &model.Table{ID: "t", Name: "T"}, false, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := sh.table(tc.table)
			if got := shapedField(t, v, "ready", nil); got != tc.ready {
				t.Errorf("ready = %v, want %v", got, tc.ready)
			}
			if got := shapedField(t, v, "source", nil); !reflect.DeepEqual(got, tc.source) {
				t.Errorf("source = %v, want %v", got, tc.source)
			}
			if got := shapedField(t, v, "attributes", nil).([]any); len(got) != len(tc.table.Attributes) {
				t.Errorf("%d attributes, want %d", len(got), len(tc.table.Attributes))
			}
		})
	}
}

func TestShapeAttribute(t *testing.T) {
	sh, _ := testShaper()
	attrs := fixtureProject().Tables[0].Attributes
	for _, tc := range []struct {
		name string
		attr *model.Attribute
		want map[string]any
	}{
		{"source", attrs[1], map[string]any{"mappingType": "SOURCE", "sourceMapping": map[string]any{"path": "price.amount"},
			"constantValue": nil, "computedExpression": nil, "generator": nil, "sortable": true, "filterable": true, "required": false, "type": "FLOAT"}},
		{"constant", attrs[2], map[string]any{"mappingType": "CONSTANT", "sourceMapping": nil, "constantValue": json.RawMessage(`"EUR"`), "required": true}},
		{"constant null", &model.Attribute{Mapping: model.MappingConstant, Constant: json.RawMessage("null")}, map[string]any{"constantValue": json.RawMessage("null")}},
		{"computed", attrs[3], map[string]any{"mappingType": "COMPUTED", "computedExpression": "name + price"}},
		{"generated", attrs[4], map[string]any{"mappingType": "GENERATED",
			"generator": map[string]any{"kind": "person.email", "options": json.RawMessage(`{"domain":"example.com"}`)}}},
		{"generated without options", &model.Attribute{Mapping: model.MappingGenerated, Generator: &model.Generator{Kind: "k"}},
			map[string]any{"generator": map[string]any{"kind": "k", "options": nil}}},
		{"none", attrs[5], map[string]any{"mappingType": "NONE", "sourceMapping": nil, "constantValue": nil, "generator": nil, "type": "JSON"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := sh.attribute(tc.attr)
			for name, want := range tc.want {
				if got := shapedField(t, v, name, nil); !reflect.DeepEqual(got, want) {
					t.Errorf("%s = %#v, want %#v", name, got, want)
				}
			}
		})
	}
}

func TestShapeSampleDocuments(t *testing.T) {
	for _, tc := range []struct {
		name  string
		args  map[string]any
		docs  int
		asked []any // the limits Samples was called with
	}{
		{"default", map[string]any{}, 3, []any{3}},
		{"null", map[string]any{"limit": nil}, 3, []any{3}},
		{"one", map[string]any{"limit": 1}, 1, []any{1}},
		{"zero", map[string]any{"limit": 0}, 0, nil},
		{"negative", map[string]any{"limit": -5}, 0, nil},
		{"over the maximum", map[string]any{"limit": 500}, 4, []any{50}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sh, b := testShaper()
			got := shapedField(t, sh.dataSource(b.fixtureDataSource("products")), "sampleDocuments", tc.args).([]json.RawMessage)
			if len(got) != tc.docs {
				t.Errorf("%d documents, want %d", len(got), tc.docs)
			}
			var asked []any
			for _, c := range b.recorded() {
				asked = append(asked, c.Args...)
			}
			if !reflect.DeepEqual(asked, tc.asked) {
				t.Errorf("Samples limits = %v, want %v", asked, tc.asked)
			}
		})
	}
	t.Run("no samples", func(t *testing.T) {
		sh, _ := testShaper()
		got := shapedField(t, sh.dataSource(DataSource{ImportCode: "x"}), "sampleDocuments", map[string]any{"limit": 3})
		if docs, ok := got.([]json.RawMessage); !ok || docs == nil || len(docs) != 0 {
			t.Errorf("sampleDocuments = %#v, want an empty list", got)
		}
	})
	t.Run("more than asked", func(t *testing.T) {
		sh, _ := testShaper()
		d := DataSource{Samples: model.SamplerFunc(func(int) []json.RawMessage { return make([]json.RawMessage, 9) })}
		if got := shapedField(t, sh.dataSource(d), "sampleDocuments", map[string]any{"limit": 2}).([]json.RawMessage); len(got) != 2 {
			t.Errorf("%d documents, want 2", len(got))
		}
	})
}

func TestShapeAPIKey(t *testing.T) {
	sh, _ := testShaper()
	k := fixtureKey()
	v := sh.apiKey(k)
	for name, want := range map[string]any{
		"expiresAt": nil, "lastUsedAt": "2026-11-21T09:00:00.000Z", "createdAt": "2026-11-20T09:30:00.123Z",
		"scope": "FULL", "maxActors": 5, "revoked": false,
	} {
		if got := shapedField(t, v, name, nil); got != want {
			t.Errorf("%s = %v, want %v", name, got, want)
		}
	}
	if _, ok := v.(map[string]any)["hash"]; ok {
		t.Error("the key's hash is shaped")
	}
}

func TestShapeAccountUsage(t *testing.T) {
	sh, _ := testShaper()
	b := newFakeManagement()
	acc := accountResolvers{b: b}
	usage := fixtureUsage()
	eager := acc.shapeAccount(sh, fixtureAccount(), &usage)
	lazyAcc := acc.shapeAccount(sh, fixtureAccount(), nil)
	want := map[string]any{"requests": int64(42), "quota": int64(100000), "period": "month", "resetsAt": "2026-12-01T00:00:00.000Z",
		"projects": 0, "projectLimit": 0, "datasets": 0, "datasetLimit": 0, "datasetBytes": 0.0, "datasetBytesLimit": 0.0, "keysPerProjectLimit": 0}
	if got := shapedField(t, eager, "usage", nil); !reflect.DeepEqual(got, want) {
		t.Errorf("usage = %v, want %v", got, want)
	}
	if len(b.recorded()) != 0 {
		t.Errorf("Backend called before usage was read: %v", b.recorded())
	}
	if got := shapedField(t, lazyAcc, "usage", nil); !reflect.DeepEqual(got, want) {
		t.Errorf("lazy usage = %v, want %v", got, want)
	}
	if calls := b.recorded(); len(calls) != 1 || calls[0].Method != "Account" || calls[0].Args[0] != userPrincipal {
		t.Errorf("calls = %v, want Account as u_1", calls)
	}
	members := shapedField(t, eager, "members", nil).([]any)
	if got := shapedField(t, members[1], "user", nil); !reflect.DeepEqual(got, map[string]any{"id": "u_2", "email": "bob@example.com", "name": nil}) {
		t.Errorf("second member's user = %v", got)
	}
}
