// Package placeholder draws the placeholder images mockgql serves at
// /img/{width}x{height}.{png|svg} (docs/using/contract.md, "What is
// generated"): generated image fields point there, so an app's <img> and
// the board show a picture offline, with no third-party host. An image is
// a plain colour picked by its seed with its size written on it (SVG) or a
// frame and a cross (PNG); the same address always gives the same bytes.
package placeholder

import (
	"bytes"
	"fmt"
	"html"
	"image"
	"image/color"
	"image/png"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Bounds of one image (docs/reference/bounds.md): any side up to MaxSide
// pixels for SVG, which costs its text only; a PNG's pixels up to
// MaxPNGPixels (1 MB of palette indexes to encode); a label up to
// MaxText characters.
const (
	MaxSide      = 4096
	MaxPNGPixels = 1024 * 1024
	MaxText      = 64
)

// Spec is one image: its size, format, colour seed and label.
type Spec struct {
	Width, Height int
	Format        string // "png" or "svg"
	Seed          uint64
	Text          string // SVG only; "" writes the size
}

// Parse reads an address's last segment ("640x480.png", "64x64.svg",
// "300x200": SVG) and its seed and text parameters, answering why a
// request is refused.
func Parse(segment, seed, text string) (Spec, error) {
	s := Spec{Format: "svg"}
	name, ext, ok := strings.Cut(segment, ".")
	if ok {
		s.Format = ext
	}
	if s.Format != "svg" && s.Format != "png" {
		return s, fmt.Errorf("the format %q is not served: use .png or .svg", ext)
	}
	w, h, ok := strings.Cut(name, "x")
	var err1, err2 error
	s.Width, err1 = strconv.Atoi(w)
	s.Height, err2 = strconv.Atoi(h)
	if !ok || err1 != nil || err2 != nil || s.Width < 1 || s.Height < 1 {
		return s, fmt.Errorf("%q is not a size: use {width}x{height}, e.g. 640x480.png", segment)
	}
	if s.Width > MaxSide || s.Height > MaxSide {
		return s, fmt.Errorf("%dx%d is over the limit of %d pixels a side", s.Width, s.Height, MaxSide)
	}
	if s.Format == "png" && s.Width*s.Height > MaxPNGPixels {
		return s, fmt.Errorf("a PNG of %dx%d is over the limit of %d pixels; ask for a smaller one, or an SVG", s.Width, s.Height, MaxPNGPixels)
	}
	if seed != "" {
		if s.Seed, err1 = strconv.ParseUint(seed, 10, 64); err1 != nil {
			return s, fmt.Errorf("seed %q is not a whole number", seed)
		}
	}
	if utf8.RuneCountInString(text) > MaxText {
		return s, fmt.Errorf("the text is over the limit of %d characters", MaxText)
	}
	s.Text = text
	return s, nil
}

// palette are the background colours an image's seed picks from, each
// with the darker colour of its lines and text.
var palette = [][2]color.RGBA{
	{{0xdb, 0xe4, 0xf0, 0xff}, {0x5a, 0x6b, 0x85, 0xff}},
	{{0xe3, 0xee, 0xe1, 0xff}, {0x55, 0x75, 0x53, 0xff}},
	{{0xf3, 0xe8, 0xdc, 0xff}, {0x86, 0x68, 0x4a, 0xff}},
	{{0xec, 0xe2, 0xf0, 0xff}, {0x73, 0x5a, 0x80, 0xff}},
	{{0xf4, 0xe0, 0xe0, 0xff}, {0x8a, 0x55, 0x55, 0xff}},
	{{0xdf, 0xee, 0xee, 0xff}, {0x4d, 0x77, 0x77, 0xff}},
	{{0xee, 0xee, 0xe0, 0xff}, {0x75, 0x75, 0x55, 0xff}},
	{{0xe6, 0xe6, 0xe6, 0xff}, {0x66, 0x66, 0x66, 0xff}},
}

func (s Spec) colours() (bg, fg color.RGBA) {
	c := palette[s.Seed%uint64(len(palette))]
	return c[0], c[1]
}

// ContentType is the image's media type.
func (s Spec) ContentType() string {
	if s.Format == "png" {
		return "image/png"
	}
	return "image/svg+xml"
}

// Bytes draws the image.
func (s Spec) Bytes() []byte {
	if s.Format == "png" {
		return s.png()
	}
	return s.svg()
}

func hex(c color.RGBA) string { return fmt.Sprintf("#%02x%02x%02x", c.R, c.G, c.B) }

func (s Spec) svg() []byte {
	bg, fg := s.colours()
	label := s.Text
	if label == "" {
		label = fmt.Sprintf("%d×%d", s.Width, s.Height)
	}
	size := min(s.Width/max(utf8.RuneCountInString(label), 4)*3/2, s.Height/3)
	return fmt.Appendf(nil, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d">`+
		`<rect width="100%%" height="100%%" fill="%s"/>`+
		`<text x="50%%" y="50%%" dominant-baseline="middle" text-anchor="middle" font-family="sans-serif" font-size="%d" fill="%s">%s</text></svg>`,
		s.Width, s.Height, s.Width, s.Height, hex(bg), max(size, 1), hex(fg), html.EscapeString(label))
}

// png draws a frame and the two diagonals in the darker colour.
func (s Spec) png() []byte {
	bg, fg := s.colours()
	img := image.NewPaletted(image.Rect(0, 0, s.Width, s.Height), color.Palette{bg, fg})
	w, h := s.Width, s.Height
	for x := 0; x < w; x++ {
		img.SetColorIndex(x, 0, 1)
		img.SetColorIndex(x, h-1, 1)
	}
	for y := 0; y < h; y++ {
		img.SetColorIndex(0, y, 1)
		img.SetColorIndex(w-1, y, 1)
	}
	if w >= h {
		for x := 0; x < w; x++ {
			y := x * (h - 1) / max(w-1, 1)
			img.SetColorIndex(x, y, 1)
			img.SetColorIndex(x, h-1-y, 1)
		}
	} else {
		for y := 0; y < h; y++ {
			x := y * (w - 1) / max(h-1, 1)
			img.SetColorIndex(x, y, 1)
			img.SetColorIndex(w-1-x, y, 1)
		}
	}
	var buf bytes.Buffer
	enc := png.Encoder{CompressionLevel: png.BestSpeed}
	if err := enc.Encode(&buf, img); err != nil {
		panic("placeholder: PNG of a paletted image: " + err.Error()) // writing to memory does not fail
	}
	return buf.Bytes()
}

// URL is the address of a width × height PNG of seed under base (the
// node's public address; "" gives a path on the same origin).
func URL(base string, width, height int, seed uint64) string {
	return fmt.Sprintf("%s/img/%dx%d.png?seed=%d", strings.TrimRight(base, "/"), width, height, seed%uint64(len(palette)))
}
