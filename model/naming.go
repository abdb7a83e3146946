package model

import (
	"strings"
	"unicode"
)

// ValidName reports whether s is a GraphQL name: /[_A-Za-z][_0-9A-Za-z]*/,
// not starting with "__" (reserved for introspection).
func ValidName(s string) bool {
	if s == "" || strings.HasPrefix(s, "__") {
		return false
	}
	for i, r := range s {
		switch {
		case r == '_', r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z':
		case i > 0 && r >= '0' && r <= '9':
		default:
			return false
		}
	}
	return true
}

// CheckName returns a BAD_USER_INPUT error naming what (e.g. "table name")
// when s is not a GraphQL name.
// Names are at most MaxNameLen characters; the refusal echoes at most 64.
func CheckName(what, s string) error {
	if len(s) > MaxNameLen {
		return Errorf(CodeBadUserInput, "%s has %d characters; the limit is %d", what, len(s), MaxNameLen)
	}
	if ValidName(s) {
		return nil
	}
	return Errorf(CodeBadUserInput, "%s %q is not a GraphQL name: use letters, digits and _, not starting with a digit or __", what, Truncate(s, 64))
}

// reservedTypeNames may not be table names: they are built-in or generated
// for every runtime schema.
var reservedTypeNames = map[string]bool{
	"Query": true, "Mutation": true, "Subscription": true, "SortDirection": true, "FilterValue": true,
	"JSON": true, "String": true, "Int": true, "Float": true, "Boolean": true, "ID": true,
	// shared by the opt-in query power of every table (power_names.go)
	"PageInfo": true, "FilterOperators": true,
}

// LowerCamel returns s with its first letter lower-cased ("OrderLine" → "orderLine").
func LowerCamel(s string) string {
	if s == "" {
		return s
	}
	r := []rune(s)
	// Lower a leading run of capitals as one word: "URLItem" → "urlItem".
	n := 0
	for n < len(r) && unicode.IsUpper(r[n]) {
		n++
	}
	switch {
	case n == 0:
	case n == 1 || n == len(r) || string(r[n:]) == "s": // "URLs" → "urls"
		for i := 0; i < n; i++ {
			r[i] = unicode.ToLower(r[i])
		}
	default:
		for i := 0; i < n-1; i++ {
			r[i] = unicode.ToLower(r[i])
		}
	}
	return string(r)
}

// UpperCamel returns s with its first letter upper-cased.
func UpperCamel(s string) string {
	if s == "" {
		return s
	}
	r := []rune(s)
	r[0] = unicode.ToUpper(r[0])
	return string(r)
}

// Plural returns the English plural of a word in the simple regular way
// ("category" → "categories", "box" → "boxes", "product" → "products").
func Plural(s string) string {
	low := strings.ToLower(s)
	switch {
	case s == "":
		return s
	case strings.HasSuffix(low, "y") && len(s) > 1 && !strings.ContainsRune("aeiou", rune(low[len(low)-2])):
		return s[:len(s)-1] + "ies"
	case strings.HasSuffix(low, "ies"): // "series", "species": their own plural
		return s
	case strings.HasSuffix(low, "s"), strings.HasSuffix(low, "x"), strings.HasSuffix(low, "z"),
		strings.HasSuffix(low, "ch"), strings.HasSuffix(low, "sh"):
		return s + "es"
	default:
		return s + "s"
	}
}

// DefaultOperationName is the name of the default operation of kind
// k on a table: products, product, createProduct, updateProduct, deleteProduct.
func DefaultOperationName(table string, k OperationKind) string {
	switch k {
	case OpList:
		name := LowerCamel(Plural(table))
		if name == LowerCamel(table) { // "Series" and the like: keep list and single apart
			name += "List"
		}
		return name
	case OpSingle:
		return LowerCamel(table)
	case OpCreate:
		return "create" + UpperCamel(table)
	case OpUpdate:
		return "update" + UpperCamel(table)
	case OpDelete:
		return "delete" + UpperCamel(table)
	case OpAggregate:
		return LowerCamel(Plural(table)) + "Aggregate"
	}
	return ""
}

// Slugify derives a project slug from a name: lower case letters, digits and
// single dashes, at most 48 characters; "project" if nothing is left.
func Slugify(name string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(name) {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9':
			b.WriteRune(r)
			dash = false
		case b.Len() > 0 && !dash:
			b.WriteByte('-')
			dash = true
		}
		if b.Len() >= 48 {
			break
		}
	}
	s := strings.Trim(b.String(), "-")
	if s == "" {
		return "project"
	}
	return s
}

// ValidSlug reports whether s is a slug: 2 to 64 characters of a-z, 0-9 and
// inner dashes.
func ValidSlug(s string) bool {
	if len(s) < 2 || len(s) > 64 || s[0] == '-' || s[len(s)-1] == '-' {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-') {
			return false
		}
	}
	return true
}
