package mcp

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strings"
)

// JSON-RPC error codes (JSON-RPC 2.0 §5.1).
const (
	codeParseError     = -32700
	codeInvalidRequest = -32600
	codeMethodNotFound = -32601
)

// rpcError writes a JSON-RPC error answer with no request ID.
func rpcError(w http.ResponseWriter, status, code int, msg string) {
	body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": nil, "error": map[string]any{"code": code, "message": msg}})
	w.Header().Set("Content-Type", "application/json")
	w.Header().Del("Content-Length")
	w.WriteHeader(status)
	_, _ = w.Write(body)
}

// rpcErrorWriter turns the SDK's plain-text refusals (a message that is
// not JSON-RPC, an unknown method, a wrong Content-Type or Accept, GET on a
// stateless server) into JSON-RPC error answers with the same status, so a
// client always gets JSON it can read. Every other answer passes through.
type rpcErrorWriter struct {
	http.ResponseWriter
	status int
	text   bytes.Buffer // the plain-text refusal, when status is set
}

func (w *rpcErrorWriter) WriteHeader(status int) {
	if status >= 400 && strings.HasPrefix(w.Header().Get("Content-Type"), "text/plain") {
		w.status = status
		return
	}
	w.ResponseWriter.WriteHeader(status)
}

func (w *rpcErrorWriter) Write(b []byte) (int, error) {
	if w.status != 0 {
		if w.text.Len() < 4096 {
			w.text.Write(b)
		}
		return len(b), nil
	}
	return w.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController reach the connection (flushes).
func (w *rpcErrorWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// finish writes the held refusal, if any, as a JSON-RPC error.
func (w *rpcErrorWriter) finish() {
	if w.status == 0 {
		return
	}
	msg := strings.TrimSpace(w.text.String())
	code := codeInvalidRequest
	if strings.Contains(msg, "not handled") {
		code = codeMethodNotFound
	}
	w.Header().Del("X-Content-Type-Options")
	rpcError(w.ResponseWriter, w.status, code, msg)
}
