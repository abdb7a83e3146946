package contract

// Plan is how mockgql serves a Schema: its tables (Entities), the
// relations between them, and how each root field is answered. It is
// derived from the schema alone and deterministic: the same document
// always gives the same Plan.
type Plan struct {
	// Entities are the object types served as tables of rows: those with
	// an identity (an ID field) and those reached as items of a list.
	Entities []*Entity
	// Embedded are object types without identity, generated as values
	// inside the row that holds them (their Key is "").
	Embedded []*Entity
	// Wrappers are the types mockgql fills around rows: connections,
	// edges, page info, page wrappers, aggregates and mutation payloads.
	Wrappers []*Wrapper
	// Relations pair object-typed fields between entities, both ways.
	Relations []*Relation
	// Queries, Mutations and Subscriptions are the root fields, in the
	// order the document gives them.
	Queries, Mutations, Subscriptions []*RootField
	// Abstract maps each interface and union to the entities that are its
	// rows (an interface's implementations, a union's members), in name
	// order.
	Abstract map[string][]string
}

// Entity is an object type served as a table.
type Entity struct {
	Type string
	// Key is the field that identifies a row (the ID field, "id" when
	// there are several); "" when the type has none and rows get a hidden
	// one.
	Key    string
	Fields []*Field
}

// Field is a scalar, enum or embedded field of an entity.
type Field struct {
	Name string
	// Type is the field's GraphQL named type (Int, String, an enum or
	// scalar's name, or an embedded object type).
	Type     string
	List     bool
	NonNull  bool
	Embedded bool
	// Value says how a generated row fills the field.
	Value Value
	// Sized says that ListMin and ListMax bound a list field's generated
	// items (@listLength); else a list holds one to three.
	Sized   bool `json:",omitempty"`
	ListMin int  `json:",omitempty"`
	ListMax int  `json:",omitempty"`
	// Source says where Value comes from: "" by meaning (the field's
	// name and type), "directive" (@fake or @examples in the document),
	// "editor" (model.Contract.Generators).
	Source string `json:",omitempty"`
}

// Where a field's Value comes from (Field.Source).
const (
	SourceMeaning   = ""
	SourceDirective = "directive"
	SourceEditor    = "editor"
)

// Value is how generated rows fill a field: a generator kind of the
// runtime with its options, one of an enum's values, or a fixed shape for
// a custom scalar mockgql has no generator for.
type Value struct {
	Kind    string         `json:"kind"`
	Options map[string]any `json:"options,omitempty"`
	Enum    []string       `json:"enum,omitempty"`
}

// Relation is a link between two entities: From.FromField is the side
// that names one row of To (to-one), or a list of them when Many; ToField
// is the field of To that lists From's rows back, when the schema has
// one ("" otherwise). The link is held as a foreign key on the to-one side.
type Relation struct {
	From, FromField string
	To, ToField     string
	// Many is true when FromField is a list (and ToField, if any, is
	// to-one or also a list: a many-to-many when ToMany).
	Many, ToMany bool
	// Key is the field of From that holds To's key when the schema shows
	// it (Book.authorId, products.category_id); "" when the foreign key is
	// hidden.
	Key string
	// ToSized says that ToMin and ToMax bound how many rows of From each
	// row of To lists (@listLength on ToField, a list): generated rows are
	// dealt to To's rows in runs of ToMin to ToMax, as far as From's rows
	// go; FromNonNull says FromField is non-null, so rows past the runs
	// still name a row of To (one past ToMax) rather than none.
	ToSized     bool `json:",omitempty"`
	ToMin       int  `json:",omitempty"`
	ToMax       int  `json:",omitempty"`
	FromNonNull bool `json:",omitempty"`
}

// Shape is how a root field is answered.
type Shape string

// Shapes of root fields.
const (
	ShapeLookup     Shape = "lookup"     // one row by its key: book(id:)
	ShapeLookupMany Shape = "lookupMany" // rows by keys: nodes(ids:)
	ShapeNode       Shape = "node"       // Relay's node(id:) over every entity
	ShapeList       Shape = "list"       // [Book!]!
	ShapeConnection Shape = "connection" // Relay: edges/node/pageInfo
	ShapePage       Shape = "page"       // a wrapper: items + total + page info
	ShapeAggregate  Shape = "aggregate"  // count/sum/avg/min/max
	ShapeFirst      Shape = "first"      // one row found by arguments: bookBySlug(slug:)
	ShapeCreate     Shape = "create"
	ShapeUpdate     Shape = "update"
	ShapeUpsert     Shape = "upsert"
	ShapeDelete     Shape = "delete"
	ShapeEvent      Shape = "event"     // a subscription to a table's changes
	ShapeGenerated  Shape = "generated" // not recognised: a value generated from the arguments and rows
	ShapeService    Shape = "service"   // a federation subgraph's _service { sdl }
	ShapeEntities   Shape = "entities"  // a federation subgraph's _entities(representations:)
)

// RootField is one field of the query, mutation or subscription type and
// how it is served.
type RootField struct {
	Name  string
	Shape Shape
	// Entity is the table the field reads or writes; for a field of an
	// interface or union, the abstract type (see Plan.Abstract).
	Entity string
	Args   []*Arg
	// Wrapper is the type around the rows (a connection, a page, a
	// payload), when there is one.
	Wrapper string
	// Why says, for a generated field, what was not recognised.
	Why string
	// Event is, for a subscription to a table's changes (ShapeEvent), the
	// change it follows: EventCreated, EventUpdated, EventDeleted, or ""
	// for all three (a payload that says which, as Prisma 1's
	// { mutation, node, previousValues }).
	Event string `json:",omitempty"`
	// Flag is, for a mutation by a domain verb (saveAlbums, followUser,
	// addStar), the Boolean field it sets to On on the rows it names
	// (ShapeUpdate).
	Flag string `json:",omitempty"`
	On   bool   `json:",omitempty"`
	// Link is, for a mutation that adds rows to a parent or removes them
	// (addTrackToPlaylist, removeItemFromPlaylist), the column of the
	// child's relation to the parent it sets: to the parent's key the
	// input gives when On, else to null (ShapeUpdate).
	Link string `json:",omitempty"`
	// Every is, for a generated subscription, the seconds between its
	// payloads (DefaultEvery unless a mapping sets it).
	Every int `json:",omitempty"`
}

// The changes a subscription follows (RootField.Event), as the runtime
// names its events.
const (
	EventCreated = "CREATED"
	EventUpdated = "UPDATED"
	EventDeleted = "DELETED"
)

// The rate of a generated subscription's payloads, in seconds: the
// default, and the bounds a mapping may set (setContractMapping
// everySeconds).
const (
	DefaultEvery = 2
	MinEvery     = 1
	MaxEvery     = 3600
)

// Role is what an argument of a root field does.
type Role string

// Roles of arguments.
const (
	RoleKey     Role = "key"     // the row's key: id
	RoleKeys    Role = "keys"    // several keys: ids
	RoleEq      Role = "eq"      // equality on Field
	RoleRange   Role = "range"   // Op (gt, gte, lt, lte) on Field
	RoleIn      Role = "in"      // Field in a list
	RoleSearch  Role = "search"  // case-insensitive contains over the text fields
	RoleRelay   Role = "relay"   // first, after, last, before
	RoleOffset  Role = "offset"  // limit/offset, skip/take: Op names which
	RolePage    Role = "page"    // page number / page size: Op names which
	RoleSort    Role = "sort"    // an enum or input naming fields and directions; Op field or direction: one half of a pair
	RoleFilter  Role = "filter"  // a where/filter input: Style names its dialect
	RoleInput   Role = "input"   // a mutation's values; Op inc: numbers to add (Hasura's _inc)
	RoleIgnored Role = "ignored" // accepted, not interpreted
	// RolePart is a list of a parent row's parts that a parentWrite adds,
	// changes or removes (Shopify's cartLinesAdd(cartId:, lines:)): Field
	// is the parent's list field (lines), Op add, update or remove.
	RolePart Role = "part"
)

// Arg is one argument of a root field and its role.
type Arg struct {
	Name  string
	Role  Role
	Field string // the entity field it reads, for eq, range and in
	Op    string // range: gt, gte, lt, lte; offset: limit, offset; page: page, size; sort: field, direction or ""
	Style string // filter: hasura, prisma or plain
}

// Wrapper is a type mockgql fills around rows.
type Wrapper struct {
	Type string
	Kind string // connection, edge, pageInfo, page, aggregate, payload, previous (a subscription payload's previousValues)
	// Entity is the row type the wrapper holds.
	Entity string
}
