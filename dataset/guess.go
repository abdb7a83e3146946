package dataset

import (
	"math"
	"strconv"

	"github.com/mockgql/mockgql/model"
)

// guessRows is how many rows GuessFields reads at most, spread evenly over
// the dataset: enough to see a float among integers in practice, bounded so
// that a million-row dataset answers as fast as a small one.
const guessRows = 2000

// guessSamples and guessSampleLen bound each guess's sample values.
const (
	guessSamples   = 3
	guessSampleLen = 40
)

// GuessFields suggests an attribute for each field path, in path order:
// its name (model.AttributeName) and a type inferred from up to guessRows
// rows. Numbers that are all whole and fit 32 bits are INT, other numbers
// FLOAT, booleans BOOLEAN, arrays and objects JSON, anything mixed or text
// STRING; the top-level id (or _id) is ID. Two paths that would get the
// same name are told apart by a number ("name", "name2"). It reads only
// and is safe for concurrent use.
func (d *Dataset) GuessFields() []model.FieldGuess {
	step := max(1, d.n/guessRows)
	taken := map[string]int{}
	out := make([]model.FieldGuess, 0, len(d.paths))
	for _, path := range d.paths {
		g := model.FieldGuess{Path: path, Name: model.AttributeName(path), Samples: []string{}}
		if n := taken[g.Name]; n > 0 {
			taken[g.Name] = n + 1
			g.Name += strconv.Itoa(n + 1)
		} else {
			taken[g.Name] = 1
		}
		g.Type = d.guessType(path, step, &g.Samples)
		if (path == "id" || path == "_id") && g.Type != model.TypeJSON {
			g.Type = model.TypeID
		}
		out = append(out, g)
	}
	return out
}

// guessType infers path's type from every step-th row and collects a few
// distinct sample values.
func (d *Dataset) guessType(path string, step int, samples *[]string) model.ScalarType {
	var seen [Raw + 1]bool
	whole := true
	for row := 0; row < d.n; row += step {
		v := d.Value(row, path)
		if v.Kind == Null {
			continue
		}
		seen[v.Kind] = true
		if v.Kind == Number && (v.Num != math.Trunc(v.Num) || v.Num > math.MaxInt32 || v.Num < math.MinInt32) {
			whole = false
		}
		addSample(samples, v)
	}
	kinds := 0
	for _, s := range seen {
		if s {
			kinds++
		}
	}
	switch {
	case kinds != 1:
		if seen[Raw] {
			return model.TypeJSON
		}
		return model.TypeString
	case seen[Number] && whole:
		return model.TypeInt
	case seen[Number]:
		return model.TypeFloat
	case seen[Bool]:
		return model.TypeBoolean
	case seen[Raw]:
		return model.TypeJSON
	}
	return model.TypeString
}

// addSample appends v's text to samples unless it is there already or
// samples is full.
func addSample(samples *[]string, v Value) {
	if len(*samples) >= guessSamples {
		return
	}
	s := v.Key()
	if v.Kind == Raw {
		s = v.Str
	}
	if len(s) > guessSampleLen {
		s = s[:guessSampleLen] + "…"
	}
	for _, have := range *samples {
		if have == s {
			return
		}
	}
	*samples = append(*samples, s)
}
