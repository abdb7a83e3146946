package dataset

import (
	"io"
	"os"
	"runtime"
	"testing"
	"time"
)

func TestZZFile(t *testing.T) {
	if os.Getenv("ZZ") == "" {
		t.Skip()
	}
	f, _ := os.Create("/tmp/p1m.json")
	io.Copy(f, newProductsReader(1_000_000))
	f.Close()
	st, _ := os.Stat("/tmp/p1m.json")
	f, _ = os.Open("/tmp/p1m.json")
	rss0 := procStatus("VmRSS")
	start := time.Now()
	d, err := Read(f, Options{ImportCode: "p", Format: JSON, VariantField: "category"})
	el := time.Since(start)
	if err != nil {
		t.Fatal(err)
	}
	runtime.GC()
	t.Logf("size %d MB, import %v, store %d MB, rss before %d MB, rss after %d MB, peak %d MB",
		st.Size()>>20, el, d.MemoryBytes()>>20, rss0>>20, procStatus("VmRSS")>>20, procStatus("VmHWM")>>20)
	start = time.Now()
	d.Sorted("name")
	d.Sorted("price")
	d.Sorted("category")
	t1 := time.Since(start)
	start = time.Now()
	d.Lookup("id", "123456")
	t.Logf("sorted x3 %v, lookup build %v, store+indexes %d MB, rss %d MB", t1, time.Since(start), d.MemoryBytes()>>20, procStatus("VmRSS")>>20)
	runtime.KeepAlive(d)
}
