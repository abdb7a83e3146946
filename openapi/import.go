package openapi

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/getkin/kin-openapi/openapi2"
	"github.com/getkin/kin-openapi/openapi2conv"
	"github.com/getkin/kin-openapi/openapi3"
	"github.com/oasdiff/yaml"

	"github.com/mockgql/mockgql/model"
)

// Import limits (docs/reference/bounds.md, "The model": OpenAPI import).
const (
	DefaultMaxBytes   = 1 << 20
	DefaultMaxSchemas = 50
)

// ImportOptions are the limits of one import; zero fields take the defaults.
type ImportOptions struct {
	// MaxBytes is the largest document accepted (default 1 MB).
	MaxBytes int
	// MaxSchemas is the most schemas one import may select (default 50).
	MaxSchemas int
}

func (o ImportOptions) withDefaults() ImportOptions {
	if o.MaxBytes <= 0 {
		o.MaxBytes = DefaultMaxBytes
	}
	if o.MaxSchemas <= 0 {
		o.MaxSchemas = DefaultMaxSchemas
	}
	return o
}

// ImportedTable is one selected schema as an unbound table: Attributes
// have no ID and no TableID, mapping NONE, and SourcePath set to the
// property's dot path in the schema (a hint for binding the table later).
type ImportedTable struct {
	// Schema is the schema's name in the document.
	Schema string
	// Name is the table name: Schema made a GraphQL type name.
	Name       string
	Attributes []model.Attribute
}

// Import reads an OpenAPI 3.0/3.1 or Swagger 2.0 document (JSON or YAML)
// and returns a table for each selected schema, in the order given; a nil
// selection means every schema of the document that is an object. It refuses, with a
// *model.Error that says which, a document over opt.MaxBytes
// (PAYLOAD_TOO_LARGE), and with BAD_USER_INPUT an empty (non-nil)
// selection, more than opt.MaxSchemas schemas, an unsupported version, an
// unknown schema name, a broken or external $ref, and a schema that is not
// an object. It never panics.
func Import(doc []byte, schemas []string, opt ImportOptions) (tables []ImportedTable, err error) {
	defer func() {
		if r := recover(); r != nil { // kin-openapi on a hostile document
			tables, err = nil, model.Errorf(model.CodeBadUserInput, "the document could not be read (%v)", r)
		}
	}()
	opt = opt.withDefaults()
	if len(doc) > opt.MaxBytes {
		return nil, &model.Error{Code: model.CodePayloadTooLarge, Message: fmt.Sprintf(
			"the document has %d bytes; OpenAPI import takes at most %d (%s)", len(doc), opt.MaxBytes, sizeText(opt.MaxBytes))}
	}
	if schemas != nil && len(schemas) == 0 {
		// An empty list is a selection of nothing (the wizard with every box
		// cleared), not a request for everything.
		return nil, model.Errorf(model.CodeBadUserInput, "no schemas selected; select at least one, or leave schemas out to import every object schema")
	}
	if len(schemas) > opt.MaxSchemas {
		return nil, model.Errorf(model.CodeBadUserInput, "%d schemas selected; one import takes at most %d", len(schemas), opt.MaxSchemas)
	}
	d, err := load(doc)
	if err != nil {
		return nil, err
	}
	selected, err := selectSchemas(d, schemas, opt.MaxSchemas)
	if err != nil {
		return nil, err
	}
	return buildTables(d, selected, len(schemas) == 0)
}

// sizeText writes a byte count as MB or KB for messages.
func sizeText(n int) string {
	if n >= 1<<20 && n%(1<<20) == 0 {
		return fmt.Sprintf("%d MB", n>>20)
	}
	return fmt.Sprintf("%d KB", n>>10)
}

// load decodes the document, checks its version and $refs, and returns it
// as OpenAPI 3 with every reference resolved.
func load(doc []byte) (*openapi3.T, error) {
	if err := checkBrackets(doc); err != nil {
		return nil, err
	}
	var raw map[string]any
	if _, err := yaml.Unmarshal(doc, &raw, yaml.DecodeOpts{DisableTimestamps: true}); err != nil || raw == nil {
		return nil, model.Errorf(model.CodeBadUserInput, "the document is not a JSON or YAML object: %s", shortError(err))
	}
	if err := checkShape(raw); err != nil {
		return nil, err
	}
	v2, err := version(raw)
	if err != nil {
		return nil, err
	}
	if err := checkRefs(raw); err != nil {
		return nil, err
	}
	data, err := json.Marshal(raw)
	if err != nil {
		return nil, model.Errorf(model.CodeBadUserInput, "the document could not be read: %s", shortError(err))
	}
	d, err := loadVersion(data, v2)
	if err != nil {
		return nil, model.Errorf(model.CodeBadUserInput, "the document could not be read: %s", shortError(err))
	}
	return d, nil
}

// loadVersion parses JSON of a 3.x document, or of a 2.0 one and converts it.
func loadVersion(data []byte, v2 bool) (*openapi3.T, error) {
	loader := openapi3.NewLoader()
	loader.IsExternalRefsAllowed = false
	loader.Context = context.Background()
	if !v2 {
		return loader.LoadFromData(data)
	}
	var d2 openapi2.T
	if err := json.Unmarshal(data, &d2); err != nil {
		return nil, err
	}
	return openapi2conv.ToV3WithLoader(&d2, loader, nil)
}

// version checks the openapi or swagger field: 3.0 and 3.1 are read as they
// are, 2.0 (v2 true) is converted.
func version(raw map[string]any) (v2 bool, err error) {
	if v, ok := raw["openapi"]; ok {
		s := versionText(v)
		if s == "3.0" || s == "3.1" || strings.HasPrefix(s, "3.0.") || strings.HasPrefix(s, "3.1.") {
			return false, nil
		}
		return false, model.Errorf(model.CodeBadUserInput, "OpenAPI version %q is not supported; import takes OpenAPI 3.0, 3.1 and Swagger 2.0", s)
	}
	if v, ok := raw["swagger"]; ok {
		if s := versionText(v); s == "2.0" || s == "2" {
			return true, nil
		}
		return false, model.Errorf(model.CodeBadUserInput, "Swagger version %q is not supported; import takes Swagger 2.0, OpenAPI 3.0 and 3.1", versionText(v))
	}
	return false, model.Errorf(model.CodeBadUserInput, "the document has no openapi or swagger field, so it is not an OpenAPI or Swagger document")
}

// versionText writes a version field, which YAML may have read as a number.
func versionText(v any) string {
	if f, ok := v.(float64); ok {
		s := fmt.Sprint(f)
		if !strings.Contains(s, ".") {
			s += ".0"
		}
		return s
	}
	return fmt.Sprint(v)
}

// selectSchemas returns the named component schemas (all when names is
// empty), refusing unknown names and a document with too many to take all.
func selectSchemas(d *openapi3.T, names []string, max int) ([]string, error) {
	var have []string
	if d.Components != nil {
		for name := range d.Components.Schemas {
			have = append(have, name)
		}
	}
	slices.Sort(have)
	if len(names) == 0 {
		if len(have) > max {
			return nil, model.Errorf(model.CodeBadUserInput, "the document has %d schemas; select up to %d of them", len(have), max)
		}
		if len(have) == 0 {
			return nil, model.Errorf(model.CodeBadUserInput, "the document has no schemas (components.schemas or definitions) to import")
		}
		return have, nil
	}
	var out []string
	for _, n := range names {
		if !slices.Contains(have, n) {
			return nil, model.Errorf(model.CodeBadUserInput, "schema %q is not in the document; it has %s", n, listText(have, 20))
		}
		if !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	return out, nil
}

// listText writes up to max names for a message.
func listText(names []string, max int) string {
	switch {
	case len(names) == 0:
		return "no schemas"
	case len(names) > max:
		return strings.Join(names[:max], ", ") + fmt.Sprintf(" and %d more", len(names)-max)
	}
	return strings.Join(names, ", ")
}

// shortError is err's text cut to a length fit for a refusal.
func shortError(err error) string {
	if err == nil {
		return "empty"
	}
	s := err.Error()
	if len(s) > 300 {
		s = s[:300] + "…"
	}
	return s
}
