package model

// The edits of a project's operations and views; see edit.go for the
// conventions (check everything first, then change, then bump Version).

// operationOwner names the operation already called name, ignoring skipID, or "".
func (p *Project) operationOwner(name, skipID string) string {
	for _, o := range p.Operations {
		if o.Name == name && o.ID != skipID {
			if t := p.Table(o.TableID); t != nil {
				return "operation " + o.Name + " of table " + t.Name
			}
			return "operation " + o.Name
		}
	}
	return ""
}

// AddOperation adds o after checking its name and parameters.
func (p *Project) AddOperation(o *Operation) error {
	t := p.Table(o.TableID)
	if t == nil {
		return Errorf(ErrNotFound, "table %q not found", o.TableID)
	}
	if !o.Kind.Valid() {
		return Errorf(ErrBadUserInput, "operation kind %q is not one of LIST, SINGLE, CREATE, UPDATE, DELETE", o.Kind)
	}
	if err := CheckName("operation name", o.Name); err != nil {
		return err
	}
	if owner := p.operationOwner(o.Name, ""); owner != "" {
		return Errorf(ErrConflict, "operation name %q is used by %s", o.Name, owner)
	}
	if err := checkParameters(t, o.Kind, o.Parameters); err != nil {
		return err
	}
	if o.Parameters == nil {
		o.Parameters = []Parameter{}
	}
	p.Operations = append(p.Operations, o)
	p.Version++
	return nil
}

func checkParameters(t *Table, k OperationKind, params []Parameter) error {
	if len(params) > 0 && k != OpList {
		return Errorf(ErrBadUserInput, "only LIST operations take parameters")
	}
	seen := map[string]bool{}
	for _, prm := range params {
		if err := CheckName("parameter name", prm.Name); err != nil {
			return err
		}
		if listArgs[prm.Name] || seen[prm.Name] {
			return Errorf(ErrConflict, "parameter name %q is used twice or clashes with page, pageSize, sortField or sortDirection", prm.Name)
		}
		seen[prm.Name] = true
		if !hasField(t, prm.Attribute) {
			return Errorf(ErrBadUserInput, "parameter %q: %q is not an attribute of table %s", prm.Name, prm.Attribute, t.Name)
		}
		if !prm.Operator.Valid() {
			return Errorf(ErrBadUserInput, "parameter %q: operator %q is not one of eq, neq, gt, gte, lt, lte, in, like", prm.Name, prm.Operator)
		}
	}
	return nil
}

// OperationPatch is a partial update of an operation; nil fields stay.
type OperationPatch struct {
	Name       *string
	Enabled    *bool
	Parameters []Parameter // nil keeps them; empty clears them
}

// UpdateOperation renames, enables or disables an operation or replaces its parameters.
func (p *Project) UpdateOperation(id string, patch OperationPatch) (*Operation, error) {
	o := p.Operation(id)
	if o == nil {
		return nil, Errorf(ErrNotFound, "operation %q not found", id)
	}
	if patch.Name != nil && *patch.Name != o.Name {
		if err := CheckName("operation name", *patch.Name); err != nil {
			return nil, err
		}
		if owner := p.operationOwner(*patch.Name, o.ID); owner != "" {
			return nil, Errorf(ErrConflict, "operation name %q is used by %s", *patch.Name, owner)
		}
	}
	if patch.Parameters != nil {
		if err := checkParameters(p.Table(o.TableID), o.Kind, patch.Parameters); err != nil {
			return nil, err
		}
	}
	if patch.Name != nil {
		o.Name = *patch.Name
	}
	if patch.Enabled != nil {
		o.Enabled = *patch.Enabled
	}
	if patch.Parameters != nil {
		o.Parameters = append([]Parameter{}, patch.Parameters...)
	}
	p.Version++
	return o, nil
}

// RemoveOperation removes an operation.
func (p *Project) RemoveOperation(id string) error {
	if p.Operation(id) == nil {
		return Errorf(ErrNotFound, "operation %q not found", id)
	}
	p.Operations = filter(p.Operations, func(o *Operation) bool { return o.ID != id })
	p.Version++
	return nil
}

// GenerateDefaultOperations adds the five default operations (list, single,
// create, update, delete) of each table that lacks an operation of that kind;
// tableID "" means every table. newID gives IDs. It returns the operations
// of the tables concerned, new and old. A default name already used by
// another table is refused, naming both, and nothing is added.
func (p *Project) GenerateDefaultOperations(tableID string, newID func() string) ([]*Operation, error) {
	var tables []*Table
	if tableID == "" {
		tables = p.Tables
	} else if t := p.Table(tableID); t != nil {
		tables = []*Table{t}
	} else {
		return nil, Errorf(ErrNotFound, "table %q not found", tableID)
	}
	var add []*Operation
	taken := map[string]bool{}
	for _, t := range tables {
		for _, k := range []OperationKind{OpList, OpSingle, OpCreate, OpUpdate, OpDelete} {
			if p.hasOperationKind(t.ID, k) {
				continue
			}
			name := DefaultOperationName(t.Name, k)
			if owner := p.operationOwner(name, ""); owner != "" || taken[name] {
				if owner == "" {
					owner = "another generated operation"
				}
				return nil, Errorf(ErrConflict, "default operation %q of table %s clashes with %s", name, t.Name, owner)
			}
			taken[name] = true
			add = append(add, &Operation{ID: newID(), TableID: t.ID, Name: name, Kind: k, Enabled: true, Parameters: []Parameter{}})
		}
	}
	p.Operations = append(p.Operations, add...)
	if len(add) > 0 {
		p.Version++
	}
	var out []*Operation
	for _, t := range tables {
		for _, o := range p.Operations {
			if o.TableID == t.ID {
				out = append(out, o)
			}
		}
	}
	return out, nil
}

func (p *Project) hasOperationKind(tableID string, k OperationKind) bool {
	for _, o := range p.Operations {
		if o.TableID == tableID && o.Kind == k {
			return true
		}
	}
	return false
}

// GenerateMissingViews gives every table without views a list view and a
// form view, and returns all views.
func (p *Project) GenerateMissingViews(newID func() string) []*View {
	for _, t := range p.Tables {
		has := false
		for _, v := range p.Views {
			has = has || v.TableID == t.ID
		}
		if !has {
			p.Views = append(p.Views,
				&View{ID: newID(), TableID: t.ID, Kind: "LIST", Name: t.Name + " list"},
				&View{ID: newID(), TableID: t.ID, Kind: "FORM", Name: t.Name + " form"})
			p.Version++
		}
	}
	return p.Views
}
