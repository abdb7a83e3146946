package app

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"strings"

	"github.com/mockgql/mockgql/ids"
	"github.com/mockgql/mockgql/model"
)

// Session IDs (the mgq_session cookie) are minted by the server only: "s",
// 26 random base62 characters and a 22-character tag, an HMAC-SHA256 of
// the random part under Config.SessionKey (every node of a cluster shares
// it). A value a client chose carries no valid tag, so it is no session:
// the principal is anonymous and the next creation mints a fresh one (no
// session fixation). Checking the tag needs no grain and no store.
const (
	sessionRandLen = 26
	sessionTagLen  = 22
	sessionIDLen   = 1 + sessionRandLen + sessionTagLen
)

// newSessionID mints a session ID.
func (s *core) newSessionID() string {
	r := ids.RandomString(sessionRandLen)
	return "s" + r + s.sessionTag(r)
}

// sessionTag is the base62 form of the HMAC of a session's random part.
func (s *core) sessionTag(r string) string {
	m := hmac.New(sha256.New, s.sessionKey)
	m.Write([]byte("mgq_session:" + r))
	sum := m.Sum(nil)
	var b strings.Builder
	for _, c := range sum[:sessionTagLen] {
		b.WriteByte(ids.Base62[int(c)%62])
	}
	return b.String()
}

// minted reports whether id is a session ID this service (or another node
// with the same key) minted.
func (s *core) minted(id string) bool {
	if len(id) != sessionIDLen || id[0] != 's' {
		return false
	}
	r, tag := id[1:1+sessionRandLen], id[1+sessionRandLen:]
	return hmac.Equal([]byte(tag), []byte(s.sessionTag(r)))
}

// sessionOf returns p's session ID if the server minted it, else "".
func (s *core) sessionOf(p model.Principal) string {
	if p.SessionID != "" && s.minted(p.SessionID) {
		return p.SessionID
	}
	return ""
}

// randomKey is a session key for a node started without one (a single
// node's tests): its sessions end with the process.
func randomKey() []byte {
	k := make([]byte, 32)
	if _, err := rand.Read(k); err != nil {
		panic("crypto/rand failed: " + err.Error())
	}
	return k
}
