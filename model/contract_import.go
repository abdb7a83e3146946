package model

// ContractField is one line of a contract project's report: how one root
// field of the imported schema is served (docs/using/contract.md).
type ContractField struct {
	// Root is RootQuery, RootMutation or RootSubscription.
	Root string `json:"root"`
	// Name is the root field's name, e.g. books.
	Name string `json:"name"`
	// Shape is the shape recognised (list, lookup, connection, …), or
	// "generated" when the field was not recognised.
	Shape string `json:"shape"`
	// Entity is the type whose rows the field reads or writes; "" for a
	// generated field.
	Entity string `json:"entity,omitempty"`
	// Description is the line for a person: "books: list of Book; genre →
	// equality on genre".
	Description string `json:"description"`
	// Args say what each argument does, in the document's order.
	Args []ContractArg `json:"args"`
	// Mapped is true when an editor's ContractMapping changed the field.
	Mapped bool `json:"mapped"`
	// EverySeconds is, for a subscription that streams generated
	// payloads, the seconds between them; 0 for other fields.
	EverySeconds int `json:"everySeconds,omitempty"`
}

// Roots of a ContractField.
const (
	RootQuery        = "QUERY"
	RootMutation     = "MUTATION"
	RootSubscription = "SUBSCRIPTION"
)

// ContractImport is what importing a GraphQL schema into a project did
// (or, for a check, would do).
type ContractImport struct {
	// Project is the project serving the imported schema; nil for a check.
	Project *Project
	// Tables are the object types served as tables of rows.
	Tables []string
	// Report says how each root field is served, in the document's order.
	Report []ContractField
	// Unsupported names what was accepted but is not interpreted: root
	// fields answered with generated values, arguments accepted and
	// ignored.
	Unsupported []string
	// Changes are the differences from the previous version, BREAKING
	// first; empty on a first import.
	Changes []SchemaChange
}

// ContractSuggestion is a pool dataset that could hold the rows of an
// object type of a contract project.
type ContractSuggestion struct {
	DataSource DataSource
	// Matched are the type's fields that a path of the dataset names;
	// Missing the type's scalar fields none names.
	Matched, Missing []string
}
