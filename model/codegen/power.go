package codegen

import (
	"fmt"
	"strings"

	"github.com/mockgql/mockgql/model"
)

// setPower sets the query power of table t's handlers from the enabled
// operations of p, in the paths of the OpenAPI export (openapi): the
// list takes where and orderBy when the table's first LIST operation (the
// one with the default name when there is one) opts in, and its relay
// option adds the connection at <path>/-/<name>Connection; every AGGREGATE
// operation is served at <path>/-/<name>. Further LIST operations have no
// handlers of their own in a code package.
func (td *tableData) setPower(p *model.Project, t *model.Table) {
	list := primaryList(p, t)
	if list != nil && list.Options != nil {
		td.Where, td.OrderBy = list.Options.Where, list.Options.OrderBy
		if list.Options.Relay {
			td.Connection = td.Path + "/-/" + list.Name + model.ConnectionSuffix
		}
	}
	for _, o := range p.Operations {
		if o.TableID == t.ID && o.Enabled && o.Kind == model.OpAggregate {
			td.Aggregates = append(td.Aggregates, td.Path+"/-/"+o.Name)
		}
	}
	td.Routes = td.routesLiteral()
}

// primaryList is t's enabled LIST operation with the default name, else
// its first one; nil when it has none.
func primaryList(p *model.Project, t *model.Table) *model.Operation {
	var first *model.Operation
	for _, o := range p.Operations {
		if o.TableID != t.ID || !o.Enabled || o.Kind != model.OpList {
			continue
		}
		if o.Name == model.DefaultOperationName(t.Name, model.OpList) {
			return o
		}
		if first == nil {
			first = o
		}
	}
	return first
}

// routesLiteral writes the table's routes as Go: routes{where: true, …}.
func (td *tableData) routesLiteral() string {
	var parts []string
	if td.Where {
		parts = append(parts, "where: true")
	}
	if td.OrderBy {
		parts = append(parts, "orderBy: true")
	}
	if td.Connection != "" {
		parts = append(parts, fmt.Sprintf("connection: %q", td.Connection))
	}
	if len(td.Aggregates) > 0 {
		quoted := make([]string, len(td.Aggregates))
		for i, a := range td.Aggregates {
			quoted[i] = fmt.Sprintf("%q", a)
		}
		parts = append(parts, "aggregates: []string{"+strings.Join(quoted, ", ")+"}")
	}
	return "routes{" + strings.Join(parts, ", ") + "}"
}

// Power reports whether the table serves any query power.
func (td tableData) Power() bool {
	return td.Where || td.OrderBy || td.Connection != "" || len(td.Aggregates) > 0
}

// queryExample is a curl command of the first table with query power, and
// whether there is one.
func queryExample(tables []tableData) (bool, string) {
	for _, td := range tables {
		switch {
		case td.Where || td.OrderBy:
			cmd := "curl -G localhost:8080" + td.Path
			if td.Where {
				cmd += ` --data-urlencode 'where={"or":[{"id":{"eq":"1"}},{"id":{"gt":"5"}}]}'`
			}
			if td.OrderBy {
				cmd += " --data-urlencode 'orderBy=-id'"
			}
			return true, cmd
		case td.Connection != "":
			return true, "curl 'localhost:8080" + td.Connection + "?first=10'"
		case len(td.Aggregates) > 0:
			return true, "curl 'localhost:8080" + td.Aggregates[0] + "?groupBy=id'"
		}
	}
	return false, ""
}
