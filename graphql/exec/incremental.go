package exec

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"strconv"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/parser"
)

// IncrementalFormat is a wire format of incremental delivery (@defer and
// @stream): what the payloads after the first look like.
type IncrementalFormat int

const (
	// IncrementalV02 is graphql-js 17's format, which Apollo names
	// incrementalSpec=v0.2 (https://specs.apollo.dev/incremental/v0.2):
	// the first payload lists the deferred fragments and streams as
	// `pending` entries with ids, later ones carry `incremental` entries
	// and `completed` ids.
	IncrementalV02 IncrementalFormat = iota + 1
	// Incremental20220824 is the format Apollo Client 3 reads
	// (deferSpec=20220824): `incremental` entries with `data` or `items`,
	// `path` and `label`, and no ids.
	Incremental20220824
)

// DefaultMaxIncrements is how many deferred fragments and streams one
// answer delivers apart; past it the rest are delivered inline, in the
// payload of their parent, as a server may always do.
const DefaultMaxIncrements = 100

// maxIncrementalWork bounds the selections Increments visits for one
// answer; past it the answer is not split.
const maxIncrementalWork = 1 << 20

// errNotSplit reports that an answer is delivered whole.
var errNotSplit = errors.New("graphql: answer not split")

// Increments splits a complete answer to req into the payloads of
// incremental delivery in format f: the initial payload (deferred
// fragments and streamed items left out, "hasNext":true), then one
// payload per deferred fragment or stream, parents first, the last with
// "hasNext":false. body is the complete answer ({"data":…,"errors":…})
// the executor wrote for req, which ran with @defer and @stream
// ignored; so the payloads cost what the complete answer cost plus
// their framing, and a cache of complete answers serves both.
//
// It returns nil when the answer is to be delivered whole: the operation
// defers and streams nothing that applies (no @defer/@stream, or all
// with if: false, or over no value), its data is null, or it is past the
// work bound. At most max (DefaultMaxIncrements when 0) fragments and
// streams are delivered apart. Each error of body goes to the payload
// that delivers the field at its path. It stops with ctx's error.
//
// The answer carries no type names, so a deferred fragment with a type
// condition is taken to apply to an object when the object has one of
// the fragment's response keys.
func Increments(ctx context.Context, req Request, body []byte, f IncrementalFormat, maxIncrements int) ([][]byte, error) {
	if maxIncrements <= 0 {
		maxIncrements = DefaultMaxIncrements
	}
	doc, perr := parser.ParseQuery(&ast.Source{Input: req.Query})
	if perr != nil {
		return nil, nil
	}
	op := pickOperation(doc, req.OperationName)
	if op == nil || !mayIncrement(doc) {
		return nil, nil
	}
	var top struct {
		Data       json.RawMessage   `json:"data"`
		Errors     []json.RawMessage `json:"errors"`
		Extensions json.RawMessage   `json:"extensions"`
	}
	if err := json.Unmarshal(body, &top); err != nil || len(top.Data) == 0 || top.Data[0] != '{' {
		return nil, nil
	}
	s := &splitter{ctx: ctx, doc: doc, vars: opVars(op, req.Variables), max: maxIncrements, errorPaths: len(top.Errors) > 0}
	s.initial = &record{data: &outObj{}}
	if err := s.object(top.Data, s.initial, []occSet{{op.SelectionSet, s.initial}}); err != nil {
		if errors.Is(err, errNotSplit) {
			return nil, nil
		}
		return nil, err
	}
	if len(s.records) == 0 {
		return nil, nil
	}
	s.placeErrors(top.Errors)
	return s.payloads(f, top.Extensions), nil
}

// pickOperation returns the operation req names, or the only one.
func pickOperation(doc *ast.QueryDocument, name string) *ast.OperationDefinition {
	if name == "" {
		if len(doc.Operations) == 1 {
			return doc.Operations[0]
		}
		return nil
	}
	return doc.Operations.ForName(name)
}

// mayIncrement is a quick look for a @defer or @stream anywhere in doc.
func mayIncrement(doc *ast.QueryDocument) bool {
	found := false
	var walk func(ast.SelectionSet)
	walk = func(set ast.SelectionSet) {
		for _, sel := range set {
			switch s := sel.(type) {
			case *ast.Field:
				found = found || s.Directives.ForName("stream") != nil
				walk(s.SelectionSet)
			case *ast.InlineFragment:
				found = found || s.Directives.ForName("defer") != nil
				walk(s.SelectionSet)
			case *ast.FragmentSpread:
				found = found || s.Directives.ForName("defer") != nil
			}
		}
	}
	for _, op := range doc.Operations {
		walk(op.SelectionSet)
	}
	for _, f := range doc.Fragments {
		walk(f.SelectionSet)
	}
	return found
}

// opVars returns the request's variables with op's defaults filled in.
func opVars(op *ast.OperationDefinition, vars map[string]any) map[string]any {
	out := make(map[string]any, len(vars)+len(op.VariableDefinitions))
	for _, d := range op.VariableDefinitions {
		if d.DefaultValue != nil {
			if v, err := d.DefaultValue.Value(nil); err == nil {
				out[d.Variable] = v
			}
		}
	}
	for k, v := range vars {
		out[k] = v
	}
	return out
}

// record is one payload: the initial one, a deferred fragment's or a
// stream's.
type record struct {
	id       int
	label    string
	path     []any // where its data goes: the fragment's object, the streamed list
	parent   *record
	stream   bool
	start    int // a stream's first index
	data     *outObj
	items    []json.RawMessage
	errors   []json.RawMessage
	children []*record
}

// occSet is a selection set seen at an object, with the payload that
// delivers what it selects unless a @defer inside it says otherwise.
type occSet struct {
	set   ast.SelectionSet
	owner *record
}

// occ is one field of a collected selection set.
type occ struct {
	field *ast.Field
	owner *record
}

// splitter walks a complete answer along the operation's selections and
// deals each value to the payload that delivers it.
type splitter struct {
	ctx        context.Context
	doc        *ast.QueryDocument
	vars       map[string]any
	max, work  int
	initial    *record
	records    []*record // deferred fragments and streams, parents first
	path       []any
	errorPaths bool
	owners     map[string]*record // path key → payload, when the answer has errors
	deferMemo  map[*ast.Selection]bool
}

// member is one member of a JSON object, in order.
type member struct {
	key string
	val json.RawMessage
}

// members decodes a JSON object's members, in order, values left raw.
func members(raw json.RawMessage) ([]member, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if _, err := dec.Token(); err != nil {
		return nil, err
	}
	var out []member
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil, err
		}
		k, _ := t.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, err
		}
		out = append(out, member{k, v})
	}
	return out, nil
}

// object deals the members of the object raw at s.path, which owner
// delivers, selected by sets.
func (s *splitter) object(raw json.RawMessage, owner *record, sets []occSet) error {
	if err := s.ctx.Err(); err != nil {
		return err
	}
	ms, err := members(raw)
	if err != nil {
		return errNotSplit
	}
	present := make(map[string]bool, len(ms))
	for _, m := range ms {
		present[m.key] = true
	}
	groups := make(map[string][]occ, len(ms))
	for _, os := range sets {
		if err := s.collect(os.set, os.owner, present, groups, map[string]bool{}); err != nil {
			return err
		}
	}
	for _, m := range ms {
		if err := s.member(m, owner, groups[m.key]); err != nil {
			return err
		}
	}
	return nil
}

// collect groups the fields of set by response key (CollectFields of the
// spec), opening a deferred payload for each @defer fragment that
// applies.
func (s *splitter) collect(set ast.SelectionSet, owner *record, present map[string]bool, groups map[string][]occ, visited map[string]bool) error {
	for _, sel := range set {
		if s.work++; s.work > maxIncrementalWork {
			return errNotSplit
		}
		switch sel := sel.(type) {
		case *ast.Field:
			if s.included(sel.Directives) {
				key := responseKey(sel)
				groups[key] = append(groups[key], occ{sel, owner})
			}
		case *ast.InlineFragment:
			if err := s.fragment(sel.Directives, sel.SelectionSet, owner, present, groups, visited); err != nil {
				return err
			}
		case *ast.FragmentSpread:
			def := s.doc.Fragments.ForName(sel.Name)
			if def == nil || visited[sel.Name] {
				continue
			}
			visited[sel.Name] = true
			if err := s.fragment(sel.Directives, def.SelectionSet, owner, present, groups, visited); err != nil {
				return err
			}
		}
	}
	return nil
}

// fragment collects a fragment's set, in a new deferred payload when it
// is deferred and applies.
func (s *splitter) fragment(dirs ast.DirectiveList, set ast.SelectionSet, owner *record, present map[string]bool, groups map[string][]occ, visited map[string]bool) error {
	if !s.included(dirs) {
		return nil
	}
	applies, err := s.applies(set, present, map[string]bool{})
	if err != nil || !applies {
		return err
	}
	if d := dirs.ForName("defer"); d != nil && s.active(d) && len(s.records) < s.max {
		rec := &record{label: s.label(d), path: append([]any(nil), s.path...), parent: owner}
		s.open(rec)
		owner = rec
	}
	return s.collect(set, owner, present, groups, visited)
}

// applies reports whether the object with keys present has one of the
// response keys set selects (the answer names no types).
func (s *splitter) applies(set ast.SelectionSet, present map[string]bool, visited map[string]bool) (bool, error) {
	for _, sel := range set {
		if s.work++; s.work > maxIncrementalWork {
			return false, errNotSplit
		}
		var sub ast.SelectionSet
		switch sel := sel.(type) {
		case *ast.Field:
			if present[responseKey(sel)] {
				return true, nil
			}
		case *ast.InlineFragment:
			sub = sel.SelectionSet
		case *ast.FragmentSpread:
			if def := s.doc.Fragments.ForName(sel.Name); def != nil && !visited[sel.Name] {
				visited[sel.Name] = true
				sub = def.SelectionSet
			}
		}
		if ok, err := s.applies(sub, present, visited); ok || err != nil {
			return ok, err
		}
	}
	return false, nil
}

// open registers a deferred fragment's or a stream's payload.
func (s *splitter) open(rec *record) {
	rec.id = len(s.records)
	rec.data = &outObj{}
	s.records = append(s.records, rec)
	rec.parent.children = append(rec.parent.children, rec)
}

// member deals one member of an object to the payload that delivers it:
// the object's own when one of its fields is not deferred apart from
// it, else the first deferred fragment that selects it.
func (s *splitter) member(m member, owner *record, occs []occ) error {
	target := owner
	if len(occs) > 0 {
		target = occs[0].owner
		for _, o := range occs {
			if o.owner == owner {
				target = owner
				break
			}
		}
	}
	s.path = append(s.path, m.key)
	defer func() { s.path = s.path[:len(s.path)-1] }()
	s.own(target)
	var sets []occSet
	for _, o := range occs {
		if len(o.field.SelectionSet) > 0 {
			sets = append(sets, occSet{o.field.SelectionSet, o.owner})
		}
	}
	streamed := firstByte(m.val) == '[' && s.streamOf(occs) != nil
	if !streamed && (len(sets) == 0 || !s.mixed(sets, target)) {
		s.put(target, m.val)
		return nil
	}
	return s.value(m.val, target, sets, occs)
}

// mixed reports whether the sets deliver anything apart from target: a
// set of another payload, or a @defer or @stream inside.
func (s *splitter) mixed(sets []occSet, target *record) bool {
	for _, os := range sets {
		if os.owner != target || s.defersOnce(os.set) {
			return true
		}
	}
	return false
}

// defersOnce is defers, memoized per selection set.
func (s *splitter) defersOnce(set ast.SelectionSet) bool {
	if len(set) == 0 {
		return false
	}
	if d, ok := s.deferMemo[&set[0]]; ok {
		return d
	}
	if s.deferMemo == nil {
		s.deferMemo = make(map[*ast.Selection]bool)
	}
	d := s.defers(set, map[string]bool{})
	s.deferMemo[&set[0]] = d
	return d
}

// defers reports whether set holds a @defer or @stream at any depth.
func (s *splitter) defers(set ast.SelectionSet, visited map[string]bool) bool {
	for _, sel := range set {
		s.work++
		switch sel := sel.(type) {
		case *ast.Field:
			if sel.Directives.ForName("stream") != nil || s.defers(sel.SelectionSet, visited) {
				return true
			}
		case *ast.InlineFragment:
			if sel.Directives.ForName("defer") != nil || s.defers(sel.SelectionSet, visited) {
				return true
			}
		case *ast.FragmentSpread:
			if sel.Directives.ForName("defer") != nil {
				return true
			}
			if def := s.doc.Fragments.ForName(sel.Name); def != nil && !visited[sel.Name] {
				visited[sel.Name] = true
				if s.defers(def.SelectionSet, visited) {
					return true
				}
			}
		}
	}
	return false
}

// value deals a field's value with sub-selections: an object, a list of
// them (whose tail a @stream may deliver apart), or null.
func (s *splitter) value(raw json.RawMessage, target *record, sets []occSet, occs []occ) error {
	switch firstByte(raw) {
	case '{':
		s.put(target, &outObj{})
		return s.object(raw, target, sets)
	case '[':
		return s.list(raw, target, sets, occs)
	default:
		s.put(target, raw)
		return nil
	}
}

// list deals a list's items; a @stream(initialCount: n) on the field
// sends the items past n in a stream payload of their own.
func (s *splitter) list(raw json.RawMessage, target *record, sets []occSet, occs []occ) error {
	var items []json.RawMessage
	if err := json.Unmarshal(raw, &items); err != nil {
		return errNotSplit
	}
	n := len(items)
	if st := s.streamOf(occs); st != nil && len(s.records) < s.max {
		if c := s.initialCount(st); c < n {
			rec := &record{label: s.label(st), path: append([]any(nil), s.path...), parent: target, stream: true, start: c, items: items[c:]}
			s.open(rec)
			s.ownItems(rec, c, len(items))
			n = c
		}
	}
	s.put(target, &outList{})
	for i := range n {
		s.path = append(s.path, i)
		s.own(target)
		var err error
		if firstByte(items[i]) == '[' || firstByte(items[i]) == '{' {
			err = s.value(items[i], target, sets, occs)
		} else {
			s.put(target, items[i])
		}
		s.path = s.path[:len(s.path)-1]
		if err != nil {
			return err
		}
	}
	return nil
}

// streamOf returns the active @stream of a field's occurrences, or nil.
func (s *splitter) streamOf(occs []occ) *ast.Directive {
	for _, o := range occs {
		if d := o.field.Directives.ForName("stream"); d != nil && s.active(d) {
			return d
		}
	}
	return nil
}

// initialCount is a @stream's initialCount argument (0 when absent).
func (s *splitter) initialCount(d *ast.Directive) int {
	a := d.Arguments.ForName("initialCount")
	if a == nil {
		return 0
	}
	v, _ := a.Value.Value(s.vars)
	var n int64
	switch v := v.(type) {
	case int64:
		n = v
	case int:
		n = int64(v)
	case float64:
		n = int64(v)
	case json.Number:
		n, _ = v.Int64()
	}
	return int(max(n, 0))
}

// included evaluates @skip and @include.
func (s *splitter) included(dirs ast.DirectiveList) bool {
	for _, d := range dirs {
		if d.Name == "skip" && s.ifArg(d, false) || d.Name == "include" && !s.ifArg(d, true) {
			return false
		}
	}
	return true
}

// active reports whether a @defer or @stream applies: its if is not false.
func (s *splitter) active(d *ast.Directive) bool { return s.ifArg(d, true) }

// ifArg is d's if argument, or def when it has none.
func (s *splitter) ifArg(d *ast.Directive, def bool) bool {
	a := d.Arguments.ForName("if")
	if a == nil {
		return def
	}
	v, _ := a.Value.Value(s.vars)
	b, ok := v.(bool)
	if !ok {
		return def
	}
	return b
}

// label is a @defer's or @stream's label, "" when none.
func (s *splitter) label(d *ast.Directive) string {
	if a := d.Arguments.ForName("label"); a != nil {
		v, _ := a.Value.Value(s.vars)
		l, _ := v.(string)
		return l
	}
	return ""
}

// responseKey is a field's alias, or its name.
func responseKey(f *ast.Field) string {
	if f.Alias != "" {
		return f.Alias
	}
	return f.Name
}

// firstByte is the first non-space byte of a JSON value.
func firstByte(raw json.RawMessage) byte {
	for _, b := range raw {
		if b != ' ' && b != '\n' && b != '\t' && b != '\r' {
			return b
		}
	}
	return 0
}

// own notes that rec delivers the value at s.path, for the errors there.
func (s *splitter) own(rec *record) {
	if !s.errorPaths {
		return
	}
	if s.owners == nil {
		s.owners = make(map[string]*record)
	}
	s.owners[pathKey(s.path)] = rec
}

// ownItems notes that a stream delivers the items from..to-1 at s.path.
func (s *splitter) ownItems(rec *record, from, to int) {
	if !s.errorPaths {
		return
	}
	for i := from; i < to; i++ {
		s.path = append(s.path, i)
		s.own(rec)
		s.path = s.path[:len(s.path)-1]
	}
}

// pathKey encodes a response path as a map key.
func pathKey(path []any) string {
	var b []byte
	for _, p := range path {
		switch p := p.(type) {
		case string:
			b = strconv.AppendQuote(append(b, '.'), p)
		case int:
			b = strconv.AppendInt(append(b, '#'), int64(p), 10)
		case float64:
			b = strconv.AppendInt(append(b, '#'), int64(p), 10)
		}
	}
	return string(b)
}

// placeErrors gives each error to the payload that delivers the value at
// its path (the longest prefix of it that a payload delivers); errors
// without a path stay in the initial payload.
func (s *splitter) placeErrors(errs []json.RawMessage) {
	for _, e := range errs {
		var withPath struct {
			Path []any `json:"path"`
		}
		_ = json.Unmarshal(e, &withPath)
		rec := s.initial
		for n := len(withPath.Path); n > 0; n-- {
			if r, ok := s.owners[pathKey(withPath.Path[:n])]; ok {
				rec = r
				break
			}
		}
		rec.errors = append(rec.errors, e)
	}
}
