package incremental

// The errors of Split: each goes to the payload that delivers the
// value at its path.

import (
	"encoding/json"
	"strconv"
)

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
