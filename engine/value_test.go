package engine

import (
	"testing"

	"github.com/mockgql/mockgql/dataset"
)

func TestKeys(t *testing.T) {
	if k, ok := CanonKey(dataset.Value{Kind: dataset.Number, Num: 1234567}); !ok || k != "1234567" {
		t.Errorf("CanonKey(1234567) = %q", k)
	}
	if _, ok := CanonKey(dataset.Value{}); ok {
		t.Error("null has a key")
	}
	if got := LookupKeys("7"); len(got) != 1 || got[0] != "7" {
		t.Errorf("LookupKeys(7) = %v", got)
	}
	if got := valueOfJSON([]byte(` [1, 2] `)); got.Kind != dataset.Raw || got.Str != "[1,2]" {
		t.Errorf("valueOfJSON = %+v", got)
	}
}
