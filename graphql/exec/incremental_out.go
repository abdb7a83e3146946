package exec

import (
	"encoding/json"
	"strconv"
)

// outObj is an object of a payload's data being built: members in the
// answer's order; values are json.RawMessage, *outObj, *outList or nil.
type outObj struct {
	keys []string
	vals []any
	idx  map[string]int // from 8 members on
}

// outList is a list of a payload's data being built; a nil item (one
// another payload delivers) is written as null.
type outList struct{ items []any }

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
			next = &outList{}
		} else {
			next = &outObj{}
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
			return old
		}
		n.set(k, v)
	case *outList:
		i, _ := step.(int)
		for len(n.items) <= i {
			n.items = append(n.items, nil)
		}
		if old := n.items[i]; old != nil && (!last || isContainer(old)) {
			return old
		}
		n.items[i] = v
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
			dst = append(appendString(dst, k), ':')
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
			dst = appendString(dst, p)
		}
	}
	return append(dst, ']')
}

// payloads writes the initial payload and one per record, in order.
func (s *splitter) payloads(f IncrementalFormat, extensions json.RawMessage) [][]byte {
	out := make([][]byte, 0, len(s.records)+1)
	b := append([]byte(`{"data":`), appendOut(nil, s.initial.data)...)
	if len(s.initial.errors) > 0 {
		b = appendRawList(append(b, `,"errors":`...), s.initial.errors)
	}
	if f == IncrementalV02 {
		b = appendPending(b, s.initial.children)
	}
	if len(extensions) > 0 && string(extensions) != "null" {
		b = append(append(b, `,"extensions":`...), extensions...)
	}
	out = append(out, append(b, `,"hasNext":true}`...))
	for i, rec := range s.records {
		var p []byte
		if f == IncrementalV02 {
			p = appendV02(nil, rec)
		} else {
			p = append20220824(nil, rec)
		}
		if i == len(s.records)-1 {
			p = append(p, `,"hasNext":false}`...)
		} else {
			p = append(p, `,"hasNext":true}`...)
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
			dst = appendString(append(dst, `,"label":`...), r.label)
		}
		dst = append(dst, '}')
	}
	return append(dst, ']')
}

// appendV02 appends a record's payload in graphql-js 17's format, without
// hasNext and the closing brace: its incremental entry (none for a
// fragment whose every field came earlier), completed, and the pending
// entries of the fragments and streams inside it.
func appendV02(dst []byte, rec *record) []byte {
	id := strconv.Quote(strconv.Itoa(rec.id))
	dst = append(dst, '{')
	if rec.stream || len(rec.data.keys) > 0 || len(rec.errors) > 0 {
		dst = append(append(dst, `"incremental":[{"id":`...), id...)
		if rec.stream {
			dst = appendRawList(append(dst, `,"items":`...), rec.items)
		} else {
			dst = appendOut(append(dst, `,"data":`...), rec.data)
		}
		if len(rec.errors) > 0 {
			dst = appendRawList(append(dst, `,"errors":`...), rec.errors)
		}
		dst = append(dst, "}],"...)
	}
	dst = append(append(append(dst, `"completed":[{"id":`...), id...), "}]"...)
	return appendPending(dst, rec.children)
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
		dst = appendString(append(dst, `,"label":`...), rec.label)
	}
	if len(rec.errors) > 0 {
		dst = appendRawList(append(dst, `,"errors":`...), rec.errors)
	}
	return append(dst, "}]"...)
}
