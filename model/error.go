package model

import (
	"errors"
	"fmt"
)

// Error codes. Every code, its HTTP status and its condition are listed in
// docs/reference/errors.md. Codes cross the wire between nodes, so this list
// is append-only: never rename or reuse one.
const (
	// HTTP refusals (docs/reference/errors.md, "HTTP refusals").
	ErrBadRequest           = "Bad Request"
	ErrUnauthenticated      = "UNAUTHENTICATED"
	ErrAPIKeyInvalid        = "API_KEY_INVALID"
	ErrAPIKeyExpired        = "API_KEY_EXPIRED"
	ErrActorTokenInvalid    = "ACTOR_TOKEN_INVALID"
	ErrScopeInsufficient    = "API_KEY_SCOPE_INSUFFICIENT"
	ErrProjectNotFound      = "PROJECT_NOT_FOUND"
	ErrTooManyRequests      = "TOO_MANY_REQUESTS"
	ErrMaxActors            = "MAX_ACTIVE_ACTORS_REACHED"
	ErrRateLimitExceeded    = "RATE_LIMIT_EXCEEDED"
	ErrQueryTimeout         = "QUERY_TIMEOUT"
	ErrPayloadTooLarge      = "PAYLOAD_TOO_LARGE"
	ErrAdoptionTokenInvalid = "ADOPTION_TOKEN_INVALID"
	ErrUnavailable          = "UNAVAILABLE"
	// ErrStorageFull refuses a write when the node's disk is full
	// (507); nothing of the write was stored.
	ErrStorageFull = "STORAGE_FULL"

	// GraphQL-level (extensions.code).
	ErrNotReady       = "NOT_READY"
	ErrBadUserInput   = "BAD_USER_INPUT"
	ErrForbidden      = "FORBIDDEN"
	ErrNotFound       = "NOT_FOUND"
	ErrLimitReached   = "LIMIT_REACHED"
	ErrConflict       = "CONFLICT"
	ErrParseFailed    = "GRAPHQL_PARSE_FAILED"
	ErrValidateFailed = "GRAPHQL_VALIDATION_FAILED"

	// ErrInternal is every unexpected failure; users see only "internal error".
	ErrInternal = "INTERNAL"
)

// Error is the application error. Code is one of the constants above and is
// what clients branch on; Message is a human explanation safe to show them.
// RetryAfter, when positive, is the number of seconds a client should wait
// (it becomes the Retry-After header of a 429 or 503).
type Error struct {
	Code       string
	Message    string
	RetryAfter int
	// Extra holds additional body fields for a refusal (for example the
	// alternative MAX_ACTIVE_ACTORS_REACHED shape). It may be nil.
	Extra map[string]any
}

// Error implements the error interface.
func (e *Error) Error() string {
	if e.Message == "" {
		return e.Code
	}
	return e.Code + ": " + e.Message
}

// Errorf returns an *Error with the given code and a formatted message.
func Errorf(code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// ErrorCode returns the code of err: the Code of an *Error in its chain, or
// ErrInternal for anything else, and "" for nil.
func ErrorCode(err error) string {
	if err == nil {
		return ""
	}
	if e := AsError(err); e != nil {
		return e.Code
	}
	return ErrInternal
}

// AsError returns the *Error in err's chain, or nil. The common case, err
// itself, costs no allocation (errors.As makes its target escape).
func AsError(err error) *Error {
	if e, ok := err.(*Error); ok {
		return e
	}
	if err == nil {
		return nil
	}
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	return nil
}

// ErrorMessage returns the message safe to show a client: the Message of an
// *Error in the chain, or "internal error" for anything else.
func ErrorMessage(err error) string {
	if e := AsError(err); e != nil {
		if e.Message == "" {
			return e.Code
		}
		return e.Message
	}
	return "internal error"
}
