package app

import (
	"context"

	"github.com/mockgql/mockgql/actors"
	"github.com/mockgql/mockgql/model"
)

// ProjectRole returns the principal's role on a project it may read
// (Project.myRole): what the board enables. It asks the project grain, so
// a caller who may not read the project gets the same NOT_FOUND or
// FORBIDDEN as Project. The role is:
//   - on an account project, the caller's role in the owning account;
//   - OWNER for the session that holds a guest or session project (the
//     browser that made it, the assistant's session, or the board session
//     an adoption link opened): it may do all there is to do with it, and
//     no one else may open it;
//   - EDITOR for a FULL or MANAGEMENT API key of the project: it edits the
//     model, it does not manage keys or members nor delete the project
//     (the rule in service_keys.go);
//   - OWNER for the system.
func (s projectFields) ProjectRole(ctx context.Context, p model.Principal, projectID string) (model.Role, error) {
	c, a, err := s.projectAs(ctx, p, projectID)
	if err != nil {
		return "", err
	}
	o, err := c.Owner(ctx)
	if err != nil {
		return "", err
	}
	return roleOn(a, projectID, o), nil
}

// roleOn is the role of a caller with access a, whom the grain let read
// the project projectID owned by o; its cases follow the grain's
// authorize, in the same order.
func roleOn(a actors.Access, projectID string, o actors.ProjectOwner) model.Role {
	switch {
	case a.System:
		return model.RoleOwner
	case o.AccountID != "" && a.AccountID == o.AccountID:
		return a.Role
	case a.KeyProjectID != "" && a.KeyProjectID == projectID:
		return model.RoleEditor
	}
	return model.RoleOwner // the holding session of a guest or session project
}
