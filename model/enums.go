package model

// Plan is an account's billing plan.
type Plan string

// Plans, cheapest first.
const (
	PlanStarter      Plan = "STARTER"
	PlanProfessional Plan = "PROFESSIONAL"
	PlanTeam         Plan = "TEAM"
	PlanEnterprise   Plan = "ENTERPRISE"
)

// Rank orders plans: STARTER 0 < PROFESSIONAL 1 < TEAM 2 < ENTERPRISE 3; -1 if unknown.
func (p Plan) Rank() int { return indexOf(string(p), "STARTER", "PROFESSIONAL", "TEAM", "ENTERPRISE") }

// Valid reports whether p is a known plan.
func (p Plan) Valid() bool { return p.Rank() >= 0 }

// Role is a member's role in an account.
type Role string

// Roles, weakest first.
const (
	RoleViewer Role = "VIEWER"
	RoleEditor Role = "EDITOR"
	RoleAdmin  Role = "ADMIN"
	RoleOwner  Role = "OWNER"
)

// Rank orders roles: VIEWER 0 < EDITOR 1 < ADMIN 2 < OWNER 3; -1 if unknown.
func (r Role) Rank() int { return indexOf(string(r), "VIEWER", "EDITOR", "ADMIN", "OWNER") }

// AtLeast reports whether r is min or stronger.
func (r Role) AtLeast(min Role) bool { return r.Rank() >= 0 && r.Rank() >= min.Rank() }

// CanGrant reports whether a member with role r may give role: an owner
// any role, an admin any but OWNER, nobody else any.
func (r Role) CanGrant(role Role) bool {
	return r == RoleOwner || r == RoleAdmin && role != RoleOwner && role.Rank() >= 0
}

// ProjectKind tells account, guest and session projects apart.
type ProjectKind string

// Project kinds.
const (
	KindAccount ProjectKind = "ACCOUNT"
	KindGuest   ProjectKind = "GUEST"
	KindSession ProjectKind = "SESSION"
)

// Scope is what an API key may reach.
type Scope string

// API key scopes.
const (
	ScopeRuntime    Scope = "RUNTIME"
	ScopeFull       Scope = "FULL"
	ScopeManagement Scope = "MANAGEMENT"
)

// Valid reports whether s is a known scope.
func (s Scope) Valid() bool { return indexOf(string(s), "RUNTIME", "FULL", "MANAGEMENT") >= 0 }

// Runtime reports whether a key of scope s may call the mock runtime.
func (s Scope) Runtime() bool { return s == ScopeRuntime || s == ScopeFull }

// Management reports whether a key of scope s may call the management API.
func (s Scope) Management() bool { return s == ScopeManagement || s == ScopeFull }

// ScalarType is an attribute's type.
type ScalarType string

// Scalar types.
const (
	TypeID       ScalarType = "ID"
	TypeString   ScalarType = "STRING"
	TypeInt      ScalarType = "INT"
	TypeFloat    ScalarType = "FLOAT"
	TypeBoolean  ScalarType = "BOOLEAN"
	TypeDateTime ScalarType = "DATETIME"
	TypeJSON     ScalarType = "JSON"
)

// Valid reports whether t is a known scalar type.
func (t ScalarType) Valid() bool {
	return indexOf(string(t), "ID", "STRING", "INT", "FLOAT", "BOOLEAN", "DATETIME", "JSON") >= 0
}

// GraphQLName is the GraphQL scalar that represents t in a runtime schema.
func (t ScalarType) GraphQLName() string {
	switch t {
	case TypeID:
		return "ID"
	case TypeInt:
		return "Int"
	case TypeFloat:
		return "Float"
	case TypeBoolean:
		return "Boolean"
	case TypeJSON:
		return "JSON"
	default: // STRING, DATETIME (RFC 3339 text)
		return "String"
	}
}

// MappingType says where an attribute's value comes from.
type MappingType string

// Mapping types.
const (
	MappingNone      MappingType = "NONE"
	MappingSource    MappingType = "SOURCE"
	MappingConstant  MappingType = "CONSTANT"
	MappingComputed  MappingType = "COMPUTED"
	MappingGenerated MappingType = "GENERATED"
)

// Valid reports whether m is a known mapping type.
func (m MappingType) Valid() bool {
	return indexOf(string(m), "NONE", "SOURCE", "CONSTANT", "COMPUTED", "GENERATED") >= 0
}

// Cardinality of a relation, read from source to target.
type Cardinality string

// Cardinalities.
const (
	OneToOne  Cardinality = "ONE_TO_ONE"
	OneToMany Cardinality = "ONE_TO_MANY"
)

// RelationDirection says whether the target gets an inverse field.
type RelationDirection string

// Relation directions.
const (
	SourceToTarget RelationDirection = "SOURCE_TO_TARGET"
	Bidirectional  RelationDirection = "BIDIRECTIONAL"
)

// OperationKind is what an operation does.
type OperationKind string

// Operation kinds.
const (
	OpList   OperationKind = "LIST"
	OpSingle OperationKind = "SINGLE"
	OpCreate OperationKind = "CREATE"
	OpUpdate OperationKind = "UPDATE"
	OpDelete OperationKind = "DELETE"
	// OpAggregate is a query of count, sum, avg, min and max over the rows
	// of a table, optionally grouped by attributes, under a where filter.
	OpAggregate OperationKind = "AGGREGATE"
)

// Valid reports whether k is a known operation kind.
func (k OperationKind) Valid() bool {
	return indexOf(string(k), "LIST", "SINGLE", "CREATE", "UPDATE", "DELETE", "AGGREGATE") >= 0
}

// Mutation reports whether operations of kind k belong to the Mutation type.
func (k OperationKind) Mutation() bool { return k == OpCreate || k == OpUpdate || k == OpDelete }

// Operator compares a parameter argument with an attribute's stored value.
type Operator string

// Parameter operators (docs/using/runtime.md, "The schema a project gets").
const (
	OpEq   Operator = "eq"
	OpNeq  Operator = "neq"
	OpGt   Operator = "gt"
	OpGte  Operator = "gte"
	OpLt   Operator = "lt"
	OpLte  Operator = "lte"
	OpIn   Operator = "in"
	OpLike Operator = "like"
)

// FilterOperatorDocs says what each condition of a where filter's
// FilterOperators does: the eight parameter operators plus nin and isNull. The
// runtime schema's descriptions and the OpenAPI export's are this text.
var FilterOperatorDocs = map[string]string{
	"eq":     "Equal; null matches null or absent values.",
	"neq":    "Not equal (same type only); null matches present values.",
	"gt":     "Greater than (numbers and text).",
	"gte":    "Greater than or equal (numbers and text).",
	"lt":     "Less than (numbers and text).",
	"lte":    "Less than or equal (numbers and text).",
	"like":   "Contains the text, ignoring case.",
	"in":     "Equal to one of the values; an empty list matches nothing.",
	"nin":    "Of the type of one of the values and equal to none of them; an empty list does not filter.",
	"isNull": "true: the value is null or absent; false: it is present.",
}

// Valid reports whether o is a known operator.
func (o Operator) Valid() bool {
	return indexOf(string(o), "eq", "neq", "gt", "gte", "lt", "lte", "in", "like") >= 0
}

func indexOf(s string, list ...string) int {
	for i, v := range list {
		if v == s {
			return i
		}
	}
	return -1
}
