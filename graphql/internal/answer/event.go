package answer

import (
	"time"

	"github.com/mockgql/mockgql/engine"
)

// EventKind is what happened to a row.
type EventKind string

// The kinds of events, and the suffixes of their Subscription fields.
const (
	EventCreated EventKind = "CREATED"
	EventUpdated EventKind = "UPDATED"
	EventDeleted EventKind = "DELETED"
)

// Valid reports whether k is one of the kinds.
func (k EventKind) Valid() bool { return k == EventCreated || k == EventUpdated || k == EventDeleted }

func (k EventKind) Suffix() string {
	switch k {
	case EventCreated:
		return "Created"
	case EventUpdated:
		return "Updated"
	}
	return "Deleted"
}

// Event is a change of one row, to be rendered for subscribers: the row
// is read in At.
type Event struct {
	TableID, RowID string
	Kind           EventKind
	At             engine.Snapshot
	// Prev is, for an update, the version before it (what a contract's
	// previousValues and updatedFields read); zero otherwise.
	Prev engine.Snapshot
	// N numbers the payloads of a generated subscription (EventGenerated).
	N int64
}

// EventRoot is the root object of a subscription run for one event.
type EventRoot struct {
	V       *engine.View
	Ev      Event
	Skipped bool // the event is not for this subscription (id or where)
}

// Row returns the view of t and the event's Row in it: -1, and er
// skipped, when the Row is gone meanwhile (a sent event for a Row deleted
// since).
func (er *EventRoot) Row(t *engine.Table) (*engine.TableView, int32, error) {
	tv := er.V.TableView(t)
	if tv.NotReady != nil {
		return nil, -1, tv.NotReady
	}
	r := tv.ByID(er.Ev.RowID)
	if r < 0 {
		er.Skipped = true
	}
	return tv, r, nil
}

// Matches reports whether ev is of the table and kind t follows.
func (t SubTarget) Matches(tableID string, kind EventKind) bool {
	if t.Kind == EventGenerated || kind == EventGenerated {
		return t.Kind == kind
	}
	return tableID == t.TableID && (t.Kind == "" || kind == t.Kind)
}

// EventGenerated is the kind of the ticks of a generated subscription:
// its payload number n is Event.N.
const EventGenerated EventKind = "GENERATED"

// SubTarget is what a prepared subscription follows: the events of one
// table (TableID), of one kind (Kind; "" every kind), or, for a generated
// stream (Kind EventGenerated), a tick every Every.
type SubTarget struct {
	TableID string
	Kind    EventKind
	Every   time.Duration
}
