package graphql

// Direct writing lets a surface that knows its values write them without
// resolvers: the mock runtime writes rows straight from dataset columns
// instead of boxing every field value into an any and shaping it through
// the generic path. The executor offers three hooks, all unexported:
//
//   - Executor.directPlan compiles each selection plan once, when it is
//     planned, into the surface's own form, kept in selectionPlan.direct;
//   - a value that is a directObject writes a whole object of such a plan;
//   - a root value that is a directRoot writes root fields one by one.
//
// A direct writer must write exactly the bytes, errors and null
// propagation the generic path would; when it cannot (a case it does not
// cover, an error to report), it declines before writing anything and the
// generic path takes over.

// directObject is a value that can write the object of a selection plan
// itself. writeDirect either declines (handled false, nothing written) or
// writes the object as run.object would and returns object's result.
type directObject interface {
	writeDirect(r *run, sp *selectionPlan, obj *objectType) (ok, handled bool)
}

// directRoot is a root value that can write root fields itself. The caller
// has checked the context and written the field's key; writeRootField
// writes the value of field i of the root plan sp as run.writeField would,
// or declines (handled false, nothing written).
type directRoot interface {
	writeRootField(r *run, sp *selectionPlan, i int) (ok, handled bool)
}

// directCompiler compiles the plan sp of object type obj for a surface's
// direct writers; nil means it has no direct form. It runs once per plan,
// after the plans of its fields' selections, and must be safe for
// concurrent use.
type directCompiler func(obj *objectType, sp *selectionPlan) any

// pushKey appends the path step of response key key and returns the length
// to cut the path back to.
func (r *run) pushKey(key string) int {
	n := len(r.path)
	r.path = append(r.path, pathStep{key: key})
	return n
}

// settle ends a value of type t written from buffer offset start, as
// complete does: when ok is false and t is nullable, the value becomes null
// (unless the context ended, which unwinds everything).
func (r *run) settle(t *outType, start int, ok bool) bool {
	if ok || t.nonNull || r.ctxErr != nil {
		return ok
	}
	r.buf = append(r.buf[:start], "null"...)
	return true
}

// listItems writes a list of n items, item writing item i, looking at the
// context every ctxCheckEvery items and at the Bounds before each item. It
// keeps one path step for the index.
func (r *run) listItems(n int, item func(i int) bool) bool {
	r.buf = append(r.buf, '[')
	// One path step serves every item; updating its index in place keeps
	// the loop free of pointer writes.
	step := len(r.path)
	r.path = append(r.path, pathStep{})
	ok := true
	for i := 0; i < n && ok; i++ {
		if i > 0 {
			r.buf = append(r.buf, ',')
		}
		if r.items++; r.items%ctxCheckEvery == 0 && r.ctx.Err() != nil {
			r.ctxErr = r.ctx.Err()
			ok = false
			break
		}
		if r.items > r.p.ex.Bounds.MaxItems {
			ok = r.tooManyItems()
			break
		}
		if len(r.buf) > r.bound && !r.overBound() {
			ok = false
			break
		}
		r.path[step].index = i
		ok = item(i)
	}
	r.path = r.path[:step]
	r.buf = append(r.buf, ']')
	return ok
}
