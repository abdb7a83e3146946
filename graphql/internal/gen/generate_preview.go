package gen

import (
	"encoding/json"
	"strconv"

	"github.com/mockgql/mockgql/engine"
	"github.com/mockgql/mockgql/model"
)

// GeneratorPreview returns the values g gives the first n records of a
// table (record IDs "1" to "n"), as the runtime serves them, so that the
// board can show what a generator makes before it is saved. An unknown
// kind or bad options is a *model.Error with code BAD_USER_INPUT. n is
// clamped to 1..20. It is pure and safe for concurrent use.
func GeneratorPreview(g *model.Generator, n int) ([]json.RawMessage, error) {
	gen, err := CompileGenerator(g)
	if err != nil {
		return nil, err
	}
	n = min(max(n, 1), 20)
	out := make([]json.RawMessage, n)
	for i := range out {
		out[i] = engine.JSONOf(gen.Value("preview", strconv.Itoa(i+1)))
	}
	return out, nil
}
