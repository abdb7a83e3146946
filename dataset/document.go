package dataset

import (
	"math"
	"strconv"
	"strings"
)

// node is one key of the documents' shape. A node can be both a leaf (col)
// and an object (kids) when rows differ in shape.
type node struct {
	key  string // the JSON-quoted key and ':'
	col  *Column
	kids []*node
}

// buildTree returns the shape of the documents whose leaves are cols, and
// the object nodes by dot prefix. Paths split at every '.', so a key that
// contains a dot reads back as nested objects.
func buildTree(cols []*Column) (*node, map[string]*node) {
	root := &node{}
	nodes := map[string]*node{}
	objects := map[string]*node{}
	for _, c := range cols {
		parent := root
		for k := strings.IndexByte(c.path, '.'); k >= 0; k = nextDot(c.path, k) {
			parent = nodeAt(nodes, parent, c.path[:k])
			objects[c.path[:k]] = parent
		}
		nodeAt(nodes, parent, c.path).col = c
	}
	return root, objects
}

// nodeAt returns the node of path, creating it under parent.
func nodeAt(nodes map[string]*node, parent *node, path string) *node {
	if n := nodes[path]; n != nil {
		return n
	}
	name := path[strings.LastIndexByte(path, '.')+1:]
	n := &node{key: string(append(appendString(nil, name), ':'))}
	nodes[path] = n
	parent.kids = append(parent.kids, n)
	return n
}

// appendObject appends row's object of n's children to buf. It reports
// false, appending nothing, when the row has none of them.
func (n *node) appendObject(buf []byte, row int) ([]byte, bool) {
	start := len(buf)
	buf = append(buf, '{')
	some := false
	for _, k := range n.kids {
		mark := len(buf)
		if some {
			buf = append(buf, ',')
		}
		var ok bool
		if buf, ok = k.appendMember(buf, row); ok {
			some = true
		} else {
			buf = buf[:mark]
		}
	}
	if !some {
		return buf[:start], false
	}
	return append(buf, '}'), true
}

// appendMember appends `"key":value` for row, reporting false when the row
// lacks the key.
func (n *node) appendMember(buf []byte, row int) ([]byte, bool) {
	if n.col != nil && n.col.has(row) {
		buf = append(buf, n.key...)
		return appendValue(buf, n.col.Value(row)), true
	}
	if len(n.kids) == 0 {
		return buf, false
	}
	mark := len(buf)
	buf, ok := n.appendObject(append(buf, n.key...), row)
	if !ok {
		return buf[:mark], false
	}
	return buf, true
}

// appendValue appends v as JSON.
func appendValue(buf []byte, v Value) []byte {
	switch v.Kind {
	case Bool:
		return strconv.AppendBool(buf, v.Bool)
	case Number:
		return appendNumber(buf, v.Num)
	case String:
		return appendString(buf, v.Str)
	case Raw:
		return append(buf, v.Str...)
	}
	return append(buf, "null"...)
}

// appendNumber appends f in shortest form, integers as integers (12, not
// 1.2e+01) below 1e21 as JavaScript prints them.
func appendNumber(buf []byte, f float64) []byte {
	if f == math.Trunc(f) && math.Abs(f) < 1e21 {
		return strconv.AppendFloat(buf, f, 'f', -1, 64)
	}
	return strconv.AppendFloat(buf, f, 'g', -1, 64)
}

const hexDigits = "0123456789abcdef"

// appendString appends s as a JSON string.
func appendString(buf []byte, s string) []byte {
	buf = append(buf, '"')
	start := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' {
			continue
		}
		buf = append(buf, s[start:i]...)
		switch c {
		case '"', '\\':
			buf = append(buf, '\\', c)
		case '\n':
			buf = append(buf, '\\', 'n')
		case '\r':
			buf = append(buf, '\\', 'r')
		case '\t':
			buf = append(buf, '\\', 't')
		default:
			buf = append(buf, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
		}
		start = i + 1
	}
	buf = append(buf, s[start:]...)
	return append(buf, '"')
}
