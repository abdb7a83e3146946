package contractrt

import (
	"encoding/json"
	"math"
	"strconv"

	"github.com/mockgql/mockgql/contract"
	"github.com/mockgql/mockgql/engine"
	"github.com/mockgql/mockgql/graphql/internal/answer"
	"github.com/mockgql/mockgql/model"
)

// This file applies the arithmetic of update mutations to a contract
// project's rows (docs/using/contract.md, "Mutations"): Hasura's
// _inc: {price: 5} and Prisma's {price: {increment: 5}} (decrement,
// multiply, divide; set is a plain value). Each row's new value is
// computed from its own: a null stays null, as in SQL.

// numOp is one arithmetic change of a field: op (increment, decrement,
// multiply, divide) by by.
type numOp struct {
	field, op string
	by        any
}

// increments returns the changes of the arguments of rf that add
// numbers (Hasura's _inc), in field order.
func increments(rf *contract.RootField, args map[string]any) []numOp {
	var out []numOp
	for _, a := range rf.Args {
		m, ok := args[a.Name].(map[string]any)
		if a.Role != contract.RoleInput || a.Op != "inc" || !ok {
			continue
		}
		for _, k := range sortedKeys(m) {
			if m[k] != nil {
				out = append(out, numOp{field: k, op: "increment", by: m[k]})
			}
		}
	}
	return out
}

// arithmetic takes Prisma's operations out of the values in of t: a
// field whose value is an object of set, increment, decrement, multiply
// or divide (and is not a JSON field) is set to its set, and changed by
// the others. It returns the values to set and the changes.
func arithmetic(t *engine.Table, in map[string]any) (map[string]any, []numOp) {
	set := map[string]any{}
	var ops []numOp
	for _, k := range sortedKeys(in) {
		m, ok := in[k].(map[string]any)
		a := t.Field(k)
		if a == nil {
			a = foldedAttr(t, k)
		}
		if !ok || len(m) == 0 || a == nil || a.Type == model.TypeJSON || !allOps(m) {
			set[k] = in[k]
			continue
		}
		for _, op := range sortedKeys(m) {
			switch {
			case op == "set":
				set[k] = m[op]
			case m[op] != nil:
				ops = append(ops, numOp{field: k, op: op, by: m[op]})
			}
		}
	}
	return set, ops
}

// allOps reports whether every key of m is one of Prisma's field update
// operations.
func allOps(m map[string]any) bool {
	for k := range m {
		switch k {
		case "set", "increment", "decrement", "multiply", "divide":
		default:
			return false
		}
	}
	return true
}

// applyOps adds to vals the values of ro that ops change, computed from
// the value vals already sets, else the row's.
func applyOps(ro *answer.RowObj, ops []numOp, vals map[string]json.RawMessage) error {
	t := ro.TV.Table
	for _, o := range ops {
		a := t.Field(o.field)
		if a == nil {
			a = foldedAttr(t, o.field)
		}
		if a == nil || a.Type != model.TypeInt && a.Type != model.TypeFloat {
			return model.Errorf(model.CodeBadUserInput, "%s: %s is not a number field of %s", o.op, o.field, t.Name)
		}
		by, ok := numberArgOf(o.by)
		if !ok {
			return model.Errorf(model.CodeBadUserInput, "%s of %s: %v is not a number", o.op, o.field, o.by)
		}
		cur, ok := engine.NumberOf(ro.TV.Value(a, ro.Row))
		if raw, set := vals[a.ID]; set {
			var x any
			_ = json.Unmarshal(raw, &x)
			cur, ok = numberArgOf(x)
		}
		if !ok {
			continue // null, or no number: stays as it is
		}
		next, err := compute(cur, o.op, by)
		if err == nil && a.Type == model.TypeInt && (next != math.Trunc(next) || next < math.MinInt32 || next > math.MaxInt32) {
			err = model.Errorf(model.CodeBadUserInput, "%s of %s gives %v, not a 32-bit integer", o.op, o.field, next)
		}
		if err != nil {
			return err
		}
		vals[a.ID] = json.RawMessage(engine.FormatNum(next))
	}
	return nil
}

// compute applies op to cur.
func compute(cur float64, op string, by float64) (float64, error) {
	var out float64
	switch op {
	case "increment":
		out = cur + by
	case "decrement":
		out = cur - by
	case "multiply":
		out = cur * by
	case "divide":
		if by == 0 {
			return 0, model.Errorf(model.CodeBadUserInput, "divide by 0")
		}
		out = cur / by
	}
	if math.IsInf(out, 0) || math.IsNaN(out) {
		return 0, model.Errorf(model.CodeBadUserInput, "%s by %v leaves the range of numbers", op, by)
	}
	return out, nil
}

// numberArgOf reads a number argument: a number, or a text holding one
// (custom scalars such as numeric may come as text).
func numberArgOf(x any) (float64, bool) {
	switch v := x.(type) {
	case float64:
		return v, true
	case int:
		return float64(v), true
	case int64:
		return float64(v), true
	case json.Number:
		f, err := v.Float64()
		return f, err == nil
	case string:
		f, err := strconv.ParseFloat(v, 64)
		return f, err == nil
	}
	return 0, false
}
