package exec

import (
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/lexer"
)

// IsMutation reports whether req selects a mutation: the operation named
// req.OperationName, or the only one. Callers that decide on rights
// before running a request use it. It reads the document's tokens once
// without building its syntax tree, in linear time and constant memory:
// previewQuery's document may be megabytes, which the runtime then
// refuses by its token bound. For a document that parses it answers as
// the parser would; a document that does not lex or select an operation
// is not a mutation (Prepare refuses it).
func IsMutation(req Request) bool {
	s := opScanner{want: req.OperationName}
	lx := lexer.New(&ast.Source{Input: req.Query})
	for {
		tok, err := lx.ReadToken()
		if err != nil {
			return false
		}
		if tok.Kind == lexer.EOF {
			return s.mutation()
		}
		s.token(tok)
	}
}

// opScanner follows the top level of a document token by token: where
// each definition starts, the kind of each operation and its name.
type opScanner struct {
	want           string // the operation name asked for, "" for the only one
	braces, parens int
	midDefinition  bool   // inside a definition, outside its selection
	afterKeyword   bool   // the last token was query, mutation or subscription
	ops            int    // operations seen
	onlyKind       string // the kind of the first operation
	wantKind       string // the kind of the first operation named want
	lastKind       string // the kind of the operation being read
	unbalanced     bool   // a closing brace or parenthesis without its opening one
}

func (s *opScanner) token(tok lexer.Token) {
	top := s.braces == 0 && s.parens == 0
	wasKeyword := s.afterKeyword
	s.afterKeyword = false
	switch tok.Kind {
	case lexer.ParenL:
		s.parens++
	case lexer.ParenR:
		s.parens--
		s.unbalanced = s.unbalanced || s.parens < 0
	case lexer.BraceL:
		if top && !s.midDefinition { // a query in shorthand: { … }
			s.operation("query")
		}
		s.braces++
	case lexer.BraceR:
		if s.braces--; s.braces == 0 && s.parens == 0 {
			s.midDefinition = false
		}
		s.unbalanced = s.unbalanced || s.braces < 0
	case lexer.Name:
		switch {
		case !top:
		case !s.midDefinition:
			s.midDefinition = true
			if tok.Value != "fragment" {
				s.operation(tok.Value)
				s.afterKeyword = true
			}
		case wasKeyword && tok.Value == s.want && s.wantKind == "":
			s.wantKind = s.lastKind
		}
	}
}

// operation notes the start of an operation of kind.
func (s *opScanner) operation(kind string) {
	s.ops++
	if s.ops == 1 {
		s.onlyKind = kind
	}
	s.lastKind = kind
}

// mutation reports whether the selected operation is a mutation, at the
// end of a document whose braces and parentheses balance.
func (s *opScanner) mutation() bool {
	if s.unbalanced || s.braces != 0 || s.parens != 0 {
		return false
	}
	if s.want != "" {
		return s.wantKind == "mutation"
	}
	return s.ops == 1 && s.onlyKind == "mutation"
}
