// Package incremental splits a complete GraphQL answer into the payloads
// of incremental delivery (@defer and @stream): Split, in graphql-js 17's
// format (V02) or the 2022-08-24 one Apollo Client 3 reads
// (Spec20220824); the HTTP side writes them as multipart/mixed parts
// (docs/using/runtime.md#defer-and-stream). The executor answers such an
// operation whole, with @defer and @stream ignored, so the payloads cost
// what the complete answer cost plus their framing, and a cache of
// complete answers serves both. It is pure: no I/O, no clock.
package incremental

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"

	"github.com/mockgql/mockgql/graphql/exec"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/parser"
)

// Format is a wire format of incremental delivery (@defer and
// @stream): what the payloads after the first look like.
type Format int

const (
	// V02 is graphql-js 17's format, which Apollo names
	// incrementalSpec=v0.2 (https://specs.apollo.dev/incremental/v0.2):
	// the first payload lists the deferred fragments and streams as
	// `pending` entries with ids, later ones carry `incremental` entries
	// and `completed` ids.
	V02 Format = iota + 1
	// Spec20220824 is the format Apollo Client 3 reads
	// (deferSpec=20220824): `incremental` entries with `data` or `items`,
	// `path` and `label`, and no ids.
	Spec20220824
)

// DefaultMax is how many deferred fragments and streams one
// answer delivers apart; past it the rest are delivered inline, in the
// payload of their parent, as a server may always do.
const DefaultMax = 100

// maxIncrementalWork bounds the selections Split visits for one
// answer; past it the answer is not split.
const maxIncrementalWork = 1 << 20

// errNotSplit reports that an answer is delivered whole.
var errNotSplit = errors.New("graphql: answer not split")

// Split splits a complete answer to req into the payloads of
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
// work bound. At most max (DefaultMax when 0) fragments and
// streams are delivered apart. Each error of body goes to the payload
// that delivers the field at its path. It stops with ctx's error.
//
// The answer carries no type names, so a deferred fragment with a type
// condition is taken to apply to an object when the object has one of
// the fragment's response keys.
func Split(ctx context.Context, req exec.Request, body []byte, f Format, maxIncrements int) ([][]byte, error) {
	if maxIncrements <= 0 {
		maxIncrements = DefaultMax
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
		if c := s.initialCount(st); c <= n { // as graphql-js 17: a list of exactly c items gets an empty stream
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
