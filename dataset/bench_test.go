package dataset

import (
	"bytes"
	"io"
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// productsReader streams n rows of six short fields as a JSON array, about
// 110 bytes a row, generating them as they are read so that the input
// takes no memory.
type productsReader struct {
	n, next int
	buf     []byte
}

func newProductsReader(n int) *productsReader {
	return &productsReader{n: n, buf: []byte("[")}
}

func (r *productsReader) Read(p []byte) (int, error) {
	for len(r.buf) < len(p) && r.next <= r.n {
		r.buf = appendProduct(r.buf, r.next, r.n)
		r.next++
	}
	if len(r.buf) == 0 {
		return 0, io.EOF
	}
	k := copy(p, r.buf)
	r.buf = r.buf[:copy(r.buf, r.buf[k:])]
	return k, nil
}

// appendProduct appends row i of n, or the closing bracket when i == n.
func appendProduct(b []byte, i, n int) []byte {
	if i == n {
		return append(b, ']')
	}
	if i > 0 {
		b = append(b, ",\n"...)
	}
	id := strconv.Itoa(100000 + i)
	b = append(b, `{"id":`...)
	b = append(b, id...)
	b = append(b, `,"name":"Product `...)
	b = append(b, id...)
	b = append(b, `","price":`...)
	b = strconv.AppendFloat(b, float64(i%100000)/100+1, 'f', -1, 64)
	b = append(b, `,"category":"cat-`...)
	b = strconv.AppendInt(b, int64(i%20), 10)
	b = append(b, `","inStock":`...)
	b = strconv.AppendBool(b, i%3 != 0)
	b = append(b, `,"sku":"SKU-`...)
	b = append(b, pad(i, 8)...)
	return append(b, `"}`...)
}

// procStatus returns a /proc/self/status size field (VmRSS, VmHWM) in
// bytes, or 0 where /proc is missing.
func procStatus(field string) int64 {
	status, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(status), "\n") {
		if f := strings.Fields(line); len(f) == 3 && f[0] == field+":" {
			kb, _ := strconv.ParseInt(f[1], 10, 64)
			return kb << 10
		}
	}
	return 0
}

// BenchmarkRead1M imports a million rows of six fields (~110 MB of JSON) and
// reports the column store's size and the heap it leaves in use.
func BenchmarkRead1M(b *testing.B) {
	size, _ := io.Copy(io.Discard, newProductsReader(1_000_000))
	b.SetBytes(size)
	b.ResetTimer()
	var d *Dataset
	for range b.N {
		var err error
		d, err = Read(newProductsReader(1_000_000), Options{ImportCode: "products", Format: JSON, VariantField: "category"})
		if err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	reportMemory(b, d)
}

// BenchmarkDecode1M decodes the binary form of a million rows.
func BenchmarkDecode1M(b *testing.B) {
	d, err := Read(newProductsReader(1_000_000), Options{ImportCode: "products", Format: JSON})
	if err != nil {
		b.Fatal(err)
	}
	var buf bytes.Buffer
	if err := d.Encode(&buf); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(buf.Len()))
	b.ResetTimer()
	for range b.N {
		if d, err = Decode(bytes.NewReader(buf.Bytes())); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(buf.Len())/1e6, "encoded-MB")
	reportMemory(b, d)
}

func reportMemory(b *testing.B, d *Dataset) {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	b.ReportMetric(float64(d.MemoryBytes())/1e6, "store-MB")
	b.ReportMetric(float64(ms.HeapAlloc)/1e6, "heap-MB")
	b.ReportMetric(float64(procStatus("VmRSS"))/1e6, "rss-MB")
	b.ReportMetric(float64(procStatus("VmHWM"))/1e6, "peak-rss-MB")
	runtime.KeepAlive(d)
}
