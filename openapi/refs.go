package openapi

import (
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/mockgql/mockgql/model"
)

// dataKeys hold example and default values, not OpenAPI objects: a "$ref"
// inside them is data.
var dataKeys = map[string]bool{"example": true, "default": true, "enum": true, "const": true}

// checkRefs walks the decoded document and refuses the first $ref (in key
// order) that points outside it or at nothing, naming the $ref and where it
// is. kin-openapi would refuse these too, but less plainly.
func checkRefs(doc map[string]any) error {
	return walkRefs(doc, "#", func(ref, at string) error {
		if !strings.HasPrefix(ref, "#") {
			return model.Errorf(model.CodeBadUserInput, "$ref %q at %s points outside the document; import takes self-contained documents (bundle or inline it)", ref, at)
		}
		if _, ok := resolvePointer(doc, ref); !ok {
			return model.Errorf(model.CodeBadUserInput, "broken $ref %q at %s: the document has nothing there", ref, at)
		}
		return nil
	})
}

// walkRefs calls fn with every $ref string under v and its JSON pointer.
func walkRefs(v any, at string, fn func(ref, at string) error) error {
	switch x := v.(type) {
	case map[string]any:
		if ref, ok := x["$ref"].(string); ok {
			if err := fn(ref, at); err != nil {
				return err
			}
		}
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			if dataKeys[k] || strings.HasPrefix(k, "x-") || (k == "examples" && isList(x[k])) {
				continue
			}
			if err := walkRefs(x[k], at+"/"+escapePointer(k), fn); err != nil {
				return err
			}
		}
	case []any:
		for i, e := range x {
			if err := walkRefs(e, at+"/"+strconv.Itoa(i), fn); err != nil {
				return err
			}
		}
	}
	return nil
}

func isList(v any) bool {
	_, ok := v.([]any)
	return ok
}

// resolvePointer follows a local reference ("#/components/schemas/Pet").
func resolvePointer(doc map[string]any, ref string) (any, bool) {
	frag, err := url.PathUnescape(strings.TrimPrefix(ref, "#"))
	if err != nil || (frag != "" && !strings.HasPrefix(frag, "/")) {
		return nil, false // an anchor or a malformed fragment
	}
	var cur any = doc
	for _, tok := range strings.Split(frag, "/")[1:] {
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		switch x := cur.(type) {
		case map[string]any:
			next, ok := x[tok]
			if !ok {
				return nil, false
			}
			cur = next
		case []any:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(x) {
				return nil, false
			}
			cur = x[i]
		default:
			return nil, false
		}
	}
	return cur, true
}

// escapePointer escapes a key as a JSON pointer token.
func escapePointer(k string) string {
	return strings.ReplaceAll(strings.ReplaceAll(k, "~", "~0"), "/", "~1")
}
