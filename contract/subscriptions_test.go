package contract

import (
	"os"
	"strings"
	"testing"

	"github.com/mockgql/mockgql/model"
)

// TestSubscriptionFields: each Subscription field is mapped by its name and
// payload type to a table's created, updated or deleted events (all three
// when the payload says which), or streams generated payloads; the report
// says which.
func TestSubscriptionFields(t *testing.T) {
	doc, err := os.ReadFile("../graphql/testdata/contract/subscriptions.graphql")
	if err != nil {
		t.Fatal(err)
	}
	s, err := Parse(doc, MaxDocumentBytes)
	if err != nil {
		t.Fatal(err)
	}
	plan := Interpret(s)
	want := map[string]struct {
		shape           Shape
		entity, event   string
		wrapper, report string
	}{
		"bookCreated":  {ShapeEvent, "Book", EventCreated, "", "bookCreated: event on Book created"},
		"onBookAdded":  {ShapeEvent, "Book", EventCreated, "", "onBookAdded: event on Book created; title → equality on title"},
		"bookUpdated":  {ShapeEvent, "Book", EventUpdated, "", "bookUpdated: event on Book updated; id → key id"},
		"bookChanged":  {ShapeEvent, "Book", EventUpdated, "", "bookChanged: event on Book updated"},
		"bookDeleted":  {ShapeEvent, "Book", EventDeleted, "", "bookDeleted: event on Book deleted"},
		"bookRemoved":  {ShapeEvent, "Book", EventDeleted, "", "bookRemoved: event on Book deleted"},
		"bookInserted": {ShapeEvent, "Book", EventCreated, "BookEvent", "bookInserted: event on Book created in BookEvent"},
		"book": {ShapeEvent, "Book", "", "BookSubscriptionPayload",
			"book: events on Book created, updated and deleted in BookSubscriptionPayload; accepted, not interpreted: where"},
		"ticker":     {ShapeGenerated, "", "", "", "ticker: generated every 2 s"},
		"randomBook": {ShapeGenerated, "Book", "", "", "randomBook: generated every 2 s"},
	}
	if len(plan.Subscriptions) != len(want) {
		t.Fatalf("%d subscription fields, want %d", len(plan.Subscriptions), len(want))
	}
	for _, r := range plan.Subscriptions {
		w := want[r.Name]
		if r.Shape != w.shape || r.Event != w.event || r.Wrapper != w.wrapper || (w.shape == ShapeEvent && r.Entity != w.entity) {
			t.Errorf("%s: shape %s entity %s event %q wrapper %q; want %s %s %q %q", r.Name, r.Shape, r.Entity, r.Event, r.Wrapper, w.shape, w.entity, w.event, w.wrapper)
		}
		if d := r.describe(); !strings.HasPrefix(d, w.report) {
			t.Errorf("%s: report %q, want it to start %q", r.Name, d, w.report)
		}
	}
	// Prisma 1's previousValues type is part of the payload, not a table.
	for _, e := range plan.Entities {
		if e.Type == "BookPreviousValues" || e.Type == "BookSubscriptionPayload" {
			t.Errorf("%s became a table", e.Type)
		}
	}
}

// TestSubscriptionRateMapping: a mapping sets the rate of a generated
// subscription (1 to 3,600 s) and nothing else's.
func TestSubscriptionRateMapping(t *testing.T) {
	doc, err := os.ReadFile("../graphql/testdata/contract/subscriptions.graphql")
	if err != nil {
		t.Fatal(err)
	}
	s, err := Parse(doc, MaxDocumentBytes)
	if err != nil {
		t.Fatal(err)
	}
	plan := Interpret(s)
	if err := plan.Override(s, []model.ContractMapping{{Field: "Subscription.ticker", EverySeconds: 5}}); err != nil {
		t.Fatal(err)
	}
	for _, r := range plan.Subscriptions {
		if r.Name == "ticker" && (r.Every != 5 || !strings.HasPrefix(r.describe(), "ticker: generated every 5 s")) {
			t.Errorf("ticker: every %d, report %q", r.Every, r.describe())
		}
	}
	for _, m := range []model.ContractMapping{
		{Field: "Subscription.ticker", EverySeconds: 3601},
		{Field: "Subscription.ticker", EverySeconds: -1},
		{Field: "Subscription.bookCreated", EverySeconds: 5},
		{Field: "Query.books", EverySeconds: 5},
	} {
		err := Interpret(s).Override(s, []model.ContractMapping{m})
		if model.ErrorCode(err) != model.CodeBadUserInput {
			t.Errorf("%+v: %v, want BAD_USER_INPUT", m, err)
		}
	}
	// Mapped to generated, an event field streams at the default rate.
	p2 := Interpret(s)
	if err := p2.Override(s, []model.ContractMapping{{Field: "Subscription.bookCreated", Shape: "generated"}}); err != nil {
		t.Fatal(err)
	}
	if r := p2.Subscriptions[0]; r.Shape != ShapeGenerated || r.Every != DefaultEvery {
		t.Errorf("bookCreated mapped to generated: %s every %d", r.Shape, r.Every)
	}
}

// TestSubscriptionPastTenseOfCreate: a chat schema's messageSent follows
// created messages (send is a create verb, sent its past tense), with its
// channelId argument an equality on the relation's key.
func TestSubscriptionPastTenseOfCreate(t *testing.T) {
	doc, err := os.ReadFile("../graphql/testdata/contract/chat.graphql")
	if err != nil {
		t.Fatal(err)
	}
	s, err := Parse(doc, MaxDocumentBytes)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, r := range Interpret(s).Subscriptions {
		got[r.Name] = r.describe()
	}
	if got["messageSent"] != "messageSent: event on Message created; channelId → equality on channel's key" ||
		got["messageDeleted"] != "messageDeleted: event on Message deleted" {
		t.Errorf("report: %q", got)
	}
}
