package model

import (
	"strings"
	"unicode"
)

// FieldGuess is what a dataset's field path suggests for an attribute that
// reads it: a GraphQL name and a type inferred from the path's values. The
// board's "Create an API from this dataset" and "Add all fields" start from
// these; a person may change any of them before saving.
type FieldGuess struct {
	// Path is the dataset's dot path (SourcePath of a SOURCE mapping).
	Path string
	// Name is the attribute name the path suggests: AttributeName(Path).
	Name string
	// Type is inferred from the values: ID for the top-level id, INT,
	// FLOAT, BOOLEAN, JSON for arrays and objects, else STRING (dates stay
	// strings: the runtime serves them as they are stored).
	Type ScalarType
	// Samples are a few distinct values as text, for the person to check.
	Samples []string
}

// FieldChoice is one attribute to make from a dataset path: the path, and
// the name and type a person chose (empty: the guess's).
type FieldChoice struct {
	Path string
	Name string
	Type ScalarType
}

// DatasetAPIInput is what CreateAPIFromDataset makes: a table named Table
// (empty: TableNameFor(ImportCode)) bound to ImportCode (and Variant
// when not nil) with an attribute for each of Fields (nil: every path of
// the dataset as guessed).
type DatasetAPIInput struct {
	ProjectID  string
	ImportCode string
	Variant    *string
	Table      string
	Fields     []FieldChoice
}

// AttributeName turns a dataset path into a GraphQL field name in
// lowerCamelCase: "author.first_name" → "authorFirstName", "Unit Price" →
// "unitPrice", "_id" → "id". A name that would start with a digit gets an
// "f" in front; one with no letter or digit at all is "field". The result
// is at most MaxNameLen characters.
func AttributeName(path string) string {
	words := nameWords(path)
	if len(words) == 0 {
		return "field"
	}
	var b strings.Builder
	for i, w := range words {
		if i == 0 {
			b.WriteString(LowerCamel(w))
		} else {
			b.WriteString(UpperCamel(w))
		}
	}
	s := b.String()
	if s[0] >= '0' && s[0] <= '9' {
		s = "f" + s
	}
	if len(s) > MaxNameLen {
		s = s[:MaxNameLen]
	}
	return s
}

// nameWords splits s at every rune that is not an ASCII letter or digit,
// keeping the words' own capitals ("authorId" stays one word).
func nameWords(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool {
		return r > unicode.MaxASCII || !(unicode.IsLetter(r) || unicode.IsDigit(r))
	})
}

// TableNameFor is the table name an import code suggests: singular,
// PascalCase ("products" → "Product", "order_lines" → "OrderLine",
// "categories" → "Category"). Only the last word is made singular.
func TableNameFor(importCode string) string {
	words := nameWords(importCode)
	if len(words) == 0 {
		return "Record"
	}
	words[len(words)-1] = Singular(words[len(words)-1])
	var b strings.Builder
	for _, w := range words {
		b.WriteString(UpperCamel(w))
	}
	s := b.String()
	if s[0] >= '0' && s[0] <= '9' {
		s = "T" + s
	}
	if len(s) > MaxNameLen {
		s = s[:MaxNameLen]
	}
	if reservedTypeNames[s] {
		s += "Record"
	}
	return s
}

// Singular undoes Plural for regular English words: "categories" →
// "category", "boxes" → "box", "products" → "product"; "status", "news"
// and words not ending in s stay as they are.
func Singular(s string) string {
	low := strings.ToLower(s)
	switch {
	case len(s) < 3:
		return s
	case strings.HasSuffix(low, "ies") && len(s) > 4:
		return s[:len(s)-3] + "y"
	case strings.HasSuffix(low, "sses"), strings.HasSuffix(low, "xes"), strings.HasSuffix(low, "zes"),
		strings.HasSuffix(low, "ches"), strings.HasSuffix(low, "shes"):
		return s[:len(s)-2]
	case strings.HasSuffix(low, "ss"), strings.HasSuffix(low, "us"), strings.HasSuffix(low, "is"),
		strings.HasSuffix(low, "news"):
		return s
	case strings.HasSuffix(low, "s"):
		return s[:len(s)-1]
	}
	return s
}
