package contract

import (
	"fmt"

	"github.com/vektah/gqlparser/v2/ast"

	"github.com/mockgql/mockgql/model"
)

// The bounds of an imported schema (docs/reference/bounds.md, "Imported
// GraphQL schemas"). The structural ones are checked on the parsed
// document before gqlparser validates it, because its validation checks
// every implements edge against the fields of both types (520 interfaces
// each implementing all the earlier ones took 6 to 18 CPU seconds); the
// cell bounds are checked on the Plan, because only the interpretation
// knows which object types are embedded in a row. Each refusal is
// LIMIT_REACHED naming the type and the number.
const (
	// MaxTypes bounds the types a document defines (GitHub's defines
	// 1,636): the interpretation's work grows with their number, and at
	// 20 rows each more than 5,000 entities pass the project's row bound.
	MaxTypes = 10_000
	// MaxNameLength bounds a type's, field's, argument's and enum value's
	// name, in bytes.
	MaxNameLength = 128
	// MaxTypeFields bounds the fields (or enum values, or union members)
	// of any one type.
	MaxTypeFields = 2000
	// MaxFieldArguments bounds the arguments of one field, of a directive
	// definition and of one use of a directive (the validator compares
	// them pairwise).
	MaxFieldArguments = 100
	// MaxDirectiveLocations bounds the locations a directive definition
	// lists (there are 19; the validator scans them at each use).
	MaxDirectiveLocations = 32
	// MaxTypeInterfaces bounds the interfaces one type implements.
	MaxTypeInterfaces = 64
	// MaxImplements bounds the implements edges of a document, every
	// type's interfaces together.
	MaxImplements = 10_000
	// MaxImplementsWork bounds the field comparisons the validator makes
	// for the implements edges: for each edge, the fields of the type
	// times the fields of the interface (it looks each one up by a linear
	// scan), plus their interfaces likewise.
	MaxImplementsWork = 10_000_000
	// MaxRowCells bounds the values one generated row holds: its fields,
	// each embedded object and its fields to the embedding depth (3
	// levels), a list counting as its most items (3). It is the field
	// paths a dataset holds (dataset.MaxPaths), which the compile reads
	// the rows into, so that every admitted row can be read.
	MaxRowCells = 2_000
	// MaxProjectCells bounds the values of a project's generated rows
	// together: each entity's row cells times its rows (the row bound's
	// 100,000 rows of 25 fields).
	MaxProjectCells = 2_500_000
)

// checkDocument refuses a parsed document over the structural bounds, in
// linear passes over its definitions and extensions (a type's extensions
// count with it), in the document's order.
func checkDocument(sd *ast.SchemaDocument) error {
	n := 0
	for _, d := range sd.Definitions {
		if !d.BuiltIn {
			n++
		}
	}
	if n > MaxTypes {
		return model.Errorf(model.CodeLimitReached, "the schema defines %d types; a schema defines at most %d", n, MaxTypes)
	}
	all := append(append(ast.DefinitionList{}, sd.Definitions...), sd.Extensions...)
	fields := map[string]int{}
	ifaces := map[string][]string{}
	for _, d := range all {
		if err := checkDefinition(d); err != nil {
			return err
		}
		fields[d.Name] += len(d.Fields) + len(d.EnumValues) + len(d.Types)
		ifaces[d.Name] = append(ifaces[d.Name], d.Interfaces...)
		if n := fields[d.Name]; n > MaxTypeFields {
			return model.Errorf(model.CodeLimitReached, "type %s has %d fields; a type has at most %d", clip(d.Name), n, MaxTypeFields)
		}
		if n := len(ifaces[d.Name]); n > MaxTypeInterfaces {
			return model.Errorf(model.CodeLimitReached, "type %s implements %d interfaces; a type implements at most %d", clip(d.Name), n, MaxTypeInterfaces)
		}
	}
	if err := checkDirectiveDefinitions(sd.Directives); err != nil {
		return err
	}
	return checkImplements(all, fields, ifaces)
}

// checkDirectiveDefinitions refuses a directive definition over the name,
// argument or location bounds.
func checkDirectiveDefinitions(defs ast.DirectiveDefinitionList) error {
	for _, dd := range defs {
		switch {
		case len(dd.Name) > MaxNameLength:
			return errName("directive @", dd.Name)
		case len(dd.Arguments) > MaxFieldArguments:
			return model.Errorf(model.CodeLimitReached, "directive @%s has %d arguments; a directive has at most %d", clip(dd.Name), len(dd.Arguments), MaxFieldArguments)
		case len(dd.Locations) > MaxDirectiveLocations:
			return model.Errorf(model.CodeLimitReached, "directive @%s lists %d locations; a directive lists at most %d", clip(dd.Name), len(dd.Locations), MaxDirectiveLocations)
		}
		for _, a := range dd.Arguments {
			if len(a.Name) > MaxNameLength {
				return errName("argument @"+clip(dd.Name)+"(", a.Name)
			}
		}
	}
	return nil
}

// checkUses refuses a use of a directive in where with more than
// MaxFieldArguments arguments.
func checkUses(where string, dirs ast.DirectiveList) error {
	for _, d := range dirs {
		if len(d.Arguments) > MaxFieldArguments {
			return model.Errorf(model.CodeLimitReached, "@%s on %s has %d arguments; a directive has at most %d", clip(d.Name), where, len(d.Arguments), MaxFieldArguments)
		}
	}
	return nil
}

// checkImplements refuses a document whose implements edges, or the
// comparisons the validator makes for them, are over their bounds.
func checkImplements(all ast.DefinitionList, fields map[string]int, ifaces map[string][]string) error {
	edges, work := 0, 0
	for _, d := range all {
		edges += len(d.Interfaces)
		if edges > MaxImplements {
			return model.Errorf(model.CodeLimitReached, "the schema has more than %d implements edges (type %s brings it past the limit)", MaxImplements, clip(d.Name))
		}
		mine := len(ifaces[d.Name])
		for _, i := range d.Interfaces {
			work = satAdd(work, satAdd(satMul(fields[d.Name], fields[i]), satMul(mine, len(ifaces[i]))))
		}
		if work > MaxImplementsWork {
			return model.Errorf(model.CodeLimitReached, "the interfaces of the schema need more than %d field checks (type %s brings it past the limit): implement fewer or smaller interfaces", MaxImplementsWork, clip(d.Name))
		}
	}
	return nil
}

// checkDefinition refuses d's names over MaxNameLength and its fields'
// arguments over MaxFieldArguments.
func checkDefinition(d *ast.Definition) error {
	if len(d.Name) > MaxNameLength {
		return errName("type ", d.Name)
	}
	if err := checkUses(clip(d.Name), d.Directives); err != nil {
		return err
	}
	for _, f := range d.Fields {
		if len(f.Name) > MaxNameLength {
			return errName("field "+clip(d.Name)+".", f.Name)
		}
		if err := checkUses(clip(d.Name)+"."+clip(f.Name), f.Directives); err != nil {
			return err
		}
		if len(f.Arguments) > MaxFieldArguments {
			return model.Errorf(model.CodeLimitReached, "field %s.%s has %d arguments; a field has at most %d", clip(d.Name), clip(f.Name), len(f.Arguments), MaxFieldArguments)
		}
		for _, a := range f.Arguments {
			if len(a.Name) > MaxNameLength {
				return errName("argument "+clip(d.Name)+"."+clip(f.Name)+"(", a.Name)
			}
			if err := checkUses(clip(d.Name)+"."+clip(f.Name)+"("+clip(a.Name)+":)", a.Directives); err != nil {
				return err
			}
		}
	}
	for _, v := range d.EnumValues {
		if len(v.Name) > MaxNameLength {
			return errName("enum value "+clip(d.Name)+".", v.Name)
		}
		if err := checkUses(clip(d.Name)+"."+clip(v.Name), v.Directives); err != nil {
			return err
		}
	}
	return nil
}

// errName is the refusal of a name over MaxNameLength; what says what it
// names, and the name is clipped.
func errName(what, name string) error {
	return model.Errorf(model.CodeLimitReached, "%s%s is %d characters long; a name has at most %d", what, clip(name), len(name), MaxNameLength)
}

// clip shortens a name for a message.
func clip(name string) string { return model.Truncate(name, 64) }

// CheckCells refuses a plan whose generated rows would hold more values
// than the bounds: a row of an entity over MaxRowCells, or all rows (rows
// gives each entity's count) over MaxProjectCells. The error is
// LIMIT_REACHED naming the type and the number.
func (p *Plan) CheckCells(rows func(entity string) int) error {
	total := 0
	embedded, memo := p.embeddedByType(), map[cellKey]int{}
	for _, e := range p.Entities {
		c := objectCells(embedded, memo, e, 0)
		if c > MaxRowCells {
			return model.Errorf(model.CodeLimitReached, "a row of type %s holds %s generated values (its embedded objects' fields, %d levels deep, lists counted as %d items); a row holds at most %d: make the embedded types smaller, or give them an ID so that they are rows of their own",
				clip(e.Type), cellCount(c), maxEmbedDepth, maxListItems, MaxRowCells)
		}
		total = satAdd(total, satMul(c, rows(e.Type)))
		if total > MaxProjectCells {
			return model.Errorf(model.CodeLimitReached, "the generated rows hold more than %d values (type %s, %d rows of %d values, brings them past it): generate fewer rows with setContractRows",
				MaxProjectCells, clip(e.Type), rows(e.Type), c)
		}
	}
	return nil
}

// cellCount prints a count that may have saturated.
func cellCount(c int) string {
	if c >= cellCap {
		return fmt.Sprintf("more than %d", cellCap)
	}
	return fmt.Sprint(c)
}

// maxListItems is the most items a generated list holds (rowGen.field)
// without @listLength.
const maxListItems = 3

// listMost is the most items a generated list of f holds.
func listMost(f *Field) int {
	if f.Sized {
		return f.ListMax
	}
	return maxListItems
}

// cellCap is where counts of cells saturate: far past every bound, so
// that deep products cannot overflow.
const cellCap = 1 << 40

// RowCells returns the most values a generated row of e holds: one per
// field, each embedded object's fields in its place to maxEmbedDepth,
// lists counted as maxListItems items (saturating at 2^40).
func (p *Plan) RowCells(e *Entity) int {
	return objectCells(p.embeddedByType(), map[cellKey]int{}, e, 0)
}

// embeddedByType maps the plan's embedded types by name.
func (p *Plan) embeddedByType() map[string]*Entity {
	out := make(map[string]*Entity, len(p.Embedded))
	for _, x := range p.Embedded {
		out[x.Type] = x
	}
	return out
}

// cellKey memoizes objectCells by type and depth, so a wide type embedded
// in many places is counted once per depth.
type cellKey struct {
	typ   string
	depth int
}

// objectCells counts the values an object of e at depth holds, as
// rowGen.fill generates them.
func objectCells(embedded map[string]*Entity, memo map[cellKey]int, e *Entity, depth int) int {
	k := cellKey{e.Type, depth}
	if c, ok := memo[k]; ok {
		return c
	}
	total := 0
	for _, f := range e.Fields {
		one := 1
		if f.Value.Kind == "object" {
			if emb := embedded[f.Type]; emb != nil && depth < maxEmbedDepth {
				one = 1 + objectCells(embedded, memo, emb, depth+1)
			}
		}
		if f.List {
			one = satMul(one, listMost(f))
		}
		total = satAdd(total, one)
	}
	memo[k] = total
	return total
}

func satAdd(a, b int) int { return min(a+b, cellCap) }

func satMul(a, b int) int {
	if a == 0 || b == 0 {
		return 0
	}
	if a > cellCap/b {
		return cellCap
	}
	return min(a*b, cellCap)
}
