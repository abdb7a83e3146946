package model

import (
	"fmt"
	"net/mail"
	"strings"
	"unicode/utf8"
)

// Length limits of names and identifiers (BAD_USER_INPUT names the limit).
// Every identifier a client sends is checked against them before any grain
// is touched: a lookup must neither reach the store with an unbounded key
// nor echo an unbounded value into a message or a log line.
const (
	// MaxNameLen bounds a GraphQL name of the model: table, attribute,
	// operation, parameter, relation field.
	MaxNameLen = 64
	// MaxDisplayNameLen bounds a free-text name: project, API key, member,
	// account, dataset.
	MaxDisplayNameLen = 100
	// MaxIDLen bounds an ID the server minted (project, table, account,
	// key…; the longest it mints has 25 characters).
	MaxIDLen = 64
	// MaxEmailLen is RFC 5321's limit of a forward path.
	MaxEmailLen = 254
	// MaxTokenLen bounds a secret a client presents (API key, share,
	// session, actor and adoption tokens).
	MaxTokenLen = 256
	// MaxGrainIdentity bounds any grain identity, whatever its kind; the
	// checks above are tighter.
	MaxGrainIdentity = 256
)

// CheckID refuses an identifier that no ID the server minted can equal:
// empty, over MaxIDLen bytes, or other than ASCII letters, digits, '.',
// '_' and '-'. what names it ("projectId"). The value is never echoed.
func CheckID(what, id string) error {
	switch {
	case id == "":
		return Errorf(CodeBadUserInput, "%s is empty", what)
	case len(id) > MaxIDLen:
		return Errorf(CodeBadUserInput, "%s has %d bytes; the limit is %d", what, len(id), MaxIDLen)
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '_' || c == '-') {
			return Errorf(CodeBadUserInput, "%s is not an ID: IDs have letters, digits, '.', '_' and '-' only", what)
		}
	}
	return nil
}

// CheckToken refuses a presented secret longer than MaxTokenLen or with
// characters outside printable ASCII; what names it ("share token").
func CheckToken(what, t string) error {
	if len(t) > MaxTokenLen {
		return Errorf(CodeBadUserInput, "%s has %d bytes; the limit is %d", what, len(t), MaxTokenLen)
	}
	for i := 0; i < len(t); i++ {
		if t[i] <= ' ' || t[i] > '~' {
			return Errorf(CodeBadUserInput, "%s has a character that no token has", what)
		}
	}
	return nil
}

// NormEmail lower-cases and trims an e-mail address and checks it: at
// most MaxEmailLen bytes and a plain address (RFC 5322 addr-spec). The
// result is the user grain's identity. The refusal echoes at most 64
// characters of the input.
func NormEmail(email string) (string, error) {
	if len(email) > MaxEmailLen+32 { // before any parsing: room for spaces around
		return "", Errorf(CodeBadUserInput, "an e-mail address has at most %d characters", MaxEmailLen)
	}
	e := strings.ToLower(strings.TrimSpace(email))
	if len(e) > MaxEmailLen {
		return "", Errorf(CodeBadUserInput, "an e-mail address has at most %d characters", MaxEmailLen)
	}
	if a, err := mail.ParseAddress(e); err != nil || a.Address != e {
		return "", Errorf(CodeBadUserInput, "%q is not an e-mail address", Truncate(email, 64))
	}
	return e, nil
}

// CheckGrainIdentity is the last check before a grain is reached: any
// identity of any kind is at most MaxGrainIdentity bytes of valid UTF-8
// without control characters.
func CheckGrainIdentity(kind, id string) error {
	if id == "" || len(id) > MaxGrainIdentity {
		return Errorf(CodeBadUserInput, "a %s identifier has %d bytes; it has 1 to %d", kind, len(id), MaxGrainIdentity)
	}
	if !utf8.ValidString(id) || strings.IndexFunc(id, func(r rune) bool { return r < ' ' || r == 0x7f }) >= 0 {
		return Errorf(CodeBadUserInput, "a %s identifier has characters no identifier has", kind)
	}
	return nil
}

// CheckDisplayName refuses a free-text name longer than MaxDisplayNameLen
// characters; what names it ("project name").
func CheckDisplayName(what, s string) error {
	if n := utf8.RuneCountInString(s); n > MaxDisplayNameLen {
		return Errorf(CodeBadUserInput, "%s has %d characters; the limit is %d", what, n, MaxDisplayNameLen)
	}
	return nil
}

// Truncate cuts s to at most n runes for a message or a log line, saying
// how much was left out.
func Truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + fmt.Sprintf("…(%d bytes)", len(s))
}

// DefaultMaxActors is an API key's actor slots when its creation names
// none (createApiKey maxActors: 1..1000, default 5; docs/reference/bounds.md).
const DefaultMaxActors = 5
