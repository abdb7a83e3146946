package http

import (
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"strconv"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/mockgql/mockgql/model"
)

// statusOf maps an error code to its HTTP status: SPEC.md "Errors" for the
// codes it names, the obvious choice for the rest.
func statusOf(code string) int {
	switch code {
	case model.ErrBadRequest, model.ErrBadUserInput, model.ErrParseFailed, model.ErrValidateFailed:
		return http.StatusBadRequest
	case model.ErrUnauthenticated, model.ErrAPIKeyInvalid, model.ErrAPIKeyExpired, model.ErrActorTokenInvalid:
		return http.StatusUnauthorized
	case model.ErrScopeInsufficient, model.ErrForbidden:
		return http.StatusForbidden
	case model.ErrProjectNotFound, model.ErrNotFound:
		return http.StatusNotFound
	case model.ErrConflict:
		return http.StatusConflict
	case model.ErrAdoptionTokenInvald:
		return http.StatusGone
	case model.ErrPayloadTooLarge:
		return http.StatusRequestEntityTooLarge
	case model.ErrTooManyRequests, model.ErrMaxActors, model.ErrRateLimitExceeded, model.ErrLimitReached:
		return http.StatusTooManyRequests
	case model.ErrQueryTimeout, model.ErrUnavailable:
		return http.StatusServiceUnavailable
	}
	return http.StatusInternalServerError
}

// errorBody is the JSON body of every refused request (API.md "Error body").
type errorBody struct {
	StatusCode int    `json:"statusCode"`
	Code       string `json:"code"`
	Message    string `json:"message"`
	Path       string `json:"path"`
	Timestamp  string `json:"timestamp"`
	RetryAfter int    `json:"retryAfter,omitempty"`
	Detail     string `json:"detail,omitempty"`
	// Errors is the GraphQL errors array of a 400 for a document that does
	// not parse or validate, so GraphQL clients show the reason.
	Errors json.RawMessage `json:"errors,omitempty"`
}

// writeError answers a refusal. Internal errors are logged with the request
// ID and shown only as "internal error".
func (s *Server) writeError(c *gin.Context, err error) {
	code := model.ErrorCode(err)
	if code == model.ErrInternal {
		s.log.Error("internal error", "request_id", c.GetString(ctxRequestID), "path", c.Request.URL.Path, "err", err)
	}
	var me *model.Error
	var extra map[string]any
	retry := 0
	if errors.As(err, &me) {
		extra, retry = me.Extra, me.RetryAfter
	}
	body := errorBody{StatusCode: statusOf(code), Code: code, Message: code, Path: c.Request.URL.Path,
		Timestamp: time.Now().UTC().Format("2006-01-02T15:04:05.000Z"), Detail: model.ErrorMessage(err)}
	if body.StatusCode == http.StatusTooManyRequests || body.StatusCode == http.StatusServiceUnavailable {
		if retry > 0 {
			body.RetryAfter = retry
			c.Header("Retry-After", strconv.Itoa(retry))
		}
	}
	s.writeBody(c, body, extra)
}

// writeBody writes the error body with any extra fields of the refusal
// (for example the alternative MAX_ACTIVE_ACTORS_REACHED shape).
func (s *Server) writeBody(c *gin.Context, body errorBody, extra map[string]any) {
	b, err := json.Marshal(body)
	if err == nil && len(extra) > 0 {
		var m map[string]any
		if json.Unmarshal(b, &m) == nil {
			for k, v := range extra {
				if _, taken := m[k]; !taken {
					m[k] = v
				}
			}
			b, err = json.Marshal(m)
		}
	}
	if err != nil {
		s.log.Error("error body", "err", err)
		b = []byte(`{"statusCode":500,"code":"INTERNAL","message":"INTERNAL"}`)
	}
	c.Data(body.StatusCode, "application/json", b)
	c.Abort()
}

// writeRefusedGraphQL answers 400 Bad Request for a document that does not
// parse or validate, carrying the GraphQL errors.
func (s *Server) writeRefusedGraphQL(c *gin.Context, graphqlBody []byte, graphqlCode string) {
	var res struct {
		Errors json.RawMessage `json:"errors"`
	}
	_ = json.Unmarshal(graphqlBody, &res)
	detail := "the GraphQL document does not parse"
	if graphqlCode == model.ErrValidateFailed {
		detail = "the GraphQL document does not validate against the schema (unknown or disabled operation, unknown field or argument, wrong variable)"
	}
	s.writeBody(c, errorBody{StatusCode: http.StatusBadRequest, Code: model.ErrBadRequest, Message: model.ErrBadRequest,
		Path: c.Request.URL.Path, Timestamp: time.Now().UTC().Format("2006-01-02T15:04:05.000Z"),
		Detail: detail, Errors: res.Errors}, nil)
}

// logger is slog's default unless the config gives one.
func logger(l *slog.Logger) *slog.Logger {
	if l == nil {
		return slog.Default()
	}
	return l
}
