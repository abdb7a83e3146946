package model

// The edits of a project's operations and views; see edit.go for the
// conventions (check everything first, then change, then bump Version).

// ConnectionSuffix ends the name of the Relay connection field of a LIST
// operation with the relay option: products gives productsConnection.
const ConnectionSuffix = "Connection"

// fieldNames are the runtime schema field names operation o takes: its
// name, and its connection field's with the relay option.
func (o *Operation) fieldNames() []string {
	if o.Kind == OpList && o.Options != nil && o.Options.Relay {
		return []string{o.Name, o.Name + ConnectionSuffix}
	}
	return []string{o.Name}
}

// operationOwner names the operation already called name (or whose
// connection field is called name), ignoring skipID, or "".
func (p *Project) operationOwner(name, skipID string) string {
	for _, o := range p.Operations {
		if contains(o.fieldNames(), name) && o.ID != skipID {
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
		return Errorf(CodeNotFound, "table %q not found", o.TableID)
	}
	if !o.Kind.Valid() {
		return Errorf(CodeBadUserInput, "operation kind %q is not one of LIST, SINGLE, CREATE, UPDATE, DELETE, AGGREGATE", o.Kind)
	}
	if err := CheckName("operation name", o.Name); err != nil {
		return err
	}
	if err := checkOptions(o.Kind, o.Options); err != nil {
		return err
	}
	if err := p.checkFieldNames(o, ""); err != nil {
		return err
	}
	if err := checkParameters(t, o.Kind, o.Parameters); err != nil {
		return err
	}
	if err := p.checkPowerNames(t, o); err != nil {
		return err
	}
	if o.Parameters == nil {
		o.Parameters = []Parameter{}
	}
	if !o.Options.Any() {
		o.Options = nil
	}
	p.Operations = append(p.Operations, o)
	p.Version++
	return nil
}

func checkParameters(t *Table, k OperationKind, params []Parameter) error {
	if len(params) > 0 && k != OpList {
		return Errorf(CodeBadUserInput, "only LIST operations take parameters")
	}
	seen := map[string]bool{}
	for _, prm := range params {
		if err := CheckName("parameter name", prm.Name); err != nil {
			return err
		}
		if listArgs[prm.Name] || seen[prm.Name] {
			return Errorf(CodeConflict, "parameter name %q is used twice or clashes with page, pageSize, sortField or sortDirection", prm.Name)
		}
		seen[prm.Name] = true
		if !hasField(t, prm.Attribute) {
			return Errorf(CodeBadUserInput, "parameter %q: %q is not an attribute of table %s", prm.Name, prm.Attribute, t.Name)
		}
		if !prm.Operator.Valid() {
			return Errorf(CodeBadUserInput, "parameter %q: operator %q is not one of eq, neq, gt, gte, lt, lte, in, like", prm.Name, prm.Operator)
		}
	}
	return nil
}

// checkOptions refuses options on operations other than LIST.
func checkOptions(k OperationKind, opt *OperationOptions) error {
	if opt.Any() && k != OpList {
		return Errorf(CodeBadUserInput, "only LIST operations take options (relay, where, orderBy, subscriptions); use an AGGREGATE operation for aggregates")
	}
	return nil
}

// checkFieldNames refuses o when one of its field names is taken by
// another operation than skipID.
func (p *Project) checkFieldNames(o *Operation, skipID string) error {
	for _, name := range o.fieldNames() {
		if owner := p.operationOwner(name, skipID); owner != "" {
			return Errorf(CodeConflict, "operation name %q is used by %s", name, owner)
		}
	}
	return nil
}

// OperationPatch is a partial update of an operation; nil fields stay.
type OperationPatch struct {
	Name       *string
	Enabled    *bool
	Parameters []Parameter       // nil keeps them; empty clears them
	Options    *OperationOptions // nil keeps them; all false clears them
}

// UpdateOperation renames, enables or disables an operation or replaces its parameters.
func (p *Project) UpdateOperation(id string, patch OperationPatch) (*Operation, error) {
	o := p.Operation(id)
	if o == nil {
		return nil, Errorf(CodeNotFound, "operation %q not found", id)
	}
	next := *o
	if patch.Name != nil {
		if err := CheckName("operation name", *patch.Name); err != nil {
			return nil, err
		}
		next.Name = *patch.Name
	}
	if patch.Options != nil {
		if err := checkOptions(o.Kind, patch.Options); err != nil {
			return nil, err
		}
		next.Options = patch.Options
	}
	if err := p.checkFieldNames(&next, o.ID); err != nil {
		return nil, err
	}
	if err := p.checkPowerNames(p.Table(o.TableID), &next); err != nil {
		return nil, err
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
	if patch.Options != nil {
		o.Options = nil
		if patch.Options.Any() {
			opt := *patch.Options
			o.Options = &opt
		}
	}
	p.Version++
	return o, nil
}

// RemoveOperation removes an operation.
func (p *Project) RemoveOperation(id string) error {
	if p.Operation(id) == nil {
		return Errorf(CodeNotFound, "operation %q not found", id)
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
		return nil, Errorf(CodeNotFound, "table %q not found", tableID)
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
				return nil, Errorf(CodeConflict, "default operation %q of table %s clashes with %s", name, t.Name, owner)
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

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
