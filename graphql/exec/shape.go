package exec

import (
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
	"github.com/vektah/gqlparser/v2/lexer"
	"github.com/vektah/gqlparser/v2/parser"
	"github.com/vektah/gqlparser/v2/validator/core"
)

// A document's shape is its tokens with the values of its number and
// string literals left out. Clients send many texts of few shapes (the
// same list query with other filters and pages), so the executor keeps a
// second cache, of shapes, beside the one of texts: a text it has not seen
// whose shape it has is lexed, its literals checked and coerced, and it
// runs on the shape's parsed, validated and planned document, with the
// literals that vary lifted into variables (docs/reference/bounds.md,
// "GraphQL documents"). Only literals whose every document of the shape
// validates and coerces alike are lifted: arguments of fields where a
// scalar other than Boolean is expected, checked one by one as the
// validator and the coercion would. The others (directive arguments,
// variable defaults, enum values, booleans, unknown arguments, the
// arguments of fields whose response key repeats, which validation
// compares) must repeat the shape's first document's values, or the text
// takes the usual path.

// ShapeCacheBytes bounds the estimated bytes of an Executor's cached
// shapes: about 580 list queries of 120 bytes. They count against
// DocCacheProcessBytes with the texts.
const ShapeCacheBytes = 4 << 20

// shape is what the shape cache holds beside a shape's document: what each
// literal of the shape becomes, and where the tokens of the document it
// was parsed from begin, to locate errors in another text of the shape.
type shape struct {
	lits    []shapeLit
	starts  []int32 // rune offset of each token of the first text, comments left out
	textLen int     // bytes of the first text
}

// shapeLit is one literal of a shape: lifted into the variable name, as
// the scalar scalar, or kept, when every text must repeat value.
type shapeLit struct {
	name   string // the variable, "" when kept
	scalar string // when lifted: Int, Float, String, ID, or "" for a custom scalar
	kind   lexer.Type
	value  string // when kept
}

// shapeScan is a text read token by token with gqlparser's lexer (so its
// tokens are those the parser reads): its shape key and its literals.
type shapeScan struct {
	key    []byte
	lits   []lexer.Token
	starts []int32
}

var scanPool = sync.Pool{New: func() any { return new(shapeScan) }}

// scanShape reads query, whose every token counts against maxTokens as the
// parser counts them. It returns nil, and the text takes the usual path,
// for a text the lexer refuses, one near the token bound, and one with a
// directive other than @skip and @include (@defer and @stream split the
// answer by the document's own values). The caller gives the scan back
// with release.
func scanShape(query string, maxTokens int) *shapeScan {
	s := scanPool.Get().(*shapeScan)
	s.key, s.lits, s.starts = s.key[:0], s.lits[:0], s.starts[:0]
	lx := lexer.New(&ast.Source{Input: query})
	afterAt := false
	for n := 0; ; n++ {
		tok, err := lx.ReadToken()
		if err != nil || n+2 > maxTokens {
			s.release()
			return nil
		}
		if tok.Kind == lexer.Comment {
			continue
		}
		if tok.Kind == lexer.EOF {
			return s
		}
		if afterAt && (tok.Kind != lexer.Name || tok.Value != "skip" && tok.Value != "include") {
			s.release()
			return nil
		}
		afterAt = tok.Kind == lexer.At
		s.starts = append(s.starts, int32(tok.Pos.Start))
		s.key = append(s.key, byte('A'+tok.Kind))
		switch tok.Kind {
		case lexer.Int, lexer.Float, lexer.String, lexer.BlockString:
			s.lits = append(s.lits, tok)
		case lexer.Name:
			s.key = append(s.key, tok.Value...)
			s.key = append(s.key, ' ')
		}
	}
}

// release gives s back to the pool; big scans are dropped.
func (s *shapeScan) release() {
	if cap(s.key) > 4<<10 || cap(s.lits) > 256 {
		return
	}
	clear(s.lits[:cap(s.lits)]) // the tokens hold the text
	scanPool.Put(s)
}

// vars returns the values of the shape's lifted literals of s, coerced as
// the literals would be, or false when a literal is not what the shape
// needs: a kept one with another value, or a lifted one that does not
// coerce (an Int over 32 bits): the text then takes the usual path, which
// refuses it with the usual error.
func (sh *shape) vars(s *shapeScan, extra int) (map[string]any, bool) {
	if len(s.lits) != len(sh.lits) {
		return nil, false
	}
	vars := make(map[string]any, len(sh.lits)+extra)
	for i, tok := range s.lits {
		l := &sh.lits[i]
		if l.name == "" {
			if tok.Kind != l.kind || tok.Value != l.value {
				return nil, false
			}
			continue
		}
		v, ok := liftedValue(l.scalar, tok)
		if !ok {
			return nil, false
		}
		vars[l.name] = v
	}
	return vars, true
}

// liftedValue is what a literal token coerces to where scalar is
// expected, as literalScalar, or plainLiteral for a custom scalar (""),
// reads it; false when it does not coerce, or when validation could refuse
// it: gqlparser reads every Int literal as 64 bits and every Float as a
// float64 within a value whose type is not a custom scalar, an input
// object's fields included, so a text with one that does not fit takes
// the usual path.
func liftedValue(scalar string, tok lexer.Token) (any, bool) {
	switch tok.Kind {
	case lexer.Int:
		if _, err := strconv.ParseInt(tok.Value, 10, 64); err != nil {
			return nil, false
		}
	case lexer.Float:
		if _, err := strconv.ParseFloat(tok.Value, 64); err != nil {
			return nil, false
		}
	}
	switch {
	case scalar == "":
		if tok.Kind == lexer.Int || tok.Kind == lexer.Float {
			f, _ := strconv.ParseFloat(tok.Value, 64)
			return f, true
		}
		return tok.Value, true
	case scalar == "Int" && tok.Kind == lexer.Int:
		i, err := strconv.ParseInt(tok.Value, 10, 32)
		return int(i), err == nil
	case scalar == "Float" && (tok.Kind == lexer.Int || tok.Kind == lexer.Float):
		f, err := strconv.ParseFloat(tok.Value, 64)
		return f, err == nil
	case scalar == "String" && (tok.Kind == lexer.String || tok.Kind == lexer.BlockString):
		return tok.Value, true
	case scalar == "ID" && (tok.Kind == lexer.String || tok.Kind == lexer.BlockString || tok.Kind == lexer.Int):
		return tok.Value, true
	}
	return nil, false
}

// shapeSource is the text a shaped Prepared runs for, with the positions
// of its tokens, found on the first error that needs one.
type shapeSource struct {
	text string
	once sync.Once
	locs []gqlerror.Location // of the tokens, comments left out
}

// location returns where pos, a position in the shape's first text, is in
// p's own text.
func (p *Prepared) location(pos *ast.Position) gqlerror.Location {
	at := gqlerror.Location{Line: pos.Line, Column: pos.Column}
	sh, src := p.doc.shape, p.src
	if sh == nil || src == nil {
		return at
	}
	i, found := searchInt32(sh.starts, int32(pos.Start))
	if !found {
		return at
	}
	src.once.Do(func() { src.locs = tokenLocations(src.text) })
	if i < len(src.locs) {
		return src.locs[i]
	}
	return at
}

// tokenLocations returns the line and column of each token of text,
// comments left out, as scanShape numbers them.
func tokenLocations(text string) []gqlerror.Location {
	var locs []gqlerror.Location
	lx := lexer.New(&ast.Source{Input: text})
	for {
		tok, err := lx.ReadToken()
		if err != nil || tok.Kind == lexer.EOF {
			return locs
		}
		if tok.Kind != lexer.Comment {
			locs = append(locs, gqlerror.Location{Line: tok.Pos.Line, Column: tok.Pos.Column})
		}
	}
}

// searchInt32 returns the index of v in the ascending s.
func searchInt32(s []int32, v int32) (int, bool) {
	lo, hi := 0, len(s)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if s[m] < v {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo, lo < len(s) && s[lo] == v
}

// learnShape adds the shape of query, a text that validated, scanned as s,
// to the shape cache: it parses the text again (the text cache keeps the
// first parse, whose literals stay literals), walks it with the schema to
// learn each literal's expected type, and lifts the literals it can.
func (e *Executor) learnShape(query string, s *shapeScan) {
	doc, err := parser.ParseQuery(&ast.Source{Input: query})
	if err != nil {
		return
	}
	core.Walk(e.Schema, doc, &core.Events{})
	sh := &shape{lits: make([]shapeLit, len(s.lits)), starts: slices.Clone(s.starts), textLen: len(query)}
	l := &lifter{lits: sh.lits, at: make(map[int]int, len(s.lits)), repeated: repeatedKeys(doc),
		consts: inputCoercer{schema: e.Schema}}
	for i, tok := range s.lits {
		l.at[tok.Pos.Start] = i
		sh.lits[i] = shapeLit{kind: tok.Kind, value: strings.Clone(tok.Value)}
	}
	for _, op := range doc.Operations {
		l.selections(op.SelectionSet)
	}
	for _, f := range doc.Fragments {
		l.selections(f.SelectionSet)
	}
	e.shapes.put(&document{query: string(s.key), doc: doc, shape: sh})
}

// lifter turns the literals of a shape's document that every text of the
// shape validates and coerces alike into variables.
type lifter struct {
	lits     []shapeLit
	at       map[int]int     // literal index by the rune offset of its token
	repeated map[string]bool // response keys of more than one field with arguments
	consts   inputCoercer
}

func (l *lifter) selections(set ast.SelectionSet) {
	for _, sel := range set {
		switch s := sel.(type) {
		case *ast.Field:
			l.field(s)
			l.selections(s.SelectionSet)
		case *ast.InlineFragment:
			l.selections(s.SelectionSet)
		}
	}
}

// field lifts the literals of f's defined arguments, unless validation
// compares them with another field's (a repeated response key), a
// variable among them makes coercion per request, or they do not coerce:
// coercion errors quote the literals.
func (l *lifter) field(f *ast.Field) {
	if len(f.Arguments) == 0 || f.Definition == nil || l.repeated[responseKey(f)] || hasVariables(f.Arguments) {
		return
	}
	if _, err := l.consts.args(f.Definition.Arguments, f.Arguments); err != nil {
		return
	}
	for _, a := range f.Arguments {
		if f.Definition.Arguments.ForName(a.Name) != nil {
			l.value(a.Value)
		}
	}
}

// value lifts the literals of v that sit where a scalar other than
// Boolean is expected (not a list: a single value there becomes a list of
// one).
func (l *lifter) value(v *ast.Value) {
	switch v.Kind {
	case ast.ListValue, ast.ObjectValue:
		for _, c := range v.Children {
			l.value(c.Value)
		}
		return
	case ast.IntValue, ast.FloatValue, ast.StringValue, ast.BlockValue:
	default:
		return
	}
	t := v.ExpectedType
	if t == nil || t.Elem != nil || v.Position == nil {
		return
	}
	scalar := t.NamedType
	switch def := l.consts.schema.Types[scalar]; {
	case scalar == "Int", scalar == "Float", scalar == "String", scalar == "ID":
	case def != nil && def.Kind == ast.Scalar && !isBuiltinScalar(scalar):
		scalar = "" // validation skips custom scalars; coercion reads them plainly
	default:
		return
	}
	i, ok := l.at[v.Position.Start]
	if !ok {
		return
	}
	l.lits[i] = shapeLit{name: liftedName(i), scalar: scalar, kind: l.lits[i].kind}
	v.Kind, v.Raw = ast.Variable, l.lits[i].name
}

// liftedName names the variable of the i-th literal: a name no client's
// variable can have, since names start with a letter or an underscore.
func liftedName(i int) string { return strconv.Itoa(i) }

// repeatedKeys returns the response keys that more than one field with
// arguments of doc uses: validation compares their arguments, so their
// literals are kept.
func repeatedKeys(doc *ast.QueryDocument) map[string]bool {
	seen := map[string]bool{}
	repeated := map[string]bool{}
	var walk func(ast.SelectionSet)
	walk = func(set ast.SelectionSet) {
		for _, sel := range set {
			switch s := sel.(type) {
			case *ast.Field:
				if len(s.Arguments) > 0 {
					k := responseKey(s)
					repeated[k] = repeated[k] || seen[k]
					seen[k] = true
				}
				walk(s.SelectionSet)
			case *ast.InlineFragment:
				walk(s.SelectionSet)
			}
		}
	}
	for _, op := range doc.Operations {
		walk(op.SelectionSet)
	}
	for _, f := range doc.Fragments {
		walk(f.SelectionSet)
	}
	return repeated
}

// responseKey is the key of f in the response: its alias, or its name.
func responseKey(f *ast.Field) string {
	if f.Alias != "" {
		return f.Alias
	}
	return f.Name
}
