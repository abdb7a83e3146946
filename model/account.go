package model

import "time"

// User is a person who signs in. Users are found by e-mail; the password
// hash never leaves the grain that owns the user.
type User struct {
	ID    string `json:"id"`
	Email string `json:"email"`
	Name  string `json:"name,omitempty"`
}

// Member is a user's role in an account.
type Member struct {
	User User `json:"user"`
	Role Role `json:"role"`
}

// Account is a workspace: a plan, members and projects.
type Account struct {
	ID         string   `json:"id"`
	Name       string   `json:"name"`
	Plan       Plan     `json:"plan"`
	Members    []Member `json:"members"`
	ProjectIDs []string `json:"projectIds"`
	// TokenVersions holds, per user ID, the version of the session tokens
	// (JWTs) that name this account; it survives a member's removal, so a
	// token from before it stays refused if they are invited back.
	TokenVersions map[string]uint64 `json:"tokenVersions,omitempty"`
}

// Member returns the membership of the user with the given ID, or nil.
func (a *Account) Member(userID string) *Member {
	for i := range a.Members {
		if a.Members[i].User.ID == userID {
			return &a.Members[i]
		}
	}
	return nil
}

// Usage is an account's request count against its plan quota in the current period.
type Usage struct {
	Requests int64     `json:"requests"`
	Quota    int64     `json:"quota"` // 0 = unlimited
	Period   string    `json:"period"`
	ResetsAt time.Time `json:"resetsAt"`
	// Plan caps beside the quota: what the account holds and its plan's
	// limit (0 = no limit).
	Projects, ProjectLimit   int
	Datasets, DatasetLimit   int
	DatasetBytes, BytesLimit int64
	KeysPerProjectLimit      int
}

// APIKey is the stored record of a key; the secret itself is never stored,
// only its hash (which is the key grain's identity).
type APIKey struct {
	ID         string    `json:"id"`
	Name       string    `json:"name"`
	ProjectID  string    `json:"projectId"`
	AccountID  string    `json:"accountId"`
	Scope      Scope     `json:"scope"`
	Prefix     string    `json:"prefix"`
	ExpiresAt  time.Time `json:"expiresAt,omitzero"`
	Revoked    bool      `json:"revoked"`
	Deleted    bool      `json:"deleted,omitempty"`
	MaxActors  int       `json:"maxActors"`
	CreatedAt  time.Time `json:"createdAt"`
	LastUsedAt time.Time `json:"lastUsedAt,omitzero"`
	Hash       string    `json:"hash"`
	// CreatedBy is the member who made the key (their ID, e-mail and name
	// as they were then); empty for keys made before it was kept.
	CreatedBy *User `json:"createdBy,omitempty"`
	// ActiveActors is the number of actor slots in use when the key was
	// read (the key's grain fills it; it is never stored).
	ActiveActors int `json:"activeActors,omitempty"`
}

// Expired reports whether k has an expiry date that is not after now.
func (k *APIKey) Expired(now time.Time) bool {
	return !k.ExpiresAt.IsZero() && !now.Before(k.ExpiresAt)
}

// Limits are the plan and session limits of docs/reference/bounds.md; every one is a setting.
type Limits struct {
	StarterQuota, ProfessionalQuota, TeamQuota int64
	StarterTables, ProfessionalTables          int
	TeamTables                                 int
	// Guest and session projects (20 tables, 30 attributes a table by default).
	SessionTables, SessionAttributes int
	// SessionProjects is how many live session projects a session may hold (1 by default).
	SessionProjects int
	// Datasets and DatasetBytes bound what an account of each plan may
	// upload to its own part of the data pool (index: PlanIndex); 0 is no
	// limit.
	Datasets     [4]int
	DatasetBytes [4]int64
	// Projects is how many projects an account of each plan may hold, and
	// KeysPerProject how many API keys (revoked ones included, deleted
	// ones not) one of its projects may hold (index: PlanIndex); 0 is no
	// limit.
	Projects       [4]int
	KeysPerProject [4]int
	// Sandboxes is how many sandboxes (sandbox.go) one project of an
	// account of each plan may hold at once (index: PlanIndex); a guest or
	// session project holds as many as a STARTER one. 0 is no limit.
	Sandboxes [4]int
	// States is how many named states (mockstate.go) one project of an
	// account of each plan may hold; a guest or session project as many
	// as a STARTER one. 0 is no limit.
	States [4]int
	// Model bounds the size of every project's model (modelsize.go).
	Model ModelLimits
}

// PlanIndex orders the plans: STARTER 0, PROFESSIONAL 1, TEAM 2, ENTERPRISE 3.
func PlanIndex(p Plan) int {
	switch p {
	case PlanStarter:
		return 0
	case PlanProfessional:
		return 1
	case PlanTeam:
		return 2
	}
	return 3
}

// DefaultLimits returns the defaults of docs/reference/bounds.md.
func DefaultLimits() Limits {
	return Limits{
		StarterQuota: 1000, ProfessionalQuota: 100000, TeamQuota: 1000000,
		StarterTables: 5, ProfessionalTables: 50, TeamTables: 500,
		SessionTables: 20, SessionAttributes: 30, SessionProjects: 1,
		Datasets:     [4]int{10, 50, 200, 0},
		DatasetBytes: [4]int64{100 << 20, 1 << 30, 10 << 30, 0},
		Projects:     [4]int{10, 100, 1000, 10000},
		// STARTER has no keys (KeysAllowed); its cap matters after a downgrade.
		KeysPerProject: [4]int{50, 50, 200, 1000},
		Sandboxes:      [4]int{20, 100, 1000, 1000},
		States:         [4]int{10, 50, 200, 200},
		Model:          DefaultModelLimits(),
	}
}

// TableLimit is the number of tables a project of an account on plan p may hold.
func (l Limits) TableLimit(p Plan) int {
	switch p {
	case PlanStarter:
		return l.StarterTables
	case PlanProfessional:
		return l.ProfessionalTables
	default:
		return l.TeamTables
	}
}

// Quota is the request quota of plan p for its period; 0 means unlimited.
func (l Limits) Quota(p Plan) int64 {
	switch p {
	case PlanStarter:
		return l.StarterQuota
	case PlanProfessional:
		return l.ProfessionalQuota
	case PlanTeam:
		return l.TeamQuota
	default:
		return 0
	}
}

// KeysAllowed reports whether accounts on plan p may create API keys.
func KeysAllowed(p Plan) bool { return p.Rank() >= PlanProfessional.Rank() }
