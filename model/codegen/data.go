package codegen

import (
	"strconv"
	"strings"
	"unicode"

	"github.com/mockgql/mockgql/model"
)

// pkgData is what the templates see.
type pkgData struct {
	Module, Project, Slug string
	Version               int64
	Tables                []tableData
	// NeedJSON and NeedTime say which imports api/tables.go needs.
	NeedJSON, NeedTime bool
	// Power is true when a table serves query power; QueryExample is a
	// curl command of it for the README.
	Power        bool
	QueryExample string
}

// tableData is one table's row type and handler set.
type tableData struct {
	Name, Type, Path string
	Fields           []fieldData
	// Numeric names the Int and Float fields (aggregates sum them).
	Numeric []string
	// Routes is the Go literal of the table's routes: its query power.
	Routes string
	// Where, OrderBy, Connection and Aggregates are that power, for the
	// README: where and orderBy on the list, the paths of the connection
	// ("" for none) and of the aggregates.
	Where, OrderBy bool
	Connection     string
	Aggregates     []string
	// CreateBody and PatchBody are JSON bodies for the generated test.
	CreateBody, PatchBody string
}

// fieldData is one attribute as a field of a row type.
type fieldData struct {
	GoName, GoType, JSONName string
}

// packageIdents are the generated package's own top-level names, which a
// row type may not take.
var packageIdents = map[string]bool{
	"Store": true, "MemoryStore": true, "NewMemoryStore": true, "Record": true, "Page": true, "Error": true,
	"Stores": true, "NewMemoryStores": true, "NewServer": true, "ErrNotFound": true, "ErrConflict": true, "MaxBodyBytes": true,
	"Filter": true, "Condition": true, "ParseFilter": true, "Connection": true, "Edge": true, "PageInfo": true,
	"Stats": true, "Aggregate": true, "Group": true,
}

// newPackageData collects the templates' data from p: every table, its
// attributes but COMPUTED ones and the id attribute (the ID field).
func newPackageData(p *model.Project, module string) pkgData {
	d := pkgData{Module: module, Project: p.Name, Slug: p.Slug, Version: p.Version}
	types, paths := copyMap(packageIdents), map[string]bool{}
	for _, t := range p.Tables {
		td := tableData{Name: t.Name, Type: unique(goIdent(t.Name), "Row", types),
			Path: unique("/"+model.DefaultOperationName(t.Name, model.OpList), "-"+strings.ToLower(t.Name), paths)}
		create, patch := map[string]any{"id": "row-1"}, map[string]any{}
		fields := map[string]bool{"ID": true}
		for _, a := range t.Attributes {
			if a.Mapping == model.MappingComputed || a.Name == "id" {
				continue
			}
			td.Fields = append(td.Fields, fieldData{GoName: unique(goIdent(a.Name), "Field", fields), GoType: goType(a.Type), JSONName: a.Name})
			if a.Type == model.TypeInt || a.Type == model.TypeFloat {
				td.Numeric = append(td.Numeric, a.Name)
			}
			d.NeedJSON = d.NeedJSON || a.Type == model.TypeJSON
			d.NeedTime = d.NeedTime || a.Type == model.TypeDateTime
			create[a.Name] = sampleValue(a.Type, false)
			if len(patch) == 0 {
				patch[a.Name] = sampleValue(a.Type, true)
			}
		}
		td.CreateBody, td.PatchBody = sampleJSON(create), sampleJSON(patch)
		td.setPower(p, t)
		d.Tables = append(d.Tables, td)
	}
	d.Power, d.QueryExample = queryExample(d.Tables)
	return d
}

func copyMap(m map[string]bool) map[string]bool {
	out := make(map[string]bool, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// goIdent makes a GraphQL name an exported Go identifier ("orderLine" →
// "OrderLine", "_x" → "X_x", "id" → "ID").
func goIdent(name string) string {
	if name == "id" {
		return "ID"
	}
	r := []rune(name)
	if len(r) == 0 || !unicode.IsLetter(r[0]) {
		return "X" + name
	}
	r[0] = unicode.ToUpper(r[0])
	return string(r)
}

// unique returns name, or name with suffix (then numbers) appended, that is
// not in used, and records it.
func unique(name, suffix string, used map[string]bool) string {
	out := name
	for i := 1; used[out]; i++ {
		out = name + suffix
		if i > 1 {
			out += strconv.Itoa(i)
		}
	}
	used[out] = true
	return out
}

// goType is the Go type of an attribute: a pointer (or a nil-able
// json.RawMessage), so that every field is optional.
func goType(t model.ScalarType) string {
	switch t {
	case model.TypeInt:
		return "*int64"
	case model.TypeFloat:
		return "*float64"
	case model.TypeBoolean:
		return "*bool"
	case model.TypeDateTime:
		return "*time.Time"
	case model.TypeJSON:
		return "json.RawMessage"
	}
	return "*string" // ID, STRING
}

// sampleValue is a value of type t for the generated tests; changed gives
// another one.
func sampleValue(t model.ScalarType, changed bool) any {
	pick := func(a, b any) any {
		if changed {
			return b
		}
		return a
	}
	switch t {
	case model.TypeInt:
		return pick(42, 7)
	case model.TypeFloat:
		return pick(1.5, 2.25)
	case model.TypeBoolean:
		return pick(true, false)
	case model.TypeDateTime:
		return pick("2024-01-02T03:04:05Z", "2025-06-07T08:09:10Z")
	case model.TypeJSON:
		return pick(map[string]any{"k": "v"}, []any{1, 2})
	case model.TypeID:
		return pick("ref-1", "ref-2")
	}
	return pick("text", "changed")
}
