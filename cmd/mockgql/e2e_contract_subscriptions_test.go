package main

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mockgql/mockgql/internal/testdata"
)

// subscriptionsSDL is a team's schema with subscriptions: bookCreated is
// mapped to the created events of Book, ticker streams generated payloads.
const subscriptionsSDL = `type Book {
  id: ID!
  title: String!
  price: Float
}

input BookInput {
  title: String!
  price: Float
}

type Query {
  books: [Book!]!
}

type Mutation {
  createBook(input: BookInput!): Book!
}

type Subscription {
  bookCreated: Book!
  ticker: Int!
}
`

// TestContractSubscriptions: a project imported from SDL with
// Subscription { bookCreated: Book! } sends graphql-ws's and graphql-sse's
// clients the event of a createBook made over HTTP, with the row a
// following books query returns (testdata/js/contract_subscriptions.mjs);
// the report says how each subscription field is served, and ticker
// streams the same generated payloads to every subscriber at the rate a
// mapping sets.
func TestContractSubscriptions(t *testing.T) {
	dir := filepath.Join("testdata", "js")
	testdata.RequireNodeModule(t, dir, "graphql-sse")
	s := startServer(t)
	cp := newContractProject(t, s, "contract-subs@example.com", subscriptionsSDL)
	report := func() string {
		d := cp.owner.must(`query($p:ID){ project(id:$p) { contract { report { root name shape description } } } }`, map[string]any{"p": cp.id})
		return fmt.Sprint(get(d, "project", "contract", "report"))
	}
	for _, want := range []string{"description:bookCreated: event on Book created name:bookCreated root:SUBSCRIPTION shape:event",
		"description:ticker: generated every 2 s"} {
		if r := report(); !strings.Contains(r, want) {
			t.Errorf("the report lacks %q: %s", want, r)
		}
	}

	out := testdata.Node(t, dir, nil, "contract_subscriptions.mjs", s.base+cp.runtime, cp.key)
	t.Logf("%s", out)
	for _, c := range []string{"graphql-ws", "graphql-sse"} {
		if !strings.Contains(string(out), c+": received") {
			t.Errorf("%s received nothing:\n%s", c, out)
		}
	}

	cp.owner.must(`mutation($p:ID!){ setContractMapping(projectId:$p, field: "Subscription.ticker", everySeconds: 1) { id } }`, map[string]any{"p": cp.id})
	if r := report(); !strings.Contains(r, "ticker: generated every 1 s") {
		t.Errorf("after the mapping, the report says %s", r)
	}
	if r := cp.owner.gql(`mutation($p:ID!){ setContractMapping(projectId:$p, field: "Subscription.bookCreated", everySeconds: 1) { id } }`, map[string]any{"p": cp.id}); r.errCode() != "BAD_USER_INPUT" {
		t.Errorf("a rate on an event field: %s", r.Raw)
	}
	auth := map[string]any{"Authorization": "Bearer " + cp.key}
	ticks := func() []string {
		w := dialSub(t, s.base, cp.runtime, auth).ack()
		w.subscribe("t", `subscription { ticker }`, nil)
		var got []string
		for range 3 {
			got = append(got, fmt.Sprint(w.next("t", 10*time.Second)))
		}
		return got
	}
	a, b := ticks(), ticks()
	if fmt.Sprint(a) != fmt.Sprint(b) || !strings.Contains(a[0], "ticker:") {
		t.Errorf("two subscribers of ticker got %v and %v, want the same generated payloads", a, b)
	}

	// sendEvent publishes an event of a contract table's row as of any table's.
	tables := cp.owner.must(`query($p:ID){ project(id:$p) { contract { tables { type tableId } } } }`, map[string]any{"p": cp.id})
	tableID := get(tables, "project", "contract", "tables", 0, "tableId")
	w := dialSub(t, s.base, cp.runtime, auth).ack()
	w.subscribe("c", `subscription { bookCreated { id } }`, nil)
	m := w.until(t, func() {
		cp.owner.must(`mutation($p:ID!,$t:ID!){ sendEvent(projectId:$p, tableId:$t, kind: CREATED, id: "book-1") }`, map[string]any{"p": cp.id, "t": tableID})
	}, 300*time.Millisecond, 30)
	if m.Type != "next" || !strings.Contains(string(m.Payload), `{"bookCreated":{"id":"book-1"}}`) {
		t.Errorf("sendEvent on a contract table: %+v %s", m, m.Payload)
	}
}

// TestBoardSubscriptionRate: the Schema tab says how each subscription
// field is served, and an editor sets the rate of a generated one in its
// mapping box ("Seconds between ticker payloads").
func TestBoardSubscriptionRate(t *testing.T) {
	s := startServer(t)
	u := s.signUp("subrate@example.com")
	pid := boardContractProject(t, u, "Ticking", subscriptionsSDL)
	p := newPage(t, s)
	p.signedIn(u)
	p.open("/board/projects/"+pid+"/schema", "#schemaReport")
	ticker, created := `#schemaReport tr[data-field="ticker"]`, `#schemaReport tr[data-field="bookCreated"]`
	if got := p.text(created); !strings.Contains(got, "event on Book created") {
		t.Errorf("bookCreated's line: %q", got)
	}
	p.waitText(ticker, "generated every 2 s")
	p.click(ticker + ` details.contract-mapping summary`)
	p.wait("#map-SUBSCRIPTION-ticker-every")
	if got := p.js(`document.querySelector("#map-SUBSCRIPTION-ticker-every").labels[0].textContent`); got != "Seconds between ticker payloads" {
		t.Errorf("the rate's label: %v", got)
	}
	p.set("#map-SUBSCRIPTION-ticker-every", "5")
	p.shot("schema-subscription-rate")
	p.clickText(ticker+` button`, "Save how ticker is served")
	p.waitText("#announce", "ticker is served as you set it now.")
	p.waitText(ticker, "generated every 5 s")
	if d := fmt.Sprint(u.must(`query($id:ID){ project(id:$id) { contract { report { name everySeconds } } } }`, map[string]any{"id": pid})); !strings.Contains(d, "everySeconds:5 name:ticker") {
		t.Fatalf("the rate was not saved: %s", d)
	}
	if got := p.js(`document.querySelector("#map-SUBSCRIPTION-bookCreated-every")`); got != nil {
		t.Errorf("an event field has a rate control")
	}
}
