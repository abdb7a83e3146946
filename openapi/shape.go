package openapi

import "github.com/mockgql/mockgql/model"

// Bounds of a document's shape, checked right after decoding and before
// anything walks it (kin-openapi's loader, the $ref check, the flattener).
// Work past them grew with the square of the nesting: 4,000 levels took
// 18.6 s and 0.8 GB. Real documents nest a few dozen levels (a schema
// nested ten objects deep is about 40) and a 1 MB one has some 100,000
// values.
const (
	// maxDocDepth is the deepest nesting of objects and arrays read.
	maxDocDepth = 128
	// maxDocNodes is the most values (objects, arrays, scalars) read.
	maxDocNodes = 250_000
)

// checkShape refuses a decoded document nested deeper than maxDocDepth or
// holding more than maxDocNodes values, naming the limit. Its own work is
// bounded by the same limits: it stops at the first excess.
func checkShape(doc any) error {
	nodes := 0
	var walk func(v any, depth int) error
	walk = func(v any, depth int) error {
		if nodes++; nodes > maxDocNodes {
			return model.Errorf(model.CodeBadUserInput, "the document has more than %d values; import reads at most %d", maxDocNodes, maxDocNodes)
		}
		if depth > maxDocDepth {
			return model.Errorf(model.CodeBadUserInput, "the document nests deeper than %d levels of objects and arrays; import reads at most %d", maxDocDepth, maxDocDepth)
		}
		switch x := v.(type) {
		case map[string]any:
			for _, e := range x {
				if err := walk(e, depth+1); err != nil {
					return err
				}
			}
		case []any:
			for _, e := range x {
				if err := walk(e, depth+1); err != nil {
					return err
				}
			}
		}
		return nil
	}
	return walk(doc, 0)
}

// checkBrackets bounds the nesting of JSON (and YAML flow) brackets before
// the document is decoded, in one pass over its bytes: the YAML decoder
// itself spends time and memory on each level before it gives up at
// 10,000. Brackets inside quoted strings do not count; a YAML comment's
// may, which can only refuse a document that nests near the limit anyway.
func checkBrackets(doc []byte) error {
	depth := 0
	var quote byte
	for i := 0; i < len(doc); i++ {
		c := doc[i]
		switch {
		case quote != 0:
			if c == '\\' && quote == '"' {
				i++
			} else if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'':
			quote = c
		case c == '{' || c == '[':
			if depth++; depth > maxDocDepth {
				return model.Errorf(model.CodeBadUserInput, "the document nests deeper than %d levels of objects and arrays; import reads at most %d", maxDocDepth, maxDocDepth)
			}
		case c == '}' || c == ']':
			depth = max(depth-1, 0)
		}
	}
	return nil
}
