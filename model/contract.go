package model

import (
	"encoding/json"
	"fmt"
	"time"
)

// Bounds of a contract project's generated rows (docs/reference/bounds.md).
const (
	// DefaultContractRows is the number of rows generated for an entity
	// that the contract gives no count.
	DefaultContractRows = 20
	// MaxContractTableRows bounds the generated rows of one entity.
	MaxContractTableRows = 10_000
	// MaxContractRows bounds the generated rows of a whole project.
	MaxContractRows = 100_000
	// MaxContractMappings bounds a contract's mapping overrides.
	MaxContractMappings = 1_000
	// MaxContractGenerators bounds a contract's generator choices.
	MaxContractGenerators = 1_000
)

// Contract is the GraphQL schema a project was imported from (SDL-first,
// docs/using/contract.md): the runtime serves exactly Document, with rows
// generated per entity (or read from a bound dataset) and each root field
// served as the interpretation of the document says, unless Mappings
// override it. A project with a Contract still has its Tables and
// Relations, materialised from the document, so everything keyed by table
// ID (the overlay, the board, preview) works as for table projects.
type Contract struct {
	// Document is the imported schema as SDL (an introspection result is
	// printed as SDL once, at import).
	Document   string    `json:"document"`
	ImportedAt time.Time `json:"importedAt"`
	// Version counts imports: 1 for the first.
	Version int `json:"version"`
	// Tables are the per-entity settings; an entity not listed gets
	// DefaultContractRows generated rows.
	Tables []ContractTable `json:"tables,omitempty"`
	// Mappings are an editor's overrides of how root fields are served.
	Mappings []ContractMapping `json:"mappings,omitempty"`
	// Generators are an editor's choices of how generated rows fill
	// fields: each wins over the document's @fake and over the values by
	// meaning.
	Generators []ContractGenerator `json:"generators,omitempty"`
	// Seed, when set, seeds the generated rows instead of the project's
	// ID, so that every project with the same document and seed
	// generates the same rows (SeedKey).
	Seed string `json:"seed,omitempty"`
}

// MaxContractSeed is the longest Contract.Seed, in bytes.
const MaxContractSeed = 256

// CheckContractSeed accepts a seed of at most MaxContractSeed bytes; ""
// goes back to the project's ID.
func CheckContractSeed(seed string) error {
	if len(seed) > MaxContractSeed {
		return Errorf(CodeBadUserInput, "a seed is at most %d bytes", MaxContractSeed)
	}
	return nil
}

// SeedKey is what the generated rows of project projectID are seeded
// from: the contract's Seed when set, else the project's ID (a nil
// contract has no seed). The two never collide: a seed is prefixed.
func (c *Contract) SeedKey(projectID string) string {
	if c == nil || c.Seed == "" {
		return projectID
	}
	return "seed\x00" + c.Seed
}

// ContractGenerator is an editor's generator for one scalar field of an
// entity (or embedded) type of a contract: Kind and Options as a
// GENERATED attribute's (Generator).
type ContractGenerator struct {
	Type    string          `json:"type"`
	Field   string          `json:"field"`
	Kind    string          `json:"kind"`
	Options json.RawMessage `json:"options,omitempty"`
}

// GeneratorOf returns the editor's generator of the field typ.field, or nil.
func (c *Contract) GeneratorOf(typ, field string) *ContractGenerator {
	for i := range c.Generators {
		if c.Generators[i].Type == typ && c.Generators[i].Field == field {
			return &c.Generators[i]
		}
	}
	return nil
}

// ContractTable is how the rows of one entity (object type) are made.
type ContractTable struct {
	// Type is the object type's name.
	Type string `json:"type"`
	// Rows is the number of generated rows, 0 to MaxContractTableRows.
	Rows int `json:"rows"`
	// ImportCode, when set, binds the entity to a pool dataset instead of
	// generated rows; each field reads the dataset path of its name.
	ImportCode string `json:"importCode,omitempty"`
}

// ContractMapping overrides how one root field is served. Empty fields
// keep the interpretation's choice.
type ContractMapping struct {
	// Field is the root field: "Query.books", "Mutation.createBook" (the
	// operation's word, whatever the root type is named).
	Field string `json:"field"`
	// Shape is one of the shapes of docs/using/contract.md (list, lookup,
	// connection, …, generated).
	Shape string `json:"shape,omitempty"`
	// Entity is the object type whose rows the field serves.
	Entity string `json:"entity,omitempty"`
	// Args override the roles of arguments.
	Args []ContractArg `json:"args,omitempty"`
	// EverySeconds is, for a subscription that streams generated
	// payloads, the seconds between them (1 to 3,600; 0 keeps the
	// default, 2).
	EverySeconds int `json:"everySeconds,omitempty"`
}

// ContractArg overrides what one argument of a root field does.
type ContractArg struct {
	Name string `json:"name"`
	// Role is key, keys, eq, range, in, search, relay, offset, page, sort,
	// filter, input or ignored.
	Role string `json:"role"`
	// Field is the entity field compared, for eq, range and in.
	Field string `json:"field,omitempty"`
	// Op is the operator: gt, gte, lt, lte for range; limit, offset;
	// page, size; hasura, prisma, plain for filter. contract.Plan.Override
	// checks a mapping against the document.
	Op string `json:"op,omitempty"`
}

// RowsOf returns the number of generated rows of the entity typ.
func (c *Contract) RowsOf(typ string) int {
	for _, t := range c.Tables {
		if t.Type == typ {
			return t.Rows
		}
	}
	return DefaultContractRows
}

// GeneratedRows returns how many rows are generated for the entity typ:
// RowsOf, or 0 when a dataset holds its rows.
func (c *Contract) GeneratedRows(typ string) int {
	if t := c.Table(typ); t != nil && t.ImportCode != "" {
		return 0
	}
	return c.RowsOf(typ)
}

// Table returns the settings of the entity typ, or nil.
func (c *Contract) Table(typ string) *ContractTable {
	for i := range c.Tables {
		if c.Tables[i].Type == typ {
			return &c.Tables[i]
		}
	}
	return nil
}

// Check refuses a contract whose settings are out of bounds, with
// BAD_USER_INPUT (LIMIT_REACHED for the project's total of rows); entities
// maps each entity of the document to true, to refuse settings of types
// that are not entities (nil: not checked).
func (c *Contract) Check(entities map[string]bool) error {
	if len(c.Mappings) > MaxContractMappings {
		return Errorf(CodeBadUserInput, "a contract has at most %d mappings; this one has %d", MaxContractMappings, len(c.Mappings))
	}
	if len(c.Generators) > MaxContractGenerators {
		return Errorf(CodeLimitReached, "a contract has at most %d generator choices; this one has %d", MaxContractGenerators, len(c.Generators))
	}
	total, seen := 0, map[string]bool{}
	for _, t := range c.Tables {
		if err := checkContractTable(t, entities, seen); err != nil {
			return err
		}
		total += t.Rows
	}
	for typ := range entities {
		if !seen[typ] {
			total += DefaultContractRows
		}
	}
	if total > MaxContractRows {
		return Errorf(CodeLimitReached, "the contract generates %d rows; a project has at most %d", total, MaxContractRows)
	}
	return nil
}

func checkContractTable(t ContractTable, entities, seen map[string]bool) error {
	switch {
	case seen[t.Type]:
		return Errorf(CodeBadUserInput, "the rows of %q are set twice", t.Type)
	case entities != nil && !entities[t.Type]:
		return Errorf(CodeBadUserInput, "%q is not an object type served as a table", t.Type)
	case t.Rows < 0 || t.Rows > MaxContractTableRows:
		return Errorf(CodeBadUserInput, "%s: rows must be 0 to %d, not %d", t.Type, MaxContractTableRows, t.Rows)
	}
	seen[t.Type] = true
	return nil
}

// ContractImportCode is the import code of the generated rows of the
// entity typ: the runtime serves them as a dataset under this code.
func ContractImportCode(typ string) string {
	code := "contract-" + typ
	if len(code) > 64 {
		code = fmt.Sprintf("contract-%.38s-%016x", typ, fnv64(typ)) // 9 + 38 + 1 + 16 = 64
	}
	return code
}

// AddGenerated adds to pool, the import codes project p can read, the
// codes of the rows its contract generates: a schema project's table of
// generated rows reads them, not a dataset of the pool, so it is ready.
// It answers pool.
func (p *Project) AddGenerated(pool map[string]bool) map[string]bool {
	if p.Contract == nil {
		return pool
	}
	for _, t := range p.Tables {
		if t.Source != nil && t.Source.ImportCode == ContractImportCode(t.Name) {
			if pool == nil {
				pool = map[string]bool{}
			}
			pool[t.Source.ImportCode] = true
		}
	}
	return pool
}

// fnv64 is FNV-1a over s.
func fnv64(s string) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= 1099511628211
	}
	return h
}
