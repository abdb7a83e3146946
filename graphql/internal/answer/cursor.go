package answer

import (
	"encoding/base64"
	"strings"

	"github.com/mockgql/mockgql/model"
)

const cursorPrefix = "row:"

func EncodeCursor(id string) string {
	return base64.RawURLEncoding.EncodeToString([]byte(cursorPrefix + id))
}

func DecodeCursor(c string) (string, error) {
	b, err := base64.RawURLEncoding.DecodeString(c)
	if err != nil || !strings.HasPrefix(string(b), cursorPrefix) {
		return "", model.Errorf(model.CodeBadUserInput, "cursor %q is not a cursor of this API", clip(c))
	}
	return string(b[len(cursorPrefix):]), nil
}

func clip(s string) string {
	if len(s) > 64 {
		return s[:64] + "…"
	}
	return s
}

// ConnArgs are the Relay arguments; -1 means absent.
type ConnArgs struct {
	First, Last   int
	After, Before string
}

func ReadConnArgs(args map[string]any, maxPage int) (ConnArgs, error) {
	a := ConnArgs{First: -1, Last: -1}
	for _, k := range []string{"first", "last"} {
		v, ok := args[k].(int)
		if !ok {
			continue
		}
		if v < 0 {
			return a, model.Errorf(model.CodeBadUserInput, "%s must not be negative", k)
		}
		v = min(v, maxPage)
		if k == "first" {
			a.First = v
		} else {
			a.Last = v
		}
	}
	if a.First < 0 && a.Last < 0 {
		a.First = 20
	}
	a.After, _ = args["after"].(string)
	a.Before, _ = args["before"].(string)
	return a, nil
}

func CursorGone(c string) error {
	return model.Errorf(model.CodeBadUserInput, "the row of cursor %q was deleted or no longer matches; start again without after/before", clip(c))
}

// cut applies after, before, first and last to n rows, pos finding the
// position of a cursor's row.
func (ca ConnArgs) Cut(n int, pos func(cursor string) (int, error)) (lo, hi int, err error) {
	lo, hi = 0, n
	if ca.After != "" {
		p, err := pos(ca.After)
		if err != nil {
			return 0, 0, err
		}
		lo = p + 1
	}
	if ca.Before != "" {
		if hi, err = pos(ca.Before); err != nil {
			return 0, 0, err
		}
	}
	hi = max(lo, hi)
	if ca.First >= 0 {
		hi = min(hi, lo+ca.First)
	}
	if ca.Last >= 0 {
		lo = max(lo, hi-ca.Last)
	}
	return lo, hi, nil
}
