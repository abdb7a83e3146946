package ids

import (
	"strings"
	"testing"
)

func TestRandomString(t *testing.T) {
	for _, n := range []int{0, 1, 14, 43, 200} {
		s := RandomString(n)
		if len(s) != n {
			t.Fatalf("RandomString(%d) has %d characters", n, len(s))
		}
		for _, c := range s {
			if !strings.ContainsRune(Base62, c) {
				t.Fatalf("RandomString(%d) = %q holds %q, outside Base62", n, s, c)
			}
		}
	}
	if a, b := RandomString(22), RandomString(22); a == b {
		t.Fatalf("two 22-character random strings are equal: %s", a)
	}
}

func TestProjectOf(t *testing.T) {
	pid := NewProjectID()
	for _, tt := range []struct{ name, in, want string }{
		{"child", NewChildID(pid, 't'), pid},
		{"project ID alone", pid, ""},
		{"leading dot", ".t123", ""},
		{"empty", "", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := ProjectOf(tt.in); got != tt.want {
				t.Fatalf("ProjectOf(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
	if len(pid) != 15 || pid[0] != 'p' {
		t.Fatalf("NewProjectID() = %q, want p and 14 characters", pid)
	}
}

func TestSecrets(t *testing.T) {
	// SHA-256 of "abc" (FIPS 180-2, appendix B.1).
	if got := HashSecret("abc"); got != "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad" {
		t.Fatalf("HashSecret(abc) = %s", got)
	}
	for _, tt := range []struct {
		a, b string
		want bool
	}{{"shr_x", "shr_x", true}, {"shr_x", "shr_y", false}, {"shr_x", "shr_xx", false}, {"", "", true}} {
		if got := EqualSecret(tt.a, tt.b); got != tt.want {
			t.Errorf("EqualSecret(%q, %q) = %v, want %v", tt.a, tt.b, got, tt.want)
		}
	}
}
