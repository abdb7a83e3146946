package placeholder

import (
	"bytes"
	"encoding/xml"
	"image/png"
	"strings"
	"testing"
)

// TestImages: each format decodes as an image of the size asked, the same
// request gives the same bytes, and the seed picks the colour.
func TestImages(t *testing.T) {
	for _, seg := range []string{"640x480.png", "1x1.png", "1024x1024.png", "480x640.png"} {
		s, err := Parse(seg, "3", "")
		if err != nil {
			t.Fatal(err)
		}
		b := s.Bytes()
		cfg, err := png.DecodeConfig(bytes.NewReader(b))
		if err != nil || cfg.Width != s.Width || cfg.Height != s.Height {
			t.Fatalf("%s: %v %+v", seg, err, cfg)
		}
		if !bytes.Equal(b, s.Bytes()) {
			t.Errorf("%s: two drawings differ", seg)
		}
	}
	s, err := Parse("300x200.svg", "1", `<Café & "co">`)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		XMLName xml.Name
		Width   string `xml:"width,attr"`
		Text    string `xml:"text"`
	}
	if err := xml.Unmarshal(s.Bytes(), &doc); err != nil || doc.XMLName.Local != "svg" || doc.Width != "300" || doc.Text != `<Café & "co">` {
		t.Fatalf("svg: %v %+v\n%s", err, doc, s.Bytes())
	}
	other, _ := Parse("300x200.svg", "2", `<Café & "co">`)
	if bytes.Equal(s.Bytes(), other.Bytes()) {
		t.Error("seeds 1 and 2 drew the same image")
	}
	if plain, _ := Parse("300x200", "", ""); plain.Format != "svg" || !strings.Contains(string(plain.Bytes()), "300×200") {
		t.Errorf("no extension: %s", plain.Bytes())
	}
}

// TestRefusals: what is not an image this package draws is refused, saying why.
func TestRefusals(t *testing.T) {
	for _, c := range []struct{ seg, seed, text, says string }{
		{"640x480.gif", "", "", "format"},
		{"640.png", "", "", "not a size"},
		{"0x10.png", "", "", "not a size"},
		{"-5x10.svg", "", "", "not a size"},
		{"5000x10.svg", "", "", "a side"},
		{"2048x1024.png", "", "", "pixels"},
		{"10x10.png", "x", "", "seed"},
		{"10x10.svg", "", strings.Repeat("é", MaxText+1), "text"},
	} {
		if _, err := Parse(c.seg, c.seed, c.text); err == nil || !strings.Contains(err.Error(), c.says) {
			t.Errorf("Parse(%q, %q): %v, want an error saying %q", c.seg, c.seed, err, c.says)
		}
	}
}

// TestURL: generated values point at the PNG route of the base, or of the
// same origin without one.
func TestURL(t *testing.T) {
	if got := URL("https://mock.example.com/", 640, 480, 17); got != "https://mock.example.com/img/640x480.png?seed=1" {
		t.Errorf("URL: %s", got)
	}
	if got := URL("", 64, 64, 0); got != "/img/64x64.png?seed=0" {
		t.Errorf("URL without a base: %s", got)
	}
}
