package contract

import (
	"errors"
	"strings"

	"github.com/mockgql/mockgql/model"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
	"github.com/vektah/gqlparser/v2/lexer"
)

// located turns a gqlparser error on sdl into BAD_USER_INPUT naming its
// line and column. The parser reports a token the lexer could not read as
// "Expected …, found <Invalid>" where the lexer stopped: for a string left
// open that is the end of its line, or for a block string the end of the
// document, hundreds of lines below the mistake. Such an error is read
// again with the lexer, and an unterminated string is reported where its
// opening quote stands.
func located(sdl string, err error) error {
	var ge *gqlerror.Error
	if !errors.As(err, &ge) || len(ge.Locations) == 0 {
		return model.Errorf(model.CodeBadUserInput, "%v", err)
	}
	l, msg := ge.Locations[0], ge.Message
	if strings.Contains(msg, "<Invalid>") {
		if line, col, lexMsg, ok := lexError(sdl); ok {
			l, msg = gqlerror.Location{Line: line, Column: col}, lexMsg
		}
	}
	return model.Errorf(model.CodeBadUserInput, "line %d, column %d: %s", l.Line, l.Column, msg)
}

// lexError reads sdl's tokens up to the first the lexer refuses and answers
// that refusal's place and words; an unterminated string is placed at its
// opening quote (the first character after the last good token that is not
// blank, a comma or a comment).
func lexError(sdl string) (line, col int, msg string, ok bool) {
	lx := lexer.New(&ast.Source{Name: "schema.graphql", Input: sdl})
	end := 0
	for {
		tok, err := lx.ReadToken()
		if err != nil {
			var ge *gqlerror.Error
			if !errors.As(err, &ge) || len(ge.Locations) == 0 {
				return 0, 0, "", false
			}
			if !strings.HasPrefix(ge.Message, "Unterminated string") {
				return ge.Locations[0].Line, ge.Locations[0].Column, ge.Message, true
			}
			start := nextToken(sdl, byteOffset(sdl, end))
			line, col = position(sdl, start)
			return line, col, "unterminated string: it starts here and has no closing quote", true
		}
		if tok.Kind == lexer.EOF {
			return 0, 0, "", false
		}
		end = tok.Pos.End // in characters
	}
}

// nextToken skips what GraphQL ignores between tokens (blanks, line ends,
// commas, comments and a byte order mark) from offset i of s.
func nextToken(s string, i int) int {
	for i < len(s) {
		switch c := s[i]; {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == ',':
			i++
		case c == '#':
			for i < len(s) && s[i] != '\n' && s[i] != '\r' {
				i++
			}
		case strings.HasPrefix(s[i:], "\ufeff"):
			i += len("\ufeff")
		default:
			return i
		}
	}
	return i
}

// position is the 1-based line and column (in characters) of byte offset i
// of s; a CR LF pair ends one line.
func position(s string, i int) (line, col int) {
	line, col = 1, 1
	for j, r := range s[:i] {
		switch {
		case r == '\n' && j > 0 && s[j-1] == '\r':
		case r == '\n' || r == '\r':
			line, col = line+1, 1
		default:
			col++
		}
	}
	return line, col
}

// byteOffset is the byte offset of s's character n.
func byteOffset(s string, n int) int {
	for i := range s {
		if n == 0 {
			return i
		}
		n--
	}
	return len(s)
}
