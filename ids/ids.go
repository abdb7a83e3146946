// Package ids mints the identifiers and secrets of mockgql — random base62
// strings, project IDs, API key values — and holds the two pure functions
// both sides of a secret need: the hash under which it is stored and a
// constant-time comparison. It is a leaf: standard library only, imported
// by actors (grains, the runtime path) and app (the use cases), so that
// neither reaches into the other for them. Everything here is safe for
// concurrent use.
//
//	id := ids.NewProjectID()           // "p" and 14 base62 characters
//	value := ids.KeyPrefix + ids.RandomString(43)
//	stored := ids.HashSecret(value)    // only hashes are stored
package ids

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"strings"
)

// Base62 is the alphabet of the IDs, keys and tokens this service mints.
const Base62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

// KeyPrefix starts every API key value: mgq_ and 43 base62 characters
// (more than 256 random bits).
const KeyPrefix = "mgq_"

// RandomString returns n characters of Base62 from crypto/rand (5.95 bits
// each: 22 characters carry more than 128 bits). It panics only if
// crypto/rand fails, which the Go runtime treats as fatal anyway.
func RandomString(n int) string {
	b := make([]byte, n)
	buf := make([]byte, n*2)
	i := 0
	for i < n {
		if _, err := rand.Read(buf); err != nil {
			panic("crypto/rand failed: " + err.Error())
		}
		for _, c := range buf {
			if c < 248 && i < n { // 248 = 4*62: no modulo bias
				b[i] = Base62[c%62]
				i++
			}
		}
	}
	return string(b)
}

// NewProjectID returns a fresh project ID.
func NewProjectID() string { return "p" + RandomString(14) }

// NewChildID returns an ID for a table, attribute, relation, operation or
// view of a project: "<projectID>.<letter><random>", so that an operation
// given only the child's ID finds the project (ProjectOf).
func NewChildID(projectID string, letter byte) string {
	return projectID + "." + string(letter) + RandomString(8)
}

// ProjectOf returns the project ID part of a child ID (NewChildID), or ""
// when childID has none.
func ProjectOf(childID string) string {
	if i := strings.IndexByte(childID, '.'); i > 0 {
		return childID[:i]
	}
	return ""
}

// HashSecret returns the hex SHA-256 of a secret (API key, actor or
// adoption token, session ID); only hashes are stored. Secrets are 128+
// random bits, so a fast hash is enough (no offline guessing to slow down).
func HashSecret(s string) string {
	h := sha256.Sum256([]byte(s))
	var out [2 * sha256.Size]byte
	hex.Encode(out[:], h[:])
	return string(out[:])
}

// EqualSecret compares two secrets in constant time.
func EqualSecret(a, b string) bool { return subtle.ConstantTimeCompare([]byte(a), []byte(b)) == 1 }
