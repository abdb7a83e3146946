package model

import (
	"math"
	"sort"
	"strconv"
	"strings"
	"time"
)

// MaxFaultLatencyMs bounds an injected latency, from the settings and from
// the X-Mock-Fault header alike: a request waits at most 10 s for it.
const MaxFaultLatencyMs = 10_000

// maxFaultHeader is the longest X-Mock-Fault value read.
const maxFaultHeader = 256

// FaultSettings are the latency and error injection of a project's
// runtime, or of one of its operations (issue 14). They are never applied
// to the management or public API. The zero value injects nothing. Every
// edit of the settings is a change of value (Rev, compared with Equal),
// which restarts the sequence of draws and the counts of field rules.
type FaultSettings struct {
	// LatencyMinMs and LatencyMaxMs: each request waits a duration drawn
	// uniformly from [min, max] milliseconds; equal is a fixed latency.
	LatencyMinMs int `json:"latencyMinMs,omitempty"`
	LatencyMaxMs int `json:"latencyMaxMs,omitempty"`
	// ErrorRate is the share of requests (0..1) answered with the error
	// below instead of being executed.
	ErrorRate float64 `json:"errorRate,omitempty"`
	// ErrorCode is a GraphQL error (HTTP 200, errors[0].extensions.code).
	ErrorCode Code `json:"errorCode,omitempty"`
	// HTTPStatus is an HTTP refusal with the error body instead.
	HTTPStatus int `json:"httpStatus,omitempty"`
	// Seed makes the draws deterministic: the same seed and the same
	// sequence of requests give the same faults.
	Seed int64 `json:"seed,omitempty"`
	// Rev numbers the edit that set these settings (not part of the API),
	// so that setting the same values again still restarts the sequence.
	Rev int64 `json:"rev,omitempty"`
	// FieldRules make single fields of the answer fail (fault_field.go);
	// at most MaxFieldRules.
	FieldRules []FieldRule `json:"fieldRules,omitempty"`
}

// faultStatusCodes are the HTTP statuses a fault may answer, with the code
// of their error body: those of docs/reference/errors.md's refusals, plus 500.
// A 503 is UNAVAILABLE (the service's own 503 code besides QUERY_TIMEOUT).
var faultStatusCodes = map[int]Code{
	400: CodeBadRequest, 401: CodeUnauthenticated, 403: CodeScopeInsufficient, 404: CodeProjectNotFound,
	413: CodePayloadTooLarge, 429: CodeTooManyRequests, 500: CodeInternal, 503: CodeUnavailable,
}

// faultErrorCodes are the GraphQL error codes a fault may answer: the
// codes of docs/reference/errors.md that make sense in errors[].
var faultErrorCodes = map[Code]bool{
	CodeInternal: true, CodeUnavailable: true, CodeQueryTimeout: true, CodeNotReady: true, CodeBadUserInput: true,
	CodeForbidden: true, CodeNotFound: true, CodeLimitReached: true, CodeConflict: true, CodeUnauthenticated: true,
	CodeTooManyRequests: true,
}

// FaultStatusCode returns the error code a fault answers HTTP status s
// with, and whether s is one a fault may answer.
func FaultStatusCode(s int) (Code, bool) {
	c, ok := faultStatusCodes[s]
	return c, ok
}

// Check refuses settings that cannot be applied, with BAD_USER_INPUT
// naming the field.
func (s FaultSettings) Check() error {
	for _, l := range [...]struct {
		name string
		v    int
	}{{"latencyMinMs", s.LatencyMinMs}, {"latencyMaxMs", s.LatencyMaxMs}} {
		if l.v < 0 || l.v > MaxFaultLatencyMs {
			return Errorf(CodeBadUserInput, "faults.%s must be 0 to %d (ms)", l.name, MaxFaultLatencyMs)
		}
	}
	switch {
	case s.LatencyMinMs > s.LatencyMaxMs:
		return Errorf(CodeBadUserInput, "faults.latencyMinMs must not be above faults.latencyMaxMs")
	case math.IsNaN(s.ErrorRate) || s.ErrorRate < 0 || s.ErrorRate > 1:
		return Errorf(CodeBadUserInput, "faults.errorRate must be 0 to 1")
	case s.ErrorCode != "" && !faultErrorCodes[s.ErrorCode]:
		return Errorf(CodeBadUserInput, "faults.errorCode must be one of %s", strings.Join(faultCodeList(), ", "))
	case s.HTTPStatus != 0 && faultStatusCodes[s.HTTPStatus] == "":
		return Errorf(CodeBadUserInput, "faults.httpStatus must be one of %s", faultStatusList())
	case s.ErrorCode != "" && s.HTTPStatus != 0:
		return Errorf(CodeBadUserInput, "faults: give errorCode or httpStatus, not both")
	case s.ErrorRate > 0 && s.ErrorCode == "" && s.HTTPStatus == 0:
		return Errorf(CodeBadUserInput, "faults: an errorRate above 0 needs errorCode or httpStatus")
	}
	return checkFieldRules(s.FieldRules)
}

// faultCodeList is the sorted list of faultErrorCodes, for messages.
func faultCodeList() []string {
	out := make([]string, 0, len(faultErrorCodes))
	for c := range faultErrorCodes {
		out = append(out, string(c))
	}
	sort.Strings(out)
	return out
}

// faultStatusList is the allowed statuses, for messages.
func faultStatusList() string { return "400, 401, 403, 404, 413, 429, 500, 503" }

// FaultDecision is what one runtime request gets injected. The zero value
// is nothing.
type FaultDecision struct {
	// Delay is waited before the answer is written (on the HTTP side,
	// never in a grain).
	Delay time.Duration
	// ErrorCode answers a GraphQL error instead of executing.
	ErrorCode Code
	// HTTPStatus answers an HTTP refusal instead of executing.
	HTTPStatus int
	// Field, from the header only, is the path of a field rule that fires
	// at every position it matches, with FieldCode (fault_field.go); the
	// rules that fired are logged by the runtime, not by String.
	Field     string
	FieldCode Code
}

// None reports whether d injects nothing.
func (d FaultDecision) None() bool { return d == FaultDecision{} }

// Replaces reports whether d answers instead of executing the request.
func (d FaultDecision) Replaces() bool { return d.ErrorCode != "" || d.HTTPStatus != 0 }

// String is what was injected, for the X-Mock-Fault-Applied header and
// the request log: "latency=800ms;error=INTERNAL", "status=503", "" for
// nothing.
func (d FaultDecision) String() string {
	var parts []string
	if d.Delay > 0 {
		parts = append(parts, "latency="+strconv.FormatInt(d.Delay.Milliseconds(), 10)+"ms")
	}
	if d.ErrorCode != "" {
		parts = append(parts, "error="+string(d.ErrorCode))
	}
	if d.HTTPStatus != 0 {
		parts = append(parts, "status="+strconv.Itoa(d.HTTPStatus))
	}
	return strings.Join(parts, ";")
}

// Refusal is the error an HTTPStatus fault answers with (nil for none):
// the code of that status, and Retry-After 1 on a 429 or 503.
func (d FaultDecision) Refusal() *Error {
	code, ok := faultStatusCodes[d.HTTPStatus]
	if !ok {
		return nil
	}
	e := &Error{Code: code, Message: "injected fault: status=" + strconv.Itoa(d.HTTPStatus) + " (X-Mock-Fault or the project's fault settings)"}
	if d.HTTPStatus == 429 || d.HTTPStatus == 503 {
		e.RetryAfter = 1
	}
	return e
}

// FaultHeader is a parsed X-Mock-Fault request header. The zero value is
// an absent header.
type FaultHeader struct {
	// Set: the header was sent; it replaces the configured faults for its
	// request (None: with nothing).
	Set bool
	// Forced is what the header asks for.
	Forced FaultDecision
}

// ParseFaultHeader reads an X-Mock-Fault value: "none", or parts joined by
// ";" or ",": latency=<duration> (e.g. 800ms, 1.5s; at most
// MaxFaultLatencyMs), error=<GraphQL error code>, status=<HTTP status>,
// field=<rule path> (a field error at that path, FieldRule.Path; with
// error=, that is its code, else INTERNAL); at most one of error and
// status, and of field and status. "" is an absent header. Anything else
// is BAD_USER_INPUT naming the header.
func ParseFaultHeader(v string) (FaultHeader, error) {
	if len(v) > maxFaultHeader {
		return FaultHeader{}, Errorf(CodeBadUserInput, "X-Mock-Fault: at most %d bytes", maxFaultHeader)
	}
	v = strings.TrimSpace(v)
	if v == "" {
		return FaultHeader{}, nil
	}
	if strings.EqualFold(v, "none") {
		return FaultHeader{Set: true}, nil
	}
	h := FaultHeader{Set: true}
	seen := map[string]bool{}
	for _, part := range strings.FieldsFunc(v, func(r rune) bool { return r == ';' || r == ',' }) {
		key, val, ok := strings.Cut(strings.TrimSpace(part), "=")
		key, val = strings.ToLower(strings.TrimSpace(key)), strings.TrimSpace(val)
		if !ok || seen[key] {
			return FaultHeader{}, Errorf(CodeBadUserInput, "X-Mock-Fault: %q is not latency=<duration>, error=<code>, status=<status>, field=<path> or none (each at most once)", Clip(part, 64))
		}
		seen[key] = true
		if err := h.Forced.setPart(key, val); err != nil {
			return FaultHeader{}, err
		}
	}
	if h.Forced.ErrorCode != "" && h.Forced.HTTPStatus != 0 {
		return FaultHeader{}, Errorf(CodeBadUserInput, "X-Mock-Fault: give error or status, not both")
	}
	if h.Forced.Field != "" {
		if h.Forced.HTTPStatus != 0 {
			return FaultHeader{}, Errorf(CodeBadUserInput, "X-Mock-Fault: give field or status, not both")
		}
		h.Forced.FieldCode, h.Forced.ErrorCode = h.Forced.ErrorCode, ""
		if h.Forced.FieldCode == "" {
			h.Forced.FieldCode = CodeInternal
		}
	}
	if h.Forced.None() {
		return FaultHeader{}, Errorf(CodeBadUserInput, "X-Mock-Fault: nothing to inject; send none to suppress the configured faults")
	}
	return h, nil
}

// setPart sets one key=value part of an X-Mock-Fault header.
func (d *FaultDecision) setPart(key, val string) error {
	switch key {
	case "latency":
		dur, err := time.ParseDuration(val)
		if err != nil || dur < 0 || dur > MaxFaultLatencyMs*time.Millisecond {
			return Errorf(CodeBadUserInput, "X-Mock-Fault: latency must be a duration from 0 to %dms, e.g. latency=800ms", MaxFaultLatencyMs)
		}
		d.Delay = dur.Truncate(time.Millisecond)
	case "error":
		if !faultErrorCodes[Code(val)] {
			return Errorf(CodeBadUserInput, "X-Mock-Fault: error must be one of %s", strings.Join(faultCodeList(), ", "))
		}
		d.ErrorCode = Code(val)
	case "status":
		n, err := strconv.Atoi(val)
		if _, ok := faultStatusCodes[n]; err != nil || !ok {
			return Errorf(CodeBadUserInput, "X-Mock-Fault: status must be one of %s", faultStatusList())
		}
		d.HTTPStatus = n
	case "field":
		if err := checkFieldRulePath(val); err != nil {
			return Errorf(CodeBadUserInput, "X-Mock-Fault: field: %s", err.Message)
		}
		d.Field = val
	default:
		return Errorf(CodeBadUserInput, "X-Mock-Fault: unknown part %q; use latency=, error=, status=, field= or none", Clip(key, 32))
	}
	return nil
}

// DecideFault is the fault of the request numbered seq (0, 1, 2, … since
// the settings last changed) under settings s (nil: none), unless the
// header h replaces them. It is a pure function: the same settings, seed,
// seq and header give the same decision.
func DecideFault(s *FaultSettings, seq uint64, h FaultHeader) FaultDecision {
	if h.Set {
		return h.Forced
	}
	if s == nil {
		return FaultDecision{}
	}
	var d FaultDecision
	if s.LatencyMaxMs > 0 {
		span := uint64(s.LatencyMaxMs - s.LatencyMinMs + 1)
		ms := s.LatencyMinMs + int(faultDraw(s.Seed, seq, 0)%span)
		d.Delay = time.Duration(ms) * time.Millisecond
	}
	if s.ErrorRate > 0 && faultUniform(faultDraw(s.Seed, seq, 1)) < s.ErrorRate {
		d.ErrorCode, d.HTTPStatus = s.ErrorCode, s.HTTPStatus
	}
	return d
}

// faultDraw is the stream-th 64-bit draw of request seq under seed:
// splitmix64's finaliser over the three, so that neighbouring seeds and
// sequence numbers give unrelated draws.
func faultDraw(seed int64, seq, stream uint64) uint64 {
	x := uint64(seed) ^ splitmix(seq*2+stream+0x9e3779b97f4a7c15)
	return splitmix(x)
}

func splitmix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

// faultUniform maps a draw to [0, 1).
func faultUniform(x uint64) float64 { return float64(x>>11) / (1 << 53) }
