package main

import (
	"bytes"
	"image/png"
	"strings"
	"testing"
)

// TestPlaceholderImages (issue 29 item 2): the image fields of a schema
// project hold addresses of pictures mockgql serves itself, and each
// answers a PNG of the size its field's name suggests (a square avatar), cached
// for good; a request for what is not such an image is refused, saying why.
func TestPlaceholderImages(t *testing.T) {
	s := startServer(t)
	cp := newContractProject(t, s, "images@example.com", `type Query { people: [Person!]! }
type Person { id: ID! name: String! avatarUrl: String photo: String }`)
	people := get(cp.mustQuery(s, `{ people { avatarUrl photo } }`, nil), "people").([]any)
	if len(people) == 0 {
		t.Fatal("no people")
	}
	for i, p := range people[:3] {
		for field, size := range map[string][2]int{"avatarUrl": {256, 256}, "photo": {640, 480}} {
			u, _ := get(p, field).(string)
			path := strings.TrimPrefix(u, s.base)
			if !strings.HasPrefix(path, "/img/") {
				t.Fatalf("person %d's %s is %q, not a picture this server serves", i, field, u)
			}
			r := s.do("GET", path, nil)
			cfg, err := png.DecodeConfig(bytes.NewReader(r.Raw))
			if r.Status != 200 || r.Header.Get("Content-Type") != "image/png" || err != nil || cfg.Width != size[0] || cfg.Height != size[1] {
				t.Fatalf("GET %s: %d %s %v %+v", path, r.Status, r.Header.Get("Content-Type"), err, cfg)
			}
			if !strings.Contains(r.Header.Get("Cache-Control"), "immutable") {
				t.Errorf("GET %s: Cache-Control %q", path, r.Header.Get("Cache-Control"))
			}
			if again := s.do("GET", path, nil, "If-None-Match", r.Header.Get("ETag")); again.Status != 304 {
				t.Errorf("GET %s with its ETag: %d", path, again.Status)
			}
		}
	}
	if r := s.do("GET", "/img/300x100.svg?text=Hello", nil); r.Status != 200 || !strings.Contains(string(r.Raw), ">Hello</text>") {
		t.Errorf("an SVG with a text: %d %s", r.Status, r.Raw)
	}
	s.do("GET", "/img/5000x5000.png", nil).refusal(t, 400, "Bad Request")
	s.do("GET", "/img/640x480.gif", nil).refusal(t, 400, "Bad Request")
}
