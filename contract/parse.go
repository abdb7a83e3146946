package contract

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/parser"
	"github.com/vektah/gqlparser/v2/validator"

	"github.com/mockgql/mockgql/graphql/exec"
	"github.com/mockgql/mockgql/model"
)

// The byte bounds of an imported schema (docs/reference/bounds.md,
// "Imported GraphQL schemas"). MaxDocumentBytes is what a surface accepts,
// an introspection result being the larger form of a schema; MaxSDLBytes
// bounds the SDL a project stores and compiles, whether sent as SDL or
// printed from an introspection result. GitHub's public schema, the
// largest public one we know, is 1.2 MB of SDL.
const (
	MaxDocumentBytes = 16 << 20
	MaxSDLBytes      = 4 << 20
)

// Schema is an imported contract: the document as SDL (an introspection
// result is printed as SDL first) and gqlparser's schema of it, built-in
// types included.
type Schema struct {
	SDL string
	AST *ast.Schema
}

// Parse reads doc, an SDL document or an introspection result
// ({"data":{"__schema":…}} or {"__schema":…}), of at most max bytes. It
// returns a *model.Error: PAYLOAD_TOO_LARGE past max, or for SDL (given,
// or printed from an introspection result) past MaxSDLBytes; LIMIT_REACHED for a
// document over a structural bound (bounds.go: names, fields, arguments,
// interfaces), checked before the document is validated; BAD_USER_INPUT
// for a document that does not parse or validate (the message names line
// and column) or that uses a construct mockgql cannot serve (named).
// Parse waits for a slot without a deadline; surfaces that serve a
// request call ParseContext.
func Parse(doc []byte, max int) (*Schema, error) {
	return ParseContext(context.Background(), doc, max)
}

// ParseContext is Parse in one of the process's slots for parsing and
// validating GraphQL documents (exec.ValidationSlot), shared with the
// runtime's queries: it waits for one until ctx is done, and then returns
// QUERY_TIMEOUT.
func ParseContext(ctx context.Context, doc []byte, max int) (*Schema, error) {
	if len(doc) > max {
		return nil, model.Errorf(model.CodePayloadTooLarge, "the schema is %d bytes, over the limit of %d", len(doc), max)
	}
	release, ok := exec.ValidationSlot(ctx)
	if !ok {
		return nil, model.Errorf(model.CodeQueryTimeout, "the schema could not be read within the request's time limit; retry")
	}
	defer release()
	return parse(doc)
}

// parse is Parse within a slot.
func parse(doc []byte) (*Schema, error) {
	sdl := ""
	if t := bytes.TrimSpace(doc); len(t) > 0 && t[0] == '{' {
		var err error
		if sdl, err = introspectionSDL(t); err != nil {
			return nil, err
		}
		if len(sdl) > MaxSDLBytes {
			return nil, model.Errorf(model.CodePayloadTooLarge, "the introspection result prints as %d bytes of SDL, over the limit of %d", len(sdl), MaxSDLBytes)
		}
	} else if len(doc) > MaxSDLBytes {
		return nil, model.Errorf(model.CodePayloadTooLarge, "the schema is %d bytes of SDL, over the limit of %d", len(doc), MaxSDLBytes)
	} else {
		sdl = string(doc)
	}
	if strings.TrimSpace(sdl) == "" {
		return nil, model.Errorf(model.CodeBadUserInput, "the schema document is empty")
	}
	s, err := load(sdl)
	if err != nil {
		return nil, err
	}
	if s.Query == nil {
		return nil, model.Errorf(model.CodeBadUserInput, "the schema has no query type: define type Query or schema { query: … }")
	}
	if err := unsupported(s); err != nil {
		return nil, err
	}
	if err := checkFaker(s); err != nil {
		return nil, err
	}
	return &Schema{SDL: sdl, AST: s}, nil
}

// load parses sdl with gqlparser's prelude (and, for a federation
// subgraph, the definitions federationSource adds; for graphql-faker's
// directives, those fakerSource adds), refuses it over a
// structural bound, then validates it: gqlparser.LoadSchema with the
// bounds between its two steps.
func load(sdl string) (*ast.Schema, error) {
	// parser.ParseSchemas(prelude, sdl, federation) with the user's
	// document parsed once: the federation scan reads the parsed document.
	sd, err := preludeCopy()
	if err != nil {
		return nil, err
	}
	user, err := parser.ParseSchema(&ast.Source{Name: "schema.graphql", Input: sdl})
	if err != nil {
		return nil, located(sdl, err)
	}
	DropRepeatedFields(user)
	sd.Merge(user)
	if fed := federationSource(user); fed != nil {
		fd, err := parser.ParseSchema(fed)
		if err != nil {
			return nil, located(sdl, err)
		}
		sd.Merge(fd)
	}
	if fk := fakerSource(user); fk != nil {
		fd, err := parser.ParseSchema(fk)
		if err != nil {
			return nil, located(sdl, err)
		}
		sd.Merge(fd)
	}
	if err := checkDocument(sd); err != nil {
		return nil, err
	}
	s, err := validator.ValidateSchemaDocument(sd)
	if err != nil {
		return nil, located(sdl, err)
	}
	return s, nil
}

// preludeDoc is gqlparser's prelude (the built-in scalars and directives
// and the introspection types), parsed once per process: every schema a
// node loads shares its definitions instead of parsing a copy of its own,
// which was more than half of a small project's compiled schema.
var preludeDoc = sync.OnceValues(func() (*ast.SchemaDocument, error) { return parser.ParseSchema(validator.Prelude) })

// preludeCopy returns a schema document holding the prelude's definitions
// for one load: each definition is a shallow copy whose lists are capped
// at their length, so that an extension merged into one schema (extend
// scalar String @x, extend type __Type) appends to arrays of its own and
// never to the shared ones; directive definitions are copied the same
// way; the fields and arguments themselves are shared and never written.
func preludeCopy() (*ast.SchemaDocument, error) {
	p, err := preludeDoc()
	if err != nil {
		return nil, err
	}
	sd := &ast.SchemaDocument{Directives: make(ast.DirectiveDefinitionList, len(p.Directives)), Definitions: make(ast.DefinitionList, len(p.Definitions))}
	for i, d := range p.Directives {
		c := *d // extend directive appends to its Directives
		c.Directives = slices.Clip(d.Directives)
		sd.Directives[i] = &c
	}
	for i, d := range p.Definitions {
		c := *d
		c.Directives, c.Interfaces, c.Fields = slices.Clip(d.Directives), slices.Clip(d.Interfaces), slices.Clip(d.Fields)
		c.Types, c.TypePositions, c.EnumValues = slices.Clip(d.Types), slices.Clip(d.TypePositions), slices.Clip(d.EnumValues)
		sd.Definitions[i] = &c
	}
	return sd, nil
}

// LoadSchema is gqlparser.LoadSchema with the shared prelude
// (preludeCopy): sources parsed and validated as one schema.
func LoadSchema(sources ...*ast.Source) (*ast.Schema, error) {
	sd, err := preludeCopy()
	if err != nil {
		return nil, err
	}
	for _, src := range sources {
		d, err := parser.ParseSchema(src)
		if err != nil {
			return nil, err
		}
		sd.Merge(d)
	}
	return validator.ValidateSchemaDocument(sd)
}

// unsupported refuses the constructs mockgql cannot serve, naming each (at
// most ten): today, types that federation or other gateways add at
// composition time are served like any other, so the only refusal is an
// object type with no fields, which gqlparser accepts from extensions.
func unsupported(s *ast.Schema) error {
	var bad []string
	for _, name := range sortedTypes(s) {
		d := s.Types[name]
		if d.BuiltIn {
			continue
		}
		if (d.Kind == ast.Object || d.Kind == ast.Interface || d.Kind == ast.InputObject) && len(d.Fields) == 0 {
			bad = append(bad, fmt.Sprintf("%s %s has no fields", kindWord(d.Kind), name))
		}
	}
	if len(bad) == 0 {
		return nil
	}
	if len(bad) > 10 {
		bad = append(bad[:10], fmt.Sprintf("and %d more", len(bad)-10))
	}
	return model.Errorf(model.CodeBadUserInput, "cannot serve: %s", strings.Join(bad, "; "))
}

// sortedTypes returns the names of s's types in name order.
func sortedTypes(s *ast.Schema) []string {
	names := make([]string, 0, len(s.Types))
	for n := range s.Types {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

func kindWord(k ast.DefinitionKind) string {
	switch k {
	case ast.Object:
		return "type"
	case ast.Interface:
		return "interface"
	case ast.InputObject:
		return "input"
	case ast.Union:
		return "union"
	case ast.Enum:
		return "enum"
	}
	return "scalar"
}
