package model

// Criticalities of a SchemaChange, from the consumers' point of view.
const (
	// ChangeBreaking breaks existing consumers: a removed or renamed
	// operation, field, type, argument or enum value, a changed type, a new
	// required argument or input field.
	ChangeBreaking = "BREAKING"
	// ChangeDangerous keeps queries valid but may change what consumers
	// see or must handle: a new enum value or union member, a changed default.
	ChangeDangerous = "DANGEROUS"
	// ChangeSafe is an addition that existing consumers do not notice.
	ChangeSafe = "SAFE"
)

// SchemaChange is one difference between two versions of a GraphQL schema
// (docs/using/import-export.md, "Baseline and changes").
type SchemaChange struct {
	// Type names the kind of change, e.g. FIELD_REMOVED or ENUM_VALUE_ADDED.
	Type string `json:"type"`
	// Criticality is ChangeBreaking, ChangeDangerous or ChangeSafe.
	Criticality string `json:"criticality"`
	// Path is the schema coordinate that changed: Product, Query.products,
	// Query.products(pageSize:), SortDirection.ASC.
	Path string `json:"path"`
	// Message explains the change to a person.
	Message string `json:"message"`
}
