package model

import (
	"bytes"
	"encoding/json"
	"math"
	"strconv"
	"strings"
)

// Bounds of field rules (docs/reference/bounds.md, "Faults"): what one
// settings value holds is at most MaxFieldRules rules of these sizes.
const (
	// MaxFieldRules is the most field rules of one project's or one
	// operation's settings.
	MaxFieldRules = 32
	// MaxFieldRulePath is the longest rule path in bytes;
	// MaxFieldRuleSegments the most dot-separated segments it has.
	MaxFieldRulePath     = 256
	MaxFieldRuleSegments = 16
	// MaxFieldRuleMessage is the longest error message of a rule.
	MaxFieldRuleMessage = 512
	// MaxFieldRuleExtensions is the longest extensions object (JSON
	// bytes) of a rule.
	MaxFieldRuleExtensions = 1024
	// MaxFieldRuleCount is the largest count of a rule.
	MaxFieldRuleCount = 1_000_000_000
)

// FieldRule makes one field of a runtime answer fail (issue 30): the field
// is null and errors[] names it by path and location, with Code and
// Extensions; a null in a non-null position propagates to the nearest
// nullable parent, as the GraphQL spec says.
type FieldRule struct {
	// Path names the field: "Type.field" (that field of that object type
	// wherever it is selected; the root type's name for a root field),
	// "*.field" (a field of that name on any type), or "Root.a.b" (three
	// or more segments: the fields a, then b, from the root type Root,
	// aliases and list indexes aside).
	Path string `json:"path"`
	// Message is the error's message; "" is "injected fault: field=<Path>".
	Message string `json:"message,omitempty"`
	// Code is extensions.code, one of the GraphQL codes a fault may answer.
	Code Code `json:"code"`
	// Extensions are further members of the error's extensions (an object
	// without "code"); nil for none.
	Extensions json.RawMessage `json:"extensions,omitempty"`
	// Rate is the share (0..1) of requests in which the rule fires;
	// Count, when above 0, fires it in the first Count requests instead.
	// A request fires it at every position the path matches, or at none.
	Rate  float64 `json:"rate,omitempty"`
	Count int     `json:"count,omitempty"`
	// Sandbox, when set, limits the rule to requests of that sandbox
	// (X-Mock-Sandbox); a request of no sandbox never fires it.
	Sandbox string `json:"sandbox,omitempty"`
}

// ErrorMessage is the message the rule's error carries.
func (r *FieldRule) ErrorMessage() string {
	if r.Message != "" {
		return r.Message
	}
	return "injected fault: field=" + r.Path
}

// check refuses a rule that cannot be applied, naming it by its index.
func (r *FieldRule) check(i int) error {
	name := "faults.fieldRules[" + strconv.Itoa(i) + "]"
	if err := checkFieldRulePath(r.Path); err != nil {
		return Errorf(CodeBadUserInput, "%s.path: %s", name, err.Message)
	}
	switch {
	case len(r.Message) > MaxFieldRuleMessage:
		return Errorf(CodeBadUserInput, "%s.message: at most %d bytes", name, MaxFieldRuleMessage)
	case !faultErrorCodes[r.Code]:
		return Errorf(CodeBadUserInput, "%s.code must be one of %s", name, strings.Join(faultCodeList(), ", "))
	case math.IsNaN(r.Rate) || r.Rate < 0 || r.Rate > 1:
		return Errorf(CodeBadUserInput, "%s.rate must be 0 to 1", name)
	case r.Count < 0 || r.Count > MaxFieldRuleCount:
		return Errorf(CodeBadUserInput, "%s.count must be 0 to %d", name, MaxFieldRuleCount)
	case r.Count > 0 && r.Rate > 0:
		return Errorf(CodeBadUserInput, "%s: give rate or count, not both", name)
	case r.Count == 0 && r.Rate == 0:
		return Errorf(CodeBadUserInput, "%s: give a rate above 0 or a count above 0", name)
	case r.Sandbox != "" && CheckSandboxName(r.Sandbox) != nil:
		return Errorf(CodeBadUserInput, "%s.sandbox must be 1 to %d of A-Z a-z 0-9 . _ -", name, MaxSandboxName)
	}
	if _, err := r.ExtensionMap(); err != nil {
		return Errorf(CodeBadUserInput, "%s.extensions: %s", name, err.(*Error).Message)
	}
	return nil
}

// ExtensionMap decodes Extensions: nil for none, else an object of at most
// MaxFieldRuleExtensions bytes without a "code" member.
func (r *FieldRule) ExtensionMap() (map[string]any, error) {
	b := bytes.TrimSpace(r.Extensions)
	if len(b) == 0 || string(b) == "null" {
		return nil, nil
	}
	if len(b) > MaxFieldRuleExtensions {
		return nil, Errorf(CodeBadUserInput, "at most %d bytes of JSON", MaxFieldRuleExtensions)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil || m == nil {
		return nil, Errorf(CodeBadUserInput, "must be a JSON object")
	}
	if _, ok := m["code"]; ok {
		return nil, Errorf(CodeBadUserInput, "must not hold code (give the rule's code)")
	}
	return m, nil
}

// checkFieldRulePath checks a rule path's syntax: GraphQL names joined by
// dots, at least two, "*" allowed only as the first of exactly two.
func checkFieldRulePath(p string) *Error {
	if len(p) > MaxFieldRulePath {
		return Errorf(CodeBadUserInput, "at most %d bytes", MaxFieldRulePath)
	}
	segs := strings.Split(p, ".")
	if len(segs) < 2 || len(segs) > MaxFieldRuleSegments {
		return Errorf(CodeBadUserInput, "%q is not Type.field, *.field or Root.field.field… (2 to %d names)", Clip(p, 64), MaxFieldRuleSegments)
	}
	for i, s := range segs {
		if s == "*" && i == 0 && len(segs) == 2 {
			continue
		}
		if !isGraphQLName(s) || strings.HasPrefix(s, "__") {
			return Errorf(CodeBadUserInput, "%q: %q is not a GraphQL name", Clip(p, 64), Clip(s, 64))
		}
	}
	return nil
}

// isGraphQLName reports whether s is a GraphQL name: /[_A-Za-z][_0-9A-Za-z]*/.
func isGraphQLName(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		letter := c == '_' || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z')
		if !letter && (i == 0 || c < '0' || c > '9') {
			return false
		}
	}
	return true
}

// Matches reports whether the rule's path names the field name of object
// type typ at a position whose field names from the root type root are
// names (the field itself last).
func (r *FieldRule) Matches(root, typ string, names []string) bool {
	return FieldPathMatches(r.Path, root, typ, names)
}

// FieldPathMatches is FieldRule.Matches for a path p.
func FieldPathMatches(p, root, typ string, names []string) bool {
	if len(names) == 0 {
		return false
	}
	first, rest, _ := strings.Cut(p, ".")
	if !strings.Contains(rest, ".") { // Type.field or *.field
		return rest == names[len(names)-1] && (first == "*" || first == typ)
	}
	if first != root {
		return false
	}
	for i, n := range names {
		if i > 0 {
			if rest == "" || rest[0] != '.' {
				return false
			}
			rest = rest[1:]
		}
		if !strings.HasPrefix(rest, n) {
			return false
		}
		rest = rest[len(n):]
	}
	return rest == ""
}

// checkFieldRules checks the rules of settings.
func checkFieldRules(rules []FieldRule) error {
	if len(rules) > MaxFieldRules {
		return Errorf(CodeBadUserInput, "faults.fieldRules: at most %d rules", MaxFieldRules)
	}
	for i := range rules {
		if err := rules[i].check(i); err != nil {
			return err
		}
	}
	return nil
}

// Equal reports whether s and o are the same settings, Rev included.
func (s FaultSettings) Equal(o FaultSettings) bool {
	if len(s.FieldRules) != len(o.FieldRules) {
		return false
	}
	for i := range s.FieldRules {
		a, b := s.FieldRules[i], o.FieldRules[i]
		if a.Path != b.Path || a.Message != b.Message || a.Code != b.Code || !bytes.Equal(a.Extensions, b.Extensions) ||
			a.Rate != b.Rate || a.Count != b.Count || a.Sandbox != b.Sandbox {
			return false
		}
	}
	a, b := s, o
	a.FieldRules, b.FieldRules = nil, nil
	return a.scalars() == b.scalars()
}

// faultScalars are the comparable members of FaultSettings.
type faultScalars struct {
	latencyMin, latencyMax int
	rate                   float64
	code                   Code
	status                 int
	seed, rev              int64
}

func (s FaultSettings) scalars() faultScalars {
	return faultScalars{s.LatencyMinMs, s.LatencyMaxMs, s.ErrorRate, s.ErrorCode, s.HTTPStatus, s.Seed, s.Rev}
}

// FieldRuleFires decides whether rule i of settings s fires in the request
// numbered seq of its scope (rate rules; count rules are counted by the
// caller): a pure function of the seed, seq and i.
func FieldRuleFires(s *FaultSettings, i int, seq uint64) bool {
	r := &s.FieldRules[i]
	draw := splitmix(faultDraw(s.Seed, seq, 0) ^ splitmix(uint64(i)+0x5bd1e995)) // a stream of its own per rule
	return r.Rate >= 1 || faultUniform(draw) < r.Rate
}
