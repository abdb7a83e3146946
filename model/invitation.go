package model

import "time"

// Invitation is a pending offer of a role in an account to an e-mail
// address. It joins no one until the invitee accepts it; the inviter sees
// only the address and the state, never whether the address is registered.
type Invitation struct {
	ID        string `json:"id"`
	AccountID string `json:"accountId"`
	// AccountName and InvitedByName are what the invitee is shown: the
	// workspace and the display name (or e-mail) of who invited them.
	AccountName   string    `json:"accountName"`
	Email         string    `json:"email"`
	Role          Role      `json:"role"`
	InvitedBy     string    `json:"invitedBy"` // user ID
	InvitedByName string    `json:"invitedByName"`
	CreatedAt     time.Time `json:"createdAt"`
	ExpiresAt     time.Time `json:"expiresAt"`
	// LinkHash is the hash of the secret of the invitation's one-time link
	// ("" while none was made); the secret itself is never stored.
	LinkHash string `json:"linkHash,omitempty"`
	// LinkBy is the user ID of the member who made the link: their
	// removal kills it, and accepting by it needs them to still be able to
	// grant the role.
	LinkBy string `json:"linkBy,omitempty"`
	// Maker is the member who made (or last renewed) the invitation, as
	// the account knows them now; set only in the account's own listing
	// (ADMIN and above), never stored.
	Maker *User `json:"-"`
}

// AddressBound says whether only the address an invitation was sent to
// may accept it, by ID or by link: OWNER and ADMIN invitations, so that a
// link that leaks or is handed on cannot make anyone else an owner or an
// admin.
func (inv Invitation) AddressBound() bool {
	return inv.Role.AtLeast(RoleAdmin)
}

// InvitationPending is the state of every invitation one can list: an
// accepted, declined, revoked or expired one is gone.
const InvitationPending = "PENDING"

// Workspace is an account as one of its members sees it in their list of
// workspaces.
type Workspace struct {
	ID   string
	Name string
	Plan Plan
	Role Role
	// Current is true for the account the caller's token names.
	Current bool
}

// TokenVersion is the version of userID's session tokens for this account:
// a token that carries an older one is revoked (logout, removal, a
// password change).
func (a *Account) TokenVersion(userID string) uint64 { return a.TokenVersions[userID] }
