package exec

import (
	"errors"
	"fmt"
	"strings"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/validator"
)

// Executor executes GraphQL requests against one schema. Build it with
// NewExecutor and do not change its fields afterwards; the result is
// immutable and safe for concurrent use.
//
// Argument values reach resolvers (Field.Args) coerced to Go values: Int as
// int, Float as float64, String and ID as string, Boolean as bool, an enum
// as its name (string), an input object as map[string]any with defaults
// applied, a list as []any; any other (custom) scalar as a plain JSON value:
// nil, bool, float64, string, []any or map[string]any.
//
// Resolver results are shaped by the field's type: Int from any Go integer
// or integral float that fits 32 bits; Float from any number; String from a
// string (or a number or bool, as text); ID from a string or an integer;
// Boolean from a bool; an enum from its value name; a custom scalar from a
// json.RawMessage, written verbatim, or any value encoding/json encodes
// (maps with sorted keys); a list from any slice (a nil slice is an empty
// list); an object from any value. Named types of those kinds and pointers
// to them work too. A value that does not fit its type is a field error
// with code INTERNAL and a message saying why.
//
// An object's fields are resolved by Resolvers["Type.field"] when set, and
// otherwise by the default resolver: the member of a map with string keys,
// or what a FieldGetter returns, else null. A default-resolved member that
// is a LazyField is called with the field's arguments. An interface or
// union value names its object type as a Typer or by a "__typename" map
// member.
type Executor struct {
	// Schema is the schema to execute against, built with the gqlparser
	// prelude (gqlparser.LoadSchema or validator.LoadSchema with
	// validator.Prelude) so that built-in scalars and introspection types exist.
	Schema *ast.Schema
	// Resolvers maps "Type.field" to its resolver; a field without one
	// uses the default resolver.
	Resolvers map[string]Resolver
	// LooseArgs lists "Type.field" keys whose unknown arguments pass
	// validation and reach the resolver in Field.Extra.
	LooseArgs map[string]bool
	// MaxDepth limits the depth of nested selections, not counting
	// introspection (__schema and __type subtrees). 0 means 10.
	MaxDepth int
	// MaxFields limits the number of field selections after fragment
	// expansion. 0 means 1000.
	MaxFields int
	// CacheSize is the most prepared documents kept, keyed by query text,
	// within DocCacheBytes. 0 means 65536; a negative value disables the
	// cache.
	CacheSize int
	// Bounds limit the response bytes, list items and errors of one
	// request, and share the node's Budget (exec_bounds.go); zero fields
	// take the defaults.
	Bounds Bounds
	// Cost is the cost budget of an operation, checked before validation
	// (validate_cost.go); the zero value has none.
	Cost Cost

	// DocumentOrder makes introspection list types and directives in the
	// order the schema's document defines them (their Position), built-ins
	// after by name, as a server built from that document with graphql-js
	// does; false lists all by name.
	DocumentOrder bool

	// DirectPlan compiles plans for direct writers (exec_direct.go); nil
	// for none. The mock runtime sets it to write rows without resolvers.
	DirectPlan DirectCompiler

	// NoShapes turns the shape cache off (shape.go): every text is then
	// parsed, validated and planned on its own. The cache is off too when
	// CacheSize is negative.
	NoShapes bool

	types    map[string]*objectType // object types by name, with their fields precomputed
	ruleList []validator.Rule       // the validation rules, in the order validate runs them
	cache    *docCache
	shapes   *docCache // by shape key; nil when off
}

// Default limits of an Executor.
const (
	DefaultMaxDepth  = 10
	DefaultMaxFields = 1000
	DefaultCacheSize = 1 << 16
)

// NewExecutor checks e and returns a ready executor. A nil schema, or a
// Resolvers or LooseArgs key that names no field of an object type of the
// schema (or a field of an introspection type), is an error. The returned
// Executor is immutable and safe for concurrent use; it keeps e's maps, so
// the caller must not change them afterwards.
func NewExecutor(e Executor) (*Executor, error) {
	if e.Schema == nil || e.Schema.Query == nil {
		return nil, errors.New("graphql: executor needs a schema with a query type")
	}
	ex := e
	if ex.MaxDepth == 0 {
		ex.MaxDepth = DefaultMaxDepth
	}
	if ex.MaxFields == 0 {
		ex.MaxFields = DefaultMaxFields
	}
	if ex.CacheSize == 0 {
		ex.CacheSize = DefaultCacheSize
	}
	ex.Bounds = ex.Bounds.withDefaults()
	ex.types = buildTypes(ex.Schema)
	if err := ex.attach(ex.Resolvers, func(fi *fieldInfo, r Resolver) { fi.resolver = r }); err != nil {
		return nil, err
	}
	if err := ex.attach(boolsToResolvers(ex.LooseArgs), func(fi *fieldInfo, _ Resolver) { fi.loose = true }); err != nil {
		return nil, err
	}
	ex.attachIntrospection()
	ex.ruleList = sortedRules(ex.validationRules())
	ex.cache, ex.shapes = newDocCache(ex.CacheSize), nil
	if !ex.NoShapes && ex.CacheSize > 0 {
		ex.shapes = newDocCache(ex.CacheSize)
		ex.shapes.maxBytes = ShapeCacheBytes
	}
	return &ex, nil
}

// attach calls set for the field named by each key of m, failing on a key
// that names no field of a non-introspection object type.
func (e *Executor) attach(m map[string]Resolver, set func(*fieldInfo, Resolver)) error {
	for key, r := range m {
		fi := e.field(key)
		if fi == nil || strings.HasPrefix(key, "__") || strings.Contains(key, ".__") {
			return fmt.Errorf("graphql: %q names no field of an object type", key)
		}
		set(fi, r)
	}
	return nil
}

// field returns the field named by "Type.field", or nil.
func (e *Executor) field(key string) *fieldInfo {
	typ, name, ok := strings.Cut(key, ".")
	if !ok {
		return nil
	}
	ot := e.types[typ]
	if ot == nil {
		return nil
	}
	return ot.fields[name]
}

// boolsToResolvers turns the true keys of m into a map attach accepts.
func boolsToResolvers(m map[string]bool) map[string]Resolver {
	out := make(map[string]Resolver, len(m))
	for k, v := range m {
		if v {
			out[k] = nil
		}
	}
	return out
}
