package app

import (
	"context"
	"errors"
	"fmt"

	"github.com/mockgql/mockgql/ids"
	"github.com/mockgql/mockgql/model"
)

// From data to API in one step (the board's "Create an API from this
// dataset" and "Add all fields"). Both are a series of the ordinary model
// edits, each checked by the project grain as when made one by one; when
// one is refused the ones already made are undone, so a refusal leaves the
// project as it was.

// maxFieldChoices bounds one call's attributes; the plan's attribute limit
// applies as well, checked by the project grain.
const maxFieldChoices = 500

// DatasetFields guesses an attribute for each field path of the dataset
// importCode as the project projectID reads it (projectID empty: as p's
// account reads the pool). NOT_FOUND when there is no such dataset.
func (s *Management) DatasetFields(ctx context.Context, p model.Principal, projectID, importCode string) ([]model.FieldGuess, error) {
	account := p.AccountID
	if projectID != "" {
		pr, err := s.readProject(ctx, p, projectID, "")
		if err != nil {
			return nil, err
		}
		account = pr.AccountID
	}
	metas, err := s.pool.Readable(account)
	if err != nil {
		return nil, err
	}
	for _, m := range metas {
		if m.ImportCode != importCode {
			continue
		}
		d := s.pool.Dataset(m.Key)
		if d == nil {
			return nil, fmt.Errorf("dataset %s: its contents did not load", m.Key)
		}
		return d.GuessFields(), nil
	}
	return nil, model.Errorf(model.CodeNotFound, "no dataset %q in the data pool this project reads", model.Truncate(importCode, 64))
}

// CreateAPIFromDataset makes a bound table with an attribute per chosen
// field (SOURCE, sortable and filterable), its default operations and
// views, and returns the table and its operations. EDITOR and above (the
// grain checks each edit). All of it is made, or nothing.
func (s *Management) CreateAPIFromDataset(ctx context.Context, p model.Principal, in model.DatasetAPIInput) (*model.Table, []*model.Operation, error) {
	guesses, err := s.DatasetFields(ctx, p, in.ProjectID, in.ImportCode)
	if err != nil {
		return nil, nil, err
	}
	fields, err := chooseFields(guesses, in.Fields)
	if err != nil {
		return nil, nil, err
	}
	name := in.Table
	if name == "" {
		name = model.TableNameFor(in.ImportCode)
	}
	t, err := s.CreateTable(ctx, p, in.ProjectID, name, &model.TableSource{ImportCode: in.ImportCode, Variant: in.Variant})
	if err != nil {
		return nil, nil, err
	}
	undo := func(err error) (*model.Table, []*model.Operation, error) {
		if derr := s.DeleteTable(context.WithoutCancel(ctx), p, t.ID); derr != nil {
			return nil, nil, errors.Join(err, fmt.Errorf("undoing table %s: %w", t.ID, derr))
		}
		return nil, nil, err
	}
	for _, f := range fields {
		a, err := s.CreateAttribute(ctx, p, sourceAttribute(t.ID, f))
		if err != nil {
			return undo(err)
		}
		t.Attributes = append(t.Attributes, a)
	}
	ops, err := s.GenerateDefaultOperations(ctx, p, in.ProjectID, t.ID)
	if err != nil {
		return undo(err)
	}
	if _, err := s.GenerateMissingViews(ctx, p, in.ProjectID); err != nil {
		return undo(err)
	}
	return t, ops, nil
}

// CreateAttributesFromDataset adds an attribute per chosen field of the
// dataset table tableID is bound to (fields nil: every path not read by an
// attribute yet) and returns them. All are added, or none.
func (s *Management) CreateAttributesFromDataset(ctx context.Context, p model.Principal, tableID string, fields []model.FieldChoice) ([]*model.Attribute, error) {
	if err := model.CheckID("tableId", tableID); err != nil {
		return nil, err
	}
	pr, err := s.readProject(ctx, p, ids.ProjectOf(tableID), "")
	if err != nil {
		return nil, err
	}
	t := pr.Table(tableID)
	if t == nil {
		return nil, model.Errorf(model.CodeNotFound, "table %q not found", tableID)
	}
	if t.Source == nil || t.Source.ImportCode == "" {
		return nil, model.Errorf(model.CodeBadUserInput, "table %s is not bound to a dataset: bind it first", t.Name)
	}
	guesses, err := s.DatasetFields(ctx, p, pr.ID, t.Source.ImportCode)
	if err != nil {
		return nil, err
	}
	if fields == nil {
		guesses = apart(t, unread(t, guesses))
	}
	chosen, err := chooseFields(guesses, fields)
	if err != nil {
		return nil, err
	}
	return s.createAttributes(ctx, p, tableID, chosen)
}

// createAttributes adds the attributes in order, deleting the ones made
// when one is refused.
func (s *Management) createAttributes(ctx context.Context, p model.Principal, tableID string, fields []model.FieldChoice) ([]*model.Attribute, error) {
	made := make([]*model.Attribute, 0, len(fields))
	for _, f := range fields {
		a, err := s.CreateAttribute(ctx, p, sourceAttribute(tableID, f))
		if err != nil {
			for _, m := range made {
				if derr := s.DeleteAttribute(context.WithoutCancel(ctx), p, m.ID); derr != nil {
					err = errors.Join(err, fmt.Errorf("undoing attribute %s: %w", m.ID, derr))
				}
			}
			return nil, err
		}
		made = append(made, a)
	}
	return made, nil
}

// unread drops the guesses whose path an attribute of t already reads.
func unread(t *model.Table, guesses []model.FieldGuess) []model.FieldGuess {
	read := map[string]bool{}
	for _, a := range t.Attributes {
		if a.Mapping == model.MappingSource {
			read[a.SourcePath] = true
		}
	}
	out := guesses[:0:0]
	for _, g := range guesses {
		if !read[g.Path] {
			out = append(out, g)
		}
	}
	return out
}

// apart numbers the guessed names that t's attributes already have
// ("title" → "title2"), so that adding every unread path is not refused for
// a name a person gave another attribute.
func apart(t *model.Table, guesses []model.FieldGuess) []model.FieldGuess {
	taken := map[string]bool{}
	for _, a := range t.Attributes {
		taken[a.Name] = true
	}
	for i, g := range guesses {
		name := g.Name
		for n := 2; taken[name]; n++ {
			name = fmt.Sprintf("%s%d", g.Name, n)
		}
		guesses[i].Name = name
		taken[name] = true
	}
	return guesses
}

// chooseFields resolves the chosen fields against the guesses (nil
// choices: all guesses). BAD_USER_INPUT for a path the dataset lacks, a
// path chosen twice, no field at all or more than maxFieldChoices.
func chooseFields(guesses []model.FieldGuess, choices []model.FieldChoice) ([]model.FieldChoice, error) {
	byPath := make(map[string]model.FieldGuess, len(guesses))
	for _, g := range guesses {
		byPath[g.Path] = g
	}
	if choices == nil {
		choices = make([]model.FieldChoice, 0, len(guesses))
		for _, g := range guesses {
			choices = append(choices, model.FieldChoice{Path: g.Path})
		}
	}
	if len(choices) == 0 {
		return nil, model.Errorf(model.CodeBadUserInput, "no fields to add: choose at least one field path")
	}
	if len(choices) > maxFieldChoices {
		return nil, model.Errorf(model.CodeBadUserInput, "%d fields: at most %d in one go", len(choices), maxFieldChoices)
	}
	out := make([]model.FieldChoice, 0, len(choices))
	seen := map[string]bool{}
	for _, c := range choices {
		g, ok := byPath[c.Path]
		if !ok {
			return nil, model.Errorf(model.CodeBadUserInput, "the dataset has no field path %q", model.Truncate(c.Path, 64))
		}
		if seen[c.Path] {
			return nil, model.Errorf(model.CodeBadUserInput, "field path %q is chosen twice", model.Truncate(c.Path, 64))
		}
		seen[c.Path] = true
		if c.Name == "" {
			c.Name = g.Name
		}
		if c.Type == "" {
			c.Type = g.Type
		}
		out = append(out, c)
	}
	return out, nil
}

// sourceAttribute is the attribute that reads f, sortable and filterable
// as the board's single-attribute form makes them.
func sourceAttribute(tableID string, f model.FieldChoice) model.Attribute {
	return model.Attribute{TableID: tableID, Name: f.Name, Type: f.Type, Sortable: true, Filterable: true,
		Mapping: model.MappingSource, SourcePath: f.Path}
}
