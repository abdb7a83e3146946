package app_test

import (
	"context"
	"encoding/json"
	"log/slog"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mockgql/mockgql/actors"
	"github.com/mockgql/mockgql/app"
	"github.com/mockgql/mockgql/cluster"
	"github.com/mockgql/mockgql/model"
	"github.com/mockgql/mockgql/persistence"
)

// testClock is a settable clock, test-only: tests move time instead of
// sleeping. It is safe for concurrent use.
type testClock struct {
	mu  sync.Mutex
	now time.Time
}

func newTestClock() *testClock {
	return &testClock{now: time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)}
}

func (c *testClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// Add moves the clock forward by d.
func (c *testClock) Add(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
}

// node is one real mockgql node: bbolt in a temporary folder, a protoactor
// cluster of one on 127.0.0.1, and the Service over it.
type node struct {
	path  string
	clock *testClock
	env   *actors.Env
	db    *persistence.DB
	n     *cluster.Node
	svc   *app.Service
	once  sync.Once
}

// startNode starts a node on the database file at path (a new file in a
// temporary folder when path is ""); edit may change the env before the
// node starts. It stops when the test ends.
func startNode(tb testing.TB, path string, clock *testClock, edit ...func(*actors.Env)) *node {
	tb.Helper()
	if path == "" {
		path = filepath.Join(tb.TempDir(), "mockgql.db")
	}
	if clock == nil {
		clock = newTestClock()
	}
	db, err := persistence.Open(path)
	if err != nil {
		tb.Fatalf("open store: %v", err)
	}
	cfg := actors.DefaultConfig()
	cfg.BcryptCost = 4
	cfg.SessionKey = []byte("the test nodes' shared session key") // a restarted node knows its sessions
	log := slog.New(slog.DiscardHandler)
	env := &actors.Env{Store: db, Pool: actors.NewPool(db), Local: &actors.Local{}, Clock: clock, Config: cfg, Log: log}
	for _, e := range edit {
		e(env)
	}
	n, err := cluster.Start(cluster.Config{Bind: "127.0.0.1:0", Kinds: actors.Kinds(env), Logger: log})
	if err != nil {
		_ = db.Close()
		tb.Fatalf("start node: %v", err)
	}
	env.Caller = n
	nd := &node{path: path, clock: clock, env: env, db: db, n: n, svc: app.NewService(env)}
	tb.Cleanup(nd.stop)
	return nd
}

// stop leaves the cluster and closes the store; it may be called twice.
func (nd *node) stop() {
	nd.once.Do(func() {
		nd.n.Stop(false)
		_ = nd.db.Close()
	})
}

// account is a signed-up user and their own account.
type account struct {
	user model.User
	acc  *model.Account
	p    model.Principal
}

// signUp creates a user with their own STARTER account.
func signUp(tb testing.TB, svc *app.Service, email string) account {
	tb.Helper()
	u, acc, err := svc.Management.SignUp(context.Background(), model.Principal{}, email, "correct horse", "")
	if err != nil {
		tb.Fatalf("SignUp(%s): %v", email, err)
	}
	return account{user: u, acc: acc, p: model.Principal{UserID: u.ID, AccountID: acc.ID}}
}

// memberOf is the principal of user u signed in to account a.
func memberOf(u model.User, a account) model.Principal {
	return model.Principal{UserID: u.ID, AccountID: a.acc.ID}
}

// keyPrincipal is the principal the HTTP layer builds for an API key.
func keyPrincipal(k model.APIKey) model.Principal {
	return model.Principal{AccountID: k.AccountID, KeyProjectID: k.ProjectID, KeyScope: k.Scope}
}

var systemPrincipal = model.Principal{System: true}

// productsJSON is the products dataset the runtime tests bind to.
const productsJSON = `[
 {"id":"p1","name":"Laptop","price":999.5,"category":"tech"},
 {"id":"p2","name":"Mouse","price":19.99,"category":"tech"},
 {"id":"p3","name":"Desk","price":250,"category":"furniture"}
]`

// importProducts imports productsJSON under code as the system would.
func importProducts(tb testing.TB, svc *app.Service, code string) {
	tb.Helper()
	_, err := svc.Datasets.ImportDataset(context.Background(), systemPrincipal, model.DatasetImport{
		ImportCode: code, Format: "json", Body: strings.NewReader(productsJSON)})
	if err != nil {
		tb.Fatalf("ImportDataset(%s): %v", code, err)
	}
}

// buildShop gives project projectID a Product table bound to importCode,
// with name, price and category mapped, and its default operations.
func buildShop(tb testing.TB, svc *app.Service, p model.Principal, projectID, importCode string) *model.Table {
	tb.Helper()
	ctx := context.Background()
	tbl, err := svc.Management.CreateTable(ctx, p, projectID, "Product", &model.TableSource{ImportCode: importCode})
	if err != nil {
		tb.Fatalf("CreateTable: %v", err)
	}
	for _, a := range []struct {
		name string
		typ  model.ScalarType
	}{{"name", model.TypeString}, {"price", model.TypeFloat}, {"category", model.TypeString}} {
		_, err := svc.Management.CreateAttribute(ctx, p, model.Attribute{TableID: tbl.ID, Name: a.name, Type: a.typ, Mapping: model.MappingSource, SourcePath: a.name})
		if err != nil {
			tb.Fatalf("CreateAttribute(%s): %v", a.name, err)
		}
	}
	if _, err := svc.Management.GenerateDefaultOperations(ctx, p, projectID, tbl.ID); err != nil {
		tb.Fatalf("GenerateDefaultOperations: %v", err)
	}
	return tbl
}

// gqlResponse is a runtime answer.
type gqlResponse struct {
	Data   map[string]json.RawMessage `json:"data"`
	Errors []struct {
		Message    string         `json:"message"`
		Extensions map[string]any `json:"extensions"`
	} `json:"errors"`
}

// runtime sends query to the project with the slug, with an API key or a
// share token, and returns the result or the refusal.
func runtime(ctx context.Context, svc *app.Service, slug, key, token, query string) (*model.RuntimeResult, error) {
	body, err := json.Marshal(map[string]string{"query": query})
	if err != nil {
		return nil, err
	}
	return svc.Runtime.Runtime(ctx, model.RuntimeRequest{Slug: slug, KeyValue: key, ShareToken: token, Body: body})
}

// mustQuery runs query and fails unless it answers 200 without errors; it
// returns data.
func mustQuery(tb testing.TB, svc *app.Service, slug, key, token, query string) map[string]json.RawMessage {
	tb.Helper()
	res, err := runtime(context.Background(), svc, slug, key, token, query)
	if err != nil {
		tb.Fatalf("runtime %s: %v", query, err)
	}
	var r gqlResponse
	if err := json.Unmarshal(res.Body, &r); err != nil {
		tb.Fatalf("runtime %s: body %s: %v", query, res.Body, err)
	}
	if res.Status != 200 || len(r.Errors) > 0 {
		tb.Fatalf("runtime %s: status %d, body %s", query, res.Status, res.Body)
	}
	return r.Data
}

// productNames lists the names the products operation returns.
func productNames(tb testing.TB, svc *app.Service, slug, key, token string) []string {
	tb.Helper()
	data := mustQuery(tb, svc, slug, key, token, `{ products(pageSize: 1000) { total items { id name } } }`)
	var page struct {
		Total int
		Items []struct{ ID, Name string }
	}
	if err := json.Unmarshal(data["products"], &page); err != nil {
		tb.Fatal(err)
	}
	if page.Total != len(page.Items) {
		tb.Errorf("total %d, but %d items", page.Total, len(page.Items))
	}
	names := make([]string, len(page.Items))
	for i, it := range page.Items {
		names[i] = it.Name
	}
	return names
}

// wantCode fails unless err carries the code.
func wantCode(tb testing.TB, err error, code model.Code) {
	tb.Helper()
	if got := model.ErrorCode(err); got != code {
		tb.Fatalf("error %v: code %q, want %q", err, got, code)
	}
}

func ptr[T any](v T) *T { return &v }
