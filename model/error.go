package model

import (
	"errors"
	"fmt"
)

// Code is what a client branches on when a request is refused: the `code`
// of the HTTP error body or the `extensions.code` of a GraphQL error.
// Every code, its HTTP status and its condition are listed in
// docs/reference/errors.md.
type Code string

// The error codes. Codes cross the wire between nodes, so this list is
// append-only: never change or reuse a code's text.
const (
	// HTTP refusals (docs/reference/errors.md, "HTTP refusals").
	CodeBadRequest           Code = "Bad Request"
	CodeUnauthenticated      Code = "UNAUTHENTICATED"
	CodeAPIKeyInvalid        Code = "API_KEY_INVALID"
	CodeAPIKeyExpired        Code = "API_KEY_EXPIRED"
	CodeActorTokenInvalid    Code = "ACTOR_TOKEN_INVALID"
	CodeScopeInsufficient    Code = "API_KEY_SCOPE_INSUFFICIENT"
	CodeProjectNotFound      Code = "PROJECT_NOT_FOUND"
	CodeTooManyRequests      Code = "TOO_MANY_REQUESTS"
	CodeMaxActors            Code = "MAX_ACTIVE_ACTORS_REACHED"
	CodeRateLimitExceeded    Code = "RATE_LIMIT_EXCEEDED"
	CodeQueryTimeout         Code = "QUERY_TIMEOUT"
	CodePayloadTooLarge      Code = "PAYLOAD_TOO_LARGE"
	CodeAdoptionTokenInvalid Code = "ADOPTION_TOKEN_INVALID"
	CodeUnavailable          Code = "UNAVAILABLE"
	// CodeStorageFull refuses a write when the node's disk is full
	// (507); nothing of the write was stored.
	CodeStorageFull Code = "STORAGE_FULL"

	// GraphQL-level (extensions.code).
	CodeNotReady       Code = "NOT_READY"
	CodeBadUserInput   Code = "BAD_USER_INPUT"
	CodeForbidden      Code = "FORBIDDEN"
	CodeNotFound       Code = "NOT_FOUND"
	CodeLimitReached   Code = "LIMIT_REACHED"
	CodeConflict       Code = "CONFLICT"
	CodeParseFailed    Code = "GRAPHQL_PARSE_FAILED"
	CodeValidateFailed Code = "GRAPHQL_VALIDATION_FAILED"

	// CodeInternal is every unexpected failure; users see only "internal error".
	CodeInternal Code = "INTERNAL"
)

// Error is the application error. Code is one of the constants above and is
// what clients branch on; Message is a human explanation safe to show them.
// RetryAfter, when positive, is the number of seconds a client should wait
// (it becomes the Retry-After header of a 429 or 503).
type Error struct {
	Code       Code
	Message    string
	RetryAfter int
	// Extra holds additional body fields for a refusal (for example the
	// alternative MAX_ACTIVE_ACTORS_REACHED shape). It may be nil.
	Extra map[string]any
}

// Error implements the error interface.
func (e *Error) Error() string {
	if e.Message == "" {
		return string(e.Code)
	}
	return string(e.Code) + ": " + e.Message
}

// Errorf returns an *Error with the given code and a formatted message.
func Errorf(code Code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// ErrorCode returns the code of err: the Code of an *Error in its chain, or
// CodeInternal for anything else, and "" for nil.
func ErrorCode(err error) Code {
	if err == nil {
		return ""
	}
	if e := AsError(err); e != nil {
		return e.Code
	}
	return CodeInternal
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
			return string(e.Code)
		}
		return e.Message
	}
	return "internal error"
}
