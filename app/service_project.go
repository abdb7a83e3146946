package app

import (
	"context"
	"strings"

	"github.com/mockgql/mockgql/actors"
	"github.com/mockgql/mockgql/ids"
	"github.com/mockgql/mockgql/model"
)

// access resolves what the principal may do: its role and plan in its account.
func (s *core) access(ctx context.Context, p model.Principal) (actors.Access, error) {
	a := actors.Access{System: p.System, BoardProjectID: p.BoardProjectID, KeyProjectID: p.KeyProjectID, KeyScope: p.KeyScope}
	if sess := s.sessionOf(p); sess != "" {
		a.SessionID = ids.HashSecret(sess) // projects keep only the hash of their session
	}
	if p.AccountID == "" {
		return a, nil
	}
	st, err := s.account(ctx, p.AccountID)
	if err != nil {
		return a, err
	}
	a.Plan = st.Account.Plan
	if p.UserID != "" {
		if m := st.Account.Member(p.UserID); m != nil {
			a.AccountID, a.Role = p.AccountID, m.Role
		}
	}
	return a, nil
}

// projectAs returns the client of projectID's grain acting for p, with
// the access it resolved for p (the grain checks p's rights with it).
func (s *core) projectAs(ctx context.Context, p model.Principal, projectID string) (actors.ProjectClient, actors.Access, error) {
	if projectID == "" {
		return actors.ProjectClient{}, actors.Access{}, model.Errorf(model.CodeNotFound, "project not found")
	}
	if err := model.CheckID("projectId", projectID); err != nil {
		return actors.ProjectClient{}, actors.Access{}, err
	}
	if p.Anonymous() && !p.System {
		return actors.ProjectClient{}, actors.Access{}, model.Errorf(model.CodeUnauthenticated, "sign in, or use an API key or a session")
	}
	a, err := s.access(ctx, p)
	if err != nil {
		return actors.ProjectClient{}, a, err
	}
	return s.grains.Project(projectID, a), a, nil
}

// project is projectAs without the access.
func (s *core) project(ctx context.Context, p model.Principal, projectID string) (actors.ProjectClient, error) {
	c, _, err := s.projectAs(ctx, p, projectID)
	return c, err
}

// edit returns the client for one model edit of the project the ID
// names. named are the (name, ID) pairs of what the edit names, checked first.
func (s *core) edit(ctx context.Context, p model.Principal, projectID string, named ...string) (actors.ProjectClient, error) {
	for i := 0; i+1 < len(named); i += 2 {
		if named[i+1] != "" {
			if err := model.CheckID(named[i], named[i+1]); err != nil {
				return actors.ProjectClient{}, err
			}
		}
	}
	return s.project(ctx, p, projectID)
}

// Projects lists the projects of the principal's account (an API key: its
// own project; a session: its guest or session project).
func (s *Management) Projects(ctx context.Context, p model.Principal) ([]*model.Project, error) {
	var ids []string
	switch {
	case p.KeyProjectID != "":
		ids = []string{p.KeyProjectID}
	case p.BoardProjectID != "" && p.UserID == "": // a board session alone; signed in, the account's projects, the adopted one among them
		ids = []string{p.BoardProjectID}
	default:
		if err := needUser(p); err != nil {
			return nil, err
		}
		st, err := s.account(ctx, p.AccountID)
		if err != nil {
			return nil, err
		}
		ids = st.Account.ProjectIDs
	}
	out := make([]*model.Project, 0, len(ids))
	for _, id := range ids {
		pr, err := s.readProject(ctx, p, id, "")
		if model.ErrorCode(err) == model.CodeNotFound {
			continue // deleted or expired meanwhile
		}
		if err != nil {
			return nil, err
		}
		out = append(out, pr)
	}
	return out, nil
}

// Project returns one project by ID or slug. The project may be shared
// with other readers: do not change it.
func (s *core) readProject(ctx context.Context, p model.Principal, id, slug string) (*model.Project, error) {
	bySlug := id == "" && slug != ""
	if bySlug {
		if !model.ValidSlug(slug) {
			return nil, model.Errorf(model.CodeNotFound, "no project has this slug (slugs have 2 to 64 of a-z, 0-9 and inner dashes)")
		}
		owner, err := s.grains.ResolveSlug(ctx, slug, true)
		if err != nil {
			if model.ErrorCode(err) == model.CodeProjectNotFound {
				return nil, model.Errorf(model.CodeNotFound, "no project has the slug %q", slug)
			}
			return nil, err
		}
		id = owner
	}
	c, err := s.project(ctx, p, id)
	if err != nil {
		return nil, err
	}
	pr, err := c.Get(ctx)
	if err == nil && bySlug && pr.Slug != slug {
		// A claim the project does not hold (a move under way, or one
		// that failed half-way) names no project.
		return nil, model.Errorf(model.CodeNotFound, "no project has the slug %q", slug)
	}
	return pr, err
}

// CreateProject creates an account project (EDITOR or higher).
func (s *Management) CreateProject(ctx context.Context, p model.Principal, name, slug string) (*model.Project, error) {
	return s.createAccountProject(ctx, p, name, slug)
}

// createAccountProject is CreateProject, which two surfaces' use cases
// run (CreateProject, CreateProjectFromSchema).
func (s *core) createAccountProject(ctx context.Context, p model.Principal, name, slug string) (*model.Project, error) {
	if err := needUser(p); err != nil {
		return nil, err
	}
	a, err := s.access(ctx, p)
	if err != nil {
		return nil, err
	}
	if !a.Role.AtLeast(model.RoleEditor) {
		return nil, model.Errorf(model.CodeForbidden, "creating projects needs role EDITOR or higher")
	}
	if err := s.projectRoom(ctx, p.AccountID); err != nil {
		return nil, err
	}
	pr := &model.Project{ID: ids.NewProjectID(), Name: name, Kind: model.KindAccount, AccountID: p.AccountID}
	if err := s.createProject(ctx, pr, slug, ""); err != nil {
		return nil, err
	}
	// The account holds the plan's project cap: a project past it, made in
	// parallel with others, is deleted again.
	if err := s.grains.Account(p.AccountID).ClaimProject(ctx, pr.ID); err != nil {
		undo, cancel := undoContext(ctx)
		defer cancel()
		s.dropProject(undo, pr)
		return nil, err
	}
	return pr, nil
}

// projectRoom refuses a new project early when the account holds its
// plan's cap already (the account grain decides; this spares the work).
func (s *core) projectRoom(ctx context.Context, accountID string) error {
	st, err := s.account(ctx, accountID)
	if err != nil {
		return err
	}
	plan := st.Account.Plan
	if limit := s.cfg.Limits.Projects[model.PlanIndex(plan)]; limit > 0 && len(st.Account.ProjectIDs) >= limit {
		return model.Errorf(model.CodeLimitReached, "the %s plan holds %d projects an account; delete one (deleteProject) or change plan", plan, limit)
	}
	return nil
}

// dropProject deletes a project the account refused (or whose claim
// failed: it may have counted anyway, so it is unclaimed too) and frees
// its slug.
func (s *core) dropProject(ctx context.Context, pr *model.Project) {
	_ = s.grains.Account(pr.AccountID).RemoveProject(ctx, pr.ID)
	_ = s.grains.Project(pr.ID, system).Delete(ctx)
	_ = s.grains.Slug(pr.Slug).Release(ctx, pr.ID)
}

// createProject claims a slug (the given one, or one derived from the name
// with a numeric suffix until free) and creates the project grain.
func (s *core) createProject(ctx context.Context, pr *model.Project, slug, session string) error {
	if err := model.CheckDisplayName("a project name", strings.TrimSpace(pr.Name)); err != nil {
		return err
	}
	if pr.Name = trimName(pr.Name); pr.Name == "" {
		return model.Errorf(model.CodeBadUserInput, "a project needs a name")
	}
	pr.CreatedAt = s.clock.Now().UTC()
	pr.Tables, pr.Relations, pr.Operations, pr.Views = []*model.Table{}, []*model.Relation{}, []*model.Operation{}, []*model.View{}
	claimed, err := s.claimSlug(ctx, pr.ID, pr.Name, slug)
	if err != nil {
		return err
	}
	pr.Slug = claimed
	return s.grains.Project(pr.ID, system).Create(ctx, pr, session)
}

func (s *core) claimSlug(ctx context.Context, projectID, name, slug string) (string, error) {
	if slug != "" {
		if !model.ValidSlug(slug) {
			return "", model.Errorf(model.CodeBadUserInput, "slug %q: use 2 to 64 of a-z, 0-9 and inner dashes", model.Truncate(slug, 64))
		}
		err := s.grains.Slug(slug).Claim(ctx, projectID, "")
		if model.ErrorCode(err) == model.CodeConflict {
			err = s.reclaimSlug(ctx, projectID, slug, err)
		}
		return slug, err
	}
	base := model.Slugify(name)
	if len(base) < 2 {
		base += "-project"
	}
	for i := 0; i < 20; i++ {
		try := base
		if i > 0 {
			try = base + "-" + strings.ToLower(ids.RandomString(4)) // slugs are lower case
		}
		err := s.grains.Slug(try).Claim(ctx, projectID, "")
		if model.ErrorCode(err) != model.CodeConflict {
			return try, err
		}
	}
	return "", model.Errorf(model.CodeConflict, "no free slug found for %q; give one", model.Truncate(name, 64))
}

// reclaimSlug claims a slug whose holder does not hold it (a move or a
// deletion that failed half-way left the claim): the slug grain lets the
// claim go only if it is older than any move takes. taken is the
// refusal to answer otherwise.
func (s *core) reclaimSlug(ctx context.Context, projectID, slug string, taken error) error {
	holder, err := s.grains.ResolveSlug(ctx, slug, true)
	if err != nil || holder == projectID {
		return taken
	}
	pr, err := s.readProject(ctx, model.Principal{System: true}, holder, "")
	switch {
	case model.ErrorCode(err) == model.CodeNotFound: // deleted or expired
	case err != nil, pr.Slug == slug:
		return taken
	}
	return s.grains.Slug(slug).Claim(ctx, projectID, holder)
}

// rename is the edit of UpdateProject: the grain moves the slug only from
// cur (compare-and-swap).
func (s *core) rename(ctx context.Context, p model.Principal, id string, name, slug *string, cur string) (*model.Project, error) {
	c, err := s.edit(ctx, p, id)
	if err != nil {
		return nil, err
	}
	return c.Rename(ctx, name, slug, cur)
}

// trimName trims spaces and cuts a name to 100 characters.
func trimName(s string) string {
	r := []rune(strings.TrimSpace(s))
	if len(r) > 100 {
		r = r[:100]
	}
	return strings.TrimSpace(string(r))
}

// UpdateProject renames a project or moves it to a new slug (the old slug
// is released only after the project answers to the new one).
func (s *Management) UpdateProject(ctx context.Context, p model.Principal, id string, name, slug *string) (*model.Project, error) {
	cur, err := s.readProject(ctx, p, id, "")
	if err != nil {
		return nil, err
	}
	if name != nil {
		if err := model.CheckDisplayName("a project name", strings.TrimSpace(*name)); err != nil {
			return nil, err
		}
		trimmed := trimName(*name)
		if trimmed == "" {
			return nil, model.Errorf(model.CodeBadUserInput, "a project needs a name")
		}
		name = &trimmed
	}
	if slug != nil && !model.ValidSlug(*slug) {
		return nil, model.Errorf(model.CodeBadUserInput, "slug %q: use 2 to 64 of a-z, 0-9 and inner dashes", model.Truncate(*slug, 64))
	}
	if slug != nil && *slug != cur.Slug {
		if _, err := s.claimSlug(ctx, id, "", *slug); err != nil {
			return nil, err
		}
	}
	// The grain moves the slug only from cur.Slug (compare-and-swap): of
	// two concurrent moves one wins, and the loser releases its claim.
	pr, err := s.rename(ctx, p, id, name, slug, cur.Slug)
	if err != nil {
		if slug != nil && *slug != cur.Slug {
			_ = s.grains.Slug(*slug).Release(ctx, id)
		}
		return nil, err
	}
	if slug != nil && *slug != cur.Slug && pr.Slug == *slug {
		_ = s.grains.Slug(cur.Slug).Release(ctx, id)
	}
	return pr, nil
}

// DeleteProject deletes a project with its overlay and releases its slug.
// An account project is deleted by an ADMIN or OWNER of its account,
// never by an API key (the rule in service_keys.go); a guest or session
// project by the session that holds it.
func (s *Management) DeleteProject(ctx context.Context, p model.Principal, id string) error {
	cur, err := s.readProject(ctx, p, id, "")
	if err != nil {
		return err
	}
	if err := s.mayDeleteProject(ctx, p, cur); err != nil {
		return err
	}
	c, err := s.project(ctx, p, id)
	if err == nil {
		err = c.Delete(ctx)
	}
	if err != nil {
		return err
	}
	_ = s.grains.Slug(cur.Slug).Release(ctx, id)
	if cur.AccountID != "" {
		_ = s.grains.Account(cur.AccountID).RemoveProject(ctx, id)
	}
	return nil
}

// CreateGuestProject creates a guest project owned by the principal's
// session, starting a session when there is none.
func (s sessionProjects) CreateGuestProject(ctx context.Context, p model.Principal, name string) (*model.Project, string, error) {
	session := s.sessionOf(p)
	if session == "" {
		session = s.newSessionID()
	}
	if name == "" {
		name = "Guest project"
	}
	pr := &model.Project{ID: ids.NewProjectID(), Name: name, Kind: model.KindGuest, ShareToken: "shr_" + ids.RandomString(24)}
	if s.cfg.GuestTTL > 0 { // deleted GuestTTL after its last use (the project grain moves it while in use)
		pr.ExpiresAt = s.clock.Now().UTC().Add(s.cfg.GuestTTL)
	}
	if err := s.createProject(ctx, pr, "guest-"+strings.ToLower(ids.RandomString(8)), ids.HashSecret(session)); err != nil {
		return nil, "", err
	}
	return pr, session, nil
}

// KeepGuestProject exempts the guest project the slug names from
// Config.GuestTTL (the node's demo project, which nobody's session owns).
func (s *core) keepGuestProject(ctx context.Context, slug string) error {
	pr, err := s.readProject(ctx, model.Principal{System: true}, "", slug)
	if err != nil {
		return err
	}
	return s.grains.Project(pr.ID, system).Keep(ctx)
}

// ResetMockData drops a project's mutations.
func (s *Management) ResetMockData(ctx context.Context, p model.Principal, projectID string) error {
	c, err := s.project(ctx, p, projectID)
	if err != nil {
		return err
	}
	return c.Reset(ctx)
}

// SDL returns the project's runtime schema.
func (s *core) schemaSDL(ctx context.Context, p model.Principal, projectID string) (string, error) {
	c, err := s.project(ctx, p, projectID)
	if err != nil {
		return "", err
	}
	return c.SDL(ctx)
}

// mayDeleteProject applies the deletion rule to an account project.
func (s *core) mayDeleteProject(ctx context.Context, p model.Principal, pr *model.Project) error {
	if pr.Kind != model.KindAccount || p.System {
		return nil
	}
	if p.KeyProjectID != "" && p.UserID == "" {
		return model.Errorf(model.CodeForbidden, "an API key cannot delete its project; an ADMIN or OWNER of the account can")
	}
	a, err := s.access(ctx, p)
	if err != nil {
		return err
	}
	if a.AccountID != pr.AccountID || !a.Role.AtLeast(model.RoleAdmin) {
		return model.Errorf(model.CodeForbidden, "deleting a project needs role ADMIN or higher")
	}
	return nil
}
