package contractrt

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/mockgql/mockgql/contract"
	"github.com/mockgql/mockgql/dataset"
	"github.com/mockgql/mockgql/engine"
	"github.com/mockgql/mockgql/model"
)

// The generated rows of a contract project are held as datasets, one per
// generated table, read from NDJSON that is written as the rows are
// generated (contract.Plan.EachRow): one table's text at a time, and no
// row kept once written, so that compiling a project at its row bound
// (docs/reference/bounds.md) stays within its CPU and memory budget.

// generateRows makes the datasets of p's generated tables, until ctx is
// done (QUERY_TIMEOUT) and to maxBytes of rows (LIMIT_REACHED).
func generateRows(ctx context.Context, plan *contract.Plan, p *model.Project, seed uint64, values contract.Values, maxBytes int) (map[string]*dataset.Dataset, error) {
	tables := map[string]*model.Table{}
	for _, t := range p.Tables {
		if t.Source != nil && t.Source.Generated {
			tables[t.Name] = t
		}
	}
	out := map[string]*dataset.Dataset{}
	var buf []byte
	cur := ""
	flush := func() error {
		if t := tables[cur]; t != nil && len(buf) > 0 {
			ds, err := rowsDataset(t.Source.ImportCode, buf, numericKey(t))
			if err != nil {
				return fmt.Errorf("%s: %w", t.Name, err)
			}
			out[t.Source.ImportCode] = ds
		}
		buf = buf[:0]
		return nil
	}
	skip := func(entity string) bool { return tables[entity] == nil }
	var keys []string
	done, n := 0, 0 // bytes of the tables flushed; rows made
	err := plan.EachRow(p.Contract.RowsOf, seed, values, skip, func(entity string, row map[string]any) error {
		if entity != cur {
			done += len(buf)
			if err := flush(); err != nil {
				return err
			}
			cur, keys = entity, columnsOf(plan, entity)
		}
		buf = append(appendRow(buf, row, keys), '\n')
		if n++; n%256 == 0 && ctx.Err() != nil {
			return errCompileTimeout()
		}
		if done+len(buf) > maxBytes {
			return model.Errorf(model.CodeLimitReached, "the generated rows pass %d bytes at type %s; a project's are at most %d: generate fewer rows with setContractRows",
				done+len(buf), model.Truncate(entity, 64), maxBytes)
		}
		return nil
	})
	if err == nil {
		err = flush()
	}
	if err != nil {
		return nil, err
	}
	for _, t := range tables {
		if out[t.Source.ImportCode] == nil {
			ds, err := rowsDataset(t.Source.ImportCode, nil, numericKey(t))
			if err != nil {
				return nil, fmt.Errorf("%s: %w", t.Name, err)
			}
			out[t.Source.ImportCode] = ds
		}
	}
	return out, nil
}

// rowsDataset reads the NDJSON rows as a dataset under code. No rows are
// stored as a placeholder row of a variant (a dataset has at least one
// record) that the table does not read (emptyVariant). The placeholder's
// id is one no caller gives, so that it takes no key from the rows
// created later: -1 when the keys are numbers (the first created row is
// then 1), else a text that is no number (created rows then get
// UUID-shaped keys, as in a table of generated "book-1" keys).
func rowsDataset(code string, rows []byte, numericKey bool) (*dataset.Dataset, error) {
	if len(rows) == 0 {
		id := `"\u0000"`
		if numericKey {
			id = "-1"
		}
		return dataset.Read(strings.NewReader(`{"__variant":"placeholder","id":`+id+`}`),
			dataset.Options{ImportCode: code, Format: dataset.NDJSON, VariantField: "__variant"})
	}
	return dataset.Read(bytes.NewReader(rows), dataset.Options{ImportCode: code, Format: dataset.NDJSON})
}

// numericKey reports whether t's rows are keyed by numbers: an id field
// of a number type, or no id field (keys are then positions).
func numericKey(t *model.Table) bool {
	a := t.Attribute("id")
	return a == nil || a.Type == model.TypeInt || a.Type == model.TypeFloat
}

// columnsOf returns the columns a generated row of entity may hold, in
// order: its fields, its hidden key and its foreign keys.
func columnsOf(plan *contract.Plan, entity string) []string {
	var out []string
	for _, e := range plan.Entities {
		if e.Type != entity {
			continue
		}
		for _, f := range e.Fields {
			out = append(out, f.Name)
		}
		if e.Key == "" {
			out = append(out, contract.HiddenKey)
		}
	}
	for _, r := range plan.Relations {
		if r.From == entity && !r.Many {
			out = append(out, r.Column())
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// appendRow appends row as appendJSON does, its keys taken in the order
// of keys (sorted) rather than sorted for each row; a row with a key
// keys lacks takes appendJSON.
func appendRow(buf []byte, row map[string]any, keys []string) []byte {
	start, n := len(buf), 0
	buf = append(buf, '{')
	for _, k := range keys {
		v, ok := row[k]
		if !ok {
			continue
		}
		if n > 0 {
			buf = append(buf, ',')
		}
		buf = append(appendJSONString(buf, k), ':')
		buf = appendJSON(buf, v)
		n++
	}
	if n != len(row) {
		return appendJSON(buf[:start], row)
	}
	return append(buf, '}')
}

// appendJSON appends v, a generated value (text, number, boolean, null, a
// list or an object of them), as JSON: objects with their keys in order,
// as encoding/json writes them. Other values take encoding/json.
func appendJSON(buf []byte, v any) []byte {
	switch x := v.(type) {
	case nil:
		return append(buf, "null"...)
	case string:
		return appendJSONString(buf, x)
	case bool:
		return strconv.AppendBool(buf, x)
	case int:
		return strconv.AppendInt(buf, int64(x), 10)
	case int64:
		return strconv.AppendInt(buf, x, 10)
	case float64:
		if !math.IsInf(x, 0) && !math.IsNaN(x) {
			return engine.AppendNum(buf, x)
		}
	case []any:
		buf = append(buf, '[')
		for i, item := range x {
			if i > 0 {
				buf = append(buf, ',')
			}
			buf = appendJSON(buf, item)
		}
		return append(buf, ']')
	case map[string]any:
		var small [48]string
		keys := small[:0]
		for k := range x {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		buf = append(buf, '{')
		for i, k := range keys {
			if i > 0 {
				buf = append(buf, ',')
			}
			buf = append(appendJSONString(buf, k), ':')
			buf = appendJSON(buf, x[k])
		}
		return append(buf, '}')
	}
	b, err := json.Marshal(v)
	if err != nil {
		return append(buf, "null"...)
	}
	return append(buf, b...)
}

// appendJSONString appends s quoted as JSON; text with control
// characters or that is not UTF-8 takes encoding/json.
func appendJSONString(buf []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c == '"' || c == '\\' || c >= utf8.RuneSelf {
			if c >= utf8.RuneSelf && utf8.ValidString(s) && !strings.ContainsFunc(s, jsonEscaped) {
				break
			}
			b, _ := json.Marshal(s)
			return append(buf, b...)
		}
	}
	return append(append(append(buf, '"'), s...), '"')
}

// jsonEscaped reports whether JSON text must escape r.
func jsonEscaped(r rune) bool { return r < 0x20 || r == '"' || r == '\\' }
