package graphql

import (
	"runtime"
	"testing"
	"time"

	"github.com/mockgql/mockgql/contract"
	"github.com/mockgql/mockgql/internal/gqlattack"
	"github.com/mockgql/mockgql/model"
)

// importBudget is what an import and first compile of a schema may
// allocate: a fixed part, a part per byte of the document (parsing,
// validating and printing it) and a part per generated value (making,
// writing and reading the rows). The shapes measured take at most about
// half of it: a recursive embedding at 1,000 rows, 1.6 million values,
// 97 MB (go run ./cmd/benchmark -only budget).
func importBudget(docBytes, cells int) uint64 {
	return 32<<20 + 1<<10*uint64(docBytes) + 128*uint64(cells)
}

// FuzzContractImport imports generated schema shapes — wide, deep,
// recursive embedded types, wide tables, interface-heavy documents, long
// names — at generated row counts, and compiles what is admitted: a
// refusal is LIMIT_REACHED or PAYLOAD_TOO_LARGE; an admitted schema's rows
// hold at most the bounds' values, and the import and compile allocate
// within importBudget (a proxy for their CPU, counted rather than timed).
func FuzzContractImport(f *testing.F) {
	f.Add(uint8(0), uint16(119), uint8(3), uint16(20)) // issue 31's 3 x 120
	f.Add(uint8(0), uint16(11), uint8(3), uint16(20))  // the widest admitted, 12 x 12 x 12
	f.Add(uint8(1), uint16(7), uint8(3), uint16(20))
	f.Add(uint8(2), uint16(40), uint8(0), uint16(20))
	f.Add(uint8(2), uint16(11), uint8(0), uint16(1000))
	f.Add(uint8(3), uint16(1999), uint8(0), uint16(100))
	f.Add(uint8(4), uint16(520), uint8(0), uint16(20)) // issue 31's interfaces
	f.Add(uint8(4), uint16(63), uint8(0), uint16(1000))
	f.Add(uint8(5), uint16(15000), uint8(0), uint16(20))
	f.Fuzz(func(t *testing.T, shape uint8, a uint16, b uint8, rows uint16) {
		doc := schemaShape(shape, int(a), int(b))
		n := int(rows) % (model.MaxContractTableRows + 1)
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		p := &model.Project{ID: "pfuzz", Version: 1}
		plan, err := contract.Apply(p, []byte(doc), time.Now())
		if err == nil {
			c := *p.Contract
			for _, e := range plan.Entities {
				c.Tables = append(c.Tables, model.ContractTable{Type: e.Type, Rows: n})
			}
			if p.Tables, p.Relations, err = contract.Build(p.ID, plan, &c); err == nil {
				p.Contract = &c
			}
		}
		if err != nil {
			if code := model.ErrorCode(err); code != model.CodeLimitReached && code != model.CodePayloadTooLarge {
				t.Fatalf("refused with %s: %v", code, err)
			}
			return
		}
		cells := 0
		for _, e := range plan.Entities {
			cells += plan.RowCells(e) * p.Contract.GeneratedRows(e.Type)
			if plan.RowCells(e) > contract.MaxRowCells {
				t.Fatalf("admitted a row of %s of %d values", e.Type, plan.RowCells(e))
			}
		}
		if cells > contract.MaxProjectCells {
			t.Fatalf("admitted %d values", cells)
		}
		if _, err := Compile(p, Options{}); err != nil {
			t.Fatalf("an admitted schema does not compile: %v", err)
		}
		runtime.ReadMemStats(&after)
		t.Logf("shape %d: %d bytes, %d values: %d MB allocated", shape, len(doc), cells, (after.TotalAlloc-before.TotalAlloc)>>20)
		if got, limit := after.TotalAlloc-before.TotalAlloc, importBudget(len(doc), cells); got > limit {
			t.Fatalf("shape %d (%d bytes, %d values) allocated %d MB; the budget is %d MB", shape, len(doc), cells, got>>20, limit>>20)
		}
	})
}

// schemaShape is one of the generated shapes, sized by a and b.
func schemaShape(shape uint8, a, b int) string {
	switch shape % 6 {
	case 0:
		return gqlattack.Embedded(a%200+1, max(b%5, 1))
	case 1:
		return gqlattack.EmbeddedLists(a%200+1, max(b%5, 1))
	case 2:
		return gqlattack.Recursive(a % 200)
	case 3:
		return gqlattack.Wide(a % 3000)
	case 4:
		return gqlattack.Interfaces(a%600 + 1)
	}
	return gqlattack.LongName(a%20000 + 1)
}
