package mcp

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"strings"

	"github.com/mockgql/mockgql/model"
)

// handlePrefix starts every session handle.
const handlePrefix = "mcs_"

// maxSessionIDLen bounds what a handle may carry (session IDs are 27 bytes).
const maxSessionIDLen = 64

// sealer turns an mgq_session ID into the session handle the assistant
// passes back to every tool, and back. MCP 2026-07-28 has no protocol
// session (SEP-2567: state lives in server-minted handles passed as tool
// arguments), so the handle is the MCP session: AES-GCM under a key derived
// from the node's JWT secret, which every node of a cluster shares and which
// outlives a restart. The session ID itself never leaves the server, and a
// handle the server did not mint does not open.
type sealer struct{ aead cipher.AEAD }

func newSealer(secret []byte) (*sealer, error) {
	if len(secret) < 32 {
		return nil, errors.New("mcp: the secret needs at least 32 bytes")
	}
	key := sha256.Sum256(append([]byte("mockgql mcp session handle v1\x00"), secret...))
	block, err := aes.NewCipher(key[:])
	if err != nil {
		return nil, err
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		return nil, err
	}
	return &sealer{aead: aead}, nil
}

// seal returns the handle of a session ID.
func (s *sealer) seal(sessionID string) string {
	nonce := make([]byte, s.aead.NonceSize(), s.aead.NonceSize()+len(sessionID)+s.aead.Overhead())
	_, _ = rand.Read(nonce) // crypto/rand never fails on Linux (Go 1.24+ panics rather than return an error)
	out := s.aead.Seal(nonce, nonce, []byte(sessionID), []byte(handlePrefix))
	return handlePrefix + base64.RawURLEncoding.EncodeToString(out)
}

// open returns the session ID a handle carries, or a BAD_USER_INPUT error
// that tells the assistant what to do.
func (s *sealer) open(handle string) (string, error) {
	bad := model.Errorf(model.CodeBadUserInput,
		"session %q is not a session handle of this service; pass the \"session\" value create_session_project returned, unchanged (or call create_session_project without one to start a new session)", clip(handle, 80))
	raw, err := base64.RawURLEncoding.DecodeString(strings.TrimPrefix(handle, handlePrefix))
	n := s.aead.NonceSize()
	if !strings.HasPrefix(handle, handlePrefix) || err != nil || len(raw) < n+s.aead.Overhead() || len(raw) > n+s.aead.Overhead()+maxSessionIDLen {
		return "", bad
	}
	id, err := s.aead.Open(nil, raw[:n], raw[n:], []byte(handlePrefix))
	if err != nil || len(id) == 0 {
		return "", bad
	}
	return string(id), nil
}

// clip shortens s to at most n bytes for an error message.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
