package http

import (
	"strings"
	"testing"
)

// testBackends serves the runtime and the edge with rt, and every other
// surface with its test-only fake.
func testBackends(rt *corsRuntime) Backends {
	return Backends{Edge: rt, Runtime: rt, Management: newFakeManagement(), Public: newFakePublic(),
		Preview: unreached{}, Adoption: unreached{}, Datasets: newFakeManagement()}
}

// TestNewServerNeedsEveryBackend: NewServer refuses Backends with a nil
// field, naming it, and takes them complete.
func TestNewServerNeedsEveryBackend(t *testing.T) {
	full := func() Backends { return testBackends(&corsRuntime{}) }
	cfg := Config{JWTSecret: []byte(strings.Repeat("k", 32))}
	for _, tc := range []struct {
		field string
		clear func(*Backends)
	}{
		{"Edge", func(b *Backends) { b.Edge = nil }},
		{"Runtime", func(b *Backends) { b.Runtime = nil }},
		{"Management", func(b *Backends) { b.Management = nil }},
		{"Public", func(b *Backends) { b.Public = nil }},
		{"Preview", func(b *Backends) { b.Preview = nil }},
		{"Adoption", func(b *Backends) { b.Adoption = nil }},
		{"Datasets", func(b *Backends) { b.Datasets = nil }},
	} {
		t.Run(tc.field, func(t *testing.T) {
			b := full()
			tc.clear(&b)
			if _, err := NewServer(cfg, b, nil); err == nil || !strings.Contains(err.Error(), "Backends."+tc.field) {
				t.Errorf("NewServer without %s = %v, want an error naming Backends.%[1]s", tc.field, err)
			}
		})
	}
	if _, err := NewServer(cfg, full(), nil); err != nil {
		t.Errorf("NewServer with every backend = %v", err)
	}
}
