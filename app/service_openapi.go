package app

import (
	"context"
	"encoding/base64"
	"strings"

	"github.com/mockgql/mockgql/model"
	"github.com/mockgql/mockgql/model/codegen"
	"github.com/mockgql/mockgql/openapi"
)

// OpenAPI import and export and code packages (docs/using/
// import-export.md). Reading and writing documents is pure (openapi,
// model/codegen); the project grain only reads the model or, for an
// import, adds the tables in one edit.

// ExportOpenAPI returns the project's model as an OpenAPI 3.1 document,
// format json or yaml (VIEWER and above).
func (s *Management) ExportOpenAPI(ctx context.Context, p model.Principal, projectID, format string) (string, error) {
	pr, err := s.readProject(ctx, p, projectID, "")
	if err != nil {
		return "", err
	}
	b, err := openapi.Export(pr, format, "")
	return string(b), err
}

// ImportOpenAPI reads an OpenAPI or Swagger document and adds an unbound
// table for each selected schema (EDITOR and above). The tables are added
// in one model edit, so the plan's table limit refuses the whole import
// and a refusal of any table leaves the project as it was.
func (s *Management) ImportOpenAPI(ctx context.Context, p model.Principal, projectID, document string, schemas []string) ([]*model.Table, error) {
	// The right to edit comes before the document: a caller who may not
	// import is told so, not what is wrong with the document. The project
	// grain checks again when it applies the import.
	pr, err := s.readProject(ctx, p, projectID, "")
	if err != nil {
		return nil, err
	}
	if err := s.mayEdit(ctx, p, pr); err != nil {
		return nil, err
	}
	imported, err := openapi.Import([]byte(document), schemas, openapi.ImportOptions{})
	if err != nil {
		return nil, err
	}
	tables := make([]*model.Table, 0, len(imported))
	for _, it := range imported {
		t := &model.Table{Name: it.Name, Attributes: make([]*model.Attribute, 0, len(it.Attributes))}
		for i := range it.Attributes {
			t.Attributes = append(t.Attributes, &it.Attributes[i])
		}
		tables = append(tables, t)
	}
	c, err := s.edit(ctx, p, projectID)
	if err != nil {
		return nil, err
	}
	return c.ImportTables(ctx, tables)
}

// ExportCodePackage generates the project's backend in language (only
// "go" so far) and returns the zip in base64; a contract project, which
// has no operations, is BAD_USER_INPUT. It needs the PROFESSIONAL
// plan or above and role EDITOR or above (FORBIDDEN otherwise).
func (s *Management) ExportCodePackage(ctx context.Context, p model.Principal, projectID, language string) (string, error) {
	pr, err := s.readProject(ctx, p, projectID, "")
	if err != nil {
		return "", err
	}
	if err := s.mayExportCode(ctx, p, pr); err != nil {
		return "", err
	}
	if pr.Contract != nil {
		return "", model.Errorf(model.CodeBadUserInput, "code packages are generated from a table project's operations; this project serves an imported GraphQL schema, which has none (exportOpenApi still describes its tables)")
	}
	if !strings.EqualFold(strings.TrimSpace(language), "go") {
		return "", model.Errorf(model.CodeBadUserInput, "language %q: code packages are generated in go", language)
	}
	zip, err := codegen.GoPackage(pr, "example.com/"+pr.Slug)
	if err != nil {
		return "", err
	}
	return base64.StdEncoding.EncodeToString(zip), nil
}

// mayExportCode checks the role of the caller (a member needs EDITOR or
// above; a FULL or MANAGEMENT key of the project acts for its account) and
// the plan of the project's account (PROFESSIONAL or above; guest and
// session projects have none).
func (s *core) mayExportCode(ctx context.Context, p model.Principal, pr *model.Project) error {
	if p.System {
		return nil
	}
	a, err := s.access(ctx, p)
	if err != nil {
		return err
	}
	member := pr.AccountID != "" && a.AccountID == pr.AccountID
	if member && !a.Role.AtLeast(model.RoleEditor) {
		return model.Errorf(model.CodeForbidden, "code packages need role EDITOR or higher; you are %s", a.Role)
	}
	if pr.AccountID == "" {
		return model.Errorf(model.CodeForbidden, "code packages need an account on the PROFESSIONAL plan or above; this is a %s project", pr.Kind)
	}
	plan := a.Plan
	if !member {
		st, err := s.account(ctx, pr.AccountID)
		if err != nil {
			return err
		}
		plan = st.Account.Plan
	}
	if plan.Rank() < model.PlanProfessional.Rank() {
		return model.Errorf(model.CodeForbidden, "code packages need the PROFESSIONAL plan or above; this account is on %s", plan)
	}
	return nil
}
