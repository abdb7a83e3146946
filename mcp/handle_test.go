package mcp

import (
	"strings"
	"testing"

	"github.com/mockgql/mockgql/model"
)

var testSecret = []byte("0123456789abcdef0123456789abcdef-test")

func mustSealer(tb testing.TB, secret []byte) *sealer {
	tb.Helper()
	s, err := newSealer(secret)
	if err != nil {
		tb.Fatal(err)
	}
	return s
}

func TestSessionHandle(t *testing.T) {
	s := mustSealer(t, testSecret)
	other := mustSealer(t, []byte("another secret, also long enough...."))
	h := s.seal("sABCDEFGHIJKLMNOPQRSTUVWXYZ")
	if h2 := s.seal("sABCDEFGHIJKLMNOPQRSTUVWXYZ"); h2 == h {
		t.Fatal("two seals of one session are the same handle (no fresh nonce)")
	}
	flip := []byte(h)
	flip[len(flip)-3] ^= 1
	for _, c := range []struct {
		name, handle, want string
	}{
		{"round trip", h, "sABCDEFGHIJKLMNOPQRSTUVWXYZ"},
		{"tampered", string(flip), ""},
		{"no prefix", strings.TrimPrefix(h, handlePrefix), ""},
		{"not base64", handlePrefix + "!!!!", ""},
		{"too short", handlePrefix + "AAAA", ""},
		{"too long", handlePrefix + strings.Repeat("A", 400), ""},
		{"empty", "", ""},
		{"sealed by another secret", other.seal("sABCDEFGHIJKLMNOPQRSTUVWXYZ"), ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := s.open(c.handle)
			if got != c.want || (c.want == "") != (model.ErrorCode(err) == model.CodeBadUserInput) {
				t.Fatalf("open(%q) = %q, %v; want %q", c.handle, got, err, c.want)
			}
		})
	}
	if _, err := newSealer([]byte("short")); err == nil {
		t.Fatal("a short secret was accepted")
	}
}

// FuzzOpenHandle: a handle is untrusted input; opening one never panics
// and only a sealed one opens.
func FuzzOpenHandle(f *testing.F) {
	s := mustSealer(f, testSecret)
	f.Add(s.seal("s123"))
	f.Add(handlePrefix)
	f.Add("mcs_" + strings.Repeat("_", 70))
	f.Fuzz(func(t *testing.T, h string) {
		id, err := s.open(h)
		if (err == nil) != (id != "") {
			t.Fatalf("open(%q) = %q, %v", h, id, err)
		}
	})
}
