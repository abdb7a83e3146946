package engine_test

import (
	"encoding/json"
	"fmt"

	"github.com/mockgql/mockgql/engine"
)

// A reader's Snapshot stays on its version while the writer applies more.
func ExampleOverlay() {
	ov := engine.NewOverlay()
	ov.Apply([]engine.Change{{TableID: "t1", RowID: "7", Values: map[string]json.RawMessage{"a1": json.RawMessage(`"old"`)}}})
	snap := ov.Snapshot()
	ov.Apply([]engine.Change{{TableID: "t1", RowID: "7", Values: map[string]json.RawMessage{"a1": json.RawMessage(`"new"`)}}})

	fmt.Println(string(snap.State().Table("t1").Get("7").Values["a1"]), snap.State().Version())
	fmt.Println(string(ov.Snapshot().State().Table("t1").Get("7").Values["a1"]), ov.Version())
	fmt.Println(snap.Has("t1", "7"), snap.Has("t1", "8"))
	// Output:
	// "old" 1
	// "new" 2
	// true false
}
