package model

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"
)

// Project is a model with its runtime settings. A project is owned by one
// project grain; the grain is the only writer and hands out clones.
type Project struct {
	ID         string      `json:"id"`
	Slug       string      `json:"slug"`
	Name       string      `json:"name"`
	Kind       ProjectKind `json:"kind"`
	AccountID  string      `json:"accountId,omitempty"`
	ShareToken string      `json:"shareToken,omitempty"`
	CreatedAt  time.Time   `json:"createdAt"`
	// ExpiresAt is zero for projects that do not expire.
	ExpiresAt  time.Time    `json:"expiresAt,omitzero"`
	Tables     []*Table     `json:"tables"`
	Relations  []*Relation  `json:"relations"`
	Operations []*Operation `json:"operations"`
	Views      []*View      `json:"views"`
	// Version increases with every model change; compiled schemas and caches
	// are keyed by it.
	Version int64 `json:"version"`
	// Baseline is the runtime schema (SDL) saved by setSchemaBaseline, which
	// schemaChanges compares the current schema with; empty until saved.
	// It is not part of the schema, so saving it leaves Version as it is.
	Baseline string `json:"baseline,omitempty"`
	// AllowedOrigins are the browser origins (scheme://host[:port]) an
	// account project's runtime answers with CORS headers; guest and
	// session projects answer any origin and keep it empty. Checked by
	// CheckAllowedOrigins.
	AllowedOrigins []string `json:"allowedOrigins,omitempty"`
	// Faults are the runtime's latency and error injection (fault.go);
	// nil injects nothing. Not part of the schema: setting them leaves
	// Version as it is.
	Faults *FaultSettings `json:"faults,omitempty"`
	// Contract is the schema an SDL-first project was imported from
	// (contract.go); nil for projects modelled from tables.
	Contract *Contract `json:"contract,omitempty"`
}

// Table is a model table: a GraphQL object type in the runtime schema.
type Table struct {
	ID         string       `json:"id"`
	Name       string       `json:"name"`
	Source     *TableSource `json:"source,omitempty"`
	Attributes []*Attribute `json:"attributes"`
}

// TableSource binds a table to a dataset of the data pool.
type TableSource struct {
	ImportCode string `json:"importCode"`
	// Variant selects one variant; nil means all variants.
	Variant *string `json:"variant,omitempty"`
	// Generated is true for the tables of a contract project whose rows
	// the runtime generates (ImportCode is then ContractImportCode of the
	// table's type, served from memory, not from the pool).
	Generated bool `json:"generated,omitempty"`
}

// Attribute is a field of a table and says where its value comes from.
type Attribute struct {
	ID         string      `json:"id"`
	TableID    string      `json:"tableId"`
	Name       string      `json:"name"`
	Type       ScalarType  `json:"type"`
	Sortable   bool        `json:"sortable"`
	Filterable bool        `json:"filterable"`
	Required   bool        `json:"required"`
	Mapping    MappingType `json:"mappingType"`
	// SourcePath is the dot path into a dataset document (SOURCE mapping).
	SourcePath string `json:"sourcePath,omitempty"`
	// Constant is the JSON value returned on every row (CONSTANT mapping).
	Constant json.RawMessage `json:"constantValue,omitempty"`
	// Computed is the expression of a COMPUTED mapping; the runtime does not
	// evaluate it and the field is not in the runtime schema.
	Computed  string     `json:"computedExpression,omitempty"`
	Generator *Generator `json:"generator,omitempty"`
}

// Generator describes a GENERATED mapping: fake data, deterministic per
// record and attribute.
type Generator struct {
	Kind    string          `json:"kind"`
	Options json.RawMessage `json:"options,omitempty"`
}

// Relation links two tables through linking attributes: a source row relates
// to the target rows whose TargetAttribute equals its SourceAttribute. With
// ONE_TO_MANY the target holds the foreign key and FieldName (on the source)
// is a list; with ONE_TO_ONE it is a single object. A BIDIRECTIONAL relation
// adds InverseFieldName on the target, always to-one.
type Relation struct {
	ID               string            `json:"id"`
	SourceTableID    string            `json:"sourceTableId"`
	TargetTableID    string            `json:"targetTableId"`
	Direction        RelationDirection `json:"direction"`
	Cardinality      Cardinality       `json:"cardinality"`
	SourceAttribute  string            `json:"sourceAttribute"`
	TargetAttribute  string            `json:"targetAttribute"`
	FieldName        string            `json:"fieldName"`
	InverseFieldName string            `json:"inverseFieldName,omitempty"`
}

// Operation is a query or mutation of the runtime schema.
type Operation struct {
	ID         string        `json:"id"`
	TableID    string        `json:"tableId"`
	Name       string        `json:"name"`
	Kind       OperationKind `json:"kind"`
	Enabled    bool          `json:"enabled"`
	Parameters []Parameter   `json:"parameters"`
	// Options are the opt-in query arguments and fields of a LIST
	// operation (issue 14); nil means none, as before they existed.
	Options *OperationOptions `json:"options,omitempty"`
	// Faults, when set, replace the project's for requests that select
	// this operation (fault.go); nil uses the project's.
	Faults *FaultSettings `json:"faults,omitempty"`
}

// OperationOptions opt a LIST operation into more query power. Each adds
// to the runtime schema without changing what was there (SAFE changes).
type OperationOptions struct {
	// Relay adds the field <name>Connection with first/after/last/before,
	// edges, pageInfo and totalCount.
	Relay bool `json:"relay,omitempty"`
	// Where adds a where: <T>Where argument (and, or, not, per attribute
	// operators) to the list field, its connection and nothing else.
	Where bool `json:"where,omitempty"`
	// OrderBy adds an orderBy: [<T>OrderBy!] argument (multi-field sort).
	OrderBy bool `json:"orderBy,omitempty"`
	// Subscriptions adds the table's Subscription fields <table>Created,
	// <table>Updated(id) and <table>Deleted (docs/using/realtime.md), with
	// the where argument when an operation of the table has Where.
	Subscriptions bool `json:"subscriptions,omitempty"`
}

// Any reports whether o opts into anything.
func (o *OperationOptions) Any() bool {
	return o != nil && (o.Relay || o.Where || o.OrderBy || o.Subscriptions)
}

// Parameter is an argument of a LIST operation compared with an attribute.
type Parameter struct {
	Name      string   `json:"name"`
	Attribute string   `json:"attribute"`
	Operator  Operator `json:"operator"`
}

// View is a board view of a table.
type View struct {
	ID      string `json:"id"`
	TableID string `json:"tableId"`
	Kind    string `json:"kind"`
	Name    string `json:"name"`
}

// Table returns the table with the given ID, or nil.
func (p *Project) Table(id string) *Table {
	for _, t := range p.Tables {
		if t.ID == id {
			return t
		}
	}
	return nil
}

// TableByName returns the table with the given name, or nil.
func (p *Project) TableByName(name string) *Table {
	for _, t := range p.Tables {
		if t.Name == name {
			return t
		}
	}
	return nil
}

// Attribute returns the attribute with the given ID and its table, or nils.
func (p *Project) Attribute(id string) (*Table, *Attribute) {
	for _, t := range p.Tables {
		for _, a := range t.Attributes {
			if a.ID == id {
				return t, a
			}
		}
	}
	return nil, nil
}

// Operation returns the operation with the given ID, or nil.
func (p *Project) Operation(id string) *Operation {
	for _, o := range p.Operations {
		if o.ID == id {
			return o
		}
	}
	return nil
}

// Relation returns the relation with the given ID, or nil.
func (p *Project) Relation(id string) *Relation {
	for _, r := range p.Relations {
		if r.ID == id {
			return r
		}
	}
	return nil
}

// Attribute returns the attribute of t with the given name, or nil.
func (t *Table) Attribute(name string) *Attribute {
	for _, a := range t.Attributes {
		if a.Name == name {
			return a
		}
	}
	return nil
}

// Ready reports whether t serves rows: it is bound to a dataset and at least
// one attribute is bound to a column (docs/using/runtime.md, "Query rules": a table not ready).
func (t *Table) Ready() bool { return t.NotReadyReason() == "" }

// NotReadyReason says why t is not ready, in words the board shows and that
// name the fix, or "" when t is ready. Ready is defined by it, so the two
// never disagree.
func (t *Table) NotReadyReason() string {
	if t.Source == nil || t.Source.ImportCode == "" {
		return "not bound to a dataset: choose its Dataset (importCode) on the table's card, or set source.importCode"
	}
	for _, a := range t.Attributes {
		if a.Mapping == MappingSource && a.SourcePath != "" {
			return ""
		}
	}
	if len(t.Attributes) == 0 {
		return "no attributes: add one bound to a field path of " + t.Source.ImportCode
	}
	return "no attribute is bound to a field path of " + t.Source.ImportCode + ": map at least one attribute with SOURCE"
}

// NotReadyIn is NotReadyReason for a table of a project of kind kind whose
// data pool holds the import codes in pool: a table bound to a dataset
// the project cannot read (a code no dataset of its pool has, or an
// account's own upload bound to a session project) serves nothing, so it
// is not ready either.
func (t *Table) NotReadyIn(pool map[string]bool, kind ProjectKind) string {
	if r := t.NotReadyReason(); r != "" || pool[t.Source.ImportCode] {
		return r
	}
	code := Truncate(t.Source.ImportCode, 64)
	if kind == KindAccount {
		return fmt.Sprintf("no dataset %q in the data pool this project reads: import it in the Data pool, or choose another Dataset (importCode)", code)
	}
	return fmt.Sprintf("dataset %q is not in the curated pool this %s project reads: choose a curated Dataset (importCode), or keep the project in a workspace first", code, strings.ToLower(string(kind)))
}

// Clone returns a deep copy of p. The contract's document, an immutable
// string of up to megabytes, is shared rather than copied.
func (p *Project) Clone() *Project {
	src := p
	if p.Contract != nil && p.Contract.Document != "" {
		shallow, c := *p, *p.Contract
		c.Document, shallow.Contract = "", &c
		src = &shallow
	}
	b, err := json.Marshal(src)
	if err != nil {
		panic("model: project does not marshal: " + err.Error())
	}
	var c Project
	if err := json.Unmarshal(b, &c); err != nil {
		panic("model: project does not unmarshal: " + err.Error())
	}
	if c.Contract != nil {
		c.Contract.Document = p.Contract.Document
	}
	return &c
}

// Expired reports whether p has an expiry that is not after now.
func (p *Project) Expired(now time.Time) bool {
	return !p.ExpiresAt.IsZero() && !now.Before(p.ExpiresAt)
}
