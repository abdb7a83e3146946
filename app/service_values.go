package app

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/mockgql/mockgql/actors"
	"github.com/mockgql/mockgql/dataset"
	"github.com/mockgql/mockgql/ids"
	"github.com/mockgql/mockgql/model"
)

// ValueCounts counts how the values of the attribute named attribute of
// table tableID repeat in the dataset rows the table reads (its variant),
// for the board's warning on a one-to-one relation whose linking column
// is not unique. It reads at most model.MaxValueCountRows rows. The
// attribute must be SOURCE-mapped; "id" without an attribute is the
// record's id (or _id) field, else the row position. Whoever may read
// the project may ask. NOT_FOUND for an unknown table, BAD_USER_INPUT
// for an attribute that reads no field path.
func (s *Management) ValueCounts(ctx context.Context, p model.Principal, tableID, attribute string) (model.ValueCounts, error) {
	if err := model.CheckID("tableId", tableID); err != nil {
		return model.ValueCounts{}, err
	}
	pr, err := s.readProject(ctx, p, ids.ProjectOf(tableID), "")
	if err != nil {
		return model.ValueCounts{}, err
	}
	t := pr.Table(tableID)
	if t == nil {
		return model.ValueCounts{}, model.Errorf(model.CodeNotFound, "table %q not found", tableID)
	}
	if t.Source == nil || t.Source.ImportCode == "" {
		return model.ValueCounts{}, model.Errorf(model.CodeBadUserInput, "table %s is not bound to a dataset: bind it first", t.Name)
	}
	d, err := s.datasetOf(pr, t.Source.ImportCode)
	if err != nil {
		return model.ValueCounts{}, err
	}
	rows := tableRows(d, t.Source.Variant)
	path, err := countedPath(t, attribute, d)
	if err != nil {
		return model.ValueCounts{}, err
	}
	return countValues(d, rows, path), nil
}

// datasetOf is the dataset importCode as project pr reads the pool.
func (s *core) datasetOf(pr *model.Project, importCode string) (*dataset.Dataset, error) {
	metas, err := s.pool.Readable(pr.AccountID)
	if err != nil {
		return nil, err
	}
	for _, m := range metas {
		if m.ImportCode != importCode {
			continue
		}
		if d := s.pool.Dataset(m.Key); d != nil {
			return d, nil
		}
		return nil, fmt.Errorf("dataset %s: its contents did not load", m.Key)
	}
	return nil, model.Errorf(model.CodeNotFound, "no dataset %q in the data pool this project reads", model.Truncate(importCode, 64))
}

// checkBindable refuses to bind a table of project projectID to a dataset
// of the caller's account that the project cannot read: a guest or session
// project opened by a signed-in member reads the curated pool only, and
// bound to an account's own upload it would look ready and serve nothing.
// A code no dataset holds yet stays bindable (the table is not ready
// until it is imported).
func (s *core) checkBindable(ctx context.Context, p model.Principal, projectID string, src *model.TableSource) error {
	if src == nil || src.ImportCode == "" || p.AccountID == "" {
		return nil
	}
	mine, err := s.pool.Readable(p.AccountID)
	if err != nil || !slices.ContainsFunc(mine, func(m actors.DatasetMeta) bool { return m.ImportCode == src.ImportCode && m.Owner == p.AccountID }) {
		return err // not the caller's own upload: nothing to check
	}
	pr, err := s.readProject(ctx, p, projectID, "")
	if err != nil || pr.AccountID == p.AccountID {
		return err
	}
	return model.Errorf(model.CodeBadUserInput, "dataset %q is your account's own upload, which this %s project cannot read (it reads the curated pool only): keep the project in your workspace first, or bind a curated dataset",
		model.Truncate(src.ImportCode, 64), strings.ToLower(string(pr.Kind)))
}

// tableRows are the rows of d a table with variant reads (nil: all of them).
func tableRows(d *dataset.Dataset, variant *string) []int32 {
	if variant != nil {
		return d.VariantRows(*variant)
	}
	return nil
}

// countedPath is the field path whose values attribute name holds; ""
// means the row position (unique by construction).
func countedPath(t *model.Table, name string, d *dataset.Dataset) (string, error) {
	if a := t.Attribute(name); a != nil {
		if a.Mapping != model.MappingSource || a.SourcePath == "" {
			return "", model.Errorf(model.CodeBadUserInput, "%s.%s reads no field path (its mapping is %s): only a SOURCE attribute's values can be counted", t.Name, name, a.Mapping)
		}
		return a.SourcePath, nil
	}
	if name != "id" {
		return "", model.Errorf(model.CodeBadUserInput, "table %s has no attribute %q", t.Name, model.Truncate(name, 64))
	}
	for _, p := range []string{"id", "_id"} {
		if slices.Contains(d.Paths(), p) {
			return p, nil
		}
	}
	return "", nil
}

// countValues counts path's values over rows (nil: every row of d).
func countValues(d *dataset.Dataset, rows []int32, path string) model.ValueCounts {
	n := d.Len()
	if rows != nil {
		n = len(rows)
	}
	c := model.ValueCounts{Rows: n, Scanned: min(n, model.MaxValueCountRows)}
	if path == "" {
		c.Distinct = c.Scanned
		return c
	}
	seen := make(map[string]struct{}, min(c.Scanned, 4096))
	for i := 0; i < c.Scanned; i++ {
		row := i
		if rows != nil {
			row = int(rows[i])
		}
		v := d.Value(row, path)
		if v.Kind == dataset.Null {
			c.Nulls++
			continue
		}
		k := v.Key()
		if _, dup := seen[k]; dup {
			c.Duplicates++
			continue
		}
		seen[k] = struct{}{}
	}
	c.Distinct = len(seen)
	return c
}

// PoolCodes returns the import codes of the data pool project projectID
// reads (the curated pool for a guest or session project; with the
// account's own uploads for an account project) and the project's kind,
// for Table.ready: a table bound to a code outside it serves nothing.
// Whoever may read the project may ask.
func (s projectFields) PoolCodes(ctx context.Context, p model.Principal, projectID string) (map[string]bool, model.ProjectKind, error) {
	pr, err := s.readProject(ctx, p, projectID, "")
	if err != nil {
		return nil, "", err
	}
	metas, err := s.pool.Readable(pr.AccountID)
	if err != nil {
		return nil, "", err
	}
	codes := make(map[string]bool, len(metas))
	for _, m := range metas {
		codes[m.ImportCode] = true
	}
	return pr.AddGenerated(codes), pr.Kind, nil
}
