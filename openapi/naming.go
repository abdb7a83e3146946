package openapi

import (
	"strconv"
	"strings"
	"unicode"

	"github.com/mockgql/mockgql/model"
)

// typeName makes a schema name a table name: a GraphQL type name starting
// with a capital ("pet-store.Order" → "PetStoreOrder"), renamed when the
// runtime schema reserves it ("Query" → "QueryRecord").
func typeName(schema string) string {
	name := model.UpperCamel(graphQLName(schema))
	if name == "_" || strings.HasPrefix(name, "_") {
		name = "T" + name
	}
	if model.ReservedTypeName(name) {
		name += "Record"
	}
	return name
}

// attributeName makes a property path a field name: the first segment as a
// GraphQL name, the rest joined in camel case (address.city → addressCity).
func attributeName(path []string) string {
	var b strings.Builder
	for i, seg := range path {
		name := graphQLName(seg)
		if i > 0 {
			name = model.UpperCamel(strings.TrimLeft(name, "_"))
		}
		b.WriteString(name)
	}
	if s := b.String(); model.ValidName(s) {
		return s
	}
	return "field"
}

// graphQLName returns s if it is a GraphQL name, else its words (runs of
// letters and digits) in camel case, with "_" before a leading digit and
// "field" when nothing is left.
func graphQLName(s string) string {
	if model.ValidName(s) {
		return s
	}
	words := strings.FieldsFunc(s, func(r rune) bool {
		return !(r < unicode.MaxASCII && (unicode.IsLetter(r) || unicode.IsDigit(r)))
	})
	if len(words) == 0 {
		return "field"
	}
	for i := 1; i < len(words); i++ {
		words[i] = model.UpperCamel(words[i])
	}
	name := strings.Join(words, "")
	if name[0] >= '0' && name[0] <= '9' {
		name = "_" + name
	}
	return name
}

// unique returns name, or name with the smallest number ≥ 2 appended that
// is not in used, and records it.
func unique(name string, used map[string]bool) string {
	out := name
	for i := 2; used[out]; i++ {
		out = name + strconv.Itoa(i)
	}
	used[out] = true
	return out
}

func itoa(n int) string { return strconv.Itoa(n) }
