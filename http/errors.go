package http

import (
	"encoding/json"
	"log/slog"
	"net/http"
	"sort"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/mockgql/mockgql/model"
)

// statusOf maps an error code to its HTTP status: the table of
// docs/reference/errors.md.
func statusOf(code model.Code) int {
	switch code {
	case model.CodeBadRequest, model.CodeBadUserInput, model.CodeParseFailed, model.CodeValidateFailed:
		return http.StatusBadRequest
	case model.CodeUnauthenticated, model.CodeAPIKeyInvalid, model.CodeAPIKeyExpired, model.CodeActorTokenInvalid:
		return http.StatusUnauthorized
	case model.CodeScopeInsufficient, model.CodeForbidden:
		return http.StatusForbidden
	case model.CodeProjectNotFound, model.CodeNotFound:
		return http.StatusNotFound
	case model.CodeConflict:
		return http.StatusConflict
	case model.CodeAdoptionTokenInvalid:
		return http.StatusGone
	case model.CodePayloadTooLarge:
		return http.StatusRequestEntityTooLarge
	case model.CodeTooManyRequests, model.CodeMaxActors, model.CodeRateLimitExceeded, model.CodeLimitReached:
		return http.StatusTooManyRequests
	case model.CodeQueryTimeout, model.CodeUnavailable:
		return http.StatusServiceUnavailable
	case model.CodeStorageFull:
		return http.StatusInsufficientStorage
	}
	return http.StatusInternalServerError
}

// The longest request path and detail an error body or a log line
// repeats: both may quote what the client sent (model.Clip).
const (
	maxEchoPath   = 256
	maxEchoDetail = 1024
)

// errorBody is the JSON body of every refused request (docs/reference/errors.md, "The error body").
type errorBody struct {
	StatusCode int        `json:"statusCode"`
	Code       model.Code `json:"code"`
	Message    string     `json:"message"`
	Path       string     `json:"path"`
	Timestamp  string     `json:"timestamp"`
	RetryAfter int        `json:"retryAfter,omitempty"`
	Detail     string     `json:"detail,omitempty"`
	// Errors is the GraphQL errors array of a 400 for a document that does
	// not parse or validate, so GraphQL clients show the reason.
	Errors json.RawMessage `json:"errors,omitempty"`
}

// writeError answers a refusal. Internal errors are logged with the request
// ID and shown only as "internal error".
func (s *Server) writeError(c *gin.Context, err error) {
	s.refuse(c.Writer, c.Request, requestID(c), err)
	c.Abort()
}

// refuse writes err's error body to w and returns its status; gin's
// handlers go through writeError, the IP gate (gate.go) comes here straight
// from net/http.
func (s *Server) refuse(w http.ResponseWriter, r *http.Request, reqID string, err error) int {
	return s.refuseAs(w, r, reqID, err, false)
}

// refuseAs is refuse; with graphQL, a 400 also carries its detail as a
// GraphQL errors array, as writeRuntimeError's do (the runtime's event
// streams: graphql-sse clients read errors).
func (s *Server) refuseAs(w http.ResponseWriter, r *http.Request, reqID string, err error, graphQL bool) int {
	code := model.ErrorCode(err)
	if code == model.CodeInternal {
		s.log.Error("internal error", "request_id", reqID, "path", logPath(r.URL.Path),
			"err", model.Clip(err.Error(), maxEchoDetail))
	}
	var extra map[string]any
	retry := 0
	if me := model.AsError(err); me != nil {
		extra, retry = me.Extra, me.RetryAfter
	}
	body := errorBody{StatusCode: statusOf(code), Code: code, Message: string(code), Path: model.Clip(r.URL.Path, maxEchoPath),
		Detail: model.Clip(model.ErrorMessage(err), maxEchoDetail)}
	if body.StatusCode == http.StatusTooManyRequests || body.StatusCode == http.StatusServiceUnavailable {
		if retry > 0 {
			body.RetryAfter = retry
			w.Header()["Retry-After"] = retryAfterValue(retry)
		}
	}
	if graphQL && body.StatusCode == http.StatusBadRequest {
		body.Errors = graphQLErrorsOf(code, body.Detail)
	}
	writeBodyTo(w, body, extra)
	return body.StatusCode
}

// retryAfterValues are the Retry-After header values of the first minute,
// shared by every response (net/http only reads them): a flood of 429s
// should not allocate them one by one.
var retryAfterValues = func() [][]string {
	v := make([][]string, 61)
	for i := range v {
		v[i] = []string{strconv.Itoa(i)}
	}
	return v
}()

func retryAfterValue(s int) []string {
	if s < len(retryAfterValues) {
		return retryAfterValues[s]
	}
	return []string{strconv.Itoa(s)}
}

// jsonContentType is the Content-Type header value of every JSON answer,
// shared like retryAfterValues.
var jsonContentType = []string{"application/json"}

// writeJSON writes a JSON answer without the allocations of gin's c.Data.
// A Content-Length keeps HTTP/1.1 answers unchunked; net/http sets it
// itself for an answer written in one piece below its chunking size.
func writeJSON(c *gin.Context, status int, b []byte) { writeJSONTo(c.Writer, status, b) }

func writeJSONTo(w http.ResponseWriter, status int, b []byte) {
	h := w.Header()
	h["Content-Type"] = jsonContentType
	if len(b) >= 2048 { // net/http's bufferBeforeChunkingSize
		h["Content-Length"] = []string{strconv.Itoa(len(b))}
	}
	w.WriteHeader(status)
	_, _ = w.Write(b)
}

// writeBody writes the error body with any extra fields of the refusal
// (for example the alternative MAX_ACTIVE_ACTORS_REACHED shape).
func (s *Server) writeBody(c *gin.Context, body errorBody, extra map[string]any) {
	writeBodyTo(c.Writer, body, extra)
	c.Abort()
}

// writeBodyTo writes an error body. Refusals must be cheap (a flood of
// 429s should not cost more than the requests it keeps out), so the body
// is appended by hand into a pooled buffer.
func writeBodyTo(w http.ResponseWriter, body errorBody, extra map[string]any) {
	bp := errBufs.Get().(*[]byte)
	defer errBufs.Put(bp)
	b := (*bp)[:0]
	b = append(b, `{"statusCode":`...)
	b = strconv.AppendInt(b, int64(body.StatusCode), 10)
	b = appendField(b, "code", string(body.Code))
	b = appendField(b, "message", body.Message)
	b = appendField(b, "path", body.Path)
	if body.Timestamp == "" { // now, written straight into the body
		b = append(b, `,"timestamp":"`...)
		b = appendNow(b)
		b = append(b, '"')
	} else {
		b = appendField(b, "timestamp", body.Timestamp)
	}
	if body.RetryAfter > 0 {
		b = append(b, `,"retryAfter":`...)
		b = strconv.AppendInt(b, int64(body.RetryAfter), 10)
	}
	if body.Detail != "" {
		b = appendField(b, "detail", body.Detail)
	}
	if len(body.Errors) > 0 {
		b = append(b, `,"errors":`...)
		b = append(b, body.Errors...)
	}
	for _, k := range sortedKeys(extra) {
		v, err := json.Marshal(extra[k])
		if err != nil || reservedErrorField[k] {
			continue
		}
		b = appendField(b, k, "")
		b = append(b[:len(b)-2], v...) // replace the empty string value
	}
	b = append(b, '}')
	writeJSONTo(w, body.StatusCode, b)
	if cap(b) <= 4096 {
		*bp = b
	}
}

// stamp is the current millisecond's timestamp text, formatted once per
// millisecond however many refusals share it.
type stamp struct {
	ms   int64
	text []byte
}

var lastStamp atomic.Pointer[stamp]

// appendNow appends the time now as 2006-01-02T15:04:05.000Z (UTC).
func appendNow(b []byte) []byte {
	now := time.Now()
	ms := now.UnixMilli()
	if st := lastStamp.Load(); st != nil && st.ms == ms {
		return append(b, st.text...)
	}
	text := now.UTC().AppendFormat(make([]byte, 0, 24), "2006-01-02T15:04:05.000Z")
	lastStamp.Store(&stamp{ms: ms, text: text})
	return append(b, text...)
}

// errBufs recycles error bodies (written to the connection before reuse).
var errBufs = sync.Pool{New: func() any { b := make([]byte, 0, 512); return &b }}

// reservedErrorField are the standard fields extras may not replace.
var reservedErrorField = map[string]bool{"statusCode": true, "code": true, "message": true, "path": true,
	"timestamp": true, "retryAfter": true, "detail": true, "errors": true}

// appendField appends ,"name":"value" with value JSON-escaped.
func appendField(b []byte, name, value string) []byte {
	b = append(b, ',', '"')
	b = append(b, name...)
	b = append(b, '"', ':')
	if plain(value) { // codes, paths and most messages: no escaping needed
		b = append(b, '"')
		b = append(b, value...)
		return append(b, '"')
	}
	q, _ := json.Marshal(value)
	return append(b, q...)
}

// plain reports whether s is printable ASCII without quotes, backslashes or
// the characters encoding/json escapes for HTML safety.
func plain(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 || c >= 0x7f || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			return false
		}
	}
	return true
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// writeRefusedGraphQL answers 400 Bad Request for a document that does not
// parse or validate, carrying the GraphQL errors.
func (s *Server) writeRefusedGraphQL(c *gin.Context, graphqlBody []byte, graphqlCode model.Code) {
	var res struct {
		Errors json.RawMessage `json:"errors"`
	}
	_ = json.Unmarshal(graphqlBody, &res)
	detail := "the GraphQL document does not parse"
	if graphqlCode == model.CodeValidateFailed {
		detail = "the GraphQL document does not validate against the schema (unknown or disabled operation, unknown field or argument, wrong variable)"
	}
	s.writeBody(c, errorBody{StatusCode: http.StatusBadRequest, Code: model.CodeBadRequest, Message: string(model.CodeBadRequest),
		Path:   model.Clip(c.Request.URL.Path, maxEchoPath),
		Detail: detail, Errors: res.Errors}, nil)
}

// writeRuntimeError answers a refused runtime request. A 400 (a malformed
// body, a subscription sent as a plain POST, a mutation over GET, …) also
// carries the GraphQL errors array, [{message, extensions: {code}}] with
// the detail and the code, as a document that does not validate does: a
// GraphQL-over-HTTP client (Apollo, urql, graphql-request) shows errors,
// not the error body's own fields.
func (s *Server) writeRuntimeError(c *gin.Context, err error) {
	code := model.ErrorCode(err)
	if statusOf(code) != http.StatusBadRequest {
		s.writeError(c, err)
		return
	}
	var extra map[string]any
	if me := model.AsError(err); me != nil {
		extra = me.Extra
	}
	detail := model.Clip(model.ErrorMessage(err), maxEchoDetail)
	s.writeBody(c, errorBody{StatusCode: http.StatusBadRequest, Code: code, Message: string(code),
		Path: model.Clip(c.Request.URL.Path, maxEchoPath), Detail: detail, Errors: graphQLErrorsOf(code, detail)}, extra)
}

// graphQLErrorsOf is a refusal's detail as a GraphQL errors array.
func graphQLErrorsOf(code model.Code, detail string) json.RawMessage {
	errs, _ := json.Marshal([]graphQLError{{Message: detail, Extensions: graphQLErrorExtensions{Code: code}}})
	return errs
}

// graphQLError is one GraphQL error of an error body's errors array.
type graphQLError struct {
	Message    string                 `json:"message"`
	Extensions graphQLErrorExtensions `json:"extensions"`
}

type graphQLErrorExtensions struct {
	Code model.Code `json:"code"`
}

// logger is slog's default unless the config gives one.
func logger(l *slog.Logger) *slog.Logger {
	if l == nil {
		return slog.Default()
	}
	return l
}
