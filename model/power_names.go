package model

import (
	"fmt"
	"strings"
)

// The opt-in query power (issue 14) adds types to the runtime schema:
// the shared PageInfo and FilterOperators, reserved as table names
// always (any table turning an option on would need them, and refusing an
// option because of another table's name would surprise), and per table
// T the types below, only while one of T's operations asks for them. A
// table name that equals one of those (ignoring case), and an attribute
// named and, or or not on a table with a where filter (the filter's own
// fields), are refused: by the edit that would make the clash, whichever
// comes second, the name or the option.

// powerUse is what a table's operations ask of the query power.
type powerUse struct{ where, orderBy, relay, agg bool }

// powerOf returns what table tableID's operations ask, with next in place
// of the operation of its ID (or added, when no operation has it).
func (p *Project) powerOf(tableID string, next *Operation) powerUse {
	var u powerUse
	add := func(o *Operation) {
		if o.TableID != tableID {
			return
		}
		switch {
		case o.Kind == OpAggregate:
			u.where, u.agg = true, true
		case o.Kind == OpList && o.Options != nil:
			u.where = u.where || o.Options.Where
			u.orderBy = u.orderBy || o.Options.OrderBy
			u.relay = u.relay || o.Options.Relay
		}
	}
	for _, o := range p.Operations {
		if next == nil || o.ID != next.ID {
			add(o)
		}
	}
	if next != nil {
		add(next)
	}
	return u
}

// typeNames are the runtime schema types of a table called name: its
// object type, its page and input types, and the query power's.
func (u powerUse) typeNames(name string) []string {
	names := []string{name, name + "Page", name + "Input"}
	if u.where {
		names = append(names, name+"Where")
	}
	if u.orderBy {
		names = append(names, name+"OrderBy", name+"OrderField")
	}
	if u.relay {
		names = append(names, name+"Connection", name+"Edge")
	}
	if u.agg {
		names = append(names, name+"Aggregate", name+"Numbers", name+"Group", name+"Field")
	}
	return names
}

// checkTypeNames refuses, with CONFLICT, a table selfID called name whose
// types (with use u) equal, ignoring case, a type of another table. what
// names the edit in the refusal.
func (p *Project) checkTypeNames(what, selfID, name string, u powerUse) error {
	mine := u.typeNames(name)
	for _, o := range p.Tables {
		if o.ID == selfID {
			continue
		}
		for _, theirs := range p.powerOf(o.ID, nil).typeNames(o.Name) {
			for _, m := range mine {
				if strings.EqualFold(theirs, m) {
					return Errorf(CodeConflict, "%s clashes with table %q: both make the type %s of the runtime schema", what, o.Name, theirs)
				}
			}
		}
	}
	return nil
}

// whereFields are the fields every <T>Where has besides the attributes.
var whereFields = map[string]bool{"and": true, "or": true, "not": true}

// checkWhereAttr refuses an attribute called name on table t whose
// operations ask for a where filter (u).
func checkWhereAttr(t *Table, name string, u powerUse) error {
	if u.where && whereFields[name] {
		return Errorf(CodeBadUserInput, "attribute name %q is a field of the where filter %sWhere of table %s (a list operation with the where option, or an AGGREGATE operation); rename the attribute or turn where off", name, t.Name, t.Name)
	}
	return nil
}

// checkPowerNames checks the names of operation o's table once o is in
// place (added, or replacing its old version): its types against the
// other tables', its attributes against the where filter's fields.
func (p *Project) checkPowerNames(t *Table, o *Operation) error {
	u := p.powerOf(t.ID, o)
	for _, a := range t.Attributes {
		if err := checkWhereAttr(t, a.Name, u); err != nil {
			return err
		}
	}
	return p.checkTypeNames(fmt.Sprintf("operation %q of table %s", o.Name, t.Name), t.ID, t.Name, u)
}
