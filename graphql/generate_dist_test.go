package graphql

import (
	"encoding/json"
	"strconv"
	"testing"

	"github.com/mockgql/mockgql/model"
)

func TestTmpDist(t *testing.T) {
	g, err := compileGenerator(&model.Generator{Kind: "number.int", Options: json.RawMessage(`{"min":1,"max":5}`)})
	if err != nil {
		t.Fatal(err)
	}
	counts := map[float64]int{}
	for i := 0; i < 1000; i++ {
		counts[g.value("a_Product_rating", strconv.Itoa(i)).Num]++
	}
	t.Log(counts)
}
