package engine

import (
	"encoding/json"
	"fmt"
	"strconv"
	"testing"
)

// TestLayered: an overlay layered on another's state holds that state's
// records with its own changes on top, winning where both name a row, and
// neither it nor later Applies to either side change the other.
func TestLayered(t *testing.T) {
	val := func(s string) map[string]json.RawMessage {
		return map[string]json.RawMessage{"a": json.RawMessage(strconv.Quote(s))}
	}
	project := NewOverlay()
	var base []Change
	for i := range 500 { // past a compaction, so the base is shared
		base = append(base, Change{TableID: "t", RowID: strconv.Itoa(i), Values: val("project")})
	}
	project.Apply(base)
	st := project.State()
	sb := Layered(st, []Change{{TableID: "t", RowID: "1", Values: val("sandbox")}, {TableID: "u", RowID: "x", Created: true, Seq: 1}})
	sb.Apply([]Change{{TableID: "t", RowID: "2", Deleted: true}})
	project.Apply([]Change{{TableID: "t", RowID: "3", Values: val("project later")}})

	get := func(o *Overlay, table, row string) string {
		c := o.State().Table(table).Get(row)
		switch {
		case c == nil:
			return "none"
		case c.Deleted:
			return "deleted"
		case c.Values == nil:
			return "created"
		}
		return string(c.Values["a"])
	}
	for _, c := range []struct {
		o           *Overlay
		table, row  string
		want        string
		description string
	}{
		{sb, "t", "0", `"project"`, "the project's record shows through"},
		{sb, "t", "1", `"sandbox"`, "the sandbox's change wins"},
		{sb, "t", "2", "deleted", "a later Apply to the sandbox"},
		{sb, "u", "x", "created", "a table only the sandbox has"},
		{sb, "t", "3", `"project"`, "a later Apply to the project is not in the layer built before it"},
		{project, "t", "1", `"project"`, "the sandbox's change is not the project's"},
		{project, "t", "2", `"project"`, "the sandbox's later Apply is not the project's"},
		{project, "u", "x", "none", "nor its tables"},
	} {
		if got := get(c.o, c.table, c.row); got != c.want {
			t.Errorf("%s: %s/%s is %s, want %s", c.description, c.table, c.row, got, c.want)
		}
	}
	if st.Table("t").Len() != 500 || st.Table("u") != nil {
		t.Fatalf("the state layered on changed: %d records, table u %v", st.Table("t").Len(), st.Table("u"))
	}
	if v := sb.Version(); v != st.Version()+2 {
		t.Fatalf("version %d, want %d (the base's + its two changes)", v, st.Version()+2)
	}
	if n := fmt.Sprint(len(sb.Changes())); n != "501" {
		t.Fatalf("the layer holds %s records, want 501", n)
	}
	// Many changes, past where an Apply would compact: the layer still
	// shares the project's base rather than copying its records.
	var many []Change
	for i := range 300 {
		many = append(many, Change{TableID: "t", RowID: strconv.Itoa(1000 + i), Created: true, Seq: int64(i + 1)})
	}
	big := Layered(st, many)
	if got := big.State().Table("t"); got.base != st.Table("t").base || got.Len() != 800 {
		t.Fatalf("a layer of 300 changes over 500 records: base shared %t, %d records", got.base == st.Table("t").base, got.Len())
	}
}
