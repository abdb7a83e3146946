package actors

import (
	"context"
	"time"

	"github.com/mockgql/mockgql/actors/internal/pb"
	"github.com/mockgql/mockgql/model"
	"google.golang.org/protobuf/types/known/timestamppb"
)

// The typed clients of the small grains: API keys, sessions, adoption
// tokens and slugs. Each is a value naming one grain, safe for concurrent
// use; each method is one request.

// KeyClient is the typed client of the grain of one API key (by its hash).
type KeyClient struct {
	c    *Client
	hash string
}

// Key is the client of the grain of the key whose hash is hash.
func (s *Client) Key(hash string) KeyClient { return KeyClient{c: s, hash: hash} }

// Create stores k as a new key (k.Hash names its grain).
func (k KeyClient) Create(ctx context.Context, key model.APIKey) error {
	return k.c.tell(ctx, kindAPIKey, k.hash, &pb.KeyCreate{Key: &pb.APIKeyDoc{Json: encodeDoc(key)}})
}

// Get returns the key's record.
func (k KeyClient) Get(ctx context.Context) (model.APIKey, error) {
	return k.c.askKey(ctx, k.hash, &pb.KeyGet{})
}

// Revoke revokes the key and returns its record.
func (k KeyClient) Revoke(ctx context.Context) (model.APIKey, error) {
	return k.c.askKey(ctx, k.hash, &pb.KeyRevoke{})
}

// Delete deletes the key's record.
func (k KeyClient) Delete(ctx context.Context) error {
	return k.c.tell(ctx, kindAPIKey, k.hash, &pb.KeyDelete{})
}

// SessionClient is the typed client of the grain of one board or
// assistant session (by the hash of its ID).
type SessionClient struct {
	c    *Client
	hash string
}

// Session is the client of the grain of the session whose hash is hash.
func (s *Client) Session(hash string) SessionClient { return SessionClient{c: s, hash: hash} }

// ClaimProject counts a project against the session's limits until expires.
func (c SessionClient) ClaimProject(ctx context.Context, projectID string, expires time.Time) error {
	return c.c.tell(ctx, kindSession, c.hash, &pb.SessionClaimProject{ProjectId: projectID, Expires: timestamppb.New(expires)})
}

// ReleaseProject drops the session's claim on a project.
func (c SessionClient) ReleaseProject(ctx context.Context, projectID string) error {
	return c.c.tell(ctx, kindSession, c.hash, &pb.SessionReleaseProject{ProjectId: projectID})
}

// Project returns the claim of the session's session project (none: nil).
func (c SessionClient) Project(ctx context.Context) ([]SessionClaim, error) {
	return c.c.askSession(ctx, c.hash, &pb.SessionProject{})
}

// Projects returns every project claim of the session (none: nil).
func (c SessionClient) Projects(ctx context.Context) ([]SessionClaim, error) {
	return c.c.askSession(ctx, c.hash, &pb.SessionProjects{})
}

// AdoptionClient is the typed client of the grain of one adoption token
// (by its hash).
type AdoptionClient struct {
	c    *Client
	hash string
}

// Adoption is the client of the grain of the adoption token whose hash is hash.
func (s *Client) Adoption(hash string) AdoptionClient { return AdoptionClient{c: s, hash: hash} }

// Create makes the token, opening projectID until expires.
func (a AdoptionClient) Create(ctx context.Context, projectID string, expires time.Time) error {
	return a.c.tell(ctx, kindAdoption, a.hash, &pb.AdoptionCreate{ProjectId: projectID, Expires: timestamppb.New(expires)})
}

// Use spends the one-time token and returns its state.
func (a AdoptionClient) Use(ctx context.Context) (AdoptionState, error) {
	return a.c.askAdoption(ctx, a.hash, &pb.AdoptionUse{})
}

// SlugClient is the typed client of the grain of one slug.
type SlugClient struct {
	c    *Client
	slug string
}

// Slug is the client of the grain of slug.
func (s *Client) Slug(slug string) SlugClient { return SlugClient{c: s, slug: slug} }

// Claim claims the slug for projectID. A claim held by staleHolder that
// it does not use (a move that failed half-way) is taken over; "" takes
// none.
func (c SlugClient) Claim(ctx context.Context, projectID, staleHolder string) error {
	return c.c.tell(ctx, kindSlug, c.slug, &pb.SlugClaim{ProjectId: projectID, StaleHolder: staleHolder})
}

// Release frees the slug if projectID holds it.
func (c SlugClient) Release(ctx context.Context, projectID string) error {
	return c.c.tell(ctx, kindSlug, c.slug, &pb.SlugRelease{ProjectId: projectID})
}
