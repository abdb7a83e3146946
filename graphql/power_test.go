package graphql

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/mockgql/mockgql/dataset"
	"github.com/mockgql/mockgql/engine"
	"github.com/mockgql/mockgql/graphql/internal/answer"
	"github.com/mockgql/mockgql/model"
)

// TestPowerSchemaChangesSafe turns every option on and adds an AGGREGATE
// operation: schemaChanges must report only SAFE additions, and the old
// schema must come back when the options are cleared.
func TestPowerSchemaChangesSafe(t *testing.T) {
	p := diffProject(t)
	for _, o := range slices.Clone(p.Operations) {
		if strings.HasPrefix(o.Name, "power") || strings.HasPrefix(o.Name, "agg") {
			mustNoErr(t, p.RemoveOperation(o.ID))
		}
	}
	baseline := runtimeSDL(t, p)
	var list *model.Operation
	for _, o := range p.Operations {
		if o.Name == "searchProduct" {
			list = o
		}
	}
	_, err := p.UpdateOperation(list.ID, model.OperationPatch{Options: &model.OperationOptions{Relay: true, Where: true, OrderBy: true}})
	mustNoErr(t, err)
	mustNoErr(t, p.AddOperation(&model.Operation{ID: "agg", TableID: list.TableID, Name: "productsAggregate", Kind: model.OpAggregate, Enabled: true}))
	changes, err := DiffSchemas(baseline, runtimeSDL(t, p))
	mustNoErr(t, err)
	if len(changes) < 5 {
		t.Fatalf("changes %v: want the new types, arguments and fields", changeKeys(changes))
	}
	for _, c := range changeKeys(changes) {
		if !strings.HasPrefix(c, "SAFE ") {
			t.Errorf("change %s is not SAFE", c)
		}
	}
	_, err = p.UpdateOperation(list.ID, model.OperationPatch{Options: &model.OperationOptions{}})
	mustNoErr(t, err)
	mustNoErr(t, p.RemoveOperation("agg"))
	if got := runtimeSDL(t, p); got != baseline {
		t.Errorf("schema after clearing the options differs from the baseline")
	}
}

// TestPowerOptionChecks covers the model's refusals.
func TestPowerOptionChecks(t *testing.T) {
	p := diffProject(t)
	tid := p.Tables[0].ID
	opt := &model.OperationOptions{Relay: true}
	for _, tc := range []struct {
		name string
		o    *model.Operation
		code model.Code
	}{
		{"options on SINGLE", &model.Operation{ID: "x1", TableID: tid, Name: "one", Kind: model.OpSingle, Options: opt}, model.CodeBadUserInput},
		{"connection name taken", &model.Operation{ID: "x2", TableID: tid, Name: "search", Kind: model.OpList, Options: opt}, ""},
		{"name of a connection", &model.Operation{ID: "x3", TableID: tid, Name: "powerProductConnection", Kind: model.OpSingle}, model.CodeConflict},
		{"bad kind", &model.Operation{ID: "x4", TableID: tid, Name: "nope", Kind: "SUM"}, model.CodeBadUserInput},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := p.AddOperation(tc.o)
			if model.ErrorCode(err) != tc.code && (tc.code != "" || err != nil) {
				t.Fatalf("err = %v, want code %q", err, tc.code)
			}
		})
	}
	// search (added above) now owns searchConnection.
	err := p.AddOperation(&model.Operation{ID: "x5", TableID: tid, Name: "searchConnection", Kind: model.OpSingle})
	if model.ErrorCode(err) != model.CodeConflict {
		t.Fatalf("err = %v, want CONFLICT", err)
	}
}

// TestRelayWalk walks a connection forwards and backwards, pages of
// random sizes, while other rows are created, changed and deleted between
// pages: every row that exists throughout is seen exactly once, in order.
func TestRelayWalk(t *testing.T) {
	rnd := rand.New(rand.NewPCG(5, 5))
	data := diffDataset(t, rnd, 3000)
	pool := memPool{"items": rtDataset(t, "items", dataset.NDJSON, "kind", data)}
	h := &rtHarness{tb: t, rt: rtCompile(t, diffProject(t), Options{}), pool: pool, ov: engine.NewOverlay()}
	ref := newDiffRef(t, data, "")
	for _, dir := range []string{"forwards", "backwards"} {
		t.Run(dir, func(t *testing.T) {
			stable := map[string]bool{}
			for _, r := range ref.rows {
				stable[r.id] = true
			}
			seen := map[string]int{}
			cursor := ""
			for pages := 0; ; pages++ {
				n := 1 + rnd.IntN(100)
				var q string
				if dir == "forwards" {
					q = fmt.Sprintf(`{ powerProductConnection(first: %d, after: %q, orderBy: [{field: stock, direction: DESC}]) { edges { cursor node { id } } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } } }`, n, cursor)
				} else {
					q = fmt.Sprintf(`{ powerProductConnection(last: %d, before: %q, orderBy: [{field: stock, direction: DESC}]) { edges { cursor node { id } } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } } }`, n, cursor)
				}
				if cursor == "" {
					q = strings.Replace(strings.Replace(q, `after: "", `, "", 1), `before: "", `, "", 1)
				}
				out := h.do(q, nil)
				if out["errors"] != nil {
					t.Fatalf("page %d: %v", pages, out["errors"])
				}
				c := out["data"].(map[string]any)["powerProductConnection"].(map[string]any)
				for _, e := range c["edges"].([]any) {
					seen[e.(map[string]any)["node"].(map[string]any)["id"].(string)]++
				}
				info := c["pageInfo"].(map[string]any)
				if dir == "forwards" {
					if info["hasNextPage"] != true {
						break
					}
					cursor = info["endCursor"].(string)
				} else {
					if info["hasPreviousPage"] != true {
						break
					}
					cursor = info["startCursor"].(string)
				}
				// Mutate rows other than the cursor's: stock does not change
				// (the sort key), so rows that stay keep their order.
				for k := 0; k < 3; k++ {
					switch rnd.IntN(3) {
					case 0:
						h.do(`mutation { createProduct(input: {name: "new", stock: 7}) { id } }`, nil)
					case 1:
						r := ref.rows[rnd.IntN(len(ref.rows))]
						h.do(fmt.Sprintf(`mutation { updateProduct(id: %q, input: {name: "changed"}) { id } }`, r.id), nil)
					default:
						i := rnd.IntN(len(ref.rows))
						if answer.EncodeCursor(ref.rows[i].id) == cursor {
							continue
						}
						h.do(fmt.Sprintf(`mutation { deleteProduct(id: %q) { id } }`, ref.rows[i].id), nil)
						delete(stable, ref.rows[i].id)
						ref.rows = slices.Delete(ref.rows, i, i+1)
					}
				}
			}
			for id := range stable {
				if seen[id] != 1 {
					t.Fatalf("row %s seen %d times", id, seen[id])
				}
			}
			for id, n := range seen {
				if n != 1 {
					t.Fatalf("row %s seen %d times", id, n)
				}
			}
		})
	}
}

// TestRelayErrors covers refused Relay arguments and the bounds of where
// and orderBy.
func TestRelayErrors(t *testing.T) {
	rnd := rand.New(rand.NewPCG(1, 1))
	pool := memPool{"items": rtDataset(t, "items", dataset.NDJSON, "kind", diffDataset(t, rnd, 50))}
	h := &rtHarness{tb: t, rt: rtCompile(t, diffProject(t), Options{}), pool: pool, ov: engine.NewOverlay()}
	gone := answer.EncodeCursor("999999")
	deep := strings.Repeat("{not: ", engine.MaxWhereNodes+1) + "{price: {eq: 1}}" + strings.Repeat("}", engine.MaxWhereNodes+1)
	for _, q := range []string{
		`{ powerProduct(orderBy: [{field: price}, {field: name}, {field: sku}, {field: stock}, {field: category}]) { total } }`,
		`{ powerProduct(where: ` + deep + `) { total } }`,
		`{ aggProduct(groupBy: [name, price, sku, stock, category]) { count } }`,
		`{ powerProductConnection(first: -1) { totalCount } }`,
		`{ powerProductConnection(after: "nonsense!") { totalCount } }`,
		`{ powerProductConnection(after: "` + gone + `") { totalCount } }`,
	} {
		out := h.do(q, nil)
		errs, _ := out["errors"].([]any)
		if len(errs) != 1 || !strings.Contains(fmt.Sprint(errs[0]), string(model.CodeBadUserInput)) {
			t.Errorf("%s: errors %v, want one BAD_USER_INPUT", q, out["errors"])
		}
	}
	// A cursor whose row is gone is named, whichever side it is on.
	ok := answer.EncodeCursor("1")
	for _, c := range []struct{ args, gone string }{
		{`first: 2, after: "` + gone + `", before: "` + ok + `"`, gone},
		{`first: 2, after: "` + ok + `", before: "` + gone + `"`, gone},
		{`last: 2, before: "` + gone + `"`, gone},
	} {
		for _, order := range []string{"", `, orderBy: [{field: price}]`} {
			q := `{ powerProductConnection(` + c.args + order + `) { totalCount } }`
			out := h.do(q, nil)
			if errs, _ := out["errors"].([]any); len(errs) != 1 || !strings.Contains(fmt.Sprint(errs[0]), c.gone) || strings.Contains(fmt.Sprint(errs[0]), ok) {
				t.Errorf("%s: errors %v, want one naming cursor %s", q, out["errors"], c.gone)
			}
		}
	}
}
