package contractrt

import (
	"fmt"
	"strconv"

	"github.com/mockgql/mockgql/contract"
	"github.com/mockgql/mockgql/engine"
	"github.com/mockgql/mockgql/graphql/internal/answer"
	"github.com/mockgql/mockgql/model"
)

// maxRepresentations bounds the representations of one _entities call: a
// router batches the entities of one query plan step, far fewer.
const maxRepresentations = 1000

// federation answers the root fields a federation router asks of a
// subgraph (contract/federation.go): _service { sdl }, the document as
// imported, and _entities(representations:), for each representation the
// row of its __typename whose @key fields hold its values — null where
// none does, as a subgraph answers an entity it does not have.
func (rt *Runtime) federation(v *engine.View, rf *contract.RootField, args map[string]any) (any, error) {
	if rf.Shape == contract.ShapeService {
		return map[string]any{"sdl": contract.SubgraphSDL(rt.schema)}, nil
	}
	reps, _ := args["representations"].([]any)
	if len(reps) > maxRepresentations {
		return nil, model.Errorf(model.CodeLimitReached, "_entities: %d representations, over the limit of %d", len(reps), maxRepresentations)
	}
	out := make([]any, len(reps))
	for i, x := range reps {
		rep, _ := x.(map[string]any)
		typ, _ := rep["__typename"].(string)
		t := rt.tables[typ]
		if t == nil || !rt.isEntityMember(typ) {
			return nil, model.Errorf(model.CodeBadUserInput, "_entities: representation %d: %q is not an entity of this subgraph (a type with @key)", i, typ)
		}
		tv := v.TableView(t)
		if tv.NotReady != nil {
			return nil, tv.NotReady
		}
		row, err := rt.entityRow(tv, typ, rep)
		if err != nil {
			return nil, model.Errorf(model.CodeBadUserInput, "_entities: representation %d: %v", i, err)
		}
		if row >= 0 {
			out[i] = &answer.RowObj{TV: tv, Row: row}
		}
	}
	return out, nil
}

// isEntityMember reports whether typ is a member of the _Entity union.
func (rt *Runtime) isEntityMember(typ string) bool {
	for _, e := range rt.plan.Abstract["_Entity"] {
		if e == typ {
			return true
		}
	}
	return false
}

// entityRow finds the row of tv whose fields hold the values of the first
// @key of typ that rep gives in full, through the engine's lookup by key
// (a hash index: O(rows with the first field's value), never a scan); -1
// when no row has them.
func (rt *Runtime) entityRow(tv *engine.TableView, typ string, rep map[string]any) (int32, error) {
	keys := contract.KeyFields(rt.schema, typ)
	for _, set := range keys {
		attrs := make([]*engine.Attr, len(set))
		vals := make([]string, len(set))
		full := true
		for j, f := range set {
			x, ok := rep[f]
			if !ok {
				full = false
				break
			}
			if attrs[j] = tv.Table.Field(f); attrs[j] == nil {
				return -1, fmt.Errorf("%s's @key field %q is not a stored field", typ, f)
			}
			if vals[j], ok = repKey(x); !ok {
				return -1, nil // null, a list or an object matches no stored key
			}
		}
		if !full {
			continue
		}
	rows:
		for _, r := range tv.RowsWhere(attrs[0], vals[0], 0) {
			for j := 1; j < len(attrs); j++ {
				if k, ok := engine.CanonKey(tv.Value(attrs[j], r)); !ok || k != vals[j] {
					continue rows
				}
			}
			return r, nil
		}
		return -1, nil
	}
	return -1, fmt.Errorf("it gives none of %s's @key field sets %v in full", typ, keys)
}

// repKey is the engine's canonical key of a representation's JSON value.
func repKey(x any) (string, bool) {
	switch v := x.(type) {
	case string:
		return v, true
	case float64:
		return engine.FormatNum(v), true
	case bool:
		return strconv.FormatBool(v), true
	}
	return "", false
}
