package engine

import (
	"encoding/json"
	"strconv"
	"sync"
	"testing"
)

// TestOverlayReplace: Replace swaps every record for the given ones in one
// version (a named state restored): a reader sees the old records or the
// new ones, never an empty overlay in between, and Version increases.
func TestOverlayReplace(t *testing.T) {
	rows := func(prefix string, n int) []Change {
		var out []Change
		for i := range n {
			out = append(out, Change{TableID: "t", RowID: prefix + strconv.Itoa(i), Created: true, Seq: int64(i),
				Values: map[string]json.RawMessage{"a": json.RawMessage(`"` + prefix + `"`)}})
		}
		return out
	}
	o := NewOverlay()
	o.Apply(rows("old", 100))
	v := o.Version()
	var wg sync.WaitGroup
	stop := make(chan struct{})
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			select {
			case <-stop:
				return
			default:
			}
			if n := o.State().Table("t").Len(); n != 100 && n != 30 {
				t.Errorf("a reader saw %d records, neither the old 100 nor the new 30", n)
				return
			}
		}
	}()
	o.Replace(rows("new", 30))
	close(stop)
	wg.Wait()
	if o.Version() <= v {
		t.Fatalf("version %d after Replace, was %d", o.Version(), v)
	}
	if got := o.Changes(); len(got) != 30 || got[0].RowID != "new0" || o.State().Table("t").Get("old1") != nil {
		t.Fatalf("after Replace: %d changes, first %+v", len(got), got[0])
	}
}
