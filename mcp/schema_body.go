package mcp

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
)

// A GraphQL schema is the one thing an MCP request carries that may be
// larger than MaxBodyBytes: a single tools/call of import_graphql_schema
// may be up to MaxSchemaBodyBytes (enough for the 16 MiB introspection
// result a schema may be, escaped in JSON). At most SchemaBodies such
// bodies are read at once by a Server.

// importTool is the name of the tool whose call may be large.
const importTool = "import_graphql_schema"

// readBody reads r's body: at most MaxBodyBytes, or MaxSchemaBodyBytes
// for one call of importTool. ok is false when it answered w itself.
func (s *Server) readBody(w http.ResponseWriter, r *http.Request) (body []byte, ok bool) {
	var buf bytes.Buffer
	_, err := buf.ReadFrom(io.LimitReader(r.Body, s.cfg.MaxBodyBytes+1))
	if err == nil && int64(buf.Len()) > s.cfg.MaxBodyBytes && s.cfg.MaxSchemaBodyBytes > s.cfg.MaxBodyBytes {
		select {
		case s.schemaBodies <- struct{}{}:
			defer func() { <-s.schemaBodies }()
			_, err = buf.ReadFrom(io.LimitReader(r.Body, s.cfg.MaxSchemaBodyBytes+1-int64(buf.Len())))
			if err == nil && int64(buf.Len()) <= s.cfg.MaxSchemaBodyBytes && callsImport(buf.Bytes()) {
				return buf.Bytes(), true
			}
		default:
			rpcError(w, http.StatusServiceUnavailable, codeInvalidRequest, "this server is reading other schema imports; retry in a second")
			return nil, false
		}
	}
	if err != nil || int64(buf.Len()) > s.cfg.MaxBodyBytes {
		rpcError(w, http.StatusRequestEntityTooLarge, codeInvalidRequest,
			fmt.Sprintf("the request body is larger than %d bytes (or could not be read); send smaller batches (one call of %s may be up to %d bytes)", s.cfg.MaxBodyBytes, importTool, s.cfg.MaxSchemaBodyBytes))
		return nil, false
	}
	return buf.Bytes(), true
}

// callsImport reports whether body is one JSON-RPC tools/call of importTool.
func callsImport(body []byte) bool {
	var m struct {
		Method string `json:"method"`
		Params struct {
			Name string `json:"name"`
		} `json:"params"`
	}
	return json.Unmarshal(body, &m) == nil && m.Method == "tools/call" && m.Params.Name == importTool
}
