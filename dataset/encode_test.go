package dataset

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"reflect"
	"strings"
	"testing"
)

// encode returns d's binary form.
func encode(tb testing.TB, d *Dataset) []byte {
	tb.Helper()
	var buf bytes.Buffer
	if err := d.Encode(&buf); err != nil {
		tb.Fatal(err)
	}
	return buf.Bytes()
}

// sameDataset fails unless a and b hold the same rows.
func sameDataset(tb testing.TB, a, b *Dataset) {
	tb.Helper()
	if a.ImportCode() != b.ImportCode() || a.Name() != b.Name() || a.VariantField() != b.VariantField() || a.Len() != b.Len() {
		tb.Fatalf("header differs: %q %q %q %d vs %q %q %q %d", a.ImportCode(), a.Name(), a.VariantField(), a.Len(),
			b.ImportCode(), b.Name(), b.VariantField(), b.Len())
	}
	if !reflect.DeepEqual(a.Paths(), b.Paths()) || !reflect.DeepEqual(a.Variants(), b.Variants()) {
		tb.Fatalf("paths or variants differ: %q %v vs %q %v", a.Paths(), a.Variants(), b.Paths(), b.Variants())
	}
	for _, v := range a.Variants() {
		if !reflect.DeepEqual(a.VariantRows(v.Name), b.VariantRows(v.Name)) {
			tb.Fatalf("rows of variant %q differ", v.Name)
		}
	}
	for row := range a.Len() {
		for _, p := range a.Paths() {
			if va, vb := a.Value(row, p), b.Value(row, p); va != vb {
				tb.Fatalf("Value(%d, %q) = %+v vs %+v", row, p, va, vb)
			}
			if ka, kb := a.Column(p).Kind(row), b.Column(p).Kind(row); ka != kb {
				tb.Fatalf("Kind(%d, %q) = %v vs %v", row, p, ka, kb)
			}
		}
		if da, db := a.Document(row), b.Document(row); !bytes.Equal(da, db) {
			tb.Fatalf("Document(%d) = %s vs %s", row, da, db)
		}
	}
}

// onlyReader hides the length of a bytes.Reader, as a network stream would.
type onlyReader struct{ r io.Reader }

func (o onlyReader) Read(p []byte) (int, error) { return o.r.Read(p) }

func TestEncodeRoundTrip(t *testing.T) {
	var big strings.Builder
	for i := range 20000 { // past one 64 KiB chunk of every array
		fmt.Fprintf(&big, `{"id":%d,"name":"n%d","cat":"c%d","price":%d.25,"tags":[%d],"ok":%t,"v":%s,"sku":"S%06d"}`+"\n",
			i, i, i%300, i%1000, i%5, i%2 == 0, mixedValue(i), i)
	}
	sets := map[string]*Dataset{
		"mixed": mustRead(t, NDJSON, mixed, "v"),
		"big":   mustRead(t, NDJSON, big.String(), "ok"),
	}
	for _, set := range Demo() {
		sets[set.ImportCode] = mustRead(t, set.Format, string(set.Data), set.VariantField)
	}
	for name, d := range sets {
		t.Run(name, func(t *testing.T) {
			data := encode(t, d)
			for _, r := range []io.Reader{bytes.NewReader(data), onlyReader{bytes.NewReader(data)}} {
				got, err := Decode(r)
				if err != nil {
					t.Fatalf("Decode(%T): %v", r, err)
				}
				sameDataset(t, d, got)
			}
		})
	}
}

// fixCRC rewrites the trailing checksum of an encoding so that corruption
// of the body reaches Decode's structural checks.
func fixCRC(data []byte) []byte {
	if len(data) < 4 {
		return data
	}
	out := bytes.Clone(data)
	body := out[:len(out)-4]
	binary.LittleEndian.PutUint32(out[len(out)-4:], crc32.Checksum(body, castagnoli))
	return out
}

func TestDecodeCorrupt(t *testing.T) {
	d := mustRead(t, NDJSON, mixed+"\n{\"w\":\"x\",\"v\":\"y\"}", "v")
	data := encode(t, d)
	tests := []struct {
		name string
		data []byte
	}{
		{"empty", nil},
		{"bad magic", append([]byte("NOTMAGIC"), data[8:]...)},
		{"bad version", append(append([]byte(encodingMagic), 99), data[9:]...)},
		{"checksum", append(bytes.Clone(data[:len(data)-1]), data[len(data)-1]^1)},
		{"flipped body byte", append(append(bytes.Clone(data[:20]), data[20]^0x40), data[21:]...)},
	}
	for n := 0; n < len(data); n += 7 {
		tests = append(tests, struct {
			name string
			data []byte
		}{fmt.Sprintf("truncated at %d", n), data[:n]})
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Decode(bytes.NewReader(tt.data))
			if !errors.Is(err, ErrCorrupt) || got != nil {
				t.Errorf("Decode = %v, %v; want ErrCorrupt", got, err)
			}
		})
	}
}

// TestDecodeStructure corrupts every byte of the body with a valid checksum:
// Decode must refuse or return a dataset that reads without panicking.
func TestDecodeStructure(t *testing.T) {
	d := mustRead(t, NDJSON, mixed+"\n{\"w\":\"x\",\"v\":\"y\"}", "v")
	data := encode(t, d)
	for i := 0; i < len(data)-4; i++ {
		for _, mask := range []byte{0x01, 0x80, 0xFF} {
			corrupt := bytes.Clone(data)
			corrupt[i] ^= mask
			if got, err := Decode(bytes.NewReader(fixCRC(corrupt))); err == nil {
				exercise(t, got)
			}
		}
	}
}

// exercise reads everything a dataset offers. It skips datasets of more
// than a million rows: a tiny encoding can declare any number of empty rows,
// and reading them all is not what the fuzzer is for.
func exercise(tb testing.TB, d *Dataset) {
	tb.Helper()
	if d.Len() > 1_000_000 {
		return
	}
	paths := append(d.Paths(), "", "nope", d.VariantField())
	for _, p := range paths {
		for row := -1; row <= d.Len(); row++ {
			d.Value(row, p)
			d.Column(p).Value(row)
			d.Column(p).Kind(row)
		}
		d.Sorted(p)
		d.Lookup(p, "")
		d.Lookup(p, "1")
	}
	for row := range d.Len() {
		d.Document(row)
	}
	for _, v := range d.Variants() {
		d.VariantRows(v.Name)
	}
	d.MemoryBytes()
	var buf bytes.Buffer
	if err := d.Encode(&buf); err != nil {
		tb.Fatal(err)
	}
}

// TestFixedWidthTexts: a column whose texts all have one width keeps no
// offsets, reads the same texts, and encodes to the same bytes as with
// offsets (the stored form is unchanged); columns with an empty text, a
// non-text or another width keep their offsets.
func TestFixedWidthTexts(t *testing.T) {
	var b strings.Builder
	for i := range 70000 { // past one 64 KiB chunk of offsets
		fmt.Fprintf(&b, `{"sku":"SKU-%08d","odd":"%d","empty":"","mixed":%s}`+"\n", i, i, []string{`"ab"`, `"cd"`, "1"}[i%3])
	}
	d := mustRead(t, NDJSON, b.String())
	c := d.Column("sku")
	if c.width != 12 || c.offs != nil {
		t.Fatalf("sku: width %d, %d offsets; want 12, none", c.width, len(c.offs))
	}
	for _, p := range []string{"odd", "empty", "mixed"} {
		if w := d.Column(p).width; w != 0 {
			t.Fatalf("%s: width %d, want offsets", p, w)
		}
	}
	for _, row := range []int{0, 1, 65535, 65536, 69999} {
		if got, want := c.Value(row).Str, fmt.Sprintf("SKU-%08d", row); got != want {
			t.Fatalf("row %d: %q, want %q", row, got, want)
		}
	}
	data := encode(t, d)
	saved := *c
	c.offs, c.width = make([]uint32, c.slots+1), 0
	for i := range c.offs {
		c.offs[i] = uint32(12 * i)
	}
	withOffsets := encode(t, d)
	*c = saved
	if !bytes.Equal(data, withOffsets) {
		t.Fatal("a fixed-width column encodes differently from the same texts with offsets")
	}
	got, err := Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if w := got.Column("sku").width; w != 12 {
		t.Fatalf("decoded sku: width %d, want 12", w)
	}
	sameDataset(t, d, got)
}
