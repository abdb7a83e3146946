package incremental

import (
	"encoding/json"
	"strconv"

	"github.com/mockgql/mockgql/graphql/exec"
)

// outObj is an object of a payload's data being built: members in the
// answer's order; values are json.RawMessage, *outObj, *outList or nil.
type outObj struct {
	keys []string
	vals []any
	idx  map[string]int // from 8 members on
	// on marks an object another payload delivers, made on the way to
	// values below it: graphql-js 17 sends those values with a subPath.
	on bool
}

// outList is a list of a payload's data being built; a nil item (one
// another payload delivers) is written as null.
type outList struct {
	items []any
	on    bool
}

// get returns the member k and whether it exists.
func (o *outObj) get(k string) (any, bool) {
	if o.idx != nil {
		i, ok := o.idx[k]
		if !ok {
			return nil, false
		}
		return o.vals[i], true
	}
	for i, key := range o.keys {
		if key == k {
			return o.vals[i], true
		}
	}
	return nil, false
}

// set sets the member k, appending it when new.
func (o *outObj) set(k string, v any) {
	if o.idx != nil {
		if i, ok := o.idx[k]; ok {
			o.vals[i] = v
			return
		}
	} else {
		for i, key := range o.keys {
			if key == k {
				o.vals[i] = v
				return
			}
		}
	}
	o.keys, o.vals = append(o.keys, k), append(o.vals, v)
	if len(o.keys) == 8 {
		o.idx = make(map[string]int, 16)
		for i, key := range o.keys {
			o.idx[key] = i
		}
	} else if o.idx != nil {
		o.idx[k] = len(o.keys) - 1
	}
}

// put sets the value at s.path in rec's data, making the objects and
// lists on the way; a container already there is kept.
func (s *splitter) put(rec *record, v any) {
	rel := s.path[len(rec.path):]
	var node any = rec.data
	for i, step := range rel {
		last := i == len(rel)-1
		var next any
		if last {
			next = v
		} else if _, ok := rel[i+1].(int); ok {
			next = &outList{on: true}
		} else {
			next = &outObj{on: true}
		}
		node = setStep(node, step, next, last)
	}
}

// setStep sets node[step] to v unless a container is there already (or,
// when !last, anything), and returns what node[step] now holds.
func setStep(node, step, v any, last bool) any {
	switch n := node.(type) {
	case *outObj:
		k, _ := step.(string)
		if old, ok := n.get(k); ok && (!last || isContainer(old)) {
			return claim(old, last)
		}
		n.set(k, v)
	case *outList:
		i, _ := step.(int)
		for len(n.items) <= i {
			n.items = append(n.items, nil)
		}
		if old := n.items[i]; old != nil && (!last || isContainer(old)) {
			return claim(old, last)
		}
		n.items[i] = v
	}
	return v
}

// claim marks a container made on the way as the payload's own when the
// payload delivers it (last).
func claim(v any, last bool) any {
	if last {
		switch c := v.(type) {
		case *outObj:
			c.on = false
		case *outList:
			c.on = false
		}
	}
	return v
}

func isContainer(v any) bool {
	switch v.(type) {
	case *outObj, *outList:
		return true
	}
	return false
}

// appendOut appends a built value as JSON.
func appendOut(dst []byte, v any) []byte {
	switch v := v.(type) {
	case json.RawMessage:
		return append(dst, v...)
	case *outObj:
		dst = append(dst, '{')
		for i, k := range v.keys {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = append(exec.AppendString(dst, k), ':')
			dst = appendOut(dst, v.vals[i])
		}
		return append(dst, '}')
	case *outList:
		dst = append(dst, '[')
		for i, it := range v.items {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = appendOut(dst, it)
		}
		return append(dst, ']')
	}
	return append(dst, "null"...)
}

// appendRawList appends raw JSON values as a list.
func appendRawList(dst []byte, vals []json.RawMessage) []byte {
	dst = append(dst, '[')
	for i, v := range vals {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, v...)
	}
	return append(dst, ']')
}

// appendAnyPath appends a response path as a JSON array.
func appendAnyPath(dst []byte, path []any) []byte {
	dst = append(dst, '[')
	for i, p := range path {
		if i > 0 {
			dst = append(dst, ',')
		}
		switch p := p.(type) {
		case int:
			dst = strconv.AppendInt(dst, int64(p), 10)
		case string:
			dst = exec.AppendString(dst, p)
		}
	}
	return append(dst, ']')
}

// payloads writes the initial payload and one per record, in the order
// they are announced (graphql-js 17's pending order): the initial
// payload's, then those inside each in turn. Ids count in that order.
func (s *splitter) payloads(f Format, extensions json.RawMessage) [][]byte {
	out := make([][]byte, 0, len(s.records)+1)
	next := 0
	announce := func(recs []*record) {
		for _, r := range recs {
			r.id, next = next, next+1
		}
	}
	announce(s.initial.children)
	b := append([]byte(`{"data":`), appendOut(nil, s.initial.data)...)
	if len(s.initial.errors) > 0 {
		b = appendRawList(append(b, `,"errors":`...), s.initial.errors)
	}
	if f == V02 {
		b = appendPending(b, s.initial.children)
	}
	if len(extensions) > 0 && string(extensions) != "null" {
		b = append(append(b, `,"extensions":`...), extensions...)
	}
	out = append(out, append(b, `,"hasNext":true}`...))
	queue := append([]*record(nil), s.initial.children...)
	for i := 0; i < len(queue); i++ {
		rec := queue[i]
		announce(rec.children)
		queue = append(queue, rec.children...)
		last := i == len(queue)-1
		var p []byte
		switch {
		case f == V02:
			p = append(appendV02(nil, rec), ',')
		case rec.stream && len(rec.items) == 0: // nothing to say in this format but the end
			if !last {
				continue
			}
			p = []byte{'{'}
		default:
			p = append(append20220824(nil, rec), ',')
		}
		if last {
			p = append(p, `"hasNext":false}`...)
		} else {
			p = append(p, `"hasNext":true}`...)
		}
		out = append(out, p)
	}
	return out
}

// appendPending appends the pending entries of recs (v0.2).
func appendPending(dst []byte, recs []*record) []byte {
	if len(recs) == 0 {
		return dst
	}
	dst = append(dst, `,"pending":[`...)
	for i, r := range recs {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = strconv.AppendQuote(append(dst, `{"id":`...), strconv.Itoa(r.id))
		dst = appendAnyPath(append(dst, `,"path":`...), r.path)
		if r.label != "" {
			dst = exec.AppendString(append(dst, `,"label":`...), r.label)
		}
		dst = append(dst, '}')
	}
	return append(dst, ']')
}

// appendV02 appends a record's payload in graphql-js 17's format, without
// hasNext and the closing brace: its incremental entries (none for a
// fragment whose every field came earlier; one per object below its own
// that an earlier payload delivered, with that object's subPath, as
// graphql-js 17 sends them), completed, and the pending entries of the
// fragments and streams inside it.
func appendV02(dst []byte, rec *record) []byte {
	id := strconv.Quote(strconv.Itoa(rec.id))
	dst = append(dst, '{')
	var entries []v02Entry
	if rec.stream {
		if len(rec.items) > 0 {
			entries = []v02Entry{{}}
		}
	} else {
		entries = v02Entries(entries, rec.data, nil)
	}
	if len(entries) == 0 && len(rec.errors) > 0 {
		entries = []v02Entry{{data: &outObj{}}}
	}
	if len(entries) > 0 {
		dst = append(dst, `"incremental":[`...)
		for i, e := range entries {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = append(append(dst, `{"id":`...), id...)
			if rec.stream {
				dst = appendRawList(append(dst, `,"items":`...), rec.items)
			} else {
				dst = appendOut(append(dst, `,"data":`...), e.data)
			}
			if len(e.subPath) > 0 {
				dst = appendAnyPath(append(dst, `,"subPath":`...), e.subPath)
			}
			if i == 0 && len(rec.errors) > 0 {
				dst = appendRawList(append(dst, `,"errors":`...), rec.errors)
			}
			dst = append(dst, '}')
		}
		dst = append(dst, "],"...)
	}
	dst = append(append(append(dst, `"completed":[{"id":`...), id...), "}]"...)
	return appendPending(dst, rec.children)
}

// v02Entry is one incremental entry of a deferred fragment.
type v02Entry struct {
	subPath []any
	data    *outObj
}

// v02Entries appends the entries of the object o at subPath: one with the
// members o's payload delivers, then those of the objects below that an
// earlier payload delivered.
func v02Entries(entries []v02Entry, o *outObj, subPath []any) []v02Entry {
	own := &outObj{}
	for i, k := range o.keys {
		if !isOn(o.vals[i]) {
			own.set(k, o.vals[i])
		}
	}
	if len(own.keys) > 0 {
		entries = append(entries, v02Entry{subPath: subPath, data: own})
	}
	for i, k := range o.keys {
		entries = v02Below(entries, o.vals[i], append(subPath[:len(subPath):len(subPath)], k))
	}
	return entries
}

// v02Below appends the entries below v, at subPath, when v is an object or
// list an earlier payload delivered.
func v02Below(entries []v02Entry, v any, subPath []any) []v02Entry {
	switch c := v.(type) {
	case *outObj:
		if c.on {
			entries = v02Entries(entries, c, subPath)
		}
	case *outList:
		if c.on {
			for i, it := range c.items {
				entries = v02Below(entries, it, append(subPath[:len(subPath):len(subPath)], i))
			}
		}
	}
	return entries
}

// isOn reports whether v is a container an earlier payload delivered.
func isOn(v any) bool {
	switch c := v.(type) {
	case *outObj:
		return c.on
	case *outList:
		return c.on
	}
	return false
}

// append20220824 appends a record's payload in the 2022-08-24 format,
// without hasNext and the closing brace: one incremental entry with its
// data (or items), path (a stream's: its first item's) and label.
func append20220824(dst []byte, rec *record) []byte {
	dst = append(dst, `{"incremental":[{`...)
	path := rec.path
	if rec.stream {
		dst = appendRawList(append(dst, `"items":`...), rec.items)
		path = append(append([]any(nil), path...), rec.start)
	} else {
		dst = appendOut(append(dst, `"data":`...), rec.data)
	}
	dst = appendAnyPath(append(dst, `,"path":`...), path)
	if rec.label != "" {
		dst = exec.AppendString(append(dst, `,"label":`...), rec.label)
	}
	if len(rec.errors) > 0 {
		dst = appendRawList(append(dst, `,"errors":`...), rec.errors)
	}
	return append(dst, "}]"...)
}
