package engine

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/mockgql/mockgql/dataset"
	"github.com/mockgql/mockgql/model"
)

// A Pred is one parameter argument of a list query, compared with the
// stored value of an attribute (docs/using/runtime.md, "Query rules"):
//
//   - The comparison uses the stored value's own JSON type: a number only
//     compares with a number, text with text (byte-wise), a boolean with a
//     boolean. A value of another type matches nothing, for neq too.
//   - eq null matches rows whose value is null or absent; neq null matches
//     the others; gt, gte, lt, lte and like with null match nothing.
//   - gt, gte, lt and lte compare numbers and text only; booleans match nothing.
//   - in matches when any element is eq; a null list does not filter.
//   - like is contains on text, ignoring case; non-text values match nothing.
type Pred struct {
	Attr  *Attr
	Op    model.Operator
	arg   dataset.Value
	Args  []dataset.Value // in
	like  string          // lower-cased like text
	ascii bool            // like is ASCII: fold byte-wise without allocating
}

// BuildPredicates reads the parameter arguments of a list query. Omitted
// parameters do not filter. It also appends a canonical text of the
// predicates for cache keys to spec.
func BuildPredicates(params []Param, args map[string]any, spec []byte) ([]Pred, []byte, error) {
	var preds []Pred
	for _, p := range params {
		raw, ok := args[p.Name]
		if !ok || (raw == nil && p.Op == model.OpIn) {
			continue
		}
		pr, err := NewPredicate(p, raw)
		if err != nil {
			return nil, spec, err
		}
		preds = append(preds, pr)
		spec = pr.appendSpec(spec)
	}
	return preds, spec, nil
}

// NewPredicate reads raw, a coerced argument value, as the predicate of
// parameter p (a list for in); p.Name names it in errors.
func NewPredicate(p Param, raw any) (Pred, error) {
	pr := Pred{Attr: p.Attr, Op: p.Op}
	if p.Op == model.OpIn {
		list, ok := raw.([]any)
		if !ok {
			list = []any{raw}
		}
		for _, x := range list {
			v, err := scalarArg(p.Name, x)
			if err != nil {
				return pr, err
			}
			pr.Args = append(pr.Args, v)
		}
		return pr, nil
	}
	v, err := scalarArg(p.Name, raw)
	if err != nil {
		return pr, err
	}
	pr.arg = v
	if p.Op == model.OpLike && v.Kind == dataset.String {
		pr.like = strings.ToLower(v.Str)
		pr.ascii = isASCII(pr.like)
	}
	return pr, nil
}

func scalarArg(name string, x any) (dataset.Value, error) {
	v := ValueOfGo(x)
	if v.Kind == dataset.Raw {
		return v, model.Errorf(model.CodeBadUserInput, "argument %q takes a single JSON scalar (a number, text, boolean or null), not a list or object", name)
	}
	return v, nil
}

func (pr *Pred) appendSpec(b []byte) []byte {
	idx := -2
	if pr.Attr != nil {
		idx = pr.Attr.Idx
	}
	b = strconv.AppendInt(b, int64(idx), 10)
	b = append(b, pr.Op...)
	if pr.Op == model.OpIn {
		b = append(b, '[')
		for _, v := range pr.Args {
			b = appendValueSpec(b, v)
		}
		b = append(b, ']')
	} else {
		b = appendValueSpec(b, pr.arg)
	}
	return append(b, ';')
}

func appendValueSpec(b []byte, v dataset.Value) []byte {
	switch v.Kind {
	case dataset.Null:
		b = append(b, 'n')
	case dataset.Bool:
		b = strconv.AppendBool(append(b, 'b'), v.Bool)
	case dataset.Number:
		b = strconv.AppendFloat(append(b, 'f'), v.Num, 'g', -1, 64)
	default:
		b = strconv.AppendQuote(append(b, 's'), v.Str)
	}
	return append(b, ',')
}

// match reports whether stored value v satisfies the predicate.
func (pr *Pred) match(v dataset.Value) bool {
	switch pr.Op {
	case model.OpEq:
		return equal(v, pr.arg)
	case model.OpNeq:
		if pr.arg.Kind == dataset.Null {
			return v.Kind != dataset.Null
		}
		return v.Kind == pr.arg.Kind && dataset.Compare(v, pr.arg) != 0
	case model.OpIn:
		for _, a := range pr.Args {
			if equal(v, a) {
				return true
			}
		}
		return false
	case model.OpLike:
		return v.Kind == dataset.String && pr.arg.Kind == dataset.String && pr.containsFold(v.Str)
	}
	return pr.order(v)
}

func equal(v, arg dataset.Value) bool {
	if arg.Kind == dataset.Null {
		return v.Kind == dataset.Null
	}
	return v.Kind == arg.Kind && dataset.Compare(v, arg) == 0
}

// order applies gt, gte, lt and lte.
func (pr *Pred) order(v dataset.Value) bool {
	k := pr.arg.Kind
	if v.Kind != k || (k != dataset.Number && k != dataset.String) {
		return false
	}
	c := dataset.Compare(v, pr.arg)
	switch pr.Op {
	case model.OpGt:
		return c > 0
	case model.OpGte:
		return c >= 0
	case model.OpLt:
		return c < 0
	case model.OpLte:
		return c <= 0
	}
	return false
}

// containsFold reports whether s contains the like text, ignoring case.
// ASCII patterns fold byte-wise without allocating; others compare the
// Unicode lower case of s.
func (pr *Pred) containsFold(s string) bool {
	if !pr.ascii {
		return strings.Contains(strings.ToLower(s), pr.like)
	}
	sub := pr.like
	n := len(sub)
	for i := 0; i+n <= len(s); i++ {
		j := 0
		for j < n && lowerASCII(s[i+j]) == sub[j] {
			j++
		}
		if j == n {
			return true
		}
	}
	return false
}

func lowerASCII(c byte) byte {
	if c >= 'A' && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// matchBase reports whether dataset row r satisfies every predicate,
// reading dataset values only.
func (tv *TableView) matchBase(preds []Pred, r int32) bool {
	for i := range preds {
		if !preds[i].match(tv.base(preds[i].Attr, r)) {
			return false
		}
	}
	return true
}

// MatchLive reports whether row r satisfies every predicate with the
// overlay applied.
func (tv *TableView) MatchLive(preds []Pred, r int32) bool {
	for i := range preds {
		if !preds[i].match(tv.Value(preds[i].Attr, r)) {
			return false
		}
	}
	return true
}
